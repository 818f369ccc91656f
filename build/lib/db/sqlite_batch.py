"""Group commit for the SQLite store: the writes that queue up meanwhile share one trip.

Every write is a function of the raw ``sqlite3`` connection (a save: UPDATE, INSERT).
One write alone runs inside BEGIN IMMEDIATE ... COMMIT, in one hand-off to aiosqlite's
thread, as before. Writes that arrive while a transaction is on the thread wait for it
and then run together: one hand-off, one BEGIN and one COMMIT for all of them, each
inside its own SAVEPOINT, so a write that fails (a version conflict) is undone alone and
only its caller sees the error. Every caller is answered only after the COMMIT that
holds its write, so nothing is acknowledged before it is stored. When many clicks
arrive at once, this is the difference between a thread hop and a commit per click and
one per batch.

Before any of that, a write that finds the queue empty and the database free is made at
once on the event loop (:mod:`db.sqlite_direct`): no hand-off at all. Only when that
would mean waiting does the write join the queue.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import Any

import aiosqlite

from db.batches import Batcher, give_up, settle
from db.errors import ChannelBusy, StorageError, VersionConflict
from db.sqlite_direct import BUSY, DirectWriter

#: Errors a write's caller handles itself; any other ``sqlite3.Error`` is a StorageError.
_PASSED_ON = (sqlite3.IntegrityError, VersionConflict, ChannelBusy, StorageError)

Work = Callable[[sqlite3.Connection], Any]

log = logging.getLogger(__name__)

#: A WAL this long (pages; about 40 MB) that a checkpoint could not copy back in full
#: is worth a warning.
LARGE_WAL_FRAMES = 10_000


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


def _run_batch(conn: sqlite3.Connection, works: list[Work]) -> list[Any]:
    """Run ``works`` in one transaction on the database thread; return each one's outcome.

    A write that raises is rolled back to its savepoint and its error returned as
    :class:`_Failed`; an error of BEGIN or COMMIT themselves raises (every write failed).
    """
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
            conn.execute("ROLLBACK")
        raise
    return outcomes


class WriteQueue(Batcher[Work]):
    """Runs the store's writes in order, as few transactions as the traffic allows."""

    def __init__(self, conn: aiosqlite.Connection, lock: asyncio.Lock,
                 check: Callable[[], None], direct: DirectWriter | None = None) -> None:
        super().__init__()
        self._conn = conn
        self._lock = lock
        self._check = check
        #: Where writes are made at once when nothing waits (None: always queued).
        self.direct = direct
        self._checkpoint: asyncio.Task[None] | None = None
        #: Set by a checkpoint: the next write starts the WAL over, which flushes the
        #: disk, so it goes through the thread rather than the event loop.
        self._wal_restarts = False
        self._wal_held = False

    async def run(self, work: Work) -> Any:
        """Run ``work`` in a committed transaction: at once when the database is free,
        else shared with the writes queued meanwhile."""
        direct = self.direct
        if direct is not None and not self._pending and self._flusher is None \
                and not self._lock.locked() and not self._wal_restarts:
            self._check()
            try:
                outcome = direct.write(work)
            except Exception as exc:
                error = _storage_error(exc)
                if error is exc:
                    raise
                raise error from exc
            if outcome is not BUSY:
                self.batches += 1
                self.writes += 1
                if direct.checkpoint_due() and self._checkpoint is None:
                    self._checkpoint = asyncio.ensure_future(self._checkpoint_wal())
                return outcome
        return await self.submit(work)

    async def _checkpoint_wal(self) -> None:
        """Copy the WAL back into the database file on the database thread.

        It holds the store's write lock meanwhile, so this process's writes queue behind
        it rather than adding to the WAL while it is copied; once it is all copied, the
        next write starts the WAL from its beginning, on the thread too (that flushes
        the disk). It is passive: it waits for no other connection (a reader of another
        process, a backup, keeps what it still reads and only delays the WAL's restart;
        see :meth:`_note_checkpoint`). A failure is logged and tried again after the
        next ``db.sqlite_direct.CHECKPOINT_EVERY`` direct writes.
        """
        try:
            async with self._lock:
                rows = await self._conn.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)")
                self._wal_restarts = True
        except (sqlite3.Error, ValueError) as exc:  # ValueError: the connection closed
            log.warning("could not checkpoint the database: %s", exc)
            return
        finally:
            self._checkpoint = None
        self._note_checkpoint(*next(iter(rows), (0, 0, 0)))

    def _note_checkpoint(self, _busy: int, frames: int, copied: int) -> None:
        """Warn once when the WAL stays large because a checkpoint cannot copy it all
        (another connection keeps reading an old snapshot); say when that is over."""
        held = frames >= LARGE_WAL_FRAMES and copied < frames
        if held and not self._wal_held:
            log.warning("the database's WAL holds %d pages that cannot be copied back yet:"
                        " another connection (a backup, another process) is still reading"
                        " them; it keeps growing until that connection lets go", frames)
        elif not held and self._wal_held:
            log.info("the database's WAL could be copied back again")
        self._wal_held = held

    async def close(self) -> None:
        """Drop a checkpoint not yet made; close the direct connection.

        Called by the store holding its write lock, which a checkpoint waits for; SQLite
        checkpoints by itself when the last connection closes.
        """
        if self._checkpoint is not None:
            self._checkpoint.cancel()
            await asyncio.wait({self._checkpoint})
        if self.direct is not None:
            self.direct.close()
            self.direct = None

    async def run_batch(self, batch: Sequence[tuple[Work, asyncio.Future[Any]]]) -> None:
        """Run one batch on the database thread and answer its callers."""
        try:
            async with self._lock:
                self._check()
                works = [work for work, _ in batch]
                outcomes = await self._conn._execute(_run_batch, self._conn._conn, works)
                self._wal_restarts = False
        except BaseException as exc:
            give_up(batch, _storage_error(exc))
            if not isinstance(exc, Exception):
                raise
            return
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if isinstance(outcome, _Failed):
                settle(future, error=_storage_error(outcome.error))
            else:
                settle(future, outcome)
