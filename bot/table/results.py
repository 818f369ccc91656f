"""Who a finished game's result is written for: each seated person, or everyone who
played a channel game together (C5)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.table.ratings import walked_away
from bot.table.seats import Seat
from bot.text.alike import alike
from bot.text.widths import NUMBERED
from db.store import GameRow, ResultRow


def own_name(seats: Sequence[Seat], seat: Seat) -> str:
    """The name ``seat``'s person played under, without the number that told it apart
    from another seat's at this table ("Sam (2)" is Sam's where another seat is "Sam"):
    the number belongs to the table, not to the member's records."""
    numbered = NUMBERED.fullmatch(seat.name)  # as bot.table.lobby.distinct_name numbers
    if numbered is not None and any(alike(s.name) == alike(numbered["base"])
                                    for s in seats if s is not seat):
        return numbered["base"]
    return seat.name


def seat_results(seats: Sequence[Seat], outcomes: Iterable[Any]) -> list[ResultRow]:
    """Return a seated game's result for each person in it (computers have none); a
    person whose seat a computer was playing at the end walked away: a loss."""
    rows = []
    for outcome in outcomes:
        if not 0 <= outcome.seat < len(seats):
            continue
        seat = seats[outcome.seat]
        if seat.computer or seat.user_id is None:
            continue
        if seat.away:
            outcome = walked_away(outcome)
        rows.append(ResultRow(seat.user_id, outcome.outcome, outcome.score,
                              dict(outcome.detail), name=own_name(seats, seat) or None))
    return rows


def shared_results(row: GameRow, people: Mapping[int, str], outcome: Any,
                   starter_name: str | None = None) -> list[ResultRow]:
    """Return a channel game's result for everyone who played it (C5).

    An "only me" game credits its player; a channel game credits its starter and
    every member who voted or clicked (``people``, by user id, with the name they played
    under), as a game played together when they were several. ``starter_name`` is the
    starter's name. A daily deal credits its starter only if they took part (voted or
    clicked): its result is their try of the day's deal, on the daily leaderboard.
    """
    starter = set() if row.daily and row.starter_id not in people else {row.starter_id}
    players = {row.starter_id} if row.only_starter else {*people, *starter}
    together = len(players) > 1
    detail = dict(outcome.detail)
    names = {**people, row.starter_id: starter_name or people.get(row.starter_id)}
    return [
        ResultRow(int(user), outcome.outcome, outcome.score, detail, together,
                  names.get(user) or None)
        for user in sorted(players)
    ]
