"""Lobbies of seated games: joining, leaving, computer players, the host, starting.

:func:`lobby_step` applies one lobby operation to a stored row (in place) and returns the
event to show, or raises a Refusal saying why not. Seats are taken in join order (S3);
the host is the table's starter until the role is handed on (``extra["host"]``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from bot.games.protocol import Engine
from bot.table import seating
from bot.table.errors import Refusal

#: Lobby operations, as action ids on lobby boards; ``lobby.drop.N`` removes the computer
#: player in seat N and ``lobby.host.N`` hands the host role to the person in seat N.
LOBBY_JOIN = "lobby.join"
LOBBY_LEAVE = "lobby.leave"
LOBBY_COMPUTER = "lobby.computer"
LOBBY_START = "lobby.start"
LOBBY_CANCEL = "lobby.cancel"
LOBBY_DROP = "lobby.drop."
LOBBY_HOST = "lobby.host."
LOBBY_ACTIONS = (LOBBY_JOIN, LOBBY_LEAVE, LOBBY_COMPUTER, LOBBY_START, LOBBY_CANCEL)
LOBBY_PREFIX = "lobby."

#: Names given to computer players, in order (then "Computer 5", "Computer 6"...).
COMPUTER_NAMES = ("Ada (computer)", "Brass (computer)", "Cog (computer)", "Dynamo (computer)")


def computer_names() -> Iterator[str]:
    """Yield names for computer players, never running out."""
    yield from COMPUTER_NAMES
    number = len(COMPUTER_NAMES) + 1
    while True:
        yield f"Computer {number} (computer)"
        number += 1


def free_computer_name(seats: list[dict[str, Any]]) -> str:
    """Return a computer player's name no seat uses yet (people may be named alike)."""
    used = {str(s.get("name")) for s in seats}
    return next(n for n in computer_names() if n not in used)


def _seat_index(op: str, prefix: str, seats: list[dict[str, Any]]) -> int:
    raw = op.removeprefix(prefix)
    if not raw.isascii() or not raw.isdigit() or not 0 <= int(raw) < len(seats):
        raise Refusal("That seat no longer exists; the board has been updated.")
    return int(raw)


def lobby_step(
    row: Any,
    engine: Engine,
    user_id: int,
    name: str,
    can_manage: bool,
    op: str,
    seed: Callable[[], int],
) -> str:
    """Apply lobby operation ``op`` by ``user_id`` to ``row``; return the event or refuse."""
    if row.status != "lobby":
        raise Refusal("The game has already started; the lobby buttons do nothing now.")
    seats: list[dict[str, Any]] = row.seats
    host = seating.host_id(row)
    mine = next((i for i, s in enumerate(seats)
                 if s.get("user_id") == user_id and not s.get("computer")), None)
    host_name = next((s["name"] for s in seats if s.get("user_id") == host), "the host")
    if op == LOBBY_JOIN:
        if mine is not None:
            raise Refusal("You are already seated at this table.")
        if len(seats) >= engine.max_seats:
            raise Refusal(f"The table is full ({engine.max_seats} seats).")
        seats.append({"user_id": user_id, "name": name, "computer": False})
        return f"{name} joined."
    if op == LOBBY_LEAVE:
        if mine is None:
            raise Refusal("You are not seated at this table.")
        event = f"{name} left."
        if user_id == host:
            heirs = [s for i, s in enumerate(seats) if i != mine and not s.get("computer")]
            if not heirs:
                raise Refusal("You are the only person at this table: press Cancel to close it.")
            row.extra["host"] = int(heirs[0]["user_id"])
            event = f"{name} left; {heirs[0]['name']} is the host now."
        del seats[mine]
        return event
    if op == LOBBY_COMPUTER:
        if mine is None:
            raise Refusal("Only players seated at this table can add computer players.")
        if len(seats) >= engine.max_seats:
            raise Refusal(f"The table is full ({engine.max_seats} seats).")
        computer = free_computer_name(seats)
        seats.append({"user_id": None, "name": computer, "computer": True})
        return f"{name} added {computer}."
    if op.startswith(LOBBY_DROP):
        if user_id != host:
            raise Refusal(f"Only the host, {host_name}, can remove computer players.")
        seat = _seat_index(op, LOBBY_DROP, seats)
        if not seats[seat].get("computer"):
            raise Refusal("Only computer players can be removed; people leave by themselves.")
        gone = seats.pop(seat)
        return f"{name} removed {gone['name']}."
    if op.startswith(LOBBY_HOST):
        if user_id != host:
            raise Refusal(f"Only the host, {host_name}, can hand the host role on.")
        seat = _seat_index(op, LOBBY_HOST, seats)
        if seats[seat].get("computer") or seats[seat].get("user_id") == host:
            raise Refusal("Choose another person seated at the table.")
        row.extra["host"] = int(seats[seat]["user_id"])
        return f"{name} handed the host role to {seats[seat]['name']}."
    if op == LOBBY_START:
        if user_id != host:
            raise Refusal(f"Only the host, {host_name}, can start the game.")
        if not engine.min_seats <= len(seats) <= engine.max_seats:
            raise Refusal(
                f"{engine.title} needs {engine.min_seats} to {engine.max_seats} seats; "
                f"{len(seats)} taken. Invite someone or add a computer player."
            )
        options = {**row.options, "names": [s["name"] for s in seats]}
        host_seat = next((i for i, s in enumerate(seats) if s.get("user_id") == host), 0)
        if "start_seat" in options:
            options["start_seat"] = host_seat  # "me (the host)": whoever hosts now
        state = engine.new(seed(), len(seats), options)
        row.state = engine.dump(state)
        row.status = "active"
        return f"{name} started the game with {len(seats)} players."
    if op == LOBBY_CANCEL:
        if user_id != host and not can_manage:
            raise Refusal("Only the host (or a member with Manage Messages) can cancel.")
        row.status = "abandoned"
        return f"{name} closed the table."
    raise Refusal("That button is not valid.")
