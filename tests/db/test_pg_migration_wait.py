"""PostgreSQL at start: the migration is not held to the store's per-statement limit
(db.pg_access.TIMEOUT). A process waits for another one's migration (the advisory lock)
and for a long step for as long as they take; a database that fails at start is
reported as the database's failure, naming DATABASE_URL without its password, never as
Discord out of reach; and a stop while waiting ends the wait."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
from typing import Any

import asyncpg
import pytest
import yarl

import db.pg_access
import db.pg_migrate
from db.errors import StorageError
from db.migrate import Migration
from db.pg_migrate import _LOCK_KEY, LATEST, pg_migrations, pg_schema_version
from db.postgres import PostgresStore

pytestmark = pytest.mark.sqlite_only  # each test picks its backend itself

#: The store's per-statement limit in these tests (instead of 5 s, to keep them short).
LIMIT = 0.3
#: Longer than LIMIT: how long the other process's migration, or one step, takes.
LONGER = 1.5
PASSWORD = "s3cret-pw"


@pytest.fixture
def short_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the store's per-statement limit LIMIT seconds."""
    monkeypatch.setattr(db.pg_access, "TIMEOUT", LIMIT)


async def hold_migration_lock(url: str, seconds: float) -> asyncio.Task[None]:
    """Take the migration lock as another process migrating ``url`` would, and release
    it after ``seconds`` (the returned task)."""
    other = await asyncpg.connect(url)
    await other.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)

    async def release() -> None:
        try:
            await asyncio.sleep(seconds)
        finally:
            await other.close()  # the lock goes with the session

    return asyncio.create_task(release())


async def test_a_start_waits_for_another_process_migrating(
        empty_url: str, short_limit: None, caplog: pytest.LogCaptureFixture) -> None:
    """The lock held longer than the statement limit: the start waits, says so in the
    log, then migrates; the store's own queries keep the limit."""
    holder = await hold_migration_lock(empty_url, LONGER)
    with caplog.at_level(logging.INFO, logger="db.pg_migrate"):
        store = await PostgresStore.open(empty_url, lambda: 1.0)
    try:
        assert holder.done()
        assert "another process is migrating" in caplog.text
        async with store.acquire() as conn:
            assert await pg_schema_version(conn) == LATEST
        with pytest.raises(StorageError):
            await store.query(f"SELECT pg_sleep({LONGER})")
    finally:
        await store.close()
        await holder


async def test_a_migration_step_longer_than_the_limit_completes(
        empty_url: str, short_limit: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A step that takes longer than the statement limit (an index built on a big
    table) is not cut short."""
    slow = Migration(LATEST + 1, f"{LATEST + 1:03d}_slow.sql",
                     f"SELECT pg_sleep({LONGER});\nCREATE TABLE slow_step (id INTEGER);")
    monkeypatch.setattr(db.pg_migrate, "pg_migrations", lambda: [*pg_migrations(), slow])
    store = await PostgresStore.open(empty_url, lambda: 1.0)
    try:
        async with store.acquire() as conn:
            assert await pg_schema_version(conn) == LATEST + 1
            assert await conn.fetchval("SELECT to_regclass('slow_step') IS NOT NULL")
    finally:
        await store.close()


def with_password(url: str) -> str:
    """``url`` with a password in it (the test server trusts every connection)."""
    return str(yarl.URL(url).with_password(PASSWORD))


@pytest.fixture
def bot_env(empty_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> str:
    """The environment of ``python -m bot run`` over ``empty_url`` (with a password);
    Discord on a port nobody listens on. Return the URL."""
    from bot import runner

    url = with_password(empty_url)
    for key, value in {"DISCORD_TOKEN": "fake-bot-token", "DATABASE_URL": url,
                       "DATABASE_PATH": str(tmp_path / "unused.db"),
                       "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10"}.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr(runner, "setup_logging", lambda *a, **k: None)
    monkeypatch.setattr(runner.discord.http.Route, "BASE", runner.discord.http.Route.BASE)
    return url


@pytest.mark.parametrize("failure", [TimeoutError(), ConnectionResetError("reset by peer")])
async def test_a_database_failing_at_start_is_not_blamed_on_discord(
        bot_env: str, failure: OSError, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A migration that fails with an OSError (a timeout, a reset connection): exit 2,
    naming DATABASE_URL and its database, never the password, nor Discord."""
    from bot import runner

    async def failing(conn: asyncpg.Connection, target: int | None = None) -> int:
        raise failure

    monkeypatch.setattr(db.pg_access, "pg_migrate", failing)
    assert await runner.serve() == 2
    err = capsys.readouterr().err
    assert "Discord" not in err and "DATABASE_URL" in err, err
    assert PASSWORD not in err and "Traceback" not in err, err


async def test_an_open_failing_with_an_os_error_names_the_database(
        bot_env: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever OSError the opening lets through is the database's: the message names
    DATABASE_URL with the database (its password hidden), not Discord."""
    from bot import runner

    async def refused(cls: Any, url: str, clock: Any, **_: Any) -> PostgresStore:
        raise ConnectionRefusedError(f"cannot reach {url}")

    monkeypatch.setattr(PostgresStore, "open", classmethod(refused))
    assert await runner.serve() == 2
    err = capsys.readouterr().err
    shown = str(yarl.URL(bot_env).with_password(None))
    assert f"Cannot open the database (DATABASE_URL {shown})" in err, err
    assert PASSWORD not in err and "Discord" not in err, err


async def test_a_stop_while_waiting_for_the_migration_ends_the_wait(
        bot_env: str, empty_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """SIGTERM while another process holds the migration lock: the bot stops at once."""
    from bot import runner

    holder = await hold_migration_lock(empty_url, 60)
    try:
        with caplog.at_level(logging.INFO, logger="db.pg_migrate"):
            serving = asyncio.create_task(runner.serve())
            async with asyncio.timeout(15):
                while "another process is migrating" not in caplog.text:
                    await asyncio.sleep(0.05)
            os.kill(os.getpid(), signal.SIGTERM)
            assert await asyncio.wait_for(serving, 10) == 0
    finally:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)
        holder.cancel()
        await asyncio.gather(holder, return_exceptions=True)
