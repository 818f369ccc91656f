"""A computer player chooses its move in the computer players' own threads, never in
asyncio's default ones (where aiohttp looks up Discord's address)."""

from __future__ import annotations

import threading

from bot.table.lobby import LOBBY_COMPUTER, LOBBY_START
from tests.support import ALICE, open_tables


async def test_a_computer_chooses_in_its_own_threads(tmp_path, monkeypatch):
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=5, host=ALICE)
        v = (await tables.act(game.id, game.row.version, ALICE, LOBBY_COMPUTER)
             ).game.row.version
        await tables.act(game.id, v, ALICE, LOBBY_START)
        game = await tables.load(game.id)
        while not game.computer_to_act():  # Alice plays her turn as a computer would
            move = game.engine.computer_action(game.state, 0)
            game = (await tables.act(game.id, game.row.version, ALICE, move)).game
        engine = type(game.engine)
        chosen_in: list[str] = []
        choose = engine.computer_action

        def noted(self, state, seat):
            chosen_in.append(threading.current_thread().name)
            return choose(self, state, seat)

        monkeypatch.setattr(engine, "computer_action", noted)
        play = await tables.computer_move(game.id)
        assert play is not None and play.game.row.version > game.row.version
        assert chosen_in and all(name.startswith("computer-player") for name in chosen_in)
