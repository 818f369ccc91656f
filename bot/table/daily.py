"""The daily challenge: the same deal for every server on a given day (UTC)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta


def daily_key(now: float) -> str:
    """Return the day of the timestamp ``now`` as ``YYYY-MM-DD`` (UTC)."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


def daily_seed(kind: str, key: str) -> int:
    """Return the seed of the daily deal of ``kind`` on day ``key``: the same everywhere."""
    digest = hashlib.sha256(f"daily:{kind}:{key}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def day_end(key: str) -> float:
    """Return when day ``key`` (``YYYY-MM-DD``, UTC) is over: the next midnight, UTC."""
    start = datetime.strptime(key, "%Y-%m-%d").replace(tzinfo=UTC)
    return (start + timedelta(days=1)).timestamp()


def replays_open(key: str) -> float:
    """Return when the replays of day ``key``'s deal may be shown: once the day after it
    is over too, so a deal started just before midnight has a day to be finished before
    anyone may see it played out."""
    return day_end(key) + timedelta(days=1).total_seconds()
