"""What the stores hand out: a game row, a result row, and the helpers around them."""

from __future__ import annotations

import asyncio
import json
import logging
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

#: Statuses of a game that still occupies its channel (ruling C3).
OPEN_STATUSES = ("lobby", "active")

#: A process's share of the games: ``(shard id or ids, shard count)``. A game belongs to
#: shard ``(guild_id >> 22) % shard_count``; games outside a server belong to shard 0.
Shards = tuple[int | tuple[int, ...], int]


#: What a finished game's table data keeps once retention empties it: how the table
#: played (who voted, the window, the turn timer, the notices), which "Play again" opens
#: the next table with; and where a turn notice still stands, if one does (a game called
#: off while the bot was out of its server: taken down if the bot is added back); no
#: member's name, vote or move.
KEPT_SETTINGS = ("mode", "window", "turn_seconds", "notices", "notice")


def settings_only(extra: str | None) -> str:
    """Return a game's stored table data (JSON text) with only :data:`KEPT_SETTINGS`."""
    try:
        data = json.loads(extra or "{}")
    except ValueError:
        return "{}"
    if not isinstance(data, dict):
        return "{}"
    return json.dumps({k: data[k] for k in KEPT_SETTINGS if k in data},
                      separators=(",", ":"))


#: The least a save moves a game's ``updated_at`` on (seconds), so that every save of a
#: game leaves a different one, even with a clock that stands still or steps back.
SAVE_STEP = 0.001


def save_time(now: float, last: float) -> float:
    """Return the ``updated_at`` a save made at ``now`` writes over ``last``: later than
    ``last`` by :data:`SAVE_STEP` at least, as the save's compare-and-swap needs."""
    return now if now >= last + SAVE_STEP else last + SAVE_STEP


_N = TypeVar("_N", int, float)
_Line = TypeVar("_Line")
log = logging.getLogger(__name__)
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def to_json(value: Any) -> str:
    """Return ``value`` as compact JSON text, as every JSON column stores it."""
    return _ENCODER.encode(value)


@dataclass(slots=True)
class GameRow:
    """One game as stored: who, where, which state, which board message."""

    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    status: str
    starter_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    only_starter: bool
    state: dict[str, Any] | None
    version: int
    events: list[str]
    board_channel_id: int | None
    board_message_id: int | None
    board_posted_at: float | None
    created_at: float
    updated_at: float
    daily: str | None = None
    raw_state: str | None = field(default=None, repr=False)
    #: The table's own data beside the engine's state: votes, players, timers, notices.
    extra: dict[str, Any] = field(default_factory=dict)
    #: When the game next needs the bot without a click (a vote window, a turn timer).
    deadline: float | None = None
    #: The JSON columns whose stored text was not JSON (read as empty instead): the
    #: table reports such a game as damaged.
    damaged: tuple[str, ...] = ()
    #: The stored text of each damaged column (:meth:`document_text` writes it back).
    raw_damaged: dict[str, str] = field(default_factory=dict, repr=False, compare=False)
    #: What is known of the very ``state`` document: ``(the engine's state object or
    #: None, the document, its stored text or None)`` (see :meth:`engine_state`).
    loaded: tuple[Any, Any, str | None] | None = field(default=None, repr=False,
                                                      compare=False)

    @property
    def is_open(self) -> bool:
        """Whether the game still occupies its channel."""
        return self.status in OPEN_STATUSES

    def _known(self) -> tuple[Any, Any, str | None] | None:
        """Return :attr:`loaded` while it is about ``state`` as it is now, else None.

        It is only while ``state`` is still the very document it was noted with: a new
        document (a new state, a row read again) has nothing known until noted. Engines
        never change a state in place, nor the table a state document, so what is known
        stays true for as long as the document is the same object.
        """
        loaded = self.loaded
        if loaded is None or self.state is None or loaded[1] is not self.state:
            return None
        return loaded

    def engine_state(self) -> Any:
        """Return the engine's state object of ``state`` if known, else None."""
        known = self._known()
        return None if known is None else known[0]

    def note_state(self, engine_state: Any) -> None:
        """Note ``engine_state`` as the engine's state object of ``state`` as it is now
        (its stored text stays known if it was)."""
        known = self._known()
        self.loaded = (engine_state, self.state, None if known is None else known[2])

    def document_text(self, column: str, value: Any) -> str:
        """Return the JSON column ``column`` as a save stores it: ``value`` as JSON, or
        the column's text as read when it was damaged. A save of a damaged game (its
        vote closed, its deadline cleared, the game ended) writes no empty stand-in
        over what it had, and the game stays damaged."""
        raw = self.raw_damaged.get(column)
        return to_json(value) if raw is None else raw

    def state_text(self) -> str | None:
        """Return the state as its column stores it (its stored text when known)."""
        known = self._known()
        if known is not None and known[2] is not None:
            return known[2]
        return self.raw_state if self.state is None else to_json(self.state)


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game about to be stored: what :meth:`GameStore.create_game` inserts."""

    guild_id: int | None
    channel_id: int
    kind: str
    status: str
    starter_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    only_starter: bool
    state: dict[str, Any] | None
    events: list[str]
    #: The day (``YYYY-MM-DD``) of a daily deal, or None.
    daily: str | None = None
    #: The table's own data (see :class:`GameRow`).
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One player's result of a finished game."""

    user_id: int
    outcome: str
    score: int
    detail: dict[str, Any]
    #: Whether the result is shared by a group that played a channel game together (C5).
    together: bool = False
    #: The name the member played under, as boards showed it (None: not known).
    name: str | None = None


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished rated game: its rank (1 is first; ties share a rank) and
    either the person in it (``user_id``) or, for a computer player, its fixed rating."""

    rank: int
    user_id: int | None = None
    mu: float = 0.0
    sigma: float = 0.0


@dataclass(frozen=True, slots=True)
class VoterRow:
    """One member's part in a channel-played game (table ``voters``): the name they
    played under and their latest ballot (rulings C4, C5).

    ``version`` is the board version of the decision their latest ballot is for (None:
    they never voted, only clicked in a game where anyone's click moves at once);
    ``decided`` the board version of the latest decision made by vote that they voted
    in; ``seq`` orders a decision's ballots as they were cast.
    """

    user_id: int
    name: str
    version: int | None = None
    decided: int | None = None
    action: str | None = None
    label: str | None = None
    at: float | None = None
    seq: int = 0

    def values(self, game_id: int) -> tuple[Any, ...]:
        """Return the row's columns in :data:`VOTER_COLUMNS` order, for ``game_id``."""
        return (game_id, self.user_id, self.name, self.version, self.decided, self.action,
                self.label, self.at, self.seq)


#: The columns of ``voters`` in the order :func:`row_to_voter` reads them.
VOTER_COLUMNS = "game_id, user_id, name, version, decided, action, label, at, seq"


def row_to_voter(row: Sequence[Any]) -> VoterRow:
    """Build a VoterRow from a row of :data:`VOTER_COLUMNS`; a value that cannot be read
    (a damaged row) reads as none, logged: a ballot with no decision, time or order."""
    action, label = row[5], row[6]
    numbers = (_read_or_none(int, row[3]), _read_or_none(int, row[4]),
               _read_or_none(float, row[7]), _read_or_none(int, row[8]))
    damaged = [name for name, raw, read in zip(("version", "decided", "at", "seq"),
                                               (row[3], row[4], row[7], row[8]), numbers,
                                               strict=True) if raw is not None and read is None]
    if damaged:
        log.warning("the stored ballot of member %s in game %s has unreadable %s: "
                    "taken as none", row[1], row[0], ", ".join(damaged))
    return VoterRow(int(row[1]), str(row[2]), numbers[0], numbers[1],
                    action if isinstance(action, str) else None,
                    label if isinstance(label, str) else None, numbers[2], numbers[3] or 0)


def _read_or_none(kind: Callable[[Any], _N], value: Any) -> _N | None:
    """Return ``value`` read as ``kind`` (int, float), or None when it is none or cannot
    be read."""
    if value is None:
        return None
    try:
        return kind(value)
    except (TypeError, ValueError):
        return None


#: The columns of ``games`` in the order :func:`row_to_game` reads them.
GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, starter_id, seats, options, only_starter, "
    "state, version, events, board_channel_id, board_message_id, board_posted_at, "
    "created_at, updated_at, daily, extra, deadline"
)


def _document(raw: Any, empty: list[Any] | dict[str, Any], column: str,
              damaged: list[str]) -> Any:
    """Return a JSON column's value, or ``empty`` (noting ``column`` in ``damaged``) when
    its text is not JSON of ``empty``'s kind (a list or an object)."""
    try:
        value = json.loads(raw)
    except (TypeError, ValueError):
        value = None
    if not isinstance(value, type(empty)):
        damaged.append(column)
        return empty
    return value


def row_to_game(row: Sequence[Any]) -> GameRow:
    """Build a GameRow from a row of :data:`GAME_COLUMNS`.

    A damaged state loads as None; seats, options, events or table data whose text is
    not JSON of their kind (a list, an object) load empty and are named in ``damaged``,
    so that reading a row never fails.
    """
    raw_state = row[9]
    try:
        state = json.loads(raw_state) if raw_state is not None else None
    except ValueError:
        state = None
    damaged: list[str] = []
    seats = _document(row[6], [], "seats", damaged)
    options = _document(row[7], {}, "options", damaged)
    events = _document(row[11], [], "events", damaged)
    extra = _document(row[18], {}, "extra", damaged)
    return GameRow(
        id=int(row[0]),
        guild_id=row[1],
        channel_id=row[2],
        kind=row[3],
        status=row[4],
        starter_id=row[5],
        seats=seats,
        options=options,
        only_starter=bool(row[8]),
        state=state,
        version=row[10],
        events=events,
        board_channel_id=row[12],
        board_message_id=row[13],
        board_posted_at=row[14],
        created_at=row[15],
        updated_at=row[16],
        daily=row[17],
        raw_state=raw_state,
        extra=extra,
        deadline=row[19],
        damaged=tuple(damaged),
        raw_damaged={column: text for column, text in (
            ("seats", row[6]), ("options", row[7]), ("events", row[11]), ("extra", row[18]))
            if column in damaged and isinstance(text, str)},
        loaded=None if state is None else (None, state, raw_state),
    )


def board_of(row: Sequence[Any] | None) -> tuple[int, int] | None:
    """Return the board a row of (board channel id, board message id) names, or None
    when it names none (or there is no row)."""
    if row is None or row[0] is None or row[1] is None:
        return None
    return int(row[0]), int(row[1])


def idle_group(game: GameRow) -> str:
    """Return the housekeeping group of a game: ``lobby``, ``solo`` or ``multi``."""
    if game.status == "lobby":
        return "lobby"
    return "solo" if len(game.seats) <= 1 else "multi"


def shard_terms(shards: Shards | None) -> tuple[int, tuple[int, ...]] | None:
    """Return ``(shard count, shard ids)`` for a shard filter, or None for every game."""
    if shards is None:
        return None
    ids, count = shards
    wanted = (ids,) if isinstance(ids, int) else tuple(ids)
    if count < 1 or not wanted or any(not 0 <= i < count for i in wanted):
        raise ValueError(f"bad shard filter {shards!r}")
    return count, wanted


def shard_sql(shards: Shards | None) -> str:
    """Return an SQL condition (no parameters) keeping the games of ``shards``; portable."""
    terms = shard_terms(shards)
    if terms is None:
        return "1 = 1"
    count, wanted = terms
    ids = ", ".join(str(i) for i in wanted)
    return f"((COALESCE(guild_id, 0) >> 22) % {count}) IN ({ids})"


#: The ids of a server's open games after a given id, ascending, a page at a time
#: (parameters: guild id, after id, limit; ``?`` style). The index of open games by server
#: answers it (SQLite migration 14, PostgreSQL 15): only that server's open games are read.
OPEN_IN_GUILD_SQL = ("SELECT id FROM games WHERE guild_id = ? AND id > ?"
                     " AND status IN ('lobby', 'active') ORDER BY id LIMIT ?")


#: A condition (portable, no parameters) true of every row whose seats may hold a
#: computer player or an away seat, the only seats a computer plays: both are written
#: as JSON ``true`` (:meth:`bot.table.seats.Seat.to_json`), and nothing else in a seat is
#: a boolean. A name with "true" in it passes too (the caller loads the game and looks);
#: a damaged row passes or not, and is counted as no seats by the seat count after it.
COMPUTER_SEATED = "seats LIKE '%true%'"


#: The games with a board saved at or after a time, newest first, at most a number
#: (parameters: the time, the limit; ``?`` style; ``{games}`` is the table, with the
#: backend's index hint, and ``{shards}`` the shard condition). Open games and games that
#: ended then alike: an ended game's last board (its result, no move buttons) matters
#: most. Every status is named, so the index by status and age, ``games_open_by_age``
#: (migration 1 on both backends: it holds every game, open or not), answers it: one
#: range of recent rows per status is read, however many games there are.
CHANGED_SINCE_SQL = ("SELECT id FROM {games} WHERE status IN"
                     " ('lobby', 'active', 'over', 'abandoned', 'expired')"
                     " AND updated_at >= ? AND board_message_id IS NOT NULL AND {shards}"
                     " ORDER BY updated_at DESC LIMIT ?")


def idle_sql(cutoffs: dict[str, float], seat_count: str) -> tuple[str, list[float]]:
    """Return the condition for idle open games and its four parameters (``?`` style).

    ``seat_count`` is the backend's SQL for the number of seats of a row.
    """
    sql = (
        "status IN ('lobby', 'active') AND updated_at < ? AND ("
        "(status = 'lobby' AND updated_at < ?) OR (status = 'active' AND ("
        f"CASE WHEN {seat_count} > 1 THEN updated_at < ? ELSE updated_at < ? END)))"
    )
    never = float("-inf")
    lobby, solo, multi = (cutoffs.get(g, never) for g in ("lobby", "solo", "multi"))
    args = [max(lobby, solo, multi), lobby, multi, solo]
    return sql, args


class KeptRows:
    """The row this process last saved of each recently played open game, as stored.

    A click on a game this process has just saved is served from here instead of a read
    (the read is a round trip to the database's thread or server, the largest single
    piece of a click after the save itself). It cannot serve anything stale for long:
    every save is a compare-and-swap on the version *and* ``updated_at``, which every
    save changes, so a row another process (or anything else) wrote since fails the save
    and the caller reads the game again. Only open games are kept: nothing but a save
    rewrites them. Each :meth:`take` builds a fresh :class:`GameRow` from the stored
    text, so callers may change what they get freely, the engine's state object aside:
    the one the save wrote comes along, shared (:meth:`GameRow.engine_state`), so a click
    on a kept game does not load its state again (about 2 KB a game; the state's JSON
    document, three times that, is read anew from the text). Neither engines nor the
    table change a state in place, and an engine's dump shares nothing with its state
    (``tests/games/test_states_never_change.py``).

    With each game go the rows of its ``voters`` table that this process's saves wrote
    (the newest :attr:`voters_per_game`): they are as stored for the same reason, since
    nothing but a save of the game writes them, and a vote of a member found here needs
    no read (:mod:`bot.table.voters`).

    The board columns are another matter: ``set_board`` writes them with no save (and
    leaves ``updated_at`` as it is), so a save, whose game was read before, never brings
    its board back here. The kept row keeps the board :meth:`board` noted last; a game
    not kept when its board moved keeps that board once a save keeps it again.
    """

    #: How many voters' rows are kept with a game at most (the most recently written).
    voters_per_game = 16

    def __init__(self, capacity: int = 4096) -> None:
        #: How many games are kept at most; the least recently saved go first.
        self.capacity = capacity
        self._rows: dict[int, tuple[Any, ...]] = {}
        self._voters: dict[int, dict[int, VoterRow]] = {}
        #: The boards noted of games not kept then: (channel id, message id, posted at).
        self._boards: dict[int, tuple[Any, ...]] = {}
        #: Per game, held by a store's ``set_board`` over its write and its note here, so
        #: that of two boards set at once the kept row names the one stored last (a lock
        #: goes once no one holds or awaits it).
        self._board_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    def __len__(self) -> int:
        return len(self._rows)

    def keep(self, game: GameRow, columns: Sequence[Any], now: float,
             voters: Sequence[VoterRow] = (), since: float | None = None) -> None:
        """Remember ``game`` as just saved at ``now``, with ``columns`` (seats, options,
        state, events, extra) as the text written and ``voters`` the voters' rows written
        with it; a finished game is forgotten. The voters' rows kept before stay when the
        save replaced the kept row itself (its ``updated_at`` was ``since``): nothing
        else wrote the game in between. The board is the one noted last by
        :meth:`board`, if any, not ``game``'s (read before the save, it may be older)."""
        rows = self._rows
        before = rows.pop(game.id, None)
        noted = self._boards.pop(game.id, None) if before is None else before[12:15]
        board = _later_board(noted, game)
        known = self._voters.pop(game.id, {})
        if before is None or since is None or before[16] != since:
            known = {}
        if not game.is_open:
            return
        for voter in voters:
            known.pop(voter.user_id, None)
            known[voter.user_id] = voter
        while len(known) > self.voters_per_game:
            del known[next(iter(known))]
        if known:
            self._voters[game.id] = known
        seats, options, state, events, extra = columns
        rows[game.id] = (
            game.id, game.guild_id, game.channel_id, game.kind, game.status, game.starter_id,
            seats, options, int(game.only_starter), state, game.version, events,
            *board, game.created_at, now, game.daily, extra, game.deadline, game.engine_state(),
        )
        if len(rows) > self.capacity:
            oldest = next(iter(rows))
            del rows[oldest]
            self._voters.pop(oldest, None)

    def take(self, game_id: int) -> GameRow | None:
        """Return a fresh copy of the game's kept row, or None when it is not kept."""
        row = self._rows.get(game_id)
        if row is None:
            return None
        game = row_to_game(row)
        if game.state is not None:
            game.loaded = (row[20], game.state, row[9])
        return game

    def board_at(self, game_id: int) -> tuple[int | None, int | None] | None:
        """Return a kept game's board as (channel id, message id), with no copy of its
        row made, or None when the game is not kept."""
        row = self._rows.get(game_id)
        return None if row is None else (row[12], row[13])

    def voters(self, game_id: int) -> dict[int, VoterRow]:
        """Return the kept voters' rows of a kept game, by user id (a new dict)."""
        return dict(self._voters.get(game_id, {})) if game_id in self._rows else {}

    def board_lock(self, game_id: int) -> asyncio.Lock:
        """Return the lock a store holds while it sets the game's board and notes it."""
        lock = self._board_locks.get(game_id)
        if lock is None:
            lock = self._board_locks[game_id] = asyncio.Lock()
        return lock

    def saw(self, game: GameRow | None) -> GameRow | None:
        """Note the board of ``game`` as just read from storage when it was posted after
        the kept one (another process set it: setting a board leaves the row's
        ``updated_at`` as it was, so the kept row is still taken); return ``game``."""
        row = None if game is None else self._rows.get(game.id)
        if game is not None and row is not None and _later_board(row[12:15], game) != row[12:15]:
            self._rows[game.id] = (*row[:12], game.board_channel_id, game.board_message_id,
                                   game.board_posted_at, *row[15:])
        return game

    def board(self, game_id: int, channel_id: int, message_id: int, posted_at: float) -> None:
        """Note a new board message of a game (as stored: a later save keeps it)."""
        row = self._rows.get(game_id)
        if row is not None:
            self._rows[game_id] = (*row[:12], channel_id, message_id, posted_at, *row[15:])
            return
        boards = self._boards
        boards.pop(game_id, None)
        boards[game_id] = (channel_id, message_id, posted_at)
        if len(boards) > self.capacity:
            del boards[next(iter(boards))]

    def drop(self, game_id: int | None = None) -> None:
        """Forget one game (after a failed save), or every game (``None``)."""
        if game_id is None:
            self._rows.clear()
            self._voters.clear()
            self._boards.clear()
        else:
            self._rows.pop(game_id, None)
            self._voters.pop(game_id, None)
            self._boards.pop(game_id, None)


def daily_takers(game: GameRow, action: dict[str, Any] | None, actor_id: int | None,
                 voters: Sequence[VoterRow], now: float) -> list[tuple[Any, ...]]:
    """Return the rows of ``daily_played`` a save of a daily game writes (none for another
    game): the member who made its move (a logged ``action``) and every voter whose ballot
    it writes took part in it from ``now`` on, if they had not before (the row kept
    first). A row of a name only (a channel game's starter, before they click) is not a
    part taken."""
    if game.daily is None:
        return []
    people = {v.user_id for v in voters if v.version is not None or v.action is not None}
    if actor_id is not None and action is not None and "action" in action:
        people.add(actor_id)
    return [(user, game.id, game.kind, game.daily, now) for user in sorted(people)]


def _later_board(noted: tuple[Any, ...] | None, game: GameRow) -> tuple[Any, ...]:
    """Return the board posted last of ``noted`` (channel id, message id, posted at) and
    ``game``'s: ``game`` was read before a save and this process may have set a board
    since, or another process set one after this process noted its own."""
    stored = (game.board_channel_id, game.board_message_id, game.board_posted_at)
    if noted is None or (game.board_posted_at is not None
                         and (noted[2] is None or game.board_posted_at > noted[2])):
        return stored
    return noted


class KeptReads:
    """What a store answers from the rows its process keeps (:class:`KeptRows`), with no
    read: shared by both backends."""

    kept: KeptRows

    def kept_game(self, game_id: int) -> GameRow | None:
        """Return the open game as this process last saved it (no read), or None."""
        return self.kept.take(game_id)

    def kept_board(self, game_id: int) -> tuple[int | None, int | None] | None:
        """Return the board of a game this process keeps, as (channel id, message id),
        or None when it keeps none of the game (no read)."""
        return self.kept.board_at(game_id)

    def kept_voters(self, game_id: int) -> dict[int, VoterRow]:
        """Return the voters' rows this process's saves wrote of a kept game (no read)."""
        return self.kept.voters(game_id)


def readable(rows: Iterable[Sequence[Any]], read: Callable[[Sequence[Any]], _Line],
             what: Callable[[Sequence[Any]], str]) -> list[_Line]:
    """Return ``rows`` each ``read``; a row whose values cannot be read (damaged) is left
    out, and logged with ``what`` it is (its table and keys: where to look)."""
    out = []
    for row in rows:
        try:
            out.append(read(row))
        except (TypeError, ValueError) as exc:
            log.warning("a stored %s cannot be read, left out: %s", what(row), exc)
    return out


#: Whether a channel has a game of a day's daily deal of a kind (in any status).
DAILY_TAKEN_SQL = ("SELECT 1 FROM games WHERE channel_id = :channel AND kind = :kind"
                   " AND daily = :daily")


async def daily_taken(query: Callable[[str, dict[str, Any]], Awaitable[list[Any]]],
                      existing: GameRow | None, new: NewGame) -> bool:
    """Whether a start of ``new`` that a unique index refused is refused because the
    channel played its daily deal (of its kind, its day) already, read with the store's
    ``query``, whichever index the database names (SQLite and PostgreSQL name different
    ones when both are broken). Not when that very deal is ``existing``, the channel's
    open game: a second start of it is told of the game going, to play along on."""
    if new.daily is None or (existing is not None and existing.kind == new.kind
                             and existing.daily == new.daily):
        return False
    return bool(await query(DAILY_TAKEN_SQL, {"channel": new.channel_id, "kind": new.kind,
                                              "daily": new.daily}))
