"""The game table: the generic service between Discord and every engine.

For each request: take the game's lock, load it, refuse a stale board or a player who
may not act, apply the engine, then save with a compare-and-swap on the version and the
action-log entry in one transaction. Written once for every engine that follows
:mod:`bot.games.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.protocol import BrokenState, Engine, IllegalAction
from bot.games.registry import engine as registry_engine
from bot.table import polls, seating
from bot.table.channel import ChannelPlay, shared_results
from bot.table.daily import daily_key, daily_seed
from bot.table.errors import (
    BrokenGame,
    ChannelOccupied,
    GameEnded,
    NoSuchGame,
    NotAllowed,
    NotYourTurn,
    Refusal,
    StaleBoard,
    Unavailable,
)
from bot.table.loaded import Actor, Ballot, KeptStates, LoadedGame, Play
from bot.table.lobby import LOBBY_PREFIX, LOBBY_START, computer_names, lobby_step
from bot.table.turns import SharedTable
from db.store import (
    ChannelBusy,
    DailyPlayed,
    GameRow,
    ResultRow,
    StorageError,
    Store,
    VersionConflict,
)

__all__ = ["Actor", "Ballot", "LoadedGame", "Play", "Tables"]

log = logging.getLogger(__name__)

#: How many recent events a game keeps for its board.
RECENT_EVENTS = 12



@dataclass(slots=True)
class _GameLock:
    """One game's lock and how many requests hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class SaveConflict(StaleBoard):
    """A save found the game written since it was read: refused as a stale board, or
    retried from a fresh read where the request allows it (:meth:`Tables.act`)."""


def _record(row: GameRow, events: tuple[str, ...] | list[str]) -> None:
    """Append ``events`` to the game's recent events, keeping the last few."""
    row.events = [*row.events, *events][-RECENT_EVENTS:]


def _deadlines(extra: Mapping[str, Any]) -> list[float | None]:
    """Return every deadline the table's own data holds (vote windows, turn timers)."""
    poll = extra.get("poll") or {}
    timer = extra.get("timer") or {}
    return [poll.get("closes"), timer.get("at")]


class Tables(ChannelPlay, SharedTable):
    """The generic game-table service (see the module docstring)."""

    def __init__(
        self,
        store: Store,
        *,
        clock: Callable[[], float] = time.time,
        engines: Callable[[str], Engine] = registry_engine,
        seeds: Callable[[], int] | None = None,
        vote_window: float = 30.0,
        max_open_games: int = 0,
    ) -> None:
        self.store = store
        self.vote_window = vote_window
        #: Open games a member may have started in one server (0: no limit).
        self.max_open_games = max_open_games
        #: This process's shards (ids, count) for background work; None: every game.
        self.shards: tuple[tuple[int, ...], int] | None = None
        #: Called with a deadline whenever a saved game's deadline is earlier than before.
        self.on_deadline: Callable[[float], None] = lambda _when: None
        self._clock = clock
        self._engines = engines
        self._seeds = seeds or (lambda: random.SystemRandom().randrange(2**31))
        self._locks: dict[int, _GameLock] = {}
        #: The loaded states of the games this process last saved (see KeptStates).
        self.kept_states = KeptStates()
        self._in_flight = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self.closing = False

    def now(self) -> float:
        """Return the table's clock reading (seconds since the epoch)."""
        return self._clock()

    # -- loading ------------------------------------------------------------------------

    def _wrap(self, row: GameRow) -> LoadedGame:
        eng = self._engines(row.kind)
        if row.status == "lobby" or (row.state is None and not row.is_open):
            return LoadedGame(row, eng, None)  # a lobby, or one closed before it started
        if row.state is None:
            return LoadedGame(row, eng, None, broken="no state stored")
        try:
            return LoadedGame(row, eng, eng.load(row.state))
        except (BrokenState, KeyError, TypeError, ValueError, IndexError) as exc:
            log.warning("game %s (%s) has a broken state: %s", row.id, row.kind, exc)
            return LoadedGame(row, eng, None, broken=str(exc) or type(exc).__name__)

    async def load(self, game_id: int) -> LoadedGame:
        """Return the game ``game_id``; raise NoSuchGame or Unavailable."""
        try:
            row = await self.store.get_game(game_id)
        except StorageError as exc:
            log.warning("storage unavailable loading game %s: %s", game_id, exc)
            raise Unavailable() from exc
        if row is None:
            raise NoSuchGame()
        return self._wrap(row)

    async def open_in_channel(self, channel_id: int) -> LoadedGame | None:
        """Return the channel's open game, or None."""
        try:
            row = await self.store.open_game_in_channel(channel_id)
        except StorageError as exc:
            raise Unavailable() from exc
        return self._wrap(row) if row else None

    # -- in-flight tracking (clean shutdown) --------------------------------------------

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

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock (one request per game at a time) and count it in flight.

        Not re-entrant: code holding it must not call act(), abandon() or computer_move().
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

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until no request is being handled; return False on timeout."""
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            return False
        return True

    # -- creating games -----------------------------------------------------------------

    async def start(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        starter: Actor,
        options: Mapping[str, Any] | None = None,
        only_starter: bool = False,
        seed: int | None = None,
        daily: bool = False,
        mode: str | None = None,
        window: float | None = None,
    ) -> LoadedGame:
        """Start a one-seat game in a channel, played by the channel (C1) or the starter.

        ``mode`` is how the channel decides: ``vote`` (the default), ``fast`` (anyone's
        click moves at once) or ``solo`` (only the starter plays; also ``only_starter``).
        ``window`` is the voting window in seconds (C4). With ``daily``, the game is
        today's daily deal: its seed comes from the date, and each channel gets one daily
        game of each kind per day.
        """
        mode = "solo" if only_starter else (mode or "vote")
        if mode not in polls.MODES:
            raise Refusal(f"Unknown way to play {mode!r}: choose vote, fast or only me.")
        extra = {
            "mode": mode,
            "window": polls.window_seconds(window, self.vote_window),
            "players": {str(starter.user_id): starter.name},
        }
        eng = self._engines(kind)
        opts = dict(options or {})
        day = daily_key(self._clock()) if daily else None
        if day is not None:
            seed = daily_seed(kind, day)
        state = eng.new(self._seeds() if seed is None else seed, 1, opts)
        seats = [{"user_id": starter.user_id, "name": starter.name, "computer": False}]
        what = f"today's daily deal ({day})" if day else "the game"
        return await self._create(
            kind, guild_id, channel_id, starter, "active", seats, opts, mode == "solo",
            eng.dump(state), [f"{starter.name} started {what}."], daily=day, extra=extra,
        )

    async def open_lobby(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: Actor,
        options: Mapping[str, Any] | None = None,
        computers: int = 0,
        turn_seconds: float = 0,
        notices: bool = True,
    ) -> LoadedGame:
        """Open a lobby for a multi-seat game, with the host in the first seat.

        ``computers`` computer players are seated at once (a rematch brings them along);
        ``turn_seconds`` is the turn timer (0: off) and ``notices`` whether people are
        told by a mention when their turn comes (ruling C6).
        """
        seats = [{"user_id": host.user_id, "name": host.name, "computer": False}]
        eng = self._engines(kind)
        names = computer_names()
        for _ in range(max(0, min(computers, eng.max_seats - 1))):
            seats.append({"user_id": None, "name": next(names), "computer": True})
        extra = {"turn_seconds": float(turn_seconds), "notices": bool(notices)}
        return await self._create(
            kind, guild_id, channel_id, host, "lobby", seats, dict(options or {}), False,
            None, [f"{host.name} opened a table."], extra=extra,
        )

    async def _create(
        self,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        starter: Actor,
        status: str,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        only_starter: bool,
        state: dict[str, Any] | None,
        events: list[str],
        daily: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> LoadedGame:
        await self._check_open_games(guild_id, starter)
        try:
            row = await self.store.create_game(
                guild_id=guild_id, channel_id=channel_id, kind=kind, status=status,
                starter_id=starter.user_id, seats=seats, options=options,
                only_starter=only_starter, state=state, events=events, daily=daily,
                extra=extra,
            )
        except DailyPlayed:
            raise Refusal(
                f"This channel has already played today's daily {self._engines(kind).title} "
                "deal. A new one comes at midnight UTC; a normal game can start any time."
            ) from None
        except ChannelBusy as busy:
            existing = await self.load(busy.game_id) if busy.game_id else None
            title = existing.engine.title if existing else "another game"
            raise ChannelOccupied(title, existing.link if existing else "") from None
        except StorageError as exc:
            log.warning("storage unavailable creating a game: %s", exc)
            raise Unavailable() from exc
        return self._wrap(row)

    async def _check_open_games(self, guild_id: int | None, starter: Actor) -> None:
        """Refuse a member who already has the most open games a server allows."""
        if not self.max_open_games or guild_id is None:
            return
        try:
            rows = await self.store.query(
                "SELECT count(*) FROM games WHERE guild_id = :guild AND starter_id = :user"
                " AND status IN ('lobby', 'active')",
                {"guild": guild_id, "user": starter.user_id},
            )
        except StorageError as exc:
            raise Unavailable() from exc
        if rows and int(rows[0][0]) >= self.max_open_games:
            raise Refusal(
                f"You already have {self.max_open_games} games going in this server. Finish "
                "or abandon one (/<game> abandon in its channel) before starting another."
            )

    # -- acting -------------------------------------------------------------------------

    async def act(self, game_id: int, version: int, actor: Actor, action_id: str) -> Play:
        """Apply ``action_id`` for ``actor`` to the board at ``version``.

        Raise a Refusal (stale board, ended game, player not allowed, illegal action,
        storage unavailable) and change nothing, or return the game afterwards.
        """
        async with self.hold(game_id):
            kept = self.store.kept_game(game_id)
            if kept is None:
                game = await self.load(game_id)
            else:
                eng = self._engines(kept.kind)
                game = self.kept_states.resume(kept, eng) or self._wrap(kept)
            try:
                return await self._act(game, version, actor, action_id)
            except SaveConflict:
                # Something wrote the game since it was read (or kept): read it again.
                return await self._act(await self.load(game_id), version, actor, action_id)

    async def _act(self, game: LoadedGame, version: int, actor: Actor, action_id: str) -> Play:
        """Do :meth:`act`'s work on ``game`` as read (the lock is held)."""
        if game.row.status == "active" and not game.broken and len(game.row.seats) > 1:
            back = game.seat_of(actor.user_id)
            if back is not None and game.row.seats[back].get("away"):
                # Any click brings an away player back, even on a board left behind.
                return await self._back(game, back, actor, action_id,
                                        fresh=version == game.row.version)
        self._check_open(game, version)
        if action_id.startswith(LOBBY_PREFIX):
            return await self._lobby(game, actor, action_id)
        seat = self._seat_for(game, actor, action_id)
        if len(game.row.seats) == 1:
            return await self._channel_move(game, actor, action_id)
        return await self._apply(game, seat, action_id, actor.user_id)

    async def _table_move(
        self, game: LoadedGame, events: tuple[str, ...], action: dict[str, Any],
        actor_id: int | None,
    ) -> LoadedGame:
        """Save a change of the table itself (not an engine move) as a new board version."""
        row = game.row
        expected = row.version
        row.version += 1
        _record(row, events)
        self._schedule(row)
        await self._save(game, expected, action, actor_id)
        return game

    async def fire_deadline(self, game_id: int) -> Play | None:
        """Do what a game's due deadline asks for: close its vote, or run its turn timer."""
        play = await self.close_vote(game_id)
        if play is not None:
            return play
        return await self.fire_timer(game_id)

    async def _save_table(self, game: LoadedGame) -> None:
        """Save the table's own data (votes, timers) without a move: the version stays."""
        self._schedule(game.row)
        await self._save(game, game.row.version, None, None)
        self.kept_states.keep(game)

    def _schedule(self, row: GameRow) -> None:
        """Set the row's stored deadline from its pending vote; tell the scheduler."""
        due = [t for t in _deadlines(row.extra) if t is not None]
        before = row.deadline
        row.deadline = min(due) if due and row.is_open else None
        if row.deadline is not None and (before is None or row.deadline < before):
            self.on_deadline(row.deadline)

    async def computer_move(self, game_id: int) -> Play | None:
        """Let a computer player move if one is to act; return None if none is."""
        async with self.hold(game_id):
            game = await self.load(game_id)
            if game.broken or not game.computer_to_act():
                return None
            seat = game.to_act()
            assert seat is not None
            action_id = game.engine.computer_action(game.state, seat)
            return await self._apply(game, seat, action_id, None)

    def _check_open(self, game: LoadedGame, version: int) -> None:
        if not game.row.is_open:
            raise GameEnded(game.row.status)
        if game.broken:
            raise BrokenGame(f"/{game.row.kind} abandon")
        if version != game.row.version:
            raise StaleBoard(game.link, str(game.row.extra.get("last", "")))

    def _seat_for(self, game: LoadedGame, actor: Actor, action_id: str) -> int:
        """Return the seat ``actor`` acts for, or refuse (rulings C1 and C2)."""
        row = game.row
        if row.status == "lobby":
            raise NotAllowed("The game has not started yet: join the table or wait for the host.")
        if len(row.seats) == 1:
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
                raise NotAllowed("You resigned from this game, so you cannot act in it.")
            raise NotYourTurn(f"It is {game.seat_name(game.to_act())}'s turn, not yours.")
        return seat

    async def check(self, game_id: int, version: int, actor: Actor, action_id: str) -> None:
        """Refuse as :meth:`act` would, without applying anything (before asking to confirm)."""
        game = await self.load(game_id)
        self._check_open(game, version)
        seat = self._seat_for(game, actor, action_id)
        if action_id not in {a.id for a in game.legal_actions(seat)}:
            raise Refusal("That move is not possible now.")

    async def _apply(
        self,
        game: LoadedGame,
        seat: int,
        action_id: str,
        actor_id: int | None,
        *,
        lead: str | None = None,
    ) -> Play:
        try:
            step = game.engine.apply(game.state, seat, action_id)
        except IllegalAction as exc:
            raise Refusal(str(exc)) from exc
        row = game.row
        expected = row.version
        before = game.to_act()
        row.version += 1
        row.state = game.engine.dump(step.state)
        events = (lead, *step.events) if lead else step.events
        if lead:
            row.extra["last"] = lead
        results: list[ResultRow] = []
        notice = None
        if game.engine.is_over(step.state):
            row.status = "over"
            results = self._results(game, step.state)
        elif len(row.seats) > 1:
            events, notice = self._after_turn(game, step.state, before, events)
        _record(row, events)
        if row.extra.get("poll", {}).get("version") not in (None, row.version):
            row.extra.pop("poll", None)
        self._schedule(row)
        await self._save(game, expected, {"seat": seat, "action": action_id}, actor_id, results)
        game.state = step.state
        self.kept_states.keep(game)
        return Play(game, events, notice=notice)

    def _results(self, game: LoadedGame, state: Any) -> list[ResultRow]:
        result = game.engine.result(state)
        if result is None:
            return []
        rows = []
        if len(game.row.seats) == 1 and result.outcomes:
            return shared_results(game.row, result.outcomes[0])
        for outcome in result.outcomes:
            if not 0 <= outcome.seat < len(game.row.seats):
                continue
            seat = game.row.seats[outcome.seat]
            if seat.get("computer") or seat.get("user_id") is None:
                continue
            detail = dict(outcome.detail)
            rows.append(ResultRow(int(seat["user_id"]), outcome.outcome, outcome.score, detail))
        return rows

    async def _save(
        self,
        game: LoadedGame,
        expected: int,
        action: dict[str, Any] | None,
        actor_id: int | None,
        results: list[ResultRow] | None = None,
    ) -> None:
        try:
            await self.store.save_game(
                game.row, expected, action=action, actor_id=actor_id, results=results or ()
            )
        except VersionConflict as exc:
            raise SaveConflict(game.link) from exc
        except StorageError as exc:
            log.warning("storage unavailable saving game %s: %s", game.id, exc)
            raise Unavailable() from exc

    # -- lobbies ------------------------------------------------------------------------

    async def _lobby(self, game: LoadedGame, actor: Actor, op: str) -> Play:
        row = game.row
        event = lobby_step(row, game.engine, actor.user_id, actor.name, actor.can_manage, op,
                           self._seeds)
        expected = row.version
        row.version += 1
        _record(row, (event,))
        notice = None
        if op == LOBBY_START:
            started = self._wrap(row)
            seat = started.to_act()
            seating.start_timer(row.extra, seat, row.seats, self._clock())
            user = started.person_to_act()
            if user is not None:
                title = started.engine.title
                notice = (user, f"<@{user}>, {title} has started and it is your turn:")
        self._schedule(row)
        await self._save(game, expected, {"lobby": op}, actor.user_id)
        return Play(self._wrap(row), (event,), notice=notice)

    # -- ending and housekeeping --------------------------------------------------------

    async def abandon(self, channel_id: int, actor: Actor) -> LoadedGame:
        """End the channel's open game for its starter or a member with Manage Messages."""
        game = await self.open_in_channel(channel_id)
        if game is None:
            raise Refusal("There is no game going in this channel.")
        async with self.hold(game.id):
            game = await self.load(game.id)
            if not game.row.is_open:
                raise GameEnded(game.row.status)
            if actor.user_id != game.row.starter_id and not actor.can_manage:
                raise NotAllowed(
                    f"Only {game.seat_name(0)}, who started it, or a member with "
                    "Manage Messages can abandon this game."
                )
            return await self._close(game, "abandoned", f"{actor.name} abandoned the game.",
                                     actor.user_id)

    async def expire_idle(self, cutoffs: dict[str, float]) -> list[LoadedGame]:
        """End every open game idle past its cutoff; return the games ended."""
        ended: list[LoadedGame] = []
        last_id = 0
        while True:
            try:
                idle = await self.store.idle_games(cutoffs, after_id=last_id,
                                                   shards=self.shards)
            except StorageError as exc:
                log.warning("sweeper could not read games: %s", exc)
                return ended
            if not idle:
                return ended
            last_id = idle[-1]
            for game_id in idle:
                try:
                    async with self.hold(game_id):
                        game = await self.load(game_id)
                        group = "lobby" if game.row.status == "lobby" else (
                            "solo" if len(game.row.seats) <= 1 else "multi")
                        if not game.row.is_open or game.row.updated_at >= cutoffs[group]:
                            continue
                        ended.append(await self._close(
                            game, "expired", "The game was idle too long and ended.", None))
                except Refusal as refusal:
                    log.warning("sweeper could not end game %s: %s", game_id, refusal)

    async def _close(
        self, game: LoadedGame, status: str, event: str, actor_id: int | None
    ) -> LoadedGame:
        row = game.row
        expected = row.version
        row.status = status
        row.version += 1
        row.extra.pop("poll", None)
        row.extra.pop("timer", None)
        row.deadline = None
        _record(row, (event,))
        await self._save(game, expected, {"end": status}, actor_id)
        return game

    async def remember(self, game_id: int, key: str, value: Any) -> None:
        """Keep ``value`` under ``key`` in the game's table data (None removes it).

        For what the bot itself posted (the turn notice); the board's version stays.
        """
        try:
            async with self.hold(game_id):
                game = await self.load(game_id)
                if value is None:
                    game.row.extra.pop(key, None)
                else:
                    game.row.extra[key] = value
                await self._save_table(game)
        except Refusal as refusal:
            log.warning("could not remember %s of game %s: %s", key, game_id, refusal)

    async def set_board(self, game: LoadedGame, channel_id: int, message_id: int) -> None:
        """Record ``message_id`` as the game's current board."""
        try:
            await self.store.set_board(game.id, channel_id, message_id)
        except StorageError as exc:
            log.warning("could not record the board of game %s: %s", game.id, exc)
            return
        game.row.board_channel_id = channel_id
        game.row.board_message_id = message_id
        game.row.board_posted_at = self._clock()
