"""Lobbies of seated games: joining, leaving, computer players, the host, starting.

:func:`lobby_step` applies one lobby operation (a :class:`LobbyStep`) to a stored row
and its typed seats (in place) and returns the event to show, or raises a Refusal saying
why not. Seats are taken in join order (S3); the host is the table's starter until the
role is handed on (``TableData.host``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from bot.games.protocol import Engine
from bot.table import seating
from bot.table.data import TableData
from bot.table.errors import Refusal
from bot.table.seats import Seat
from bot.text.alike import alike, distinct

#: Lobby operations, as action ids on lobby boards; ``lobby.drop.N`` removes the computer
#: player in seat N, ``lobby.kick.N`` the person in seat N, and ``lobby.host.N`` hands the
#: host role to the person in seat N.
LOBBY_JOIN = "lobby.join"
LOBBY_LEAVE = "lobby.leave"
LOBBY_COMPUTER = "lobby.computer"
LOBBY_START = "lobby.start"
LOBBY_CANCEL = "lobby.cancel"
LOBBY_DROP = "lobby.drop."
LOBBY_HOST = "lobby.host."
LOBBY_KICK = "lobby.kick."
#: A seated person takes the host role of a host who is no longer in the server, or who
#: has done nothing in the lobby for :data:`HOST_AWAY_SECONDS` (never a button: the host
#: controls find the host gone or away, see :func:`_claim`).
LOBBY_CLAIM = "lobby.claim"
#: How long a lobby's host may do nothing there (the bot running) before a seated person
#: may take the role (the lobby itself ends after an hour without a move).
HOST_AWAY_SECONDS = 600.0
#: The host's private controls (start, cancel, computer levels, people, invitations).
LOBBY_PANEL = "lobby.panel"
#: ``lobby.invite.<user id>``: the host invites that member (a mention, no seat).
LOBBY_INVITE = "lobby.invite."
#: ``lobby.level.N.hard``: the computer player in seat N plays at that level.
LOBBY_LEVEL = "lobby.level."
LOBBY_ACTIONS = (LOBBY_JOIN, LOBBY_LEAVE, LOBBY_COMPUTER, LOBBY_START, LOBBY_CANCEL)
LOBBY_PREFIX = "lobby."

#: Names given to computer players, in order (then "Computer 5", "Computer 6"...).
COMPUTER_NAMES = ("Ada (computer)", "Brass (computer)", "Cog (computer)", "Dynamo (computer)")


def computer_names() -> Iterator[str]:
    """Yield names for computer players, never running out."""
    yield from COMPUTER_NAMES
    number = len(COMPUTER_NAMES) + 1
    while True:
        yield f"Computer {number}{seating.COMPUTER_SUFFIX}"
        number += 1


#: How well a computer player plays, by level, as players read it.
COMPUTER_LEVELS = {"easy": "Easy", "normal": "Normal", "hard": "Hard"}

#: The level of a computer player nobody chose one for.
DEFAULT_LEVEL = "normal"


def computer_seat(name: str, level: str = DEFAULT_LEVEL) -> Seat:
    """Return a computer player's seat (its level kept with it)."""
    return Seat.computer_player(name, level)


def distinct_name(name: str, seats: Iterable[Seat]) -> str:
    """Return a person's name for a seat: ``name``, or with a number after it when a seat
    has it already ("Sam (2)"), so two people named alike are told apart wherever their
    seats are named (the board, the picture, the host's controls)."""
    return distinct(name, (seat.name for seat in seats))


def free_computer_name(seats: list[Seat]) -> str:
    """Return a computer player's name no seat uses yet (people may be named alike)."""
    used = {alike(s.name) for s in seats}
    return next(n for n in computer_names() if alike(n) not in used)


def _seat_index(op: str, prefix: str, seats: list[Seat]) -> int:
    raw = op.removeprefix(prefix)
    if not raw.isascii() or not raw.isdigit() or not 0 <= int(raw) < len(seats):
        raise Refusal("That seat no longer exists; the board has been updated.")
    return int(raw)


@dataclass(slots=True)
class LobbyStep:
    """One lobby operation as asked: the row and seats it changes, its table data, and
    who asks."""

    row: Any
    #: The game's seats (changed in place).
    seats: list[Seat]
    data: TableData
    engine: Engine
    user_id: int
    name: str
    can_manage: bool
    seed: Callable[[], int]
    #: The host Discord said is no longer in the server, when the asker asked about one
    #: (the host by then, unless someone claimed the role or it was handed on meanwhile).
    host_left: int | None = None
    #: Whether the host has done nothing in the lobby for :data:`HOST_AWAY_SECONDS`.
    host_away: bool = False

    @property
    def host(self) -> int:
        """The host's user id."""
        return seating.host_id(self.data, self.row.starter_id)

    @property
    def host_name(self) -> str:
        """The host's name at the table."""
        return next((s.name for s in self.seats if s.holds(self.host)), "the host")

    @property
    def seated_name(self) -> str:
        """The asker's name as their seat has it ("Sam (2)" beside another Sam), or their
        own name when they have no seat (a moderator closing the table)."""
        mine = self.mine
        return self.name if mine is None else self.seats[mine].name

    @property
    def mine(self) -> int | None:
        """The asker's seat, or None."""
        return next((i for i, s in enumerate(self.seats) if s.holds(self.user_id)), None)

    def require_host(self, doing: str) -> None:
        """Refuse anyone but the host."""
        if self.user_id != self.host:
            raise Refusal(f"Only the host, {self.host_name}, can {doing}.")

    def require_room(self) -> None:
        """Refuse when every seat is taken."""
        if len(self.seats) >= self.engine.max_seats:
            raise Refusal(f"The table is full ({self.engine.max_seats} seats).")


def _join(step: LobbyStep, _op: str) -> str:
    if step.mine is not None:
        raise Refusal("You are already seated at this table.")
    step.require_room()
    name = distinct_name(step.name, step.seats)
    step.seats.append(Seat.person(step.user_id, name))
    return f"{name} joined."


def _leave(step: LobbyStep, _op: str) -> str:
    mine = step.mine
    if mine is None:
        raise Refusal("You are not seated at this table.")
    event = f"{step.seated_name} left."
    if step.user_id == step.host:
        heirs = [s for i, s in enumerate(step.seats) if i != mine and not s.computer]
        if not heirs:
            raise Refusal("You are the only person at this table: to close it, press "
                          "**Host controls**, then **Close the table**.")
        step.data.host = heirs[0].user_id
        event = f"{step.seated_name} left; {heirs[0].name} is the host now."
    del step.seats[mine]
    return event


def _computer(step: LobbyStep, _op: str) -> str:
    if step.mine is None:
        raise Refusal("Only players seated at this table can add computer players.")
    step.require_room()
    computer = free_computer_name(step.seats)
    step.seats.append(computer_seat(computer))
    return f"{step.seated_name} added {computer} ({COMPUTER_LEVELS[DEFAULT_LEVEL]})."


def _drop(step: LobbyStep, op: str) -> str:
    step.require_host("remove computer players")
    seat = _seat_index(op, LOBBY_DROP, step.seats)
    if not step.seats[seat].computer:
        raise Refusal("Only computer players can be removed; people leave by themselves.")
    gone = step.seats.pop(seat)
    return f"{step.seated_name} removed {gone.name}."


def _kick(step: LobbyStep, op: str) -> str:
    step.require_host("remove people from the table")
    seat = _seat_index(op, LOBBY_KICK, step.seats)
    chosen = step.seats[seat]
    if chosen.computer:
        raise Refusal("Computer players are removed from the computer players' list.")
    if chosen.user_id == step.host:
        raise Refusal("You are the host: hand the host role on first, or close the table "
                      "(**Host controls**, then **Close the table**).")
    del step.seats[seat]
    return f"{step.seated_name} removed {chosen.name} from the table."


def _set_level(step: LobbyStep, op: str) -> str:
    step.require_host("choose how well computer players play")
    seat_text, _, level = op.removeprefix(LOBBY_LEVEL).partition(".")
    seat = _seat_index(LOBBY_LEVEL + seat_text, LOBBY_LEVEL, step.seats)
    if not step.seats[seat].computer or level not in COMPUTER_LEVELS:
        raise Refusal("Only computer players have a level; choose one from the list.")
    step.seats[seat] = step.seats[seat].with_level(level)
    return f"{step.seats[seat].name} plays {COMPUTER_LEVELS[level]} now."


def _hand_host(step: LobbyStep, op: str) -> str:
    step.require_host("hand the host role on")
    seat = _seat_index(op, LOBBY_HOST, step.seats)
    chosen = step.seats[seat]
    if chosen.computer or chosen.user_id == step.host:
        raise Refusal("Choose another person seated at the table.")
    step.data.host = chosen.user_id
    return f"{step.seated_name} handed the host role to {chosen.name}."


def _claim(step: LobbyStep, _op: str) -> str:
    """The host left the server, or has done nothing in the lobby for a while: nobody
    could start or close the table but a moderator, so the first seated person to open
    the host controls hosts it. The seat of a host who left goes (they cannot take it
    back from outside the server); one who is away keeps theirs."""
    mine = step.mine
    left = step.host_left == step.host
    if not (left or step.host_away) or mine is None or step.user_id == step.host:
        raise Refusal(f"Only the host, {step.host_name}, can use the host controls.")
    host, name = step.host, step.host_name
    step.data.host = step.user_id
    if not left:
        minutes = round(HOST_AWAY_SECONDS / 60)
        return f"{name} was idle {minutes} min; {step.seated_name} hosts now."
    step.seats[:] = [s for s in step.seats if not s.holds(host)]
    return f"{name} left the server; {step.seated_name} hosts now."


def _start(step: LobbyStep, _op: str) -> str:
    step.require_host("start the game")
    engine, seats, row = step.engine, step.seats, step.row
    if not engine.min_seats <= len(seats) <= engine.max_seats:
        raise Refusal(
            f"{engine.title} needs {engine.min_seats} to {engine.max_seats} seats; "
            f"{len(seats)} taken. Invite someone or add a computer player."
        )
    options = {**row.options, "names": [s.name for s in seats],
               "levels": [s.level if s.computer else None for s in seats]}
    if any(spec.name == "people" for spec in engine.options):
        options["people"] = [i for i, s in enumerate(seats) if not s.computer]
    if "start_seat" in options:  # "me (the host)": whoever hosts now
        options["start_seat"] = next(
            (i for i, s in enumerate(seats) if s.user_id == step.host), 0)
    row.state = engine.dump(engine.new(step.seed(), len(seats), options))
    row.status = "active"
    return f"{step.seated_name} started the game with {len(seats)} players."


def _cancel(step: LobbyStep, _op: str) -> str:
    if step.user_id != step.host and not step.can_manage:
        raise Refusal("Only the host (or a member with Manage Messages) can close the table.")
    step.row.status = "abandoned"
    return f"{step.seated_name} closed the table."


_OPERATIONS: dict[str, Callable[[LobbyStep, str], str]] = {
    LOBBY_JOIN: _join, LOBBY_LEAVE: _leave, LOBBY_COMPUTER: _computer, LOBBY_START: _start,
    LOBBY_CANCEL: _cancel, LOBBY_DROP: _drop, LOBBY_HOST: _hand_host,
    LOBBY_LEVEL: _set_level, LOBBY_KICK: _kick, LOBBY_CLAIM: _claim,
}


#: Why a member who cannot see the table's channel is not invited.
CANNOT_SEE = ("They cannot see this channel, so they could not join the table: ask a "
              "moderator to let them in first.")

#: Why a bot is not invited.
NO_BOTS = "Bots cannot take a seat; add a computer player instead."


def not_a_member(name: str) -> str:
    """Why ``name``, a user who is not in the server (any more), is not invited."""
    return f"{name} is not a member of this server now: choose someone who is."


def invite_refusal(seats: list[Seat], host: int, asker: int, user_id: int,
                   *, is_bot: bool, status: str, full: bool, sees: bool = True,
                   invited: str = "", name: str = "") -> str | None:
    """Return why the member ``user_id`` cannot be invited to this lobby, or None if they
    can (``sees``: whether they can see the table's channel; ``invited``: where their
    invitation to it is, "" when there is none; ``name``: theirs, "" when not known)."""
    if status != "lobby":
        return ("The game has already started; invitations are for open tables."
                if status == "active" else "This table was closed.")
    if asker != host:
        return "Only the host can invite people to this table."
    if is_bot:
        return NO_BOTS
    if not sees:
        return CANNOT_SEE
    if user_id == asker:
        return "You are already seated at this table."
    if any(s.holds(user_id) for s in seats):
        return "They are already seated at this table."
    if invited:
        return f"{f'{name} is' if name else 'They are'} invited already: {invited}"
    if full:
        return "The table is full: nobody else can join."
    return None


def lobby_step(step: LobbyStep, op: str) -> str:
    """Apply lobby operation ``op`` to the step's row and seats (in place); return the
    event or refuse."""
    if step.row.status != "lobby":
        raise Refusal("The game has already started; the lobby buttons do nothing now.")
    for prefix in (LOBBY_DROP, LOBBY_HOST, LOBBY_LEVEL, LOBBY_KICK):
        if op.startswith(prefix):
            return _OPERATIONS[prefix](step, op)
    operation = _OPERATIONS.get(op)
    if operation is None:
        raise Refusal("That button is not valid.")
    return operation(step, op)
