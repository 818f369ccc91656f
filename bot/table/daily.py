"""The daily challenge: the same deal for every server on a given day (UTC).

The deal's seed comes from the day and a secret of the bot's own (kept in its database,
made at its first daily deal), so that nobody can deal the day's cards at home from the
date and this code, and play the deal knowing it before their first try counts."""

from __future__ import annotations

import hmac
import secrets
from datetime import UTC, datetime, timedelta


def daily_key(now: float) -> str:
    """Return the day of the timestamp ``now`` as ``YYYY-MM-DD`` (UTC)."""
    return datetime.fromtimestamp(now, UTC).strftime("%Y-%m-%d")


#: The ``meta`` key of the bot's daily secret.
SECRET_KEY = "daily_secret"


def new_secret() -> str:
    """Return a new daily secret (32 random hex digits)."""
    return secrets.token_hex(16)


def daily_seed(kind: str, key: str, secret: str) -> int:
    """Return the seed of the daily deal of ``kind`` on day ``key``: the same for every
    server of a bot whose daily secret is ``secret``, and unknown without it."""
    digest = hmac.new(secret.encode(), f"daily:{kind}:{key}".encode(), "sha256").digest()
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
