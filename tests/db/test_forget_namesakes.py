"""/forget-me of a member who played a game under the same name as another player of
it: the name is the other player's too, so their seat and lines stay theirs; the
member's id goes from every row as always. Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from bot.table.service import Actor, LoadedGame, Tables
from tests.support import BOB, open_tables, table_names

#: Another member whose display name is also Bob.
NAMESAKE = Actor(271828182845904523, "Bob")


async def _played_by_both(tables: Tables) -> LoadedGame:
    """Bob starts a fast Tinker game; the other Bob makes its first move, Bob the rest;
    return the ended game."""
    game = await tables.start("tinker", guild_id=1, channel_id=6, starter=BOB, mode="fast")
    first = True
    while game.row.is_open:
        actor, first = (NAMESAKE if first else BOB), False
        game = (await tables.act(game.id, game.row.version, actor,
                                 game.engine.computer_action(game.state, 0))).game
    return game


async def test_a_namesakes_forget_me_leaves_the_other_bob_his_seat_and_lines(
        tmp_path: Path) -> None:
    """Bob starts a fast Tinker game; the other Bob makes its first move, Bob the rest.
    When the other Bob forgets himself, Bob's seat and his lines still say "Bob", and
    the other Bob's id is nowhere."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _played_by_both(tables)
        await tables.store.forget_player(NAMESAKE.user_id)
        after = await tables.load(game.id)
        assert after.row.seats[0] == {**after.row.seats[0], "user_id": BOB.user_id,
                                      "name": "Bob"}
        assert not any("a former player" in event for event in after.row.events)
        left = [(table, value) for table in await table_names(tables.store)
                for row in await tables.store.query(f"SELECT * FROM {table}")
                for value in row if str(NAMESAKE.user_id) in json.dumps(value, default=str)]
        assert left == []


async def test_when_both_namesakes_forget_themselves_the_name_goes(tmp_path: Path) -> None:
    """Bob forgets himself first (his seat's name stays: the other Bob had it too), then
    the other Bob: nobody's record holds "Bob" any more, so it goes everywhere."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await _played_by_both(tables)
        await tables.store.forget_player(BOB.user_id)
        assert (await tables.load(game.id)).row.seats[0]["name"] == "Bob"
        await tables.store.forget_player(NAMESAKE.user_id)
        after = await tables.load(game.id)
        assert "Bob" not in json.dumps([after.row.seats, after.row.events])
