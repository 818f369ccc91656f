"""Start claims in ``meta`` are dropped by age on both stores, only those of their
prefix, and on PostgreSQL whatever the database's collation (a server made with an
en-US collation, as the postgres image's default is, sorts ":" and ";" otherwise than
their codes)."""

from __future__ import annotations

import uuid

import asyncpg

from bot.boards.service import START_CLAIM, START_CLAIM_SECONDS, claim_value
from db.postgres import PostgresStore
from db.store import Store

NOW = 1_780_000_000.0


async def _drops_only_old_claims(store: Store | PostgresStore) -> None:
    old, new = f"{START_CLAIM}1447200000000000000", f"{START_CLAIM}1447200000000000001"
    await store.first_meta(old, claim_value(NOW - 2 * START_CLAIM_SECONDS, "a"))
    await store.first_meta(new, claim_value(NOW - 60, "b"))
    await store.set_meta("server_left:5", repr(NOW - 2 * START_CLAIM_SECONDS))
    assert await store.drop_meta_before(
        START_CLAIM, claim_value(NOW - START_CLAIM_SECONDS, "")) == 1
    assert await store.get_meta(old) is None
    assert await store.get_meta(new) == claim_value(NOW - 60, "b")
    assert await store.get_meta("server_left:5") is not None


async def test_sqlite_drops_old_claims_only(tmp_path) -> None:
    store = await Store.open(tmp_path / "claims.db", lambda: NOW)
    try:
        await _drops_only_old_claims(store)
    finally:
        await store.close()


async def test_postgresql_drops_old_claims_under_an_en_us_collation(pg_server) -> None:
    name = f"claims_{uuid.uuid4().hex[:8]}"
    admin = await asyncpg.connect(pg_server.admin_url)
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' "
                            "LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'")
    finally:
        await admin.close()
    store = await PostgresStore.open(pg_server.url(name), lambda: NOW)
    try:
        await _drops_only_old_claims(store)
    finally:
        await store.close()
