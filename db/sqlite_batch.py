"""Group commit for the SQLite store: the writes that queue up meanwhile share one trip.

Every write is a function of the raw ``sqlite3`` connection (a save: UPDATE, INSERT).
One write alone runs inside BEGIN IMMEDIATE ... COMMIT, in one hand-off to the store's
writing thread (:mod:`db.sqlite_thread`). Writes that arrive while a transaction is on
the thread wait for it and then run together: one hand-off, one BEGIN and one COMMIT
for all of them, each inside its own SAVEPOINT, so a write that fails (a version
conflict) is undone alone and only its caller sees the error. Every caller is answered
only after the COMMIT that holds its write, so nothing is acknowledged before it is
stored.

Each batch checks the database's files (:mod:`db.sqlite_file`) on the writing thread,
before BEGIN and again after COMMIT: a file deleted or replaced meanwhile fails the
whole batch, so no write that went to a lost file is ever acknowledged.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

from db.batches import Batcher, give_up, settle
from db.errors import ChannelBusy, StorageError, TooManyOpen, VersionConflict
from db.sqlite_thread import WriterThread

#: Errors a write's caller handles itself; any other ``sqlite3.Error`` is a StorageError.
_PASSED_ON = (sqlite3.IntegrityError, VersionConflict, ChannelBusy, TooManyOpen,
              StorageError)

Work = Callable[[sqlite3.Connection], Any]


class _Failed:
    """What a write raised on the database thread, to be raised again for its caller."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _storage_error(exc: BaseException) -> BaseException:
    """Return the error a write's caller sees for ``exc``."""
    if isinstance(exc, sqlite3.Error) and not isinstance(exc, _PASSED_ON):
        error = StorageError(str(exc))
        error.__cause__ = exc
        return error
    return exc


def run_batch(conn: sqlite3.Connection, works: Sequence[Work],
              check: Callable[[], None]) -> list[Any]:
    """Run ``works`` in one transaction on the writing thread; return each one's outcome.

    ``check`` raises StorageError when the database's files are no longer the ones
    opened; it runs before BEGIN and after COMMIT. A write that raises is rolled back
    to its savepoint and its error returned as :class:`_Failed`; an error of BEGIN,
    COMMIT or ``check`` raises (every write of the batch failed).
    """
    check()
    try:
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as exc:
        raise StorageError(str(exc)) from exc
    try:
        if len(works) == 1:
            try:
                outcomes: list[Any] = [works[0](conn)]
            except Exception as exc:
                # Alone in its transaction: nothing to keep, the whole of it is undone.
                conn.execute("ROLLBACK")
                return [_Failed(exc)]
        else:
            outcomes = []
            for work in works:
                conn.execute("SAVEPOINT write")
                try:
                    outcomes.append(work(conn))
                except Exception as exc:
                    conn.execute("ROLLBACK TO write")
                    outcomes.append(_Failed(exc))
                conn.execute("RELEASE write")
        conn.execute("COMMIT")
    except BaseException:
        with suppress(sqlite3.Error):
            if conn.in_transaction:
                conn.execute("ROLLBACK")
        raise
    check()
    return outcomes


class WriteQueue(Batcher[Work]):
    """Runs the store's writes in order, as few transactions as the traffic allows."""

    def __init__(self, writer: WriterThread, lock: asyncio.Lock,
                 check: Callable[[], None]) -> None:
        super().__init__()
        self._writer = writer
        self._lock = lock
        self._check = check
        #: The last write's outcome: None when it was stored, else why it was not (a
        #: StorageError's message); the store's health reads it.
        self.last_failure: str | None = None

    async def run(self, work: Work) -> Any:
        """Run ``work`` in a committed transaction, shared with the writes queued meanwhile."""
        return await self.submit(work)

    async def run_batch(self, batch: Sequence[tuple[Work, asyncio.Future[Any]]]) -> None:
        """Run one batch on the writing thread and answer its callers."""
        try:
            async with self._lock:
                works = [work for work, _ in batch]
                outcomes = await self._writer.run(
                    lambda conn: run_batch(conn, works, self._check))
        except BaseException as exc:
            error = _storage_error(exc)
            if isinstance(error, StorageError):
                self.last_failure = str(error)
            give_up(batch, error)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, _Failed):
                error = _storage_error(outcome.error)
                if isinstance(error, StorageError):
                    self.last_failure = str(error)
                settle(future, error=error)
            else:
                self.last_failure = None
                settle(future, outcome)
