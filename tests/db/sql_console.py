"""What tests reach through ``store.connection`` on SQLite, for a PostgreSQL store.

A few table and drill tests poke the database directly (damage a state, try to break
ruling C3, make the database read-only). On PostgreSQL they get this console instead:
``?`` parameters become ``$n``, a unique violation comes out as sqlite3.IntegrityError,
and ``PRAGMA query_only = ON/OFF`` makes the test database read-only or writable again.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable
from typing import Any

import asyncpg

from db.pg_params import qmarks_to_numbered
from db.postgres import PostgresStore

_QUERY_ONLY = re.compile(r"PRAGMA\s+query_only\s*=\s*(ON|OFF)", re.IGNORECASE)


class SqlConsole:
    """A tiny stand-in for the aiosqlite connection, over a PostgreSQL store."""

    def __init__(self, store: PostgresStore, admin_url: str, database: str) -> None:
        self._store = store
        self._admin_url = admin_url
        self._database = database

    async def execute(self, sql: str, args: Iterable[Any] = ()) -> None:
        """Run one statement written for SQLite."""
        switch = _QUERY_ONLY.fullmatch(sql.strip())
        if switch:
            await self._read_only(switch.group(1).upper() == "ON")
            return
        try:
            async with self._store.pool.acquire() as conn:
                await conn.execute(qmarks_to_numbered(sql), *args)
        except asyncpg.UniqueViolationError as exc:
            raise sqlite3.IntegrityError(str(exc)) from exc

    async def executemany(self, sql: str, rows: Iterable[Iterable[Any]]) -> None:
        """Run one statement written for SQLite once per row."""
        async with self._store.pool.acquire() as conn:
            await conn.executemany(qmarks_to_numbered(sql), [tuple(r) for r in rows])

    async def _read_only(self, on: bool) -> None:
        admin = await asyncpg.connect(self._admin_url)
        try:
            value = "on" if on else "off"
            await admin.execute(
                f"ALTER DATABASE {self._database} SET default_transaction_read_only = {value}"
            )
        finally:
            await admin.close()
        await self._store.pool.expire_connections()


class ConsoleStore(PostgresStore):
    """A PostgreSQL store with the test console as its ``connection``."""

    console: SqlConsole

    @property
    def connection(self) -> SqlConsole:
        """The console standing in for SQLite's connection."""
        return self.console
