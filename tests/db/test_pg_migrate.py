"""PostgreSQL: migrations from empty, racing starts, a newer schema refused, choosing the
backend, and an unreachable server reported as StorageError."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from db.connect import is_postgres_url, open_store
from db.errors import StorageError
from db.migrate import SchemaTooNew
from db.pg_migrate import LATEST, pg_migrate, pg_schema_version
from db.pg_params import named_to_numbered
from db.postgres import PostgresStore
from db.store import Store

pytestmark = pytest.mark.sqlite_only  # each test picks its backend itself


async def test_empty_database_migrates_and_racing_starts_apply_each_step_once(empty_url):
    """Five connections migrating a new database at once all end at the latest version."""
    conns = [await asyncpg.connect(empty_url) for _ in range(5)]
    try:
        versions = await asyncio.gather(*(pg_migrate(c) for c in conns))
        assert versions == [LATEST] * 5
        assert await pg_schema_version(conns[0]) == LATEST
        tables = {r[0] for r in await conns[0].fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'")}
        assert {"games", "actions", "results", "meta", "schema_version"} <= tables
    finally:
        for conn in conns:
            await conn.close()


async def test_newer_schema_is_refused(empty_url):
    """A database written by a newer bot is refused, naming DATABASE_URL."""
    conn = await asyncpg.connect(empty_url)
    try:
        await pg_migrate(conn)
        await conn.execute("UPDATE schema_version SET version = $1", LATEST + 1)
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNew, match="DATABASE_URL"):
        await PostgresStore.open(empty_url, lambda: 1.0)


async def test_open_store_picks_the_backend(tmp_path, pg_url):
    """A postgresql:// URL opens PostgreSQL; a path opens SQLite."""
    assert is_postgres_url(pg_url) and not is_postgres_url(str(tmp_path))
    pg = await open_store(pg_url, lambda: 1.0)
    lite = await open_store(tmp_path / "x.db", lambda: 1.0)
    try:
        assert (pg.backend, lite.backend) == ("postgresql", "sqlite")
        assert isinstance(lite, Store)
    finally:
        await pg.close()
        await lite.close()


async def test_unreachable_server_is_a_storage_error():
    """Nothing listening: StorageError, not a raw socket error."""
    with pytest.raises(StorageError, match="cannot connect"):
        await PostgresStore.open("postgresql://nobody@127.0.0.1:1/none", lambda: 1.0)


async def test_killed_connections_are_replaced(pg_server, pg_url):
    """Connections killed under the store (a server restart): the next read reconnects."""
    store = await PostgresStore.open(pg_url, lambda: 1.0)
    try:
        admin = await asyncpg.connect(pg_server.admin_url)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                pg_url.rsplit("/", 1)[1])
        finally:
            await admin.close()
        assert await store.count_open() == 0
    finally:
        await store.close()


def test_named_parameters_become_numbered_once_each():
    """``:name`` turns into ``$n`` (repeats share a number); casts (``::``) are left alone."""
    sql, args = named_to_numbered("SELECT :a, :b::text, :a", {"a": 1, "b": 2})
    assert sql.startswith("SELECT $1, $2::text, $1") and args == [1, 2]
