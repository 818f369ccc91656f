"""Migrations: from an empty file, from every earlier version, and refusing newer ones."""

import aiosqlite
import pytest

from db.migrate import LATEST, SchemaTooNew, migrate, migrations, schema_version
from db.store import Store

#: These are SQLite's migrations; PostgreSQL's are tested in test_pg_migrate.py.
pytestmark = pytest.mark.sqlite_only


async def _tables(conn: aiosqlite.Connection) -> set[str]:
    async with conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'") as cur:
        return {row[0] for row in await cur.fetchall()}


async def test_migrations_are_numbered_in_sequence():
    """Shipped migrations start at 1, their numbers increase, and the last is the latest."""
    numbers = [m.number for m in migrations()]
    assert numbers[0] == 1 and numbers == sorted(set(numbers))
    assert numbers[-1] == LATEST >= 2


#: Every version a database can be left at: empty, then each migration's number.
VERSIONS = [0, *(m.number for m in migrations())]


async def test_empty_file_migrates_to_latest(tmp_path):
    """A new database file gets every table and the latest user_version."""
    store = await Store.open(tmp_path / "new.db", clock=lambda: 1.0)
    try:
        assert await schema_version(store.connection) == LATEST
        assert {"games", "actions", "results", "meta"} <= await _tables(store.connection)
        async with store.connection.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with store.connection.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    finally:
        await store.close()


@pytest.mark.parametrize("start", VERSIONS[:-1])
async def test_every_earlier_version_migrates_keeping_data(tmp_path, start):
    """A database left at any earlier version reaches the latest with its games kept."""
    path = tmp_path / f"v{start}.db"
    conn = await aiosqlite.connect(path, isolation_level=None)
    await migrate(conn, target=start)
    assert await schema_version(conn) == start
    if start >= 1:
        await conn.execute(
            "INSERT INTO games (channel_id, kind, status, starter_id, created_at, updated_at)"
            " VALUES (5, 'toy', 'active', 7, 1, 1)"
        )
    await conn.close()
    store = await Store.open(path, clock=lambda: 2.0)
    try:
        assert await schema_version(store.connection) == LATEST
        if start >= 1:
            game = await store.open_game_in_channel(5)
            assert game is not None and game.starter_id == 7
    finally:
        await store.close()


async def test_newer_database_is_refused(tmp_path):
    """A database written by a newer bot is refused with a clear error."""
    path = tmp_path / "future.db"
    conn = await aiosqlite.connect(path, isolation_level=None)
    await conn.execute(f"PRAGMA user_version = {LATEST + 1}")
    await conn.close()
    with pytest.raises(SchemaTooNew, match="update the bot"):
        await Store.open(path, clock=lambda: 1.0)


async def test_database_folder_is_created(tmp_path):
    """DATABASE_PATH's folder is created when missing."""
    store = await Store.open(tmp_path / "deep" / "er" / "bot.db", clock=lambda: 1.0)
    await store.close()
    assert (tmp_path / "deep" / "er" / "bot.db").exists()


def test_statements_end_only_where_the_sql_is_complete():
    """A script splits at semicolons outside strings and trigger bodies; comment lines go."""
    from db.migrate import statements

    script = (
        "-- a comment; with a semicolon\n"
        "CREATE TABLE t (x TEXT DEFAULT 'a;b'); CREATE INDEX i ON t (x);\n"
        "CREATE TRIGGER tr AFTER UPDATE ON t BEGIN\n"
        "    UPDATE t SET x = 'c;d';\n"
        "    UPDATE t SET x = x;\n"
        "END;\n"
        "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS '\n"
        "BEGIN RETURN NEW; END';\n"
    )
    found = statements(script)
    assert found == [
        "CREATE TABLE t (x TEXT DEFAULT 'a;b')",
        "CREATE INDEX i ON t (x)",
        "CREATE TRIGGER tr AFTER UPDATE ON t BEGIN\n    UPDATE t SET x = 'c;d';\n"
        "    UPDATE t SET x = x;\nEND",
        "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS '\nBEGIN RETURN NEW; END'",
    ]


def test_every_shipped_script_splits_into_whole_statements():
    """Each migration of both backends splits into statements that are complete SQL on
    their own; no PostgreSQL script uses $$ quoting, which the splitter does not know
    (function bodies are written in single quotes)."""
    import sqlite3
    from importlib import resources

    from db.migrate import statements

    for package in ("db.migrations", "db.pg_migrations"):
        for script in sorted(resources.files(package).iterdir(), key=lambda f: f.name):
            if not script.name.endswith(".sql"):
                continue
            text = script.read_text()
            assert "$$" not in text, script.name
            found = statements(text)
            assert found, script.name
            for statement in found:
                trigger = statement.upper().startswith("CREATE TRIGGER")
                if not (trigger and package == "db.pg_migrations"):  # no END: see statements
                    assert sqlite3.complete_statement(statement + ";"), (script.name, statement)
                assert not statement.endswith(";"), (script.name, statement)
