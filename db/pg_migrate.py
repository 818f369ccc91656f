"""Numbered SQL migrations of the PostgreSQL database (``db/pg_migrations``).

The version lives in the one-row table ``schema_version``. Every step runs in its own
transaction under an advisory lock and reads the version again inside it, so several
processes starting at once on a new database apply each migration exactly once.

Run it on a connection without a ``command_timeout`` (:meth:`db.pg_access.PgAccess.open`
opens one of its own): waiting for another process's migration, or one long statement
(an index built on a big table), may take minutes, and must not fail the start.
"""

from __future__ import annotations

import asyncio
import logging

import asyncpg

from db.migrate import latest, migrations, pending, statements, too_new

#: The advisory lock key every migrating process takes (any constant of our own).
_LOCK_KEY = 0x7AB1E_0001

log = logging.getLogger(__name__)


def pg_migrations() -> list:
    """Return the PostgreSQL migrations shipped with the code, in order."""
    return migrations("db.pg_migrations")


LATEST = latest(pg_migrations())


async def pg_schema_version(conn: asyncpg.Connection) -> int:
    """Return the database's schema version (0 for an empty database)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def pg_migrate(conn: asyncpg.Connection, target: int | None = None) -> int:
    """Apply the migrations the database lacks, up to ``target``; return the new version.

    Each step waits for the migration lock as long as another process holds it (it is
    migrating the same database), and says so in the log.
    """
    known = await asyncio.to_thread(pg_migrations)  # the files, read off the event loop
    target = latest(known) if target is None else target
    current = await pg_schema_version(conn)
    if current > latest(known):
        raise too_new(current, latest(known), "DATABASE_URL")
    for migration in pending(known, current, target):
        async with conn.transaction():
            await _take_lock(conn)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            if await pg_schema_version(conn) >= migration.number:
                continue
            for statement in statements(migration.sql):
                await conn.execute(statement)
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version VALUES ($1)", migration.number)
    return await pg_schema_version(conn)


async def _take_lock(conn: asyncpg.Connection) -> None:
    """Take the migration lock for the transaction in progress, waiting for as long as
    another process holds it (and logging that it waits)."""
    if await conn.fetchval("SELECT pg_try_advisory_xact_lock($1)", _LOCK_KEY):
        return
    log.info("another process is migrating the database: waiting for it to finish")
    await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK_KEY)
