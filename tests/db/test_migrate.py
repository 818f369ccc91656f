"""Migrations: from an empty file, from every earlier version, and refusing newer ones."""

import aiosqlite
import pytest

from db.migrate import (
    LATEST,
    Migration,
    SchemaTooNew,
    latest,
    migrate,
    migrations,
    pending,
    schema_version,
)
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


def test_a_number_left_unused_is_skipped_and_the_last_is_the_version():
    """Migrations 1, 2, 3 and 5: a database at 3 gets 5, and then is at version 5."""
    known = [Migration(n, f"{n:04d}_x.sql", "") for n in (1, 2, 3, 5)]
    assert [m.number for m in pending(known, 3, latest(known))] == [5]
    assert [m.number for m in pending(known, 0, 2)] == [1, 2]
    assert latest(known) == 5 and latest([]) == 0


async def test_daily_games_played_before_migration_16_are_noted(tmp_path):
    """Migration 16 notes who took part in the daily games played before it, each at its
    game's start (so the game started first still counts first): every result of a deal,
    and in an open daily game every voter with a ballot and every member who moved; not
    a name alone (a channel game's starter who never clicked), nor any other game."""
    path = tmp_path / "v15.db"
    conn = await aiosqlite.connect(path, isolation_level=None)
    await migrate(conn, target=15)
    games = [  # id, status, starter, daily, created at
        (1, "over", 7, "2027-01-15", 100.0), (2, "active", 7, "2027-01-15", 200.0),
        (3, "active", 8, "2027-01-15", 300.0), (4, "over", 7, None, 50.0)]
    for game_id, status, starter, daily, at in games:
        await conn.execute(
            "INSERT INTO games (id, channel_id, kind, status, starter_id, daily, version,"
            " created_at, updated_at) VALUES (?, ?, 'tinker', ?, ?, ?, 3, ?, ?)",
            (game_id, game_id, status, starter, daily, at, at))
    for game_id, user, daily in ((1, 7, "2027-01-15"), (4, 7, None)):
        await conn.execute(
            "INSERT INTO results (game_id, user_id, kind, outcome, score, at, daily)"
            " VALUES (?, ?, 'tinker', 'loss', 0, 900, ?)", (game_id, user, daily))
    for game_id, user, version in ((2, 9, 1), (2, 7, None)):  # 7 is a name alone
        await conn.execute("INSERT INTO voters (game_id, user_id, name, version)"
                           " VALUES (?, ?, 'x', ?)", (game_id, user, version))
    await conn.execute("INSERT INTO actions (game_id, seq, actor_id, action, at)"
                       " VALUES (3, 1, 8, '{\"seat\": 0, \"action\": \"p:1\"}', 301)")
    await conn.close()
    store = await Store.open(path, clock=lambda: 2.0)
    try:
        rows = await store.query("SELECT user_id, game_id, daily, at FROM daily_played"
                                 " ORDER BY game_id, user_id")
        assert rows == [(7, 1, "2027-01-15", 100.0), (9, 2, "2027-01-15", 200.0),
                        (8, 3, "2027-01-15", 300.0)]
    finally:
        await store.close()
