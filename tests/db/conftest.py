"""Fixtures of the database tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest


@pytest.fixture
async def empty_url(pg_server: Any) -> AsyncIterator[str]:
    """A new, empty database (not migrated), dropped after the test."""
    url: str = await pg_server.new_database(migrated=False)
    yield url
    admin = await asyncpg.connect(pg_server.admin_url)
    try:
        await admin.execute(f"DROP DATABASE {url.rsplit('/', 1)[1]} WITH (FORCE)")
    finally:
        await admin.close()
