"""The SQLite store's writing connection, owned by one thread of its own.

Every write of the store is a function of a raw ``sqlite3`` connection (a save is an
UPDATE and an INSERT), and a batch of them must run as one transaction in one hand-off,
without anything else on that connection in between. aiosqlite offers no public way to
run a function on its thread, so the store keeps a second connection to the same file
for its writes, created, used and closed by a single worker thread
(``check_same_thread`` holds SQLite to that). aiosqlite's connection keeps serving the
reads, the migrations and maintenance: in WAL mode a reader never sees a transaction
that is not committed, and never waits for a writer.

Nothing here runs SQLite, nor touches the file system, on the event loop's thread.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

_T = TypeVar("_T")

#: How long the writing connection waits for another process's write lock (ms).
BUSY_TIMEOUT_MS = 1500


class WriterThread:
    """One worker thread owning one ``sqlite3`` connection; functions of it run there."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-writer")
        self._conn: sqlite3.Connection | None = None

    @classmethod
    async def open(cls, path: str) -> WriterThread:
        """Open the writing connection to the (already migrated) database at ``path``."""
        writer = cls()

        def connect() -> None:
            conn = sqlite3.connect(path, isolation_level=None, cached_statements=64)
            try:
                conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                conn.execute("PRAGMA synchronous = NORMAL")
                conn.execute("PRAGMA foreign_keys = ON")
            except BaseException:
                conn.close()
                raise
            writer._conn = conn

        try:
            await writer.call(connect)
        except BaseException:
            writer._pool.shutdown(wait=False)
            raise
        return writer

    async def call(self, fn: Callable[..., _T], *args: Any) -> _T:
        """Run ``fn(*args)`` on the worker thread; return what it returns."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, fn, *args)

    async def run(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work(connection)`` on the worker thread."""
        return await self.call(self._with_connection, work)

    def _with_connection(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        if self._conn is None:
            raise sqlite3.ProgrammingError("the writing connection is closed")
        return work(self._conn)

    async def close(self) -> None:
        """Close the connection (a transaction left open is rolled back), end the thread."""

        def close() -> None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

        try:
            await self.call(close)
        finally:
            self._pool.shutdown(wait=True)
