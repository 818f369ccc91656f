"""The store under faults and at scale: the open-game cap under creates at once, the
deadline index, a deleted WAL, /forget-me leaving nothing behind, pruning in steps."""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

import pytest

from db.errors import StorageError, TooManyOpen
from db.rows import GameRow, NewGame, RatedSeat, ResultRow
from db.store import Store
from tests.support import Clock, table_names

MEMBER = 271828182845904523
NAME = "Zephyrine"
OTHER = 314159265358979323


async def _create(store: Any, channel: int, *, starter: int = 7, cap: int | None = None,
                  seats: list[dict[str, Any]] | None = None, **fields: Any) -> GameRow:
    return await store.create_game(NewGame(
        guild_id=1, channel_id=channel, kind="toy", status="active", starter_id=starter,
        seats=seats or [{"user_id": starter, "name": "P"}], options=fields.pop("options", {}),
        only_starter=False, state=fields.pop("state", {"count": 0}), events=[],
        **fields,
    ), max_open=cap)


async def test_creates_at_once_never_pass_the_cap(tmp_path: Path, backend: str) -> None:
    """Twenty creates at once, each in its own channel, against a cap of 5: exactly five
    games open, the fifteen others are refused as TooManyOpen."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        outcomes = await asyncio.gather(*(_create(store, 100 + n, cap=5) for n in range(20)),
                                        return_exceptions=True)
        opened = [o for o in outcomes if isinstance(o, GameRow)]
        refused = [o for o in outcomes if isinstance(o, TooManyOpen)]
        assert (len(opened), len(refused)) == (5, 15), outcomes
        assert await store.count_open() == 5
        await _create(store, 200, starter=8, cap=5)  # another starter has a cap of their own
        await _create(store, 201, cap=None)  # no cap asked: no count
        assert await store.count_open() == 7
    finally:
        await store.close()


async def test_the_cap_counts_only_open_games(tmp_path: Path, backend: str) -> None:
    """A finished game frees its place under the cap."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        first = await _create(store, 1, cap=1)
        with pytest.raises(TooManyOpen):
            await _create(store, 2, cap=1)
        first.status, first.version = "over", 1
        await store.save_game(first, 0)
        assert (await _create(store, 2, cap=1)).channel_id == 2
    finally:
        await store.close()


@pytest.mark.sqlite_only
async def test_the_deadline_look_reads_the_open_deadline_index(tmp_path: Path) -> None:
    """Both deadline queries search the partial index of open games' deadlines (no scan
    of the open games, no sort)."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        plans = []
        for sql in ("SELECT min(deadline) FROM games INDEXED BY games_open_by_deadline"
                    " WHERE deadline IS NOT NULL AND status IN ('lobby', 'active') AND 1 = 1",
                    "SELECT id, deadline FROM games INDEXED BY games_open_by_deadline"
                    " WHERE deadline IS NOT NULL AND deadline <= 5"
                    " AND status IN ('lobby', 'active') AND 1 = 1 ORDER BY deadline LIMIT 9"):
            plans.append([r[3] for r in await store.connection.execute_fetchall(
                "EXPLAIN QUERY PLAN " + sql)])
        for plan in plans:
            assert len(plan) == 1 and "USING INDEX games_open_by_deadline" in plan[0], plan
        game = await _create(store, 1)
        game.deadline, game.version = 50.0, 1
        await store.save_game(game, 0)
        assert await store.next_deadline() == 50.0
        assert await store.due_games(60.0) == [(game.id, 50.0)]
    finally:
        await store.close()


@pytest.mark.sqlite_only
@pytest.mark.error_logs_expected
@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
async def test_a_deleted_wal_file_stops_every_write(tmp_path: Path, suffix: str,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    """``rm bot.db-wal`` (or -shm) while the bot runs: the next save is refused and a
    CRITICAL line says why, instead of being acknowledged into a file that is gone."""
    path = tmp_path / "bot.db"
    store = await Store.open(path, Clock())
    try:
        assert store.watched_files == [str(path), f"{path}-wal", f"{path}-shm"]
        game = await _create(store, 1)
        os.unlink(f"{path}{suffix}")
        game.version = 1
        with caplog.at_level(logging.CRITICAL, logger="db.sqlite_file"):
            with pytest.raises(StorageError, match="deleted"):
                await store.save_game(game, 0)
            with pytest.raises(StorageError):
                await store.set_meta("k", "v")
        critical = [r for r in caplog.records if r.levelno == logging.CRITICAL]
        assert len(critical) == 1 and suffix in critical[0].getMessage()
        assert "deleted" in (await store.health_problem() or "")
    finally:
        await store.close()


@pytest.mark.sqlite_only
@pytest.mark.error_logs_expected
async def test_a_wal_deleted_during_a_write_is_not_acknowledged(tmp_path: Path) -> None:
    """The WAL deleted while a batch is on the writing thread (after its first check):
    the batch commits into the lost file, so its callers get StorageError, not success."""
    path = tmp_path / "bot.db"
    store = await Store.open(path, Clock())
    try:
        game = await _create(store, 1)
        game.version = 1
        real = store._writes._check  # type: ignore[attr-defined]
        calls = []

        def check() -> None:  # the second check (after COMMIT) finds the WAL gone
            calls.append(1)
            if len(calls) == 2:
                os.unlink(f"{path}-wal")
            real()

        store._writes._check = check  # type: ignore[attr-defined]
        with pytest.raises(StorageError):
            await store.save_game(game, 0)
        assert len(calls) == 2
    finally:
        await store.close()


async def _every_value(store: Any) -> list[tuple[str, str, str]]:
    """Return (table, column, text) of every value of every row of every table."""
    tables = await table_names(store)
    found = []
    for table in tables:
        if store.backend == "sqlite":
            columns = [r[1] for r in await store.query(f"PRAGMA table_info({table})")]
        else:
            columns = [r[0] for r in await store.query(
                "SELECT column_name FROM information_schema.columns"
                " WHERE table_name = :t ORDER BY ordinal_position", {"t": table})]
        for row in await store.query(f"SELECT * FROM {table}"):
            found += [(table, c, str(v)) for c, v in zip(columns, row, strict=True)]
    return found


async def test_forgetting_leaves_nothing_of_the_member_anywhere(tmp_path: Path,
                                                                backend: str) -> None:
    """A finished game whose engine kept the member's name in its state (as Steam to
    Solar does: in a seat's ``name`` field, the only place an engine keeps a person's
    name) and their id, options, events, table data, action log, the other player's
    result and both players' ratings:
    after /forget-me no column of any row holds their name or their id, and the other
    player's part of the game is untouched."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        seats = [{"user_id": MEMBER, "name": NAME}, {"user_id": OTHER, "name": "Bob"}]
        game = await _create(
            store, 1, starter=MEMBER, seats=seats, options={"names": [NAME, "Bob"]},
            state={"players": [{"name": NAME, "score": 3}, {"name": "Bob", "score": 5}],
                   "owner": MEMBER, "by_id": {str(MEMBER): 1}, "to": f"<@{MEMBER}>"},
            extra={"players": {str(MEMBER): NAME, str(OTHER): "Bob"}, "host": MEMBER,
                   "last": f"<@{MEMBER}> passed."},
        )
        game.status, game.version = "over", 1
        game.events = [f"{NAME} passes.", "Bob wins."]
        await store.save_game(
            game, 0, action={"id": "pass", "by": NAME}, actor_id=MEMBER,
            results=[ResultRow(MEMBER, "loss", 3, {"against": ["Bob"]}),
                     ResultRow(OTHER, "win", 5, {"against": [NAME], "beat": MEMBER})],
            ratings=[RatedSeat(2, MEMBER), RatedSeat(1, OTHER)])
        await store.set_turn_pings(MEMBER, False)
        await store.set_turn_pings(OTHER, False)
        before = await _every_value(store)
        assert any(t == "ratings" and str(MEMBER) in v for t, _, v in before)
        assert any(NAME in v for *_, v in before) and any(str(MEMBER) in v for *_, v in before)
        assert ("member_settings", "user_id", str(MEMBER)) in before

        assert await store.forget_player(MEMBER, "a former player") == 1

        left = [(t, c, v) for t, c, v in await _every_value(store)
                if NAME in v or str(MEMBER) in v]
        assert left == []
        after = await store.get_game(game.id)
        assert after is not None and after.state is not None
        assert after.state["players"][1] == {"name": "Bob", "score": 5}
        assert after.state["players"][0]["name"] == "a former player"
        assert after.seats[1] == {"user_id": OTHER, "name": "Bob"}
        assert [r["user_id"] for r in await store.results()] == [OTHER]
        assert await store.turn_pings(MEMBER) is None
        assert await store.turn_pings(OTHER) is False  # another member's choice stays
        assert [r[0] for r in await store.query("SELECT user_id FROM ratings")] == [OTHER]
    finally:
        await store.close()


async def test_pruning_goes_a_few_games_per_transaction(tmp_path: Path, backend: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifty finished games with long logs: pruning empties all of them, but never more
    than PRUNE_STEP (10) games in one transaction; results stay."""
    import db.postgres
    import db.store

    steps: list[int] = []
    sqlite_prune, pg_prune = db.store.prune_sqlite, db.postgres.PostgresStore._prune

    def sqlite_step(conn: Any, before: float, limit: int) -> int:
        steps.append(sqlite_prune(conn, before, limit))
        return steps[-1]

    async def pg_step(self: Any, before: float, limit: int) -> int:
        steps.append(await pg_prune(self, before, limit))
        return steps[-1]

    monkeypatch.setattr(db.store, "prune_sqlite", sqlite_step)
    monkeypatch.setattr(db.postgres.PostgresStore, "_prune", pg_step)
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        for n in range(50):
            game = await _create(store, n)
            for seq in range(1, 31):
                game.version = seq
                if seq == 30:
                    game.status = "over"
                await store.save_game(game, seq - 1, action={"n": seq}, actor_id=7,
                                      results=[ResultRow(7, "win", 1, {})] if seq == 30 else ())
        assert await store.prune_finished(clock() + 1, limit=45) == 45
        assert steps == [10, 10, 10, 10, 5]
        assert await store.prune_finished(clock() + 1) == 5
        assert await store.prune_finished(clock() + 1) == 0
        assert steps == [10, 10, 10, 10, 5, 5, 0]
        assert (await store.count_rows())["actions"] == 0
        assert len(await store.results()) == 50
    finally:
        await store.close()


async def test_idle_batches_page_by_id_and_read_only_when_asked(tmp_path: Path,
                                                                backend: str) -> None:
    """250 idle games in batches of 100: three batches, ascending and disjoint; each is
    read only when the caller asks for it, so a game ended meanwhile is not found."""
    from db.sweep import idle_batches

    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        ids = [(await _create(store, n)).id for n in range(250)]
        clock.advance(10)
        cutoffs = dict.fromkeys(("lobby", "solo", "multi"), clock() - 5)
        seen: list[list[int]] = []
        async for batch in idle_batches(store, cutoffs, size=100):
            seen.append(batch)
            if len(seen) == 1:  # the caller ends the first game of the next batch now
                game = await store.get_game(ids[100])
                assert game is not None
                game.status, game.version = "expired", 1
                await store.save_game(game, 0)
        assert [len(b) for b in seen] == [100, 100, 49]
        flat = [i for b in seen for i in b]
        assert flat == sorted(flat) and ids[100] not in flat and len(set(flat)) == 249
    finally:
        await store.close()
