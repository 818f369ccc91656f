"""The PostgreSQL store's access to its database: connecting, lending pooled
connections, reads, closing.

Every failure for want of the server (a connection refused or lost, a timeout) comes
out as StorageError, and is what the store's health and its outage lines
(:mod:`db.pg_outage`) report; a read whose connection died under it is tried once more.
:class:`db.postgres.PostgresStore` asks its questions through these.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Self

import asyncpg

from db.errors import ChannelBusy, DailyPlayed, StorageError, TooManyOpen, VersionConflict
from db.pg_migrate import pg_migrate
from db.pg_outage import Outage
from db.pg_params import named_to_numbered

log = logging.getLogger(__name__)

#: Seconds any one statement (or waiting for a pooled connection) may take.
TIMEOUT = 5.0
#: Longest wait for the pool's connections to close at a stop before they are cut.
CLOSE_SECONDS = 5.0

#: Errors of a connection that died under a request: a read is tried once more.
_LOST = (
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    ConnectionError,
)
#: Pause before that second try, while the pool replaces the dead connection.
RECONNECT_PAUSE = 0.05
#: Failures after which a statement sent may have been committed all the same: its
#: connection was lost, or its answer came too late.
LOST_ANSWERS = (*_LOST, OSError, asyncio.TimeoutError)
#: Failures that mean "the database cannot be used right now".
_UNAVAILABLE = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


class PgAccess:
    """A PostgreSQL database, through a small pool of connections."""

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float]) -> None:
        self._pool = pool
        self._clock = clock
        self.url = ""
        #: Whether the server is out of reach now (logged once when it starts and ends).
        self.outage = Outage()
        #: Why the last write failed for want of the database, or None when it was stored.
        self.last_failure: str | None = None

    @classmethod
    async def open(
        cls, url: str, clock: Callable[[], float], *, max_size: int = 10
    ) -> Self:
        """Connect to ``url`` and bring the schema up to date; return the store.

        The migration runs first, on a connection of its own without the pool's
        :data:`TIMEOUT`: it waits as long as another process is migrating the same
        database, and a long step (an index built on a big table) is not cut short.
        Raise StorageError when the server cannot be reached or the migration fails,
        and SchemaTooNew when the database is newer than this code.
        """
        try:
            conn = await asyncpg.connect(url, timeout=TIMEOUT, command_timeout=None)
        except _UNAVAILABLE as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        except ValueError:  # its words may repeat the password: not shown
            raise StorageError("cannot connect to PostgreSQL: its URL cannot be read") from None
        try:
            await pg_migrate(conn)
        except _UNAVAILABLE as exc:
            conn.terminate()
            raise StorageError(f"cannot bring the PostgreSQL schema up to date: "
                               f"{str(exc) or type(exc).__name__}") from exc
        except BaseException:
            conn.terminate()  # cancelled or refused: no round trip to say goodbye
            raise
        try:
            await conn.close(timeout=TIMEOUT)
        except _UNAVAILABLE:  # migrated already: a goodbye not answered changes nothing
            conn.terminate()
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=max_size, command_timeout=TIMEOUT, timeout=TIMEOUT
            )
        except _UNAVAILABLE as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        store = cls(pool, clock)
        store.url = url
        store.outage.watch_pool()
        return store

    @property
    def pool(self) -> asyncpg.Pool:
        """The underlying pool (for maintenance and tests)."""
        return self._pool

    async def close(self) -> None:
        """Close every connection once the ones in use are released, for at most
        :data:`CLOSE_SECONDS`; then cut them (a server that stopped answering, as in a
        failover, would hold a stop until the process is killed)."""
        self.outage.unwatch_pool()
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("PostgreSQL did not answer the close within %.0f s: connections cut",
                        CLOSE_SECONDS)
            self._pool.terminate()

    async def health_problem(self) -> str | None:
        """Return why the store cannot save right now, or None when it can: the server
        out of reach, the last write refused, or a read not answered."""
        if self.outage.since is not None:
            return f"PostgreSQL is out of reach: {self.outage.reason}"
        if self.last_failure is not None:
            return f"the last write was refused: {self.last_failure}"
        try:
            await self._fetch("SELECT 1")
        except StorageError as exc:
            return f"the database cannot be read: {exc}"
        return None

    @asynccontextmanager
    async def acquire(self, *, write: bool = False,
                      transaction: bool | None = None) -> AsyncIterator[asyncpg.Connection]:
        """Lend a pooled connection for a read, or a ``write`` (in a transaction unless
        ``transaction`` is false: a single statement is one by itself); errors become
        StorageError, except the ones the store's callers handle. A write's outcome is
        what the store's health reports."""
        lent = False
        try:
            async with self._pool.acquire(timeout=TIMEOUT) as conn:
                lent = True
                if not (write if transaction is None else transaction):
                    yield conn
                else:
                    async with conn.transaction():
                        yield conn
        except (VersionConflict, ChannelBusy, DailyPlayed, TooManyOpen,
                asyncpg.UniqueViolationError):
            self.outage.answered()
            raise
        except _UNAVAILABLE as exc:
            if not isinstance(exc, asyncpg.PostgresError) or isinstance(exc, _LOST):
                self.outage.failed(exc)
            if write:
                self.last_failure = str(exc) or type(exc).__name__
            raise StorageError(str(exc) or type(exc).__name__, sent=lent) from exc
        self.outage.answered()
        if write:
            self.last_failure = None

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """Run a read; a connection lost under it (a server restart) is replaced once."""
        try:
            async with self.acquire() as conn:
                return list(await conn.fetch(sql, *args))
        except StorageError as exc:
            if not isinstance(exc.__cause__, _LOST):
                raise
        await asyncio.sleep(RECONNECT_PAUSE)
        async with self.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        rows = await self._fetch(sql, *args)
        return rows[0] if rows else None

    async def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one read-only portable query with ``:name`` parameters; return its rows."""
        text, args = named_to_numbered(sql, params or {})
        return [tuple(row) for row in await self._fetch(text, *args)]
