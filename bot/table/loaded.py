"""What the game table hands around: who acts, a loaded game, what a request did."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.protocol import Action, Engine
from bot.table import seating
from bot.table.data import TableData
from bot.table.errors import board_link
from bot.table.seats import Seat
from db.store import GameRow


@dataclass(frozen=True, slots=True)
class Actor:
    """Who pressed a button or ran a command."""

    user_id: int
    name: str
    can_manage: bool = False


@dataclass(slots=True)
class LoadedGame:
    """A stored game with its engine and its loaded state (None in a lobby or if broken)."""

    row: GameRow
    engine: Engine
    state: Any
    broken: str | None = None
    #: The table's own data, read from the row (written back into it by every save).
    data: TableData = field(default_factory=TableData)
    #: The row's seats, typed: read once from the row, written back into it by every save.
    seats: list[Seat] = field(default_factory=list)
    #: Whether the board is shown with its picture (the text may then leave out what the
    #: picture shows in full; a text-only board stays complete).
    pictured: bool = False
    # What the engine said of a state, kept while ``state`` is that very object: the
    # table replaces the state (``game.state = step.state``) and never changes one in
    # place, and holding the state it was computed for keeps its identity from being
    # reused by a new object.
    _view: dict[str, Any] | None = field(default=None, repr=False)
    _view_of: Any = field(default=None, repr=False)
    _legal: dict[int, list[Action]] = field(default_factory=dict, repr=False)
    _legal_of: Any = field(default=None, repr=False)

    def view(self) -> dict[str, Any]:
        """Return the engine's public view of the state (computed once per state)."""
        if self._view is None or self._view_of is not self.state:
            self._view = self.engine.view(self.state)
            self._view_of = self.state
        return self._view

    def legal_actions(self, seat: int) -> list[Action]:
        """Return ``engine.legal_actions(state, seat)`` (computed once per state and seat).

        Each call returns a new list (of the same immutable actions), so a caller may
        change its list without changing what the next caller gets.
        """
        if self._legal_of is not self.state:
            self._legal = {}
            self._legal_of = self.state
        actions = self._legal.get(seat)
        if actions is None:
            actions = self._legal[seat] = list(self.engine.legal_actions(self.state, seat))
        return list(actions)

    @property
    def id(self) -> int:
        """The game's id."""
        return self.row.id

    @property
    def link(self) -> str:
        """A jump link to the current board, or ""."""
        r = self.row
        return board_link(r.guild_id, r.board_channel_id, r.board_message_id)

    @property
    def host_id(self) -> int:
        """The user id of the table's host (the starter unless the role was handed on)."""
        return seating.host_id(self.data, self.row.starter_id)

    def open_to(self, user_id: int) -> str:
        """How the open game stands for ``user_id`` asking to start another beside it
        (see :data:`bot.table.errors.OPEN_GAMES`); "" for a game they may finish or
        abandon themselves (theirs, or a table they play at) and a damaged one."""
        if self.broken:
            return ""
        if self.row.status == "lobby":
            if self.host_id == user_id:
                return "host"
            if self.seat_of(user_id) is not None:
                return "seated"
            return "full" if len(self.seats) >= self.engine.max_seats else "lobby"
        if len(self.seats) >= 2:  # a running table
            seat = self.seat_of(user_id)
            playing = seat is not None and seat not in seating.resigned_seats(self.view())
            return "" if playing else "watched"
        if self.row.starter_id == user_id:
            return ""
        return "theirs" if self.row.only_starter or self.data.mode == "solo" else "shared"

    def held_by(self, user_id: int) -> bool:
        """Whether this open game, which ``user_id`` started, still counts against their
        open games in the server (its setting): they host its lobby, or play at its
        running table themselves (not resigned, not away), or it is a game of one seat
        (theirs to end), or it is damaged (theirs to end). A lobby whose host role
        passed on, or a table they left, is no longer theirs to end."""
        if self.broken:
            return True
        if self.row.status == "lobby":
            return self.host_id == user_id
        if len(self.seats) < 2:
            return True
        seat = self.seat_of(user_id)
        return seat is not None and seat in seating.present_people(
            self.seats, seating.resigned_seats(self.view()))

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat index of ``user_id``, or None if not seated."""
        for index, seat in enumerate(self.seats):
            if seat.holds(user_id):
                return index
        return None

    def seat_name(self, seat: int | None) -> str:
        """Return the display name of a seat."""
        if seat is None or not 0 <= seat < len(self.seats):
            return "nobody"
        return self.seats[seat].name or f"Seat {seat + 1}"

    def to_act(self) -> int | None:
        """Return the seat that must act now, or None."""
        if self.state is None or self.row.status != "active":
            return None
        return self.engine.to_act(self.state)

    def computer_to_act(self) -> bool:
        """Whether a computer makes the next move: a computer player's, or an away seat's."""
        seat = self.to_act()
        return seat is not None and self.played_by_computer(seat)

    def played_by_computer(self, seat: int) -> bool:
        """Whether a computer makes ``seat``'s moves now: a computer player's, or an away
        person's while someone still plays for themselves (else the table waits)."""
        if len(self.seats) < 2 or self.state is None:
            return False
        return seating.played_by_computer(self.seats, seat, seating.resigned_seats(self.view()))

    def shown_away(self, seat: int) -> bool:
        """Whether ``seat`` is marked away on the board (💤): its person is away and a
        computer plays it (an away person the table waits for is not marked)."""
        return 0 <= seat < len(self.seats) and self.seats[seat].away and (
            self.state is None or self.played_by_computer(seat))

    def person_to_act(self) -> int | None:
        """Return the user id of the person whose turn it is (None for a computer or nobody)."""
        seat = self.to_act()
        if seat is None or len(self.seats) < 2 or self.computer_to_act():
            return None
        return self.seats[seat].user_id or None


@dataclass(frozen=True, slots=True)
class Ballot:
    """A vote recorded without a move yet: what the voter is told privately (C4)."""

    label: str
    votes: int
    active: int
    needed: int
    closes: float | None
    changed: bool
    #: The member's first vote in this game: they are told once how voting works.
    first: bool = False
    #: The member changed their vote on this decision.
    switched: bool = False
    #: The move voted for needs a majority (giving up, resigning: C4), never a plurality.
    needs_majority: bool = False

    @property
    def worth_telling(self) -> bool:
        """Whether the voter gets a private line; otherwise the board's tally says it."""
        return self.first or self.switched

    def text(self) -> str:
        """Return the private line: how voting works on a first vote, or the change."""
        if self.switched and not self.first:
            changed = f"You changed your vote to {self.label}."
            if not self.needs_majority:
                return changed
            left_out = ("; when the vote closes it is left out of the count"
                        if self.closes is not None else "")
            return (f"{changed} It needs a majority ({self.needed} of {self.active})"
                    f"{left_out}.")
        tally = f"{self.votes} of {self.active} so far, {self.needed} make a majority"
        if self.needs_majority and self.closes is not None:
            when = "it needs a majority: when the vote closes it is left out of the count"
        elif self.closes is None:
            when = ("it needs a majority, so the vote stays open until one agrees, or "
                    "another move is voted for: that vote's countdown then leaves it out")
        else:
            when = f"the vote closes <t:{int(self.closes)}:R> and ties go to the first vote"
        return (f"Your vote: {self.label} ({tally}; {when}). The board shows the tally; "
                "vote for another move to change your vote.")


@dataclass(frozen=True, slots=True)
class Play:
    """What a request did: the game afterwards and the events it produced.

    ``ballot`` is set when the click was a vote and no move happened yet.
    """

    game: LoadedGame
    events: tuple[str, ...]
    ballot: Ballot | None = None
    #: A person to tell, by a mention, that it is their turn (or still their turn).
    notice: tuple[int, str] | None = None
    #: Set when an away player came back with this click and no move of theirs happened.
    came_back: bool = False
    #: Set with ``came_back`` when the move tried with that click could not be stored (the
    #: storage failed after the return was stored): they are asked to make it again.
    unmade: bool = False
    #: Set when the board shows something that changed though no event says so (a turn
    #: timer started again after its reminder, a vote's countdown stopped).
    redraw: bool = False
    #: Set when ``notice`` is a turn timer's reminder (C6: sent even at a table with
    #: notices off, there without a ping).
    reminder: bool = False
    #: The nonce a reminder's posts carry (:class:`bot.table.data.NoticeDue`): a try made
    #: again while the first was on its way finds that one out by it.
    nonce: str | None = None
    #: Set when the click was a vote that came after its voting window had closed: the
    #: window's decision was made without it (C4), and the voter is told so.
    late: bool = False

    @property
    def finished(self) -> bool:
        """Whether the game is no longer open."""
        return not self.game.row.is_open
