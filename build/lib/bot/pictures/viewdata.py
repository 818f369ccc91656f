"""Reading view data defensively: a field of the wrong type reads as empty, never an error."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

EMPTY: Mapping[str, Any] = {}


def mappings(value: Any) -> list[Mapping[str, Any]]:
    """Return the mappings in ``value`` if it is a list, else an empty list."""
    return [v for v in value if isinstance(v, Mapping)] if isinstance(value, list) else []


def items(value: Any) -> list[Any]:
    """Return ``value`` if it is a list, else an empty list."""
    return value if isinstance(value, list) else []


def mapping(value: Any) -> Mapping[str, Any]:
    """Return ``value`` if it is a mapping, else an empty one."""
    return value if isinstance(value, Mapping) else EMPTY


def number(value: Any, default: int = 0) -> int:
    """Return ``value`` if it is an int (not a bool), else ``default``."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default
