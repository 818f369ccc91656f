"""The table's shared core: one game at a time, loaded, checked, moved and saved.

Every request on a game goes through here: the game's lock, loading its row (with its
engine state and typed table data), refusing a stale board, an ended game or a player
who may not act (rulings C1, C2), applying an engine move, and saving with a
compare-and-swap on the version and the action-log entry in one transaction. The
channel and turn policies are handed this core and use only its public names; the core
knows neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, cast

from bot.games.protocol import BrokenState, Engine, IllegalAction, Outcome
from bot.games.registry import engine as registry_engine
from bot.table import seating, turnlog, voters
from bot.table.daily import SECRET_KEY, new_secret
from bot.table.data import TableData
from bot.table.downtime import Outage, Pauses, StorageTrouble
from bot.table.errors import (
    BrokenGame,
    GameEnded,
    NoSuchGame,
    NotAllowed,
    NotYourTurn,
    Refusal,
    StaleBoard,
    Unavailable,
)
from bot.table.loaded import Actor, LoadedGame, Play
from bot.table.polls import DEFAULT_WINDOW
from bot.table.ratings import rated_seats
from bot.table.results import seat_results, shared_results
from bot.table.seats import Seat, seats_from_json, seats_to_json
from db.base import GameStore
from db.rows import RatedSeat, to_json
from db.store import GameRow, ResultRow, StorageError, VersionConflict

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: How many recent events a game keeps for its board.
RECENT_EVENTS = 12


class SaveConflict(StaleBoard):
    """A save found the game written since it was read: refused as a stale board, or
    retried from a fresh read where the request allows it."""


def _keep_as_read(row: GameRow, *columns: str) -> None:
    """Have every save write ``columns`` back as read: their JSON could be read but not
    what it holds (the game is damaged), and the defaults that stand in for them in hand
    (no seats, empty table data) must never be stored over what an admin could mend."""
    for column in columns:
        row.raw_damaged.setdefault(column, to_json(getattr(row, column)))


class AfterTurn(Protocol):
    """What a seated table does after a move that did not end the game (see turns)."""

    def __call__(
        self, game: LoadedGame, state: Any, before: int | None, events: tuple[str, ...],
        mover: int,
    ) -> tuple[tuple[str, ...], tuple[int, str] | None]:
        """Return the events to show and the turn notice to send, if any (``before`` is
        the seat that was to act, ``mover`` the seat that moved)."""


@dataclass(slots=True)
class _GameLock:
    """One game's lock and how many requests hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class TableCore:
    """Lock, load, check, apply and save one game (see the module docstring)."""

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], float] = time.time,
        engines: Callable[[str], Engine] = registry_engine,
        seeds: Callable[[], int] | None = None,
        vote_window: float = DEFAULT_WINDOW,
    ) -> None:
        self.store = store
        #: The voting window of games that choose none (C4).
        self.vote_window = vote_window
        #: Called with a deadline whenever a saved game's deadline is earlier than before.
        self.on_deadline: Callable[[float], None] = lambda _when: None
        self.clock = clock
        self.engines = engines
        self.seeds = seeds or (lambda: random.SystemRandom().randrange(2**31))
        #: The time the store could not be written while the bot ran (not idle time).
        self.trouble = StorageTrouble()
        #: The times the process stood still or Discord was out of reach (not idle time).
        self.pauses = Pauses()
        self._locks: dict[int, _GameLock] = {}
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._daily_secret: str | None = None

    def unplayed(self) -> list[Outage]:
        """Return the times nobody could play though the bot ran, not yet handed on to
        the outages: the store's trouble, and the pauses (a process that stood still until
        now is found first)."""
        now = self.clock()
        self.pauses.look(now)
        return [*self.trouble.outages(), *self.pauses.outages(now)]

    def now(self) -> float:
        """Return the table's clock reading (seconds since the epoch)."""
        return self.clock()

    # -- loading ------------------------------------------------------------------------

    def wrap(self, row: GameRow) -> LoadedGame:
        """Return ``row`` with its engine, its loaded state and its table data.

        A row this code cannot read (a kind it no longer has, unreadable seats or table
        data) is a damaged game: reported as such, and it can be abandoned.
        """
        seats = self._read_seats(row)
        try:
            eng = self.engines(row.kind)
        except KeyError:
            log.warning("game %s is of a kind this bot no longer has: %r", row.id, row.kind)
            _keep_as_read(row, "extra")  # (a later version of the bot may have it again)
            return LoadedGame(row, cast(Engine, MissingGame(row.kind)), None,
                              broken=f"unknown game {row.kind!r}", seats=seats or [])
        if seats is None:
            log.warning("game %s has unreadable seats", row.id)
            _keep_as_read(row, "seats", "extra")
            row.seats = []
            return LoadedGame(row, eng, None, broken="unreadable seats")
        try:
            data = TableData.from_json(row.extra if isinstance(row.extra, dict) else None)
            if "extra" in row.damaged or not isinstance(row.extra, dict):
                raise TypeError("table data is not an object")
            voters.upgrade(data)
        except (TypeError, ValueError, KeyError, AttributeError) as exc:
            log.warning("game %s has unreadable table data: %s", row.id, exc)
            _keep_as_read(row, "extra")
            return LoadedGame(row, eng, None, broken="unreadable table data", seats=seats)
        if row.damaged:
            log.warning("game %s has unreadable %s", row.id, ", ".join(row.damaged))
            return LoadedGame(row, eng, None, broken=f"unreadable {', '.join(row.damaged)}",
                              data=data, seats=seats)
        if row.status == "lobby" or (row.state is None and not row.is_open):
            # a lobby, or closed before it began
            return LoadedGame(row, eng, None, data=data, seats=seats)
        if row.state is None:
            return LoadedGame(row, eng, None, broken="no state stored", data=data, seats=seats)
        try:
            state = row.engine_state()
            if state is None:
                state = eng.load(row.state)
                row.note_state(state)
            return LoadedGame(row, eng, state, data=data, seats=seats)
        except (BrokenState, KeyError, TypeError, ValueError, IndexError) as exc:
            log.warning("game %s (%s) has a broken state: %s", row.id, row.kind, exc)
            return LoadedGame(row, eng, None, broken=str(exc) or type(exc).__name__, data=data,
                              seats=seats)

    @staticmethod
    def _read_seats(row: GameRow) -> list[Seat] | None:
        """Return the row's seats, typed, or None when they cannot be read."""
        if "seats" in row.damaged or not isinstance(row.seats, list) or not all(
                isinstance(s, dict) for s in row.seats):
            return None
        try:
            return seats_from_json(row.seats)
        except (TypeError, ValueError):
            return None

    async def load(self, game_id: int) -> LoadedGame:
        """Return the game ``game_id``; raise NoSuchGame or Unavailable."""
        try:
            row = await self.store.get_game(game_id)
        except StorageError as exc:
            self.storage_failed(f"loading game {game_id}", exc)
            raise Unavailable() from exc
        if row is None:
            raise NoSuchGame()
        return self.wrap(row)

    def storage_failed(self, doing: str, exc: StorageError) -> None:
        """Note a failed read or write of the store (``doing``: what it was for). The
        first of a span of failures is logged as a warning, the rest at debug level: an
        outage refuses every click, and is two lines, not one a click."""
        if self.trouble.failed(self.clock()):
            log.warning("storage unavailable %s: %s; reads and saves are refused until "
                        "a save works again", doing, exc)
        else:
            log.debug("storage unavailable %s: %s", doing, exc)

    def storage_worked(self) -> None:
        """Note a save that worked: a span of failures, if one was open, is over (logged
        with how long it lasted and how many reads and saves it refused)."""
        failures = self.trouble.failures
        span = self.trouble.worked()
        if span is not None:
            log.info("storage works again after %.0f s; %d reads and saves were refused",
                     max(0.0, self.clock() - span[0]), failures)

    async def guarded(self, work: Awaitable[_T]) -> _T:
        """Return what a read of the store gives; refuse as Unavailable if it fails."""
        try:
            return await work
        except StorageError as exc:
            self.storage_failed("reading", exc)
            raise Unavailable() from exc

    async def open_in_channel(self, channel_id: int) -> LoadedGame | None:
        """Return the channel's open game, or None."""
        try:
            row = await self.store.open_game_in_channel(channel_id)
        except StorageError as exc:
            raise Unavailable() from exc
        return self.wrap(row) if row else None

    # -- one request per game at a time -------------------------------------------------

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Count a request as in flight until the block ends (see :meth:`drain`)."""
        self._in_flight += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._in_flight -= 1
            if self._in_flight == 0:
                self._idle.set()

    def track(self, task: asyncio.Future[Any]) -> None:
        """Count ``task`` as a request in flight until it is done (see :meth:`drain`)."""
        self._in_flight += 1
        self._idle.clear()
        task.add_done_callback(self._request_done)

    def _request_done(self, _task: asyncio.Future[Any]) -> None:
        self._in_flight -= 1
        if self._in_flight == 0:
            self._idle.set()

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock (one request per game at a time) and count it in flight.

        Not re-entrant: code holding it must not start another request on the same game.
        """
        entry = self._locks.get(game_id)
        if entry is None:
            entry = self._locks[game_id] = _GameLock()
        entry.users += 1
        try:
            with self.busy():
                async with entry.lock:
                    yield
        finally:
            entry.users -= 1
            if entry.users == 0:
                del self._locks[game_id]

    def locked_games(self) -> int:
        """Return how many games have a request holding or waiting for their lock."""
        return len(self._locks)

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until no request is being handled; return False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # -- checks -------------------------------------------------------------------------

    @staticmethod
    def check_place(game: LoadedGame, channel_id: int | None) -> None:
        """Refuse a click that does not come from the game's channel (or its board's)."""
        row = game.row
        if channel_id is not None and channel_id not in (row.channel_id, row.board_channel_id):
            raise NotAllowed("That board's game is played in another channel; its buttons "
                             "work only there.")

    def check_open(self, game: LoadedGame, version: int) -> None:
        """Refuse an ended or damaged game, or a board that is not the current one."""
        if not game.row.is_open:
            raise GameEnded(game.row.status)
        if game.broken:
            raise BrokenGame(None if isinstance(game.engine, MissingGame) else game.row.kind)
        if version != game.row.version:
            raise StaleBoard(game.link, game.data.last)

    def seat_for(self, game: LoadedGame, actor: Actor, action_id: str) -> int:
        """Return the seat ``actor`` acts for, or refuse (rulings C1 and C2)."""
        row = game.row
        if row.status == "lobby":
            raise NotAllowed("The game has not started yet: join the table or wait for the host.")
        if len(game.seats) == 1:
            if row.only_starter and actor.user_id != row.starter_id:
                raise NotAllowed(
                    f"Only {game.seat_name(0)} plays this game (they chose \"only me\"). "
                    "Start your own in another channel or thread!"
                )
            return 0
        seat = game.seat_of(actor.user_id)
        if seat is None:
            raise NotAllowed(
                "You are not seated at this table, so you cannot act in it. "
                f"It is {game.seat_name(game.to_act())}'s turn."
            )
        legal = {a.id for a in game.legal_actions(seat)}
        if action_id not in legal and game.to_act() != seat:
            players = game.view().get("players") or []
            if not legal and seat < len(players) and players[seat].get("resigned"):
                raise NotAllowed("You resigned from this game, so you cannot act in it. "
                                 f"It is {game.seat_name(game.to_act())}'s turn.")
            raise NotYourTurn(f"It is {game.seat_name(game.to_act())}'s turn, not yours.")
        return seat

    # -- changing a game ----------------------------------------------------------------

    async def apply(
        self,
        game: LoadedGame,
        seat: int,
        action_id: str,
        actor_id: int | None,
        *,
        lead: str | None = None,
        named: Mapping[int, str] | None = None,
        after_turn: AfterTurn | None = None,
    ) -> Play:
        """Apply an engine move for ``seat`` and save it; ``lead`` says who decided it
        (``named``: the members it names, by user id, with the names it gives them: kept
        in the move's log entry, so forgetting a member finds every name a line gave
        them), and ``after_turn`` is the seated table's step after a move that did not
        end the game."""
        try:
            step = game.engine.apply(game.state, seat, action_id)
        except IllegalAction as exc:
            raise Refusal(str(exc)) from exc
        over = game.engine.is_over(step.state)
        people = (await self.people(game, now={actor_id, *(named or {})})
                  if over and len(game.row.seats) == 1 else {})
        row = game.row
        expected = row.version
        before = game.to_act()
        row.version += 1
        row.state = game.engine.dump(step.state)
        row.note_state(step.state)
        events = (lead, *step.events) if lead else step.events
        if lead:
            game.data.last = lead
        seats = game.seats
        away = (actor_id is None and len(seats) > 1 and 0 <= seat < len(seats)
                and not seats[seat].computer and seats[seat].away)
        if away:
            others = [game.seat_name(i) for i in range(len(seats)) if i != seat]
            events = turnlog.for_away(game.seat_name(seat), events, others)
        moved = events
        results: list[ResultRow] = []
        ratings: list[RatedSeat] = []
        notice = None
        if over:
            row.status = "over"
            absent = await self.no_part(game, actor_id)
            game.data.absent = sorted(absent)  # (the end board says so)
            results = self.results(game, step.state, people, absent)
            ratings = self.ratings(game, step.state, absent)
        elif after_turn is not None:
            events, notice = after_turn(game, step.state, before, events, seat)
        ended = turnlog.ends_turn(len(seats), seat, game.engine.to_act(step.state), over)
        turnlog.note_move(game.data, seat, moved, by_computer=away, ended=ended,
                          seats=len(seats))
        turnlog.note_table(game.data, events[len(moved):], len(seats))
        record(row, events)
        if game.data.poll is not None and game.data.poll.version != row.version:
            game.data.poll = None
        logged: dict[str, Any] = {"seat": seat, "action": action_id}
        if named:
            logged["by"] = {str(user): name for user, name in named.items()}
        await self.save(game, expected, logged, actor_id, results,
                        ratings)
        game.state = step.state
        return Play(game, events, notice=notice)

    async def people(self, game: LoadedGame, *, now: Collection[int | None] = ()
                     ) -> dict[int, str]:
        """Return everyone who voted or clicked in a channel game (C5), by user id, with
        the name they played under. A daily deal's starter is among them only once they
        took part (voted or clicked, or do so ``now``, with the move being saved): its
        result is a member's try of the day's deal (docs/records.md)."""
        if game.row.only_starter:
            return {}
        people = await self.guarded(voters.everyone(self.store, game.id, game.data))
        starter = game.row.starter_id
        if (game.row.daily is not None and starter in people and starter not in now
                and not await self._took_part(game, starter)):
            del people[starter]
        return people

    async def _took_part(self, game: LoadedGame, user_id: int) -> bool:
        """Whether ``user_id`` took part in the daily ``game``: a ballot about to be
        saved, or a part noted (``daily_played``)."""
        row = game.data.unsaved.get(user_id)
        if row is not None and (row.version is not None or row.action is not None):
            return True
        return bool(await self.guarded(self.store.query(
            "SELECT 1 FROM daily_played WHERE user_id = :user AND game_id = :game",
            {"user": user_id, "game": game.id})))

    def results(self, game: LoadedGame, state: Any, people: dict[int, str],
                absent: Collection[int] = ()) -> list[ResultRow]:
        """Return the result rows of a game that just ended (``people``: who took part in
        a channel game, see :meth:`people`; ``absent``: the seats of a seated game whose
        people took no part in it, see :meth:`no_part`)."""
        result = game.engine.result(state)
        if result is None:
            return []
        if len(game.seats) == 1:
            return shared_results(game.row, people, result.outcomes[0],
                                  game.seat_name(0)) if result.outcomes else []
        return seat_results(game.seats, [o for o in result.outcomes if o.seat not in absent])

    async def no_part(self, game: LoadedGame, actor_id: int | None,
                      came: Collection[int] = ()) -> set[int]:
        """Return the seats of a seated ``game`` whose people took no part in it: no
        action of theirs is logged (no lobby step, move or return), nor is it theirs now
        (``actor_id``), nor did they ask to end the table or hand a seat on (``came``:
        those who asked to end it by this very end; asks are not logged). Such a person
        was seated for them (Play again seats the last table's people) and never came:
        the game gives them no result and no rating. None are when the log cannot be
        read."""
        people = {s.user_id for s in game.seats if s.is_person and s.user_id is not None}
        if len(game.seats) < 2 or not people - {actor_id}:
            return set()
        try:
            rows = await self.guarded(self.store.query(
                "SELECT DISTINCT actor_id FROM actions WHERE game_id = :game"
                " AND actor_id IS NOT NULL", {"game": game.id}))
        except Unavailable:
            return set()
        data = game.data
        asked = {*came, *data.abandon_votes, *(u for ballots in data.away_votes.values()
                                               for u in ballots)}
        acted = {int(r[0]) for r in rows} | {actor_id} | asked
        return {i for i, s in enumerate(game.seats)
                if s.is_person and s.user_id is not None and s.user_id not in acted}

    def ratings(self, game: LoadedGame, state: Any,
                absent: Collection[int] = ()) -> list[RatedSeat]:
        """Return the rated seats of a game that just ended (none for a game not rated;
        the seats ``absent`` are left out, see :meth:`no_part`)."""
        if len(game.seats) < 2:
            return []
        result = game.engine.result(state)
        return [] if result is None else rated_seats(
            game.row.kind, game.seats, [o for o in result.outcomes if o.seat not in absent])

    async def table_note(self, game: LoadedGame, events: tuple[str, ...]) -> LoadedGame:
        """Save an event of the table that changes nothing anyone may do on its board (an
        ask to abandon it, or to hand a seat to a computer): the board's last lines show
        it, and its version stays, so a move clicked on the board meanwhile still counts."""
        record(game.row, events)
        turnlog.note_table(game.data, events, len(game.seats))
        await self.save_table(game)
        return game

    async def table_move(
        self, game: LoadedGame, events: tuple[str, ...], action: dict[str, Any],
        actor_id: int | None,
    ) -> LoadedGame:
        """Save a change of the table itself (not an engine move) as a new board version."""
        row = game.row
        expected = row.version
        row.version += 1
        record(row, events)
        turnlog.note_table(game.data, events, len(game.seats))
        await self.save(game, expected, action, actor_id)
        return game

    async def save_table(self, game: LoadedGame, *, keep_time: bool = False) -> None:
        """Save the table's own data (votes, timers) without a move: the version stays
        (``keep_time``: see :meth:`db.base.GameStore.save_game`)."""
        await self.save(game, game.row.version, None, None, keep_time=keep_time)

    async def close(
        self, game: LoadedGame, status: str, event: str, actor_id: int | None, *,
        forfeit: Collection[int] = (), came: Collection[int] = (),
        named: Mapping[int, str] | None = None,
    ) -> LoadedGame:
        """End the game with ``status`` (abandoned, expired) as a new board version.

        A daily deal ended after its first move, however it ended (abandoned, idle,
        called off with its channel or server), counts as a loss for everyone who played
        it (:meth:`given_up`): the deal was seen, so it is not theirs to try again. With
        ``forfeit`` (the seats of the people who abandoned it, or the one whose turn it
        stalled on when it was left idle), a table where a computer plays counts as lost
        by them (:meth:`left_to_computers`), but by none who never came to it
        (:meth:`no_part`; ``came``: the users who asked to end it); the other people get
        no result. Those who never came are kept with the table (:attr:`TableData.absent`:
        Play again does not seat them again). ``named``: the names ``event`` gives people,
        by user id (kept with the log, for forget-me: a moderator's who is not seated)."""
        row = game.row
        given_up = await self.given_up(game)
        ratings: list[RatedSeat] = []
        absent = await self.no_part(game, actor_id, came) if game.state is not None else set()
        game.data.absent = sorted(absent)
        if forfeit and self.left_to_computers(game):
            resigned = seating.resigned_seats(game.view())
            outcomes = [Outcome(i, "win", 0, {}) if seat.computer
                        else Outcome(i, "loss", 0, {"left": True, "resigned": True}
                                     if i in resigned else {"left": True})
                        for i, seat in enumerate(game.seats)
                        if seat.computer or (i in forfeit and i not in absent)]
            given_up += seat_results(game.seats, outcomes)
            ratings = rated_seats(row.kind, game.seats, outcomes)
        expected = row.version
        row.status = status
        row.version += 1
        game.data.poll = None
        game.data.timer = None
        game.data.notice_due = None
        record(row, (event,))
        turnlog.note_table(game.data, (event,), len(game.seats))
        logged: dict[str, Any] = {"end": status}
        if named:  # the names ``event`` gives people, for forget-me
            logged["by"] = {str(user): name for user, name in named.items()}
        await self.save(game, expected, logged, actor_id, given_up, ratings)
        return game

    @staticmethod
    def left_to_computers(game: LoadedGame) -> bool:
        """Whether ``game`` is a running table where a computer plays a seat (its own, or
        an away person's) and a person has moved: its people ending it unfinished, by
        abandoning it or leaving it idle, lose it, each a loss scoring 0 below the
        computers, rated. A person alone against computers cannot leave a game they are
        losing without a result."""
        seats = game.seats
        if game.row.status != "active" or game.broken or len(seats) < 2:
            return False
        if not any(seat.computer or seat.away for seat in seats):
            return False
        return any(turn.seat is not None and 0 <= turn.seat < len(seats)
                   and not turn.by_computer and not seats[turn.seat].computer
                   for turn in game.data.turns)

    def deal_played(self, game: LoadedGame) -> bool:
        """Whether ``game`` is a daily deal played on from the day's deal as dealt: a
        move was made (the table's log of turns has one)."""
        row = game.row
        if row.daily is None or game.broken or len(game.seats) != 1:
            return False
        return bool(game.data.turns)

    async def daily_secret(self) -> str:
        """Return the bot's daily secret (:mod:`bot.table.daily`): as stored, or made and
        stored now by the first daily deal (every process keeps the one stored first)."""
        if self._daily_secret is None:
            self._daily_secret = await self.guarded(
                self.store.first_meta(SECRET_KEY, new_secret()))
        return self._daily_secret

    async def given_up(self, game: LoadedGame) -> list[ResultRow]:
        """Return the results of a daily deal ended unfinished: a loss scoring 0 for
        everyone who played it, once it was played on from its deal. The first result of
        a day's deal is the one that counts (docs/records.md), so a deal seen and then
        given up is not tried again elsewhere as a member's first of the day."""
        if not self.deal_played(game):
            return []
        people = await self.people(game)
        return shared_results(game.row, people, Outcome(0, "loss", 0, {"given_up": True}),
                              game.seat_name(0))

    async def save(
        self,
        game: LoadedGame,
        expected: int,
        action: dict[str, Any] | None,
        actor_id: int | None,
        results: list[ResultRow] | None = None,
        ratings: list[RatedSeat] | None = None,
        *,
        keep_time: bool = False,
    ) -> None:
        """Write the game's row and table data (compare-and-swap on ``expected``), the
        action, the results and the new ratings in one transaction; refuse on a conflict
        or storage error. The rows of the game's voters a vote changed go in the same
        transaction. ``keep_time``: see :meth:`db.base.GameStore.save_game`."""
        row = game.row
        voters.upgrade(game.data)
        if not row.is_open:  # an ended game has no turn to time or to tell anyone of
            game.data.timer = game.data.notice_due = None
        row.extra = game.data.to_json()
        if not game.broken:  # a damaged game keeps its seats as read: it can only be ended
            row.seats = seats_to_json(game.seats)
        sooner = self._schedule(row, game.data)
        try:
            await self.store.save_game(
                row, expected, action=action, actor_id=actor_id, results=results or (),
                ratings=ratings or (), voters=list(game.data.unsaved.values()),
                keep_time=keep_time,
            )
        except VersionConflict as exc:
            raise SaveConflict(game.link) from exc
        except StorageError as exc:
            self.storage_failed(f"saving game {game.id}", exc)
            raise Unavailable() from exc
        self.storage_worked()
        game.data.kept_voters.update(game.data.unsaved)
        game.data.unsaved.clear()
        if sooner is not None:  # told once stored: a look before the commit would miss it
            self.on_deadline(sooner)

    @staticmethod
    def _schedule(row: GameRow, data: TableData) -> float | None:
        """Set the row's stored deadline from the table data; return it if it is sooner
        than the one stored before (the scheduler is told once it is saved), else None."""
        due = data.deadlines()
        before = row.deadline
        row.deadline = min(due) if due and row.is_open else None
        if row.deadline is not None and (before is None or row.deadline < before):
            return row.deadline
        return None


class MissingGame:
    """Stands in for the engine of a kind of game this bot no longer has, so the damaged
    game can be shown as such and abandoned."""

    min_seats = 1
    max_seats = 5
    schema_version = 0

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.title = f"{kind} (no longer on this bot)"

    def load(self, data: Any) -> Any:
        """Refuse every state: there are no rules to read it with."""
        raise BrokenState(f"unknown game {self.kind!r}")


def record(row: GameRow, events: tuple[str, ...] | list[str]) -> None:
    """Append ``events`` to the game's recent events, keeping the last few."""
    row.events = [*row.events, *events][-RECENT_EVENTS:]
