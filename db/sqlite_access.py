"""The SQLite store's access to its database file: opening it, reads, writes, closing.

Two connections: one aiosqlite connection for reads, migrations and maintenance, and one
``sqlite3`` connection owned by the writing thread (:mod:`db.sqlite_thread`), whose
writes queue up and share transactions (:mod:`db.sqlite_batch`). The database's files
are watched (:mod:`db.sqlite_file`): a write is never acknowledged on a file that was
deleted or replaced. :class:`db.store.Store` asks its questions through these.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any, Self, TypeVar

import aiosqlite

from db.errors import StorageError
from db.migrate import migrate
from db.sqlite_batch import WriteQueue
from db.sqlite_file import FileWatch
from db.sqlite_thread import WriterThread

_BUSY_TIMEOUT_MS = 1500

_T = TypeVar("_T")

#: How long opening waits for another process that is creating the same database.
_OPEN_PATIENCE_SECONDS = 15.0


async def _while_locked(conn: aiosqlite.Connection, pragma: str | None) -> None:
    """Run ``pragma`` (or the migrations, for None), retrying while another process that
    opens the same fresh file holds it: switching to WAL does not wait by itself."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + _OPEN_PATIENCE_SECONDS
    pause = 0.02
    while True:
        try:
            if pragma is None:
                await migrate(conn)
            else:
                await conn.execute(pragma)
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or loop.time() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.5)


def _check_files(watch: FileWatch) -> None:
    """Raise StorageError when a path no longer names the file being written (run on
    the writing thread)."""
    problem = watch.problem()
    if problem is not None:
        raise StorageError(problem)


class SqliteAccess:
    """A SQLite database file, read through aiosqlite and written through the store's
    own writing thread, in batches; nothing touches SQLite or the database's files on
    the event loop's thread."""

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float],
                 writer: WriterThread, watch: FileWatch) -> None:
        self._conn = conn
        self._clock = clock
        self._write = asyncio.Lock()
        self._writer = writer
        self._watch = watch
        # The check holds the watch, not the store: no reference cycle, so a store its
        # owner forgot to close is freed (and its threads end) like any object.
        self._writes = WriteQueue(writer, self._write, partial(_check_files, watch))
        self.path: str = ""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float]) -> Self:
        """Open (creating if needed) the database file at ``path`` and bring its schema
        up to date. The store keeps two connections to it (reads, writes), so an
        in-memory database (``:memory:``) cannot be one: ValueError."""
        if str(path) == ":memory:" or str(path).startswith("file:"):
            raise ValueError("the SQLite store needs a database file, not an in-memory one")
        await asyncio.to_thread(Path(path).parent.mkdir, parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        writer: WriterThread | None = None
        try:
            await conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            await _while_locked(conn, "PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await _while_locked(conn, None)
            async with conn.execute("PRAGMA journal_mode") as cursor:
                mode = await cursor.fetchone()
            wal = mode is not None and str(mode[0]).lower() == "wal"
            writer = await WriterThread.open(str(path))
            watch = await writer.call(lambda: FileWatch(path, wal=wal))
        except BaseException:
            if writer is not None:
                await writer.close()
            await conn.close()
            raise
        store = cls(conn, clock, writer, watch)
        store.path = str(path)
        return store

    @property
    def connection(self) -> aiosqlite.Connection:
        """The reading connection (for maintenance and tests)."""
        return self._conn

    @property
    def writer(self) -> WriterThread:
        """The writing connection's thread (for maintenance and tests)."""
        return self._writer

    @property
    def watched_files(self) -> list[str]:
        """The files whose deletion or replacement stops every write (the database,
        and in WAL mode its -wal and -shm)."""
        return self._watch.names

    async def close(self) -> None:
        """Close both connections once pending writes are done."""
        async with self._write:
            await self._writer.call(self._watch.close)
            await self._writer.close()
            await self._conn.close()

    async def health_problem(self) -> str | None:
        """Return why the store cannot save right now, or None when it can.

        What the store knows: whether its files are still the ones it writes, the last
        write's outcome, and whether a read is answered.
        """
        try:
            problem = await self._writer.call(self._watch.problem)
        except (sqlite3.Error, RuntimeError) as exc:
            return f"the database's writing connection is gone: {exc}"
        if problem is not None:
            return problem
        if self._writes.last_failure is not None:
            return f"the last write was refused: {self._writes.last_failure}"
        try:
            await self._fetchall("SELECT 1")
        except StorageError as exc:
            return f"the database cannot be read: {exc}"
        return None

    async def _in_transaction(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` inside BEGIN IMMEDIATE ... COMMIT on the writing thread.

        The whole transaction is one hand-off, and writes queued meanwhile share it
        (group commit, :mod:`db.sqlite_batch`), in order with every other write.
        """
        return await self._writes.run(work)

    async def _fetchone(self, sql: str, args: Iterable[Any] = ()) -> Any:
        rows = await self._fetchall(sql, args)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, args: Iterable[Any] | dict[str, Any] = ()) -> list[Any]:
        try:
            params = args if isinstance(args, dict) else tuple(args)
            return list(await self._conn.execute_fetchall(sql, params))
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    async def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one read-only portable query with ``:name`` parameters; return its rows."""
        return [tuple(row) for row in await self._fetchall(sql, params or {})]
