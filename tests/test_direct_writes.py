"""Direct writes on SQLite (db.sqlite_direct): a save the database can take at once is made
on the event loop, and only then; everything that would wait goes to the queue."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from db import sqlite_direct
from db.errors import StorageError, VersionConflict
from db.sqlite_direct import BUSY, DirectWriter
from db.store import Store
from tests.support import ALICE, BOB, Clock, logged_actions, open_tables, stored_versions


async def _started(tables, count: int) -> list[int]:
    return [(await tables.start("toy", guild_id=1, channel_id=900 + n, starter=ALICE,
                                mode="fast")).id for n in range(count)]


class _Disk:
    """A clock for DirectWriter, and a write that takes ``delay`` seconds of it."""

    def __init__(self) -> None:
        self.now = 100.0
        self.delay = 0.0

    def __call__(self) -> float:
        return self.now

    def work(self, conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO t VALUES (1)")
        self.now += self.delay


def _writer(path: Path, disk: _Disk) -> DirectWriter:
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE t (x INTEGER)")
    writer = DirectWriter.open(str(path))
    writer._clock = disk  # type: ignore[assignment]
    return writer


async def test_a_move_alone_is_written_at_once_andstored_versions(tmp_path: Path) -> None:
    """A save with nothing else writing goes straight to the file: no hand-off to the
    database thread, committed (another connection sees it) before act() returns."""
    path = tmp_path / "d.db"
    async with open_tables(path) as tables:
        ids = await _started(tables, 3)
        writer = tables.store._writes.direct  # type: ignore[attr-defined]
        assert writer is not None
        written = writer.written
        for game_id in ids:
            play = await tables.act(game_id, 0, BOB, "add1")
            assert play.game.row.version == 1
            assert stored_versions(path)[game_id] == 1  # committed before act() returned
        assert writer.written - written == 3
        assert writer.busy == 0
        assert logged_actions(path) == 3


async def test_the_event_loop_never_waits_for_another_writer(tmp_path: Path) -> None:
    """Another connection holds the write lock: the direct write gives up at once (BUSY),
    the saves queue on the database thread, and all of them land once the lock is gone,
    sharing transactions."""
    path = tmp_path / "d.db"
    async with open_tables(path) as tables:
        ids = await _started(tables, 6)
        queue = tables.store._writes  # type: ignore[attr-defined]
        other = sqlite3.connect(path)
        other.execute("BEGIN IMMEDIATE")
        acts = [asyncio.ensure_future(tables.act(g, 0, BOB, "add1")) for g in ids]
        await asyncio.sleep(0.05)  # every act has tried the direct write and queued
        assert not any(a.done() for a in acts)
        assert queue.direct.busy >= 1
        batches = queue.batches
        other.execute("ROLLBACK")
        other.close()
        plays = await asyncio.gather(*acts)
        assert [p.game.row.version for p in plays] == [1] * 6
        assert queue.batches - batches < 6  # the queued saves shared transactions
        assert stored_versions(path) == dict.fromkeys(ids, 1)
        assert logged_actions(path) == 6


async def test_writes_queued_meanwhile_keep_their_order(tmp_path: Path) -> None:
    """While a write waits in the queue, a new one joins the queue rather than jumping it:
    the same setting written twice ends with the second value."""
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    try:
        other = sqlite3.connect(path)
        other.execute("BEGIN IMMEDIATE")
        first = asyncio.ensure_future(store.set_meta("order", "first"))
        await asyncio.sleep(0.02)  # the first write found the database busy and queued
        other.execute("ROLLBACK")  # free again, while the first still waits on the thread
        other.close()
        second = asyncio.ensure_future(store.set_meta("order", "second"))
        await asyncio.gather(first, second)
        assert await store.get_meta("order") == "second"
    finally:
        await store.close()


async def test_a_conflict_on_the_direct_path_changes_nothing(tmp_path: Path) -> None:
    """A save that lost its compare-and-swap is undone whole: no row, no log entry kept."""
    path = tmp_path / "d.db"
    async with open_tables(path) as tables:
        store = tables.store
        (game_id,) = await _started(tables, 1)
        row = await store.get_game(game_id)
        assert row is not None
        row.version = 1
        writer = store._writes.direct  # type: ignore[attr-defined]
        written = writer.written
        with pytest.raises(VersionConflict):
            await store.save_game(row, 5, action={"id": "add1"}, actor_id=2)
        assert writer.written == written and writer.busy == 0  # tried directly, undone
        assert stored_versions(path)[game_id] == 0
        assert logged_actions(path) == 0
        assert store.kept_game(game_id) is None
        await store.save_game(row, 0, action={"id": "add1"}, actor_id=2)  # still works
        assert stored_versions(path)[game_id] == 1


async def test_a_failing_write_on_the_direct_path_is_a_storage_error(tmp_path: Path) -> None:
    """SQL that fails on the direct path reaches its caller as StorageError and leaves no
    transaction open behind it."""
    path = tmp_path / "d.db"
    async with open_tables(path) as tables:
        store = tables.store

        def broken(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE games SET version = version + 1")
            conn.execute("UPDATE no_such_table SET x = 1")

        (game_id,) = await _started(tables, 1)
        queue = store._writes  # type: ignore[attr-defined]
        batches = queue.batches
        with pytest.raises(StorageError, match="no_such_table"):
            await store._in_transaction(broken)  # type: ignore[attr-defined]
        assert queue.batches == batches  # it failed on the direct path, not the thread
        assert not queue.direct._conn.in_transaction
        assert stored_versions(path)[game_id] == 0  # the first UPDATE was rolled back
        written = queue.direct.written
        assert (await tables.act(game_id, 0, BOB, "add1")).game.row.version == 1
        assert queue.direct.written == written + 1


@pytest.mark.error_logs_expected
async def test_a_deleted_file_refuses_direct_writes(tmp_path: Path) -> None:
    """The database file deleted under the bot: the direct path refuses the write too."""
    path = tmp_path / "d.db"
    async with open_tables(path) as tables:
        (game_id,) = await _started(tables, 1)
        writer = tables.store._writes.direct  # type: ignore[attr-defined]
        written = writer.written
        path.unlink()
        with pytest.raises(Exception, match="storage"):
            await tables.act(game_id, 0, BOB, "add1")
        assert writer.written == written


def test_slow_writes_in_a_row_rest_the_direct_path(tmp_path: Path, caplog) -> None:
    """Three slow direct writes in a row (a stalling disk) send writes to the thread for
    REST_SECONDS, with one warning; one slow write alone does not."""
    path = tmp_path / "d.db"
    disk = _Disk()
    writer = _writer(path, disk)
    slow = sqlite_direct.SLOW_SECONDS * 1.5
    try:
        disk.delay = slow
        writer.write(disk.work)
        disk.delay = 0.0
        writer.write(disk.work)  # fast again: the slow one was a hiccup
        assert not writer.resting
        disk.delay = slow
        with caplog.at_level(logging.WARNING, logger="db.sqlite_direct"):
            for _ in range(sqlite_direct.SLOW_IN_A_ROW):
                assert writer.write(disk.work) is None
        disk.delay = 0.0
        assert writer.resting
        assert writer.write(disk.work) is BUSY  # resting: nothing written
        assert len([r for r in caplog.records if "database thread" in r.message]) == 1
        disk.now += sqlite_direct.REST_SECONDS
        assert not writer.resting
        assert writer.write(disk.work) is None
        with sqlite3.connect(path) as conn:
            assert conn.execute("SELECT count(*) FROM t").fetchone()[0] == 6
    finally:
        writer.close()


def test_one_stalled_write_rests_the_direct_path(tmp_path: Path) -> None:
    """A single write longer than STALL_SECONDS rests direct writes at once."""
    disk = _Disk()
    writer = _writer(tmp_path / "d.db", disk)
    try:
        disk.delay = sqlite_direct.STALL_SECONDS * 1.5
        writer.write(disk.work)
        assert writer.resting
    finally:
        writer.close()


def test_direct_writes_need_wal(tmp_path: Path) -> None:
    """A file not in WAL mode (where a commit would flush the disk) gets no direct writes."""
    path = tmp_path / "d.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE t (x INTEGER)")
    with pytest.raises(sqlite3.OperationalError, match="WAL"):
        DirectWriter.open(str(path))


async def test_the_wal_is_checkpointed_while_writing_directly(tmp_path: Path) -> None:
    """The direct connection never checkpoints, so the store asks the database thread for
    checkpoints that let the WAL start over: after thousands of saves made without a
    pause the WAL stays small (without them it would hold every page written, about
    50 MB here)."""
    path = tmp_path / "d.db"
    clock = Clock()
    store = await Store.open(path, clock)
    try:
        game = await store.create_game(
            guild_id=1, channel_id=1, kind="toy", status="active", starter_id=1,
            seats=[{"user_id": 1, "name": "A"}], options={}, only_starter=False,
            state={"count": 0, "pad": "x" * 1200}, events=[])
        for version in range(1, 3001):
            game.version = version
            await store.save_game(game, version - 1, action={"n": version}, actor_id=1)
            await asyncio.sleep(0)  # a click's other awaits: the checkpoint gets its turn
        queue = store._writes  # type: ignore[attr-defined]
        # Most saves were direct; those made while a checkpoint ran were queued behind it.
        assert queue.direct is not None and 2500 <= queue.direct.written < 3000
        wal = Path(f"{path}-wal").stat().st_size
        assert wal < 12_000_000, wal
    finally:
        await store.close()
    assert stored_versions(path) == {game.id: 3000}


async def test_closing_with_a_checkpoint_due_does_not_hang(tmp_path: Path) -> None:
    """A checkpoint asked for just before the store closes (it waits for the write lock
    that closing holds) is dropped; the store closes and every write is in the file."""
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    writer = store._writes.direct  # type: ignore[attr-defined]
    assert writer is not None
    writer.since_checkpoint = sqlite_direct.CHECKPOINT_EVERY - 1
    asked = []

    async def write_and_close() -> None:
        await store.set_meta("last", "written")  # the 250th direct write: a checkpoint
        asked.append(store._writes._checkpoint is not None)  # type: ignore[attr-defined]
        await store.close()  # before the checkpoint's task had a turn

    try:
        await asyncio.wait_for(write_and_close(), 5)
    except TimeoutError:
        await store.connection.close()  # let the database thread end, then fail
        pytest.fail("closing the store hung on its own checkpoint")
    assert asked == [True]
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'last'").fetchone() == (
            "written",)


async def test_the_write_after_a_checkpoint_goes_through_the_thread(tmp_path: Path) -> None:
    """The first write after a checkpoint starts the WAL over and flushes the disk: it
    is made on the database thread, and the writes after it go direct again."""
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    try:
        queue = store._writes  # type: ignore[attr-defined]
        writer = queue.direct
        writer.since_checkpoint = sqlite_direct.CHECKPOINT_EVERY - 1
        await store.set_meta("n", "0")  # asks for the checkpoint
        assert queue._checkpoint is not None
        await queue._checkpoint
        written, batches = writer.written, queue.batches
        await store.set_meta("n", "1")
        assert writer.written == written and queue.batches == batches + 1  # on the thread
        await store.set_meta("n", "2")
        assert writer.written == written + 1  # direct again
        assert await store.get_meta("n") == "2"
    finally:
        await store.close()


async def test_a_reader_holding_the_wal_is_reported_once(
        tmp_path: Path, caplog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another connection keeps reading an old snapshot: checkpoints cannot copy the WAL
    back, which is warned about once; when it lets go, the next checkpoint says so."""
    from db import sqlite_batch

    monkeypatch.setattr(sqlite_batch, "LARGE_WAL_FRAMES", 50)
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        await store.set_meta("k", "0")
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM meta").fetchone()  # holds this snapshot
        queue = store._writes  # type: ignore[attr-defined]
        with caplog.at_level(logging.INFO, logger="db.sqlite_batch"):
            for n in range(3 * sqlite_direct.CHECKPOINT_EVERY):
                await store.set_meta("k", "x" * 3000 + str(n))
                if queue._checkpoint is not None:
                    await queue._checkpoint
            held = [r for r in caplog.records if "still reading" in r.message]
            assert len(held) == 1
            reader.execute("COMMIT")
            for n in range(sqlite_direct.CHECKPOINT_EVERY + 1):
                await store.set_meta("k", str(n))
                if queue._checkpoint is not None:
                    await queue._checkpoint
            assert [r for r in caplog.records if "copied back again" in r.message]
    finally:
        reader.close()
        await store.close()


class _Stuck:
    """A connection left inside a transaction that it cannot roll back."""

    in_transaction = True

    def execute(self, sql: str, *args: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    def close(self) -> None:
        pass


async def test_a_transaction_left_open_is_rolled_back_first(tmp_path: Path) -> None:
    """A direct connection found inside a transaction (interrupted between BEGIN and
    COMMIT) is rolled back before the next write, which then goes direct as usual."""
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    try:
        writer = store._writes.direct  # type: ignore[attr-defined]
        writer._conn.execute("BEGIN IMMEDIATE")
        writer._conn.execute("INSERT INTO meta (key, value) VALUES ('half', 'done')")
        written = writer.written
        await store.set_meta("next", "write")
        assert writer.written == written + 1
        assert await store.get_meta("half") is None  # the interrupted write was undone
        assert await store.get_meta("next") == "write"
    finally:
        await store.close()


@pytest.mark.error_logs_expected
async def test_a_stuck_direct_connection_hands_every_write_to_the_thread(
        tmp_path: Path, caplog) -> None:
    """When the open transaction cannot be rolled back, direct writes stop for good
    (one error logged) and every write goes through the database thread."""
    path = tmp_path / "d.db"
    store = await Store.open(path, Clock())
    try:
        queue = store._writes  # type: ignore[attr-defined]
        real = queue.direct._conn
        queue.direct._conn = _Stuck()
        batches = queue.batches
        for n in range(3):
            await store.set_meta("k", str(n))
        assert queue.direct.broken
        assert queue.batches == batches + 3
        assert await store.get_meta("k") == "2"
        assert len([r for r in caplog.records if "stuck" in r.message]) == 1
        queue.direct._conn = real
    finally:
        await store.close()


async def test_a_file_without_direct_writes_still_opens(
        tmp_path: Path, caplog, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the second connection cannot be had (a file kept out of WAL mode), the store
    opens all the same, says so once, and every write goes through the database thread."""

    def refuse(path: str) -> DirectWriter:
        raise sqlite3.OperationalError("direct writes need WAL, the file is in delete")

    monkeypatch.setattr(DirectWriter, "open", staticmethod(refuse))
    path = tmp_path / "d.db"
    with caplog.at_level(logging.WARNING, logger="db.store"):
        store = await Store.open(path, Clock())
    try:
        assert store._writes.direct is None  # type: ignore[attr-defined]
        assert [r for r in caplog.records if "no direct writes" in r.message]
        await store.set_meta("k", "v")
        assert await store.get_meta("k") == "v"
    finally:
        await store.close()


async def test_an_in_memory_database_has_no_direct_writes() -> None:
    """A second connection to ":memory:" would be another database: none is opened."""
    store = await Store.open(":memory:", Clock())
    try:
        assert store._writes.direct is None  # type: ignore[attr-defined]
    finally:
        await store.close()
