"""Choosing the backend: PostgreSQL when a ``postgresql://`` URL is given, else SQLite."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from db.base import GameStore

_PG_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: object) -> bool:
    """Whether ``target`` is a PostgreSQL connection URL."""
    return isinstance(target, str) and target.startswith(_PG_SCHEMES)


async def open_store(target: Any, clock: Callable[[], float]) -> GameStore:
    """Open the store named by ``target``: settings (their ``database_url`` wins over
    ``database_path``), a ``postgresql://`` URL, or an SQLite path."""
    if hasattr(target, "database_path"):
        target = getattr(target, "database_url", None) or target.database_path
    if is_postgres_url(target):
        from db.postgres import PostgresStore

        return await PostgresStore.open(str(target), clock)
    from db.store import Store

    return await Store.open(Path(target), clock)
