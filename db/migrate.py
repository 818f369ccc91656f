"""Numbered SQL migrations of the SQLite database, tracked by ``PRAGMA user_version``."""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources

import aiosqlite

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class SchemaTooNew(Exception):
    """The database was written by a newer version of the bot."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered migration script."""

    number: int
    name: str
    sql: str


def migrations(package: str = "db.migrations") -> list[Migration]:
    """Return every migration of ``package`` shipped with the code, in increasing order.

    Numbers are unique and increase; a database's version is the number of the last
    migration it has, so a number may be left unused (one held for another change).
    """
    found = []
    for entry in resources.files(package).iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.number)
    for before, migration in itertools.pairwise(found):
        if migration.number == before.number:
            raise RuntimeError(f"migration {migration.name} is out of sequence")
    return found


def latest(known: list[Migration]) -> int:
    """Return the version a database has once every migration of ``known`` is applied."""
    return known[-1].number if known else 0


def pending(known: list[Migration], current: int, target: int) -> list[Migration]:
    """Return the migrations of ``known`` a database at ``current`` needs to reach ``target``."""
    return [m for m in known if current < m.number <= target]


LATEST = latest(migrations())


def too_new(current: int, known: int, setting: str) -> SchemaTooNew:
    """Return the error for a database at ``current`` when the code knows up to ``known``."""
    return SchemaTooNew(
        f"the database is at schema version {current}, but this bot only knows up to "
        f"{known}: update the bot, or point {setting} at another database"
    )


async def schema_version(conn: aiosqlite.Connection) -> int:
    """Return the database's schema version (0 for a new file)."""
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, target: int | None = None) -> int:
    """Apply the migrations the database lacks, up to ``target``; return the new version.

    Each migration runs in its own transaction together with its version bump, so a
    failure leaves the database at the last complete version. The version is read again
    inside that (immediate, so exclusive to writers) transaction: two processes opening
    a new database at once never run the same migration twice.
    """
    known = await asyncio.to_thread(migrations)  # the files, read off the event loop
    target = latest(known) if target is None else target
    current = await schema_version(conn)
    if current > latest(known):
        raise too_new(current, latest(known), "DATABASE_PATH")
    for migration in pending(known, current, target):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            if await schema_version(conn) < migration.number:
                await _run_script(conn, migration.sql)
                await conn.execute(f"PRAGMA user_version = {migration.number}")
            await conn.execute("COMMIT")
        except BaseException:
            await conn.execute("ROLLBACK")
            raise
    return await schema_version(conn)


async def _run_script(conn: aiosqlite.Connection, sql: str) -> None:
    """Run each statement of ``sql`` inside the caller's open transaction."""
    for statement in statements(sql):
        await conn.execute(statement)


def statements(sql: str) -> list[str]:
    """Split a migration script into statements (comment lines dropped).

    A semicolon ends a statement only where the text before it is complete SQL
    (``sqlite3.complete_statement``): not inside a quoted string, such as a PostgreSQL
    function's body, nor inside an SQLite trigger's BEGIN ... END. (It takes any
    CREATE TRIGGER for SQLite's, which ends with END: a PostgreSQL one is written last
    in its script.)
    """
    lines = [line for line in sql.splitlines() if not line.strip().startswith("--")]
    found: list[str] = []
    pending = ""
    for piece in "\n".join(lines).split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            statement = pending.strip().removesuffix(";").strip()
            if statement:
                found.append(statement)
            pending = ""
    rest = pending.strip().rstrip(";").rstrip()  # PostgreSQL's CREATE TRIGGER has no END
    if rest:
        found.append(rest)
    return found
