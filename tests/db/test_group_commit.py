"""Group commit on SQLite (db.sqlite_batch): writes queued meanwhile share one transaction,
and each one still succeeds or fails on its own.

Every SQLite write goes through the queue, on the store's writing thread.
"""

from __future__ import annotations

import asyncio
import copy
import sqlite3
from pathlib import Path

import asyncpg
import pytest

from bot.table.service import Tables
from db.errors import StorageError, VersionConflict
from db.pg_batch import SaveQueue
from db.postgres import PostgresStore
from db.store import Store
from tests.support import ALICE, BOB, Clock, logged_actions, open_tables, stored_versions

pytestmark = pytest.mark.sqlite_only  # group commit is SQLite's writing thread

GAMES = 30


async def _started(tables: Tables, count: int = GAMES) -> list[int]:
    """Start ``count`` toy games, one per channel; return their ids."""
    return [(await tables.start("toy", guild_id=1, channel_id=800 + n, starter=ALICE,
                                mode="fast")).id for n in range(count)]




async def test_clicks_at_once_share_transactions_and_all_land(tmp_path: Path) -> None:
    """Thirty moves at once: every one is stored and logged, in fewer transactions."""
    async with open_tables(tmp_path / "g.db") as tables:
        ids = await _started(tables)
        queue = tables.store._writes  # type: ignore[attr-defined]
        batches, writes = queue.batches, queue.writes
        plays = await asyncio.gather(*(tables.act(g, 0, BOB, "add1") for g in ids))
        assert [p.game.row.version for p in plays] == [1] * GAMES
        assert queue.writes - writes == GAMES
        assert queue.batches - batches < GAMES  # some writes shared a transaction
        assert stored_versions(tmp_path / "g.db") == dict.fromkeys(ids, 1)
        assert logged_actions(tmp_path / "g.db") == GAMES


async def test_a_conflict_fails_only_its_own_write(tmp_path: Path) -> None:
    """In a shared transaction, a save that lost its compare-and-swap is undone alone."""
    path = tmp_path / "g.db"
    async with open_tables(path) as tables:
        ids = await _started(tables, 5)
        store = tables.store
        rows = [await store.get_game(g) for g in ids]
        saves = []
        for index, row in enumerate(rows):
            assert row is not None
            row.version = 1
            expected = 7 if index == 2 else 0  # the middle one is out of date
            saves.append(store.save_game(row, expected, action={"id": "add1"}, actor_id=2))
        outcomes = await asyncio.gather(*saves, return_exceptions=True)
        assert isinstance(outcomes[2], VersionConflict)
        assert [o for i, o in enumerate(outcomes) if i != 2] == [None] * 4
        assert stored_versions(path) == {g: (0 if i == 2 else 1) for i, g in enumerate(ids)}
        assert logged_actions(path) == 4  # the failed save's log entry went with it
        assert store.kept_game(ids[2]) is None  # nothing kept of a save that failed


async def test_an_error_in_one_write_spares_the_others(tmp_path: Path) -> None:
    """A write whose SQL fails inside a batch: its caller gets a StorageError, the others
    commit."""
    async with open_tables(tmp_path / "g.db") as tables:
        ids = await _started(tables, 3)
        store = tables.store

        def broken(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE no_such_table SET x = 1")

        rows = [await store.get_game(g) for g in ids]
        for row in rows:
            assert row is not None
            row.version = 1
        outcomes = await asyncio.gather(
            store.save_game(rows[0], 0), store._in_transaction(broken),  # type: ignore[attr-defined]
            store.save_game(rows[1], 0), store.save_game(rows[2], 0),
            return_exceptions=True,
        )
        assert isinstance(outcomes[1], StorageError) and "no_such_table" in str(outcomes[1])
        assert outcomes[0] is None and outcomes[2] is None and outcomes[3] is None
        assert stored_versions(tmp_path / "g.db") == dict.fromkeys(ids, 1)


@pytest.mark.error_logs_expected
async def test_a_vanished_file_fails_every_queued_write(tmp_path: Path) -> None:
    """The database file deleted under the bot: every queued save fails, none is kept."""
    path = tmp_path / "g.db"
    async with open_tables(path) as tables:
        ids = await _started(tables, 4)
        store = tables.store
        rows = [copy.copy(await store.get_game(g)) for g in ids]
        path.unlink()
        for row in rows:
            assert row is not None
            row.version = 1
        outcomes = await asyncio.gather(*(store.save_game(r, 0) for r in rows if r),
                                        return_exceptions=True)
        assert all(isinstance(o, StorageError) for o in outcomes), outcomes
        assert all(store.kept_game(g) is None for g in ids)


async def test_a_locked_database_fails_the_batch_cleanly(tmp_path: Path) -> None:
    """Another connection holds the write lock past the wait: BEGIN fails, every write of
    the batch fails with StorageError, and the next batch works once the lock is gone."""
    path = tmp_path / "g.db"
    async with open_tables(path) as tables:
        ids = await _started(tables, 3)
        store = tables.store
        await store.writer.run(  # type: ignore[attr-defined]
            lambda conn: conn.execute("PRAGMA busy_timeout = 20"))
        rows = [await store.get_game(g) for g in ids]
        for row in rows:
            assert row is not None
            row.version = 1
        other = sqlite3.connect(path)
        other.execute("BEGIN IMMEDIATE")
        outcomes = await asyncio.gather(*(store.save_game(r, 0) for r in rows if r),
                                        return_exceptions=True)
        other.execute("ROLLBACK")
        other.close()
        assert all(isinstance(o, StorageError) for o in outcomes), outcomes
        play = await tables.act(ids[0], 0, BOB, "add1")
        assert play.game.row.version == 1


async def test_a_cancelled_caller_still_gets_its_writestored_versions(tmp_path: Path) -> None:
    """A caller gone while its write waits in the queue (a handler cancelled): the write
    is stored all the same and the others are answered."""
    path = tmp_path / "g.db"
    clock = Clock()
    store = await Store.open(path, clock)
    try:
        tables = Tables(store, clock=clock)
        ids = await _started(tables, 3)
        rows = [await store.get_game(g) for g in ids]
        for row in rows:
            assert row is not None
            row.version = 1
        tasks = [asyncio.ensure_future(store.save_game(r, 0)) for r in rows if r]
        await asyncio.sleep(0)  # every save is queued
        tasks[1].cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert isinstance(results[1], asyncio.CancelledError)
        assert results[0] is None and results[2] is None
        assert rows[0] is not None
        rows[0].version = 2
        await store.save_game(rows[0], 1)  # the queue still works afterwards
    finally:
        await store.close()
    assert stored_versions(path) == {ids[0]: 2, ids[1]: 1, ids[2]: 1}


@pytest.mark.parametrize("count", [1, 2])
async def test_a_write_alone_or_in_pairs_is_one_transaction(tmp_path: Path, count: int) -> None:
    """One write: one transaction; two at once: still one (they share it)."""
    async with open_tables(tmp_path / "g.db") as tables:
        ids = await _started(tables, count)
        queue = tables.store._writes  # type: ignore[attr-defined]
        batches = queue.batches
        await asyncio.gather(*(tables.act(g, 0, BOB, "add1") for g in ids))
        assert queue.batches - batches == 1


# -- PostgreSQL (db.pg_batch) ------------------------------------------------------------


async def _pg_versions(url: str) -> tuple[dict[int, int], int]:
    """Return each game's stored version and the number of log entries."""
    conn = await asyncpg.connect(url)
    try:
        rows = await conn.fetch("SELECT id, version FROM games")
        versions = {r["id"]: r["version"] for r in rows}
        logged = await conn.fetchval("SELECT count(*) FROM actions")
    finally:
        await conn.close()
    return versions, int(logged)


async def _pg_tables(url: str) -> Tables:
    clock = Clock()
    seeds = iter(range(1, 1_000_000))
    return Tables(await PostgresStore.open(url, clock), clock=clock, seeds=lambda: next(seeds))


async def test_postgres_saves_at_once_share_statements_and_all_land(pg_url: str) -> None:
    """Thirty moves at once on PostgreSQL: every one stored and logged, in fewer statements."""
    tables = await _pg_tables(pg_url)
    try:
        ids = await _started(tables)
        queue = tables.store._saves  # type: ignore[attr-defined]
        batches = queue.batches
        plays = await asyncio.gather(*(tables.act(g, 0, BOB, "add1") for g in ids))
        assert [p.game.row.version for p in plays] == [1] * GAMES
        assert queue.batches - batches < GAMES
    finally:
        await tables.store.close()
    assert await _pg_versions(pg_url) == (dict.fromkeys(ids, 1), GAMES)


async def test_postgres_conflict_and_bad_save_fail_alone(pg_url: str) -> None:
    """In one statement, a save that lost its compare-and-swap gets VersionConflict and a
    save the database rejects (a status outside the CHECK) its own error; the rest land."""
    tables = await _pg_tables(pg_url)
    store = tables.store
    try:
        ids = await _started(tables, 5)
        rows = [await store.get_game(g) for g in ids]
        saves = []
        for index, row in enumerate(rows):
            assert row is not None
            row.version = 1
            if index == 3:
                row.status = "lost in the post"
            expected = 7 if index == 1 else 0
            saves.append(store.save_game(row, expected, action={"id": "add1"}, actor_id=2))
        outcomes = await asyncio.gather(*saves, return_exceptions=True)
    finally:
        await store.close()
    assert isinstance(outcomes[1], VersionConflict)
    assert isinstance(outcomes[3], StorageError)
    assert isinstance(outcomes[3].__cause__, asyncpg.CheckViolationError)
    assert [outcomes[i] for i in (0, 2, 4)] == [None] * 3
    assert await _pg_versions(pg_url) == ({g: int(i in (0, 2, 4)) for i, g in enumerate(ids)}, 3)


def test_a_statement_holds_each_game_once() -> None:
    """Two saves of one game queued together go in two statements, in order."""
    queue = SaveQueue(acquire=None)  # type: ignore[arg-type]
    loop = asyncio.new_event_loop()
    try:
        futures = [loop.create_future() for _ in range(3)]
        queue._pending = [((7, "a"), futures[0]), ((7, "b"), futures[1]), ((8, "c"), futures[2])]
        first = queue.next_batch()
        assert [v for v, _ in first] == [(7, "a"), (8, "c")]
        assert [v for v, _ in queue.next_batch()] == [(7, "b")]
    finally:
        loop.close()


async def test_a_stalled_write_holds_up_nothing_on_the_event_loop(tmp_path: Path) -> None:
    """A write stuck on the writing thread (a frozen disk): reads through the store are
    still answered and the event loop goes on; the write lands once the disk is back."""
    import threading

    store = await Store.open(tmp_path / "g.db", Clock())
    try:
        await store.set_meta("k", "before")
        disk_back = threading.Event()
        stalled = threading.Event()

        def frozen(conn: sqlite3.Connection) -> None:
            stalled.set()
            disk_back.wait()
            conn.execute("UPDATE meta SET value = 'after' WHERE key = 'k'")

        write = asyncio.ensure_future(store._in_transaction(frozen))  # type: ignore[attr-defined]
        while not stalled.is_set():
            await asyncio.sleep(0)
        assert await store.get_meta("k") == "before"  # answered while the write is stuck
        assert await store.count_open() == 0
        assert not write.done()
        disk_back.set()
        await write
        assert await store.get_meta("k") == "after"
    finally:
        await store.close()
