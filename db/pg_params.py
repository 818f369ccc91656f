"""Portable SQL's parameters turned into PostgreSQL's numbered ones (``$1, $2...``).

SQL written for both backends uses SQLite's parameters: ``:name`` (the records' queries,
:meth:`db.base.GameStore.query`) or ``?`` (the stores' shared pieces in :mod:`db.rows`).
"""

from __future__ import annotations

import re
from typing import Any

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_QMARK = re.compile(r"\?")


def named_to_numbered(sql: str, params: dict[str, Any]) -> tuple[str, list[Any]]:
    """Turn ``:name`` parameters into PostgreSQL's ``$1, $2...``; return the SQL and args.

    Meant for the store's own queries: a ``:word`` inside a string literal would be taken
    for a parameter too, so such queries pass values as parameters instead.
    """
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in order:
            order.append(name)
        return f"${order.index(name) + 1}"

    return _NAMED.sub(number, sql), [params[name] for name in order]


def qmarks_to_numbered(sql: str) -> str:
    """Turn ``?`` parameters into ``$1, $2...`` (for SQL written for both backends)."""
    counter = iter(range(1, 10_000))
    return _QMARK.sub(lambda _m: f"${next(counter)}", sql)
