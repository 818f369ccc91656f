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


def forget_in_game(
    seats_raw: str, extra_raw: str, events_raw: str, user_id: int, former: str = FORMER_PLAYER
) -> tuple[str, str, str] | None:
    """Return a finished game's seats, table data and events with ``user_id`` forgotten.

    Their seats name ``former`` with no id; their id leaves the table data (players who
    shared the result, votes, the voters of recent decisions, the host, requests to hand a
    seat on); their names in the events and the last decision become ``former``. None
    when the game holds nothing of theirs.
    """
    seats: list[dict[str, Any]] = json.loads(seats_raw)
    extra: dict[str, Any] = json.loads(extra_raw or "{}")
    events: list[str] = json.loads(events_raw or "[]")
    names = {str(s.get("name")) for s in seats if s.get("user_id") == user_id}
    players = extra.get("players") or {}
    if str(user_id) in players:
        names.add(str(players.pop(str(user_id))))
    poll = extra.get("poll") or {}
    for ballot in list(poll.get("ballots", [])):
        if ballot.get("user") == user_id:
            names.add(str(ballot.get("name")))
            poll["ballots"].remove(ballot)
    if "recent" in extra:
        extra["recent"] = [[u for u in d if u != user_id] for d in extra["recent"]]
    if extra.get("host") == user_id:
        extra.pop("host")
    for voters in (extra.get("away_votes") or {}).values():
        voters[:] = [u for u in voters if u != user_id]
    (extra.get("away_votes") or {}).pop(str(user_id), None)
    new_seats = forget_in_seats(seats_raw, user_id, former)
    names.discard("")
    names.discard("None")
    new_events = list(events)
    for name in sorted(names, key=len, reverse=True):
        new_events = [e.replace(name, former) for e in new_events]
        if isinstance(extra.get("last"), str):
            extra["last"] = extra["last"].replace(name, former)
    new_extra = to_json(extra)
    if new_seats is None and new_extra == to_json(json.loads(extra_raw or "{}")) and (
            new_events == events):
        return None
    return new_seats or seats_raw, new_extra, to_json(new_events)
