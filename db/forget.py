"""Forgetting a member inside stored games: their seats say "a former player"."""

from __future__ import annotations

import json
from typing import Any

from db.rows import to_json

#: How a forgotten member is named in the games they sat at.
FORMER_PLAYER = "a former player"


def seats_needle(user_id: int) -> str:
    """Return the text a seats column contains when ``user_id`` sat at the game."""
    return f'"user_id":{user_id}'


def forget_in_seats(raw: str, user_id: int, former: str = FORMER_PLAYER) -> str | None:
    """Return the seats JSON with ``user_id``'s seats anonymised, or None if unchanged."""
    seats: list[dict[str, Any]] = json.loads(raw)
    changed = False
    for seat in seats:
        if seat.get("user_id") == user_id:
            seat["user_id"] = None
            seat["name"] = former
            changed = True
    return to_json(seats) if changed else None
