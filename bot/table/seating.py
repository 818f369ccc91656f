"""Turns at a shared table (rulings C2, C6): the host, absent players and the turn timer.

Pure functions over a game's seats and the table's typed data
(:class:`bot.table.data.TableData`); a seat's ``away`` flag means a computer plays it
until its person clicks again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.table.data import TableData, TurnTimer
from bot.table.seats import Seat
from bot.text.alike import alike

#: What the lobby ends a computer player's name with, so that text tells it from a
#: person's (a picture tags the seat instead).
COMPUTER_SUFFIX = " (computer)"


def pictured(player: Mapping[str, Any], seat: Seat, away: bool,
             others: Sequence[str] = ()) -> dict[str, Any]:
    """Return a player of a table's view as its picture shows them: ``away`` (a computer
    plays an away person's seat), or a computer player, its name without
    :data:`COMPUTER_SUFFIX` (a tag says so where the row's name column has no room for
    the words) unless the short name reads as one of the ``others`` (the other seats'
    names: "Ada (computer)" beside a person called Ada stays so, in the banner too)."""
    marked = {**player, "away": away}
    if seat.computer:
        marked["computer"] = True
        name = player.get("name")
        if isinstance(name, str):
            short = name.removesuffix(COMPUTER_SUFFIX)
            if not any(alike(short) == alike(other) for other in others):
                marked["name"] = short
    return marked

#: Turn timers a table may choose at start, by name (C6: off by default).
TIMERS = {"off": 0, "2 min": 120, "10 min": 600, "1 h": 3600, "24 h": 86400}


#: The answer to an away person's command that only people playing may use.
AWAY_REFUSAL = "You are marked away. Press any button of the table to play your seat again."


def host_id(data: TableData, starter_id: int) -> int:
    """Return the user id of the table's host (the starter unless the role was handed on)."""
    return data.host if data.host is not None else starter_id


def person_seats(seats: Sequence[Seat]) -> list[int]:
    """Return the seats held by people (not computer players)."""
    return [i for i, s in enumerate(seats) if s.is_person]


def resigned_seats(view: Mapping[str, Any]) -> set[int]:
    """Return the seats the engine's view marks as resigned."""
    players = view.get("players") or []
    return {i for i, p in enumerate(players) if isinstance(p, Mapping) and p.get("resigned")}


def present_people(seats: Sequence[Seat], resigned: set[int]) -> list[int]:
    """Return the people's seats that still play themselves: not resigned, not away."""
    return [i for i in person_seats(seats) if i not in resigned and not seats[i].away]


def played_by_computer(seats: Sequence[Seat], seat: int,
                       resigned: set[int]) -> bool:
    """Whether a computer makes ``seat``'s moves: a computer player, or an away person.

    An away seat is played only while some person still plays for themselves, so a table
    everyone left waits instead of playing itself out.
    """
    if not 0 <= seat < len(seats):
        return False
    if seats[seat].computer:
        return True
    return seats[seat].away and bool(present_people(seats, resigned))


def start_timer(data: TableData, seat: int | None, seats: Sequence[Seat],
                now: float) -> None:
    """(Re)start the turn timer for ``seat`` if it is a person's turn and a timer is set;
    note when the turn began waiting, timer or not."""
    data.turn_since = now
    seconds = data.turn_seconds
    if (seconds <= 0 or seat is None or not 0 <= seat < len(seats)
            or seats[seat].computer or seats[seat].away):
        data.timer = None
        return
    data.timer = TurnTimer(seat, now + seconds, since=now)


def away_votes_needed(seats: Sequence[Seat], resigned: set[int],
                      absent: int) -> int:
    """Return how many seated people must agree to hand ``absent``'s seat to a computer."""
    others = [s for s in present_people(seats, resigned) if s != absent]
    return len(others) // 2 + 1


def timer_name(seconds: float) -> str:
    """Return a timer's name ("10 min"), or "off"."""
    for name, value in TIMERS.items():
        if value == int(seconds):
            return name
    return f"{int(seconds)} s" if seconds else "off"
