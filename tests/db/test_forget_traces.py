"""What /forget-me finds of a member beside their results (db.records.traces): one
query, the same answers on SQLite and PostgreSQL, and exactly the games forgetting
scrubs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db import records
from db.records import Traces
from db.rows import NewGame, RatedSeat, ResultRow
from db.store import Store
from tests.support import Clock

MEMBER = 271828182845904523
#: Another member, one id along: none of their rows is the member's.
NEAR = MEMBER + 1
NOTHING = Traces(rated=False, chose=False, finished=False, playing=False)


async def _game(store: Any, channel: int, *, seats: list[dict[str, Any]] | None = None,
                starter: int = 7, status: str = "active", extra: dict[str, Any] | None = None,
                actor: int | None = None, end: str | None = None) -> int:
    game = await store.create_game(NewGame(
        guild_id=1, channel_id=channel, kind="toy", status=status, starter_id=starter,
        seats=seats or [{"user_id": 7, "name": "Seven"}], options={}, only_starter=False,
        state=None if status == "lobby" else {"count": 0}, events=["Opened."], extra=extra))
    if actor is not None or end is not None:
        game.version = 1
        if end is not None:
            game.status = end
        await store.save_game(game, 0, action={"x": 1}, actor_id=actor)
    return int(game.id)


async def test_each_trace_is_found_and_forgetting_leaves_none(tmp_path: Path) -> None:
    """Each way a member is held, alone: the flag it sets, and after forgetting (but in
    games still open) nothing is found any more."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        assert await records.traces(store, MEMBER) == NOTHING
        await _game(store, 1, seats=[{"user_id": NEAR, "name": "Near"}], starter=NEAR,
                    extra={"players": {str(NEAR): "Near"}}, actor=NEAR, end="over")
        await store.set_turn_pings(NEAR, True)
        assert await records.traces(store, MEMBER) == NOTHING

        cases: list[tuple[str, dict[str, Any]]] = [
            ("seat", {"seats": [{"user_id": MEMBER, "name": "Zed"}]}),
            ("starter", {"starter": MEMBER}),
            ("table data", {"extra": {"players": {str(MEMBER): "Zed"}}}),
            ("action log", {"actor": MEMBER}),
        ]
        for channel, (what, how) in enumerate(cases, start=10):
            game = await _game(store, channel, **how)
            assert await records.traces(store, MEMBER) == Traces(
                rated=False, chose=False, finished=False, playing=True), what
            row = await store.get_game(game)
            assert row is not None
            row.status, row.version = "abandoned", row.version + 1
            await store.save_game(row, row.version - 1)
            assert await records.traces(store, MEMBER) == Traces(
                rated=False, chose=False, finished=True, playing=False), what
            await store.forget_player(MEMBER)
            assert await records.traces(store, MEMBER) == NOTHING, what
    finally:
        await store.close()


async def test_ratings_ping_choice_and_ballots(tmp_path: Path) -> None:
    """A rating, the ping choice and a ballot in a finished game are found; forgetting
    deletes them all."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        game = await store.create_game(NewGame(
            guild_id=1, channel_id=1, kind="toy", status="active", starter_id=7,
            seats=[{"user_id": 7, "name": "Seven"}, {"user_id": 8, "name": "Eight"}],
            options={}, only_starter=False, state={"count": 0}, events=[]))
        game.status, game.version = "over", 1
        await store.save_game(game, 0, results=[ResultRow(7, "win", 1, {})],
                              ratings=[RatedSeat(1, 7), RatedSeat(2, MEMBER)])
        await store.set_turn_pings(MEMBER, False)
        assert await records.traces(store, MEMBER) == Traces(
            rated=True, chose=True, finished=False, playing=False)
        await _add_ballot(store, game.id)
        assert await records.traces(store, MEMBER) == Traces(
            rated=True, chose=True, finished=True, playing=False)
        await store.forget_player(MEMBER)
        assert await records.traces(store, MEMBER) == NOTHING
    finally:
        await store.close()


async def _add_ballot(store: Any, game_id: int) -> None:
    """Write a voters row of the member's in the game (as a channel game's ballot)."""
    await store.connection.execute(
        "INSERT INTO voters (game_id, user_id, name, seq) VALUES (?, ?, ?, 0)",
        (game_id, MEMBER, "Zed"))
