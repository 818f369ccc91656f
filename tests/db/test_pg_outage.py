"""A PostgreSQL outage is logged as two lines: when it starts and when it is over."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from db.errors import StorageError
from db.pg_outage import POOL_LOGGER, Outage
from db.postgres import PostgresStore


class _Pool:
    """A pool whose server is down for the first ``down`` acquisitions (a read tries twice)."""

    def __init__(self, down: int) -> None:
        self.down = down

    @asynccontextmanager
    async def acquire(self, timeout: float) -> AsyncIterator[Any]:
        if self.down > 0:
            self.down -= 1
            raise ConnectionRefusedError("connection refused")
        yield _Connection()


class _Connection:
    async def fetch(self, sql: str, *args: Any) -> list[tuple[int]]:
        return [(1,)]


@pytest.mark.sqlite_only
async def test_an_outage_is_two_lines_however_many_attempts(
        caplog: pytest.LogCaptureFixture) -> None:
    """Ten failed requests and ten of the pool's reconnection warnings: one WARNING when
    it starts, none of the pool's tracebacks, one INFO line when a request works again;
    health says so meanwhile."""
    store = PostgresStore(_Pool(down=20), clock=lambda: 0.0)  # type: ignore[arg-type]
    store.outage.watch_pool()
    pool_log = logging.getLogger(POOL_LOGGER)
    try:
        with caplog.at_level(logging.INFO):
            for _ in range(10):
                with pytest.raises(StorageError):
                    await store.query("SELECT 1")
                try:
                    raise ConnectionRefusedError("connection refused")
                except ConnectionRefusedError:
                    pool_log.warning("Failed to restore the pool connection floor; retrying",
                                     exc_info=True)
            assert "out of reach" in (await store.health_problem() or "")
            assert await store.query("SELECT 1") == [(1,)]
            assert await store.health_problem() is None
    finally:
        store.outage.unwatch_pool()
    lines = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
    assert [line[:2] for line in lines] == [("db.pg_outage", "WARNING"),
                                           ("db.pg_outage", "INFO")], lines
    assert "connection refused" in lines[0][2] and "back after" in lines[1][2]


@pytest.mark.sqlite_only
def test_other_pool_records_pass() -> None:
    """The filter holds back only the pool's reconnection warnings."""
    outage = Outage()
    record = logging.LogRecord(POOL_LOGGER, logging.WARNING, __file__, 1,
                               "Pool.close() is taking over 60 seconds", None, None)
    assert outage.filter(record) is True and outage.since is None


async def test_a_stop_cuts_connections_the_server_no_longer_answers(monkeypatch, caplog) -> None:
    """At a stop, closing the pool waits for PostgreSQL at most CLOSE_SECONDS; a server
    that stopped answering (a failover) has its connections cut, so the stop ends."""
    import asyncio as aio

    from db import pg_access, postgres

    monkeypatch.setattr(pg_access, "CLOSE_SECONDS", 0.05)
    cut = []

    class Pool:
        async def close(self) -> None:
            await aio.sleep(3600)  # the server never answers

        def terminate(self) -> None:
            cut.append(True)

    class Outage:
        def unwatch_pool(self) -> None:
            pass

    store = postgres.PostgresStore.__new__(postgres.PostgresStore)
    store._pool, store.outage = Pool(), Outage()
    await aio.wait_for(store.close(), 5)
    assert cut == [True]
    assert any("connections cut" in r.getMessage() for r in caplog.records)
