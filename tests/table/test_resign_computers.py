"""A person who resigns against computer players is recorded and rated as losing, with
one computer or several (S10: a resigned player scores nothing and ranks last), and the
game replays. Runs on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from bot.table.lobby import LOBBY_COMPUTER, LOBBY_START
from bot.table.replay import load_request, rebuild
from tests.support import ALICE, open_tables


@pytest.mark.parametrize("computers", [1, 2, 4])
async def test_s10_resigning_against_computers_is_a_recorded_loss(tmp_path, backend,
                                                                  computers) -> None:
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=5, host=ALICE)
        version = 0
        for _ in range(computers):
            version = (await tables.act(game.id, version, ALICE, LOBBY_COMPUTER)).game.row.version
        version = (await tables.act(game.id, version, ALICE, LOBBY_START)).game.row.version
        play = await tables.act(game.id, version, ALICE, "resign")
        assert play.game.row.status == "over"
        assert [r["outcome"] for r in await tables.store.results()] == ["loss"]
        ratings = await tables.store.query("SELECT user_id, games FROM ratings")
        assert [tuple(r) for r in ratings] == [(ALICE.user_id, 1)]
        states = rebuild(await load_request(tables.store, game.id))
        assert states[-1].over and states[-1].players[0].resigned
