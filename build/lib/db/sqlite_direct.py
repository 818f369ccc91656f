"""Direct writes: a save the database can take at once is made on the event loop itself.

Handing a write to aiosqlite's thread and back costs more than the write (about 140 µs
against 20 µs for a game's UPDATE, INSERT and COMMIT, ``python -m bench.click_parts``),
and that hand-off was most of a click's time. So when nothing else of this process is
writing, the store runs a write on its own second connection, in the event loop's
thread, **only where SQLite never waits**:

* the connection's busy timeout is 0: when another connection holds the write lock
  (another process, a backup, a long transaction), BEGIN fails at once and the write
  goes to the queue on aiosqlite's thread (:mod:`db.sqlite_batch`), which may wait;
* in WAL mode with ``synchronous = NORMAL`` a commit does not flush the disk; only a
  checkpoint does, and the first write after one (it starts the WAL over and flushes
  its header). This connection never checkpoints (``wal_autocheckpoint = 0``): the store
  asks aiosqlite's thread for a checkpoint every :data:`CHECKPOINT_EVERY` direct writes
  instead, and sends the writes made meanwhile and the first one after it to the
  thread too (:mod:`db.sqlite_batch`);
* when direct writes are slow anyway (a disk so slow that even the page cache stalls):
  :data:`SLOW_IN_A_ROW` writes in a row over :data:`SLOW_SECONDS`, or one over
  :data:`STALL_SECONDS`, turn direct writes off for :data:`REST_SECONDS`; meanwhile every
  write goes through the thread, and nobody else's click waits for the disk. (One slow
  write alone is more often the process losing its core for a moment.)

A commit that returned is in the operating system's hands, so a process killed right
after still has the move (the SIGKILL drills); like every SQLite write here, it is
acknowledged only after its COMMIT.
"""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Any

log = logging.getLogger(__name__)

#: Direct writes between two checkpoints asked of the database thread (a game's save
#: adds about five pages to the WAL; this stays below the 1,000 pages at which the
#: thread's connection would checkpoint by itself).
CHECKPOINT_EVERY = 100
#: A direct write slower than this is slow; so many in a row turn direct writes off.
SLOW_SECONDS = 0.02
SLOW_IN_A_ROW = 3
#: A direct write slower than this alone turns direct writes off.
STALL_SECONDS = 0.25
#: How long direct writes stay off after a slow one.
REST_SECONDS = 30.0

#: Returned by :meth:`DirectWriter.write` when the write could not be made at once.
BUSY = object()

Work = Callable[[sqlite3.Connection], Any]


def _is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another connection holds a lock (so waiting would be needed)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:  # PROTOCOL: the WAL's locks kept changing (another process)
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED,
                               sqlite3.SQLITE_PROTOCOL)
    return "locked" in str(exc) or "busy" in str(exc)


class DirectWriter:
    """A second connection to the store's file, for writes made without waiting."""

    def __init__(self, conn: sqlite3.Connection,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self._conn = conn
        self._clock = clock
        self._resting_until = 0.0
        self._slow = 0
        #: Set when the connection could not be brought out of a transaction: no more
        #: direct writes from it.
        self.broken = False
        #: Direct writes made since the last checkpoint was asked for.
        self.since_checkpoint = 0
        #: Direct writes made, and writes that found the database busy (tests, benchmarks).
        self.written = 0
        self.busy = 0

    @classmethod
    def open(cls, path: str) -> DirectWriter:
        """Open the second connection to the (already migrated, WAL) database at ``path``."""
        conn = sqlite3.connect(path, timeout=0, isolation_level=None,
                               check_same_thread=False, cached_statements=64)
        try:
            conn.execute("PRAGMA busy_timeout = 0")
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA wal_autocheckpoint = 0")
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        except BaseException:
            conn.close()
            raise
        if str(mode).lower() != "wal":  # without WAL a commit flushes the disk: never here
            conn.close()
            raise sqlite3.OperationalError(f"direct writes need WAL, the file is in {mode}")
        return cls(conn)

    @property
    def resting(self) -> bool:
        """Whether direct writes are off for now (after a slow one)."""
        return self._resting_until > self._clock()

    def write(self, work: Work) -> Any:
        """Run ``work`` in BEGIN IMMEDIATE ... COMMIT at once, or return :data:`BUSY`.

        :data:`BUSY` means nothing was done: the database is locked by another
        connection, or direct writes are resting or broken. An error of ``work`` rolls
        the transaction back and is raised; so is any other SQLite error (a full disk).
        """
        if self.broken or self.resting or not self._out_of_transaction():
            return BUSY
        started = self._clock()
        try:
            try:
                self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                if not _is_busy(exc):
                    raise
                self.busy += 1  # nothing written: not timed as a write
                return BUSY
            outcome = work(self._conn)
            self._conn.execute("COMMIT")
        except BaseException:
            with suppress(sqlite3.Error):
                if self._conn.in_transaction:
                    self._conn.execute("ROLLBACK")
            self._after(started)
            raise
        self._after(started)
        self.written += 1
        self.since_checkpoint += 1
        return outcome

    def _out_of_transaction(self) -> bool:
        """Make sure no transaction is left open on the connection (one interrupted between
        BEGIN and COMMIT, or whose ROLLBACK failed); when it cannot be rolled back, direct
        writes stop for good and every write goes through the database thread."""
        if not self._conn.in_transaction:
            return True
        try:
            self._conn.execute("ROLLBACK")
        except sqlite3.Error as exc:
            self.broken = True
            log.error("the direct database connection is stuck in a transaction (%s); every"
                      " write goes through the database thread from now on", exc)
            return False
        return True

    def _after(self, started: float) -> None:
        """Rest direct writes when this one stalled, or was the last of slow ones in a row."""
        took = self._clock() - started
        self._slow = self._slow + 1 if took > SLOW_SECONDS else 0
        if took > STALL_SECONDS or self._slow >= SLOW_IN_A_ROW:
            self._slow = 0
            self._resting_until = self._clock() + REST_SECONDS
            log.warning("a database write took %.0f ms on the event loop; writes go through"
                        " the database thread for the next %.0f s", took * 1000, REST_SECONDS)

    def checkpoint_due(self) -> bool:
        """Whether enough direct writes were made to ask for a checkpoint (and reset)."""
        if self.since_checkpoint < CHECKPOINT_EVERY:
            return False
        self.since_checkpoint = 0
        return True

    def close(self) -> None:
        """Close the connection (an open transaction, if any, is rolled back)."""
        self._conn.close()
