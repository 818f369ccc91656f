"""Moving house: copying an SQLite database into PostgreSQL, and backing SQLite up.

``python -m bot migrate --to postgresql://...`` calls :func:`copy_sqlite_to_postgres`;
``python -m bot backup`` calls :func:`backup_sqlite`.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiosqlite
import asyncpg

from db.base import TABLES
from db.errors import NotEmpty, StorageError
from db.postgres import PostgresStore
from db.store import Store

#: Tables whose id column is generated; their sequence is moved past the copied ids.
_IDENTITY = ("games", "results")


def _converter(pg_type: str) -> Callable[[Any], Any]:
    """Return how an SQLite value becomes a value of the PostgreSQL column type."""
    if pg_type == "double precision":
        return lambda v: None if v is None else float(v)
    if pg_type in ("bigint", "integer"):
        return lambda v: None if v is None else int(v)
    return lambda v: v


async def copy_sqlite_to_postgres(sqlite_path: str | Path, url: str) -> dict[str, int]:
    """Copy every table of the SQLite database at ``sqlite_path`` into the PostgreSQL
    database at ``url``; return how many rows each table now holds there.

    The source is first brought to the latest schema; the target is created or migrated,
    and must be empty (NotEmpty otherwise). The copy is one transaction: either every
    row arrives, or nothing does. It reads one snapshot of the source and streams each
    table :data:`COPY_BATCH` rows at a time, so memory stays flat whatever the file's
    size. The counts of every table are checked to be equal.
    """
    if not Path(sqlite_path).is_file():
        raise StorageError(f"there is no SQLite database at {sqlite_path}")
    source = await Store.open(sqlite_path, lambda: 0.0)
    try:
        target = await PostgresStore.open(url, lambda: 0.0)
    except BaseException:
        await source.close()
        raise
    try:
        before = await target.count_rows()
        if not any(n for table, n in before.items() if table != "meta"):
            # a bot started on it (never a game) left only its notes: its start, being
            # alive, the commands synced, its shards; the copy brings the source's own
            async with target.acquire(write=True) as conn:
                await conn.execute("DELETE FROM meta")
            before = await target.count_rows()
        if any(before.values()):
            filled = ", ".join(f"{t} ({n} rows)" for t, n in before.items() if n)
            raise NotEmpty(f"the PostgreSQL database is not empty: {filled}; give an empty one")
        reader = source.connection
        await reader.execute("BEGIN")  # one snapshot of the source for every table
        try:
            expected = await source.count_rows()
            async with target.acquire(write=True) as conn:
                for table in TABLES:
                    await _copy_table(reader, conn, table)
                for table in _IDENTITY:
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" coalesce((SELECT max(id) FROM {table}), 0) + 1, false)"
                    )
        finally:
            await reader.execute("COMMIT")
        copied = await target.count_rows()
        if copied != expected:
            raise StorageError(f"copy incomplete: SQLite has {expected}, PostgreSQL {copied}")
        return copied
    finally:
        await source.close()
        await target.close()


#: Rows read from SQLite and sent to PostgreSQL at a time: memory holds one such batch
#: of a table (and what PostgreSQL's COPY buffers), whatever the size of the file.
COPY_BATCH = 500


#: Seconds one table's COPY may take (the store's 5 s limit is for a bot's statements,
#: not for streaming a whole table).
COPY_TIMEOUT = 3600.0


async def _copy_table(reader: aiosqlite.Connection, conn: asyncpg.Connection,
                      table: str) -> None:
    """Stream one table's rows into PostgreSQL's COPY, a batch at a time, converting
    each column's type."""
    columns = await conn.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1"
        " ORDER BY ordinal_position",
        table,
    )
    names = [c["column_name"] for c in columns]
    convert = [_converter(c["data_type"]) for c in columns]

    async def records() -> AsyncIterator[tuple[Any, ...]]:
        async with reader.execute(f"SELECT {', '.join(names)} FROM {table}") as cursor:
            while rows := await cursor.fetchmany(COPY_BATCH):
                for row in rows:
                    yield tuple(f(v) for f, v in zip(convert, row, strict=True))

    await conn.copy_records_to_table(table, records=records(), columns=names,
                                     timeout=COPY_TIMEOUT)


async def backup_sqlite(path: str | Path, dest: str | Path) -> None:
    """Write a consistent copy of the SQLite database at ``path`` to ``dest`` while the
    bot may be running, compacted (``VACUUM INTO``: the pages retention emptied are left
    out, so a backup is no larger than what is kept)."""
    if not Path(path).is_file():
        raise StorageError(f"there is no SQLite database at {path}")
    if Path(dest).exists():
        raise StorageError(f"{dest} already exists; name a new file")

    def backup() -> None:
        src = sqlite3.connect(path)
        try:
            src.execute("VACUUM INTO ?", (str(dest),))
        except BaseException:
            # no half-made file that looks like a backup, nor its journal left behind
            Path(dest).unlink(missing_ok=True)
            Path(f"{dest}-journal").unlink(missing_ok=True)
            raise
        finally:
            src.close()

    await asyncio.to_thread(backup)
