"""The game table: the generic service between Discord and every engine.

What cogs and boards call. Each request takes the game's lock, loads it, refuses a stale
board or a player who may not act, applies the engine, then saves with a
compare-and-swap on the version and the action-log entry in one transaction
(:class:`bot.table.core.TableCore`). One-seat games played by a channel follow the
channel policy (:class:`bot.table.channel.ChannelPolicy`), seated games the turn policy
(:class:`bot.table.turns.TurnPolicy`); abandoning a game follows the abandoning policy
(:class:`bot.table.abandoning.Abandoning`). Written once for every engine that follows
:mod:`bot.games.protocol`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterator,
    Mapping,
    Sequence,
)
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from bot.games.protocol import Engine
from bot.games.registry import engine as registry_engine
from bot.table import downtime, polls
from bot.table.abandoning import Abandoning
from bot.table.channel import ChannelPolicy
from bot.table.core import MissingGame, SaveConflict, TableCore
from bot.table.daily import daily_key, daily_seed, day_end
from bot.table.data import NoticeRef, TableData
from bot.table.deadlines import Paused
from bot.table.errors import (
    ChannelOccupied,
    Refusal,
    StartedMeanwhile,
    Unavailable,
)
from bot.table.expiry import IdleExpiry
from bot.table.finding import Finder
from bot.table.loaded import Actor, Ballot, LoadedGame, Play
from bot.table.lobbies import Lobbies, lobby_seats
from bot.table.lobby import (
    LOBBY_JOIN,
    LOBBY_LEAVE,
    LOBBY_PREFIX,
)
from bot.table.seats import Seat, seats_to_json
from bot.table.settings import ServerBook, ServerSettings
from bot.table.turns import TurnPolicy
from db.base import GameStore
from db.errors import TooManyOpen
from db.rows import NewGame
from db.store import (
    ChannelBusy,
    DailyPlayed,
    StorageError,
)

__all__ = ["Actor", "Ballot", "LoadedGame", "Play", "Tables"]

log = logging.getLogger(__name__)

#: A seated player's resignation (S10): any seat may resign at any time.
RESIGN = "resign"


def _as_shown(game: LoadedGame, version: int, action_id: str) -> int:
    """Return the board version ``action_id`` is to be checked against: the game's own for
    what does not depend on the board as shown, else the clicked board's ``version``.

    Taking or leaving a lobby's seat (two people joining at once are both seated) and a
    seated player resigning (confirmed while others kept moving) do not.
    """
    if game.row.status == "lobby" and action_id in (LOBBY_JOIN, LOBBY_LEAVE):
        return game.row.version
    if game.row.status == "active" and action_id == RESIGN and len(game.seats) > 1:
        return game.row.version
    return version


def _started_meanwhile(game: LoadedGame, user_id: int, action_id: str) -> str:
    """What a Join or Leave on a lobby's board answers once its game started meanwhile:
    whether the member plays in it, and what they can do."""
    seat = game.seat_of(user_id)
    to_act = game.to_act()
    whose = ("" if to_act is None else " It is your turn." if to_act == seat
             else f" It is {game.seat_name(to_act)}'s turn.")
    if seat is None:
        left = " (you were not seated)" if action_id == LOBBY_LEAVE else ""
        return (f"The host started the game a moment before your click{left}, so its "
                "seats are taken: you can watch it here, or open a table of your own in "
                f"another channel or a thread with /{game.row.kind} new.")
    if action_id == LOBBY_LEAVE:
        return ("The host started the game a moment before your click, and you are "
                f"seated in it.{whose} If you cannot play, Resign on the board lets the "
                "others play on.")
    return f"You are seated: the host started the game a moment ago.{whose}"


#: The threads computer players choose their moves in, at most two at once: their own, so
#: a burst of choices (every table's computer after a restart) never queues ahead of
#: what the event loop hands asyncio's default threads (aiohttp's address look-ups).
THINKING = ThreadPoolExecutor(max_workers=2, thread_name_prefix="computer-player")


class Tables:
    """The generic game-table service (see the module docstring)."""

    def __init__(
        self,
        store: GameStore,
        *,
        clock: Callable[[], float] = time.time,
        engines: Callable[[str], Engine] = registry_engine,
        seeds: Callable[[], int] | None = None,
        vote_window: float = polls.DEFAULT_WINDOW,
        max_open_games: int = 0,
        defaults: ServerSettings | None = None,
    ) -> None:
        self.core = TableCore(store, clock=clock, engines=engines, seeds=seeds,
                              vote_window=vote_window)
        self.channel = ChannelPolicy(self.core)
        self.abandoning = Abandoning(self.core)
        #: Each server's settings; ``defaults`` (else the vote window and open-game cap
        #: given here) for servers that chose none.
        self.servers = ServerBook(store, defaults or ServerSettings(
            vote_window_seconds=vote_window, max_open_games=max_open_games))
        self.turns = TurnPolicy(self.core, notice_grace=self.servers.defaults.notice_grace_seconds)
        self.lobbies = Lobbies(self.core, self.turns)
        #: Servers that removed the bot and may add it back, by guild id, with when: the
        #: deadlines of their games wait (nobody there can click), their games are not
        #: idle meanwhile, and their turn timers are put off by the time away if the bot
        #: is added back.
        self.removed: dict[int, float] = {}
        #: Servers Discord reports unavailable (an outage at Discord's), by guild id, with
        #: since when: their games wait as a removed server's do, and their turn timers
        #: are put off by the outage when Discord has them again.
        self.unavailable: dict[int, float] = {}
        self.expiry = IdleExpiry(self.core, self.waiting)
        #: Reads of games by place and starter, and of logged moves.
        self.find = Finder(self.core)
        #: This process's shards (ids, count) for background work; None: every game.
        self.shards: tuple[tuple[int, ...], int] | None = None
        self.closing = False

    @property
    def store(self) -> GameStore:
        """The game store."""
        return self.core.store

    @property
    def max_open_games(self) -> int:
        """Open games a member may have started in a server that set no limit of its own."""
        return self.servers.defaults.max_open_games

    @max_open_games.setter
    def max_open_games(self, value: int) -> None:
        self.servers.defaults = replace(self.servers.defaults, max_open_games=value)

    @property
    def vote_window(self) -> float:
        """The voting window of games whose server and starter chose none (C4)."""
        return self.core.vote_window

    @property
    def notice_grace(self) -> Callable[[int | None], float]:
        """The grace time of turn notices in a server, by guild id (0: at once)."""
        return self.turns.notice_grace

    @notice_grace.setter
    def notice_grace(self, grace: Callable[[int | None], float]) -> None:
        self.turns.notice_grace = grace

    @property
    def on_deadline(self) -> Callable[[float], None]:
        """Called with a deadline whenever a saved game's deadline is earlier than before."""
        return self.core.on_deadline

    @on_deadline.setter
    def on_deadline(self, callback: Callable[[float], None]) -> None:
        self.core.on_deadline = callback

    def now(self) -> float:
        """Return the table's clock reading (seconds since the epoch)."""
        return self.core.now()

    async def load(self, game_id: int) -> LoadedGame:
        """Return the game ``game_id``; raise NoSuchGame or Unavailable."""
        return await self.core.load(game_id)

    async def load_here(self, game_id: int, channel_id: int | None) -> LoadedGame:
        """Return the game ``game_id`` for a button of its table clicked in channel
        ``channel_id``; refuse (NotAllowed) a click from another channel (a forged one:
        another server's replay, share or table), as moves are refused."""
        game = await self.core.load(game_id)
        self.core.check_place(game, channel_id)
        return game

    async def open_in_channel(self, channel_id: int) -> LoadedGame | None:
        """Return the channel's open game, or None."""
        return await self.core.open_in_channel(channel_id)

    async def note_shared(self, game_id: int, at: float, link: str) -> None:
        """Keep with a finished game when its result was shared, and the link to the
        post (:attr:`TableData.shared`); raise a Refusal when it cannot be saved. The
        game keeps its time of last save (moved on the least): a share does not keep it
        from its retention."""
        async with self.core.hold(game_id):
            game = await self.core.load(game_id)
            game.data.shared = (at, link)
            await self.core.save_table(game, keep_time=True)

    async def note_replayed(self, game_id: int, post: NoticeRef | None) -> None:
        """Keep with a finished game its replay ``post`` (among the latest few), or, with
        None, forget them all (taken down); the game keeps its time of last save, as
        for a share. Raise a Refusal when it cannot be saved."""
        async with self.core.hold(game_id):
            game = await self.core.load(game_id)
            game.data.replays = ([*game.data.replays, post][-REPLAYS_KEPT:]
                                 if post is not None else [])
            await self.core.save_table(game, keep_time=True)

    @contextlib.contextmanager
    def busy(self) -> Iterator[None]:
        """Count a request as in flight until the block ends (see :meth:`drain`)."""
        with self.core.busy():
            yield

    def track(self, task: asyncio.Future[Any]) -> None:
        """Count ``task`` as a request in flight until it is done (see :meth:`drain`)."""
        self.core.track(task)

    @contextlib.asynccontextmanager
    async def hold(self, game_id: int) -> AsyncIterator[None]:
        """Hold the game's lock and count it in flight (not re-entrant)."""
        async with self.core.hold(game_id):
            yield

    async def drain(self, timeout: float = 10.0) -> bool:
        """Wait until no request is being handled; return False on timeout."""
        return await self.core.drain(timeout)

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
        thread: bool = False,
        parent: int | None = None,
    ) -> LoadedGame:
        """Start a one-seat game in a channel, played by the channel (C1) or the starter.

        ``mode`` is how the channel decides: ``vote`` (the default), ``fast`` (anyone's
        click moves at once) or ``solo`` (only the starter plays; also ``only_starter``).
        ``window`` is the voting window in seconds (C4). With ``daily``, the game is
        today's daily deal: its seed comes from the date, and each channel gets one daily
        game of each kind per day. ``thread`` says the channel is a thread opened for the
        game, ``parent`` the channel whose thread it is (None: not a thread).
        """
        mode = "solo" if only_starter else (mode or "vote")
        if mode not in polls.MODES:
            raise Refusal(f"Unknown way to play {mode!r}: choose vote, fast or only me.")
        server = await self.servers.get(guild_id)
        data = TableData(mode=mode,
                         window=polls.window_seconds(window, server.vote_window_seconds),
                         players={str(starter.user_id): starter.name}, thread=thread,
                         parent=parent)
        eng = self.core.engines(kind)
        opts = dict(options or {})
        day = daily_key(self.now()) if daily else None
        if day is not None:
            seed = daily_seed(kind, day, await self.core.daily_secret())
        state = eng.new(self.core.seeds() if seed is None else seed, 1, opts)
        seats = [Seat.person(starter.user_id, starter.name)]
        what = f"today's daily deal ({day})" if day else "the game"
        return await self._create(
            kind, guild_id, channel_id, starter, "active", seats, opts, mode == "solo",
            eng.dump(state), [f"{starter.name} started {what}."], daily=day, data=data,
        )

    async def open_lobby(
        self,
        kind: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: Actor,
        options: Mapping[str, Any] | None = None,
        computers: Sequence[str] = (),
        people: Sequence[tuple[int, str]] = (),
        named: Sequence[str] = (),
        turn_seconds: float = 0,
        notices: bool = True,
        thread: bool = False,
        parent: int | None = None,
        invited: Sequence[int] = (),
    ) -> LoadedGame:
        """Open a lobby for a multi-seat game, with the host in the first seat.

        ``people`` (user id, name) and ``computers`` (their levels) are seated at once
        after the host, in that order (a rematch brings the last table along; each person
        may leave); ``named`` are the computers' names at the last table, kept where no
        seat has one like it (else each gets the first name free, as Add computer does);
        ``turn_seconds`` is the turn timer (0: off) and ``notices`` whether people are
        told by a mention when their turn comes (ruling C6); ``thread`` says the channel
        is a thread opened for the table, ``parent`` the channel whose thread it is;
        ``invited`` the members its board invites.
        """
        seats = lobby_seats(host, self.core.engines(kind).max_seats, people, computers, named)
        data = TableData(turn_seconds=float(turn_seconds), notices=bool(notices), thread=thread,
                         parent=parent, invited=[u for u in invited if u != host.user_id],
                         host_seen=self.core.now())
        return await self._create(
            kind, guild_id, channel_id, host, "lobby", seats, dict(options or {}), False,
            None, [f"{host.name} opened a table."], data=data,
        )

    async def check_room(self, guild_id: int | None, user_id: int) -> None:
        """Refuse (as a start would) a member who has as many open games in the server as
        it allows, before anything is made for a new one (a thread of its own)."""
        limit = (await self.servers.get(guild_id)).max_open_games
        if not limit or guild_id is None:
            return
        held, _left = await self._open_started(guild_id, user_id)
        if held >= limit:
            raise Refusal(_too_many(limit))

    async def _open_started(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """Return how many of the open games ``user_id`` started in the server count
        against its limit, and how many no longer do: a lobby whose host role passed on,
        a table they resigned from or walked away from (:meth:`LoadedGame.held_by`)."""
        rows = await self.core.guarded(self.store.query(
            "SELECT id FROM games WHERE starter_id = :user AND guild_id = :guild"
            " AND status IN ('lobby', 'active')", {"user": user_id, "guild": guild_id}))
        held = left = 0
        for (game_id,) in rows:
            try:
                game = await self.core.load(int(game_id))
            except Refusal:  # gone meanwhile
                continue
            if game.row.is_open and game.held_by(user_id):
                held += 1
            elif game.row.is_open:
                left += 1
        return held, left

    async def _create(
        self,
        kind: str,
        guild_id: int | None,
        channel_id: int,
        starter: Actor,
        status: str,
        seats: list[Seat],
        options: dict[str, Any],
        only_starter: bool,
        state: dict[str, Any] | None,
        events: list[str],
        *,
        data: TableData,
        daily: str | None = None,
    ) -> LoadedGame:
        limit = (await self.servers.get(guild_id)).max_open_games
        cap = None
        if limit and guild_id is not None:  # counted as it is stored, in one statement
            cap = limit + (await self._open_started(guild_id, starter.user_id))[1]
        try:
            row = await self.store.create_game(NewGame(
                guild_id=guild_id, channel_id=channel_id, kind=kind, status=status,
                starter_id=starter.user_id, seats=seats_to_json(seats), options=options,
                only_starter=only_starter, state=state, events=events, daily=daily,
                extra=data.to_json(),
            ), max_open=cap)
        except TooManyOpen:
            raise Refusal(_too_many(limit)) from None
        except DailyPlayed:
            # the next deal's time as a Discord timestamp: each player reads their own
            # time (midnight UTC is 09:00 in Tokyo, 16:00 in Los Angeles)
            comes = int(day_end(daily or daily_key(self.now())))
            raise Refusal(
                f"This channel has already played today's daily "
                f"{self.core.engines(kind).title} deal. The next one comes <t:{comes}:R> "
                f"(<t:{comes}:t> your time); a normal game can start any time."
            ) from None
        except ChannelBusy as busy:
            existing = await self.load(busy.game_id) if busy.game_id else None
            if existing is not None and not existing.row.is_open:
                # it ended between the two reads (a lobby closed, a game abandoned)
                raise Refusal("The game in this channel ended just as you started yours: "
                              "start it again.") from None
            title = existing.engine.title if existing else "another game"
            known = existing is not None and not isinstance(existing.engine, MissingGame)
            if existing is None or not known:
                raise ChannelOccupied(title, existing.link if existing else "") from None
            raise ChannelOccupied(title, existing.link, existing.row.kind,
                                  existing.open_to(starter.user_id),
                                  existing.seat_name(0)) from None
        except StorageError as exc:
            self.core.storage_failed("creating a game", exc)
            raise Unavailable() from exc
        return self.core.wrap(row)

    async def act(self, game_id: int, version: int, actor: Actor, action_id: str, *,
                  channel_id: int | None = None) -> Play:
        """Apply ``action_id`` for ``actor`` to the board at ``version``.

        ``channel_id`` is where the click came from: only the game's own channel (or the
        thread its board is in) is taken. Raise a Refusal (stale board, ended game, player
        not allowed, another channel, illegal action, storage unavailable) and change
        nothing, or return the game afterwards.
        """
        async with self.core.hold(game_id):
            kept = self.store.kept_game(game_id)
            if kept is not None and kept.version >= version:
                # A board newer than the kept row means another process (a deploy's
                # overlap) moved the game since: only a fresh read knows it.
                game = self.core.wrap(kept)
                game.data.kept_voters = self.store.kept_voters(game_id)
            else:
                game = await self.load(game_id)
            self.core.check_place(game, channel_id)
            try:
                return await self._act(game, version, actor, action_id)
            except SaveConflict:
                # Something wrote the game since it was read (or kept): read it again.
                return await self._act(await self.load(game_id), version, actor, action_id)

    async def _act(self, game: LoadedGame, version: int, actor: Actor, action_id: str) -> Play:
        """Do :meth:`act`'s work on ``game`` as read (the lock is held)."""
        if game.row.status == "active" and not game.broken and len(game.seats) > 1:
            back = game.seat_of(actor.user_id)
            if back is not None and game.seats[back].away:
                # Any click brings an away player back, even on a board left behind;
                # a resign they confirm is made whatever moved meanwhile, as anyone's.
                return await self.turns.back(
                    game, back, actor, action_id,
                    fresh=_as_shown(game, version, action_id) == game.row.version)
        if (game.row.status == "active" and not game.broken
                and action_id in (LOBBY_JOIN, LOBBY_LEAVE)):
            raise StartedMeanwhile(game.link, _started_meanwhile(game, actor.user_id,
                                                                 action_id))
        self.core.check_open(game, _as_shown(game, version, action_id))
        if action_id.startswith(LOBBY_PREFIX):
            return await self.lobbies.move(game, actor, action_id)
        seat = self.core.seat_for(game, actor, action_id)
        if len(game.seats) == 1:
            return await self.channel.move(game, actor, action_id)
        return await self.turns.move(game, seat, action_id, actor.user_id)

    async def check(self, game_id: int, version: int, actor: Actor, action_id: str, *,
                    channel_id: int | None = None) -> None:
        """Refuse as :meth:`act` would, without applying anything (before asking to confirm)."""
        game = await self.load(game_id)
        self.core.check_place(game, channel_id)
        self.core.check_open(game, _as_shown(game, version, action_id))
        if action_id.startswith(LOBBY_PREFIX):  # tried on a copy: nothing is saved
            self.lobbies.try_move(game, actor, action_id)
            return
        seat = self.core.seat_for(game, actor, action_id)
        if action_id not in {a.id for a in game.legal_actions(seat)}:
            raise Refusal("That move is not possible now.")

    async def computer_move(self, game_id: int) -> Play | None:
        """Let a computer player move if one is to act; return None if none is."""
        async with self.core.hold(game_id):
            game = await self.load(game_id)
            if game.broken or not game.computer_to_act():
                return None
            seat = game.to_act()
            assert seat is not None
            # A Hard computer plays the endgame out before it chooses: a thread, never the
            # event loop (engine states are never changed in place, so this is safe).
            action_id = await asyncio.get_running_loop().run_in_executor(
                THINKING, game.engine.computer_action, game.state, seat)
            return await self.turns.move(game, seat, action_id, None)

    def waiting(self, guild_id: int | None) -> bool:
        """Whether the games of a server wait: nobody there can click, because the server
        removed the bot (within its grace) or Discord reports it unavailable."""
        return guild_id in self.removed or guild_id in self.unavailable

    async def fire_deadline(self, game_id: int) -> Play | None:
        """Do what a game's due deadline asks for: close its vote, run its turn timer, or
        send a turn notice whose grace time has passed. Raise :class:`Paused` for a game
        of a server whose games wait (:meth:`waiting`)."""
        if ((self.removed or self.unavailable)
                and self.waiting((await self.load(game_id)).row.guild_id)):
            raise Paused(game_id)
        play = await self.channel.close_vote(game_id)
        if play is not None:
            return play
        return await self.turns.fire_timer(game_id)

    async def close_vote(self, game_id: int) -> Play | None:
        """Close the game's voting window if it is due (see :class:`ChannelPolicy`)."""
        return await self.channel.close_vote(game_id)

    async def fire_timer(self, game_id: int) -> Play | None:
        """Handle a due turn timer (see :class:`TurnPolicy`)."""
        return await self.turns.fire_timer(game_id)

    async def put_off_timer(self, game_id: int,
                            away: Sequence[downtime.Outage] = ()) -> Play | None:
        """After a start, move a running turn timer later by the outage, or by the time
        ``away`` from its server (see :class:`TurnPolicy`)."""
        return await self.turns.put_off_timer(game_id, away)

    async def notice_refused(self, game_id: int, version: int, user: int, text: str, *,
                             reminder: bool = False) -> None:
        """Post a turn notice Discord refused again later (see :class:`TurnPolicy`)."""
        await self.turns.notice_refused(game_id, version, user, text, reminder=reminder)

    async def come_back(self, game_id: int, actor: Actor) -> Play | None:
        """An away person used a button that is not a move (see :class:`TurnPolicy`)."""
        return await self.turns.come_back(game_id, actor)

    async def looking(self, game_id: int, actor: Actor) -> bool:
        """The person to act opened the rules while their turn notice waits (see
        :class:`TurnPolicy`)."""
        return await self.turns.looking(game_id, actor)

    async def still_here(self, game_id: int, actor: Actor) -> Play | None:
        """A reminded person used a button that is not a move (see :class:`TurnPolicy`)."""
        return await self.turns.still_here(game_id, actor)

    async def hand_to_computer(self, channel_id: int, actor: Actor, absent_user: int) -> Play:
        """Vote to hand an absent player's seat to a computer (see :class:`TurnPolicy`)."""
        return await self.turns.hand_to_computer(channel_id, actor, absent_user)

    # -- lobbies ------------------------------------------------------------------------

    async def claim_host(self, game_id: int, actor: Actor, departed: int | None) -> Play:
        """Hand the host role of a lobby whose host ``departed`` left the server, or (None)
        is away, to ``actor`` (see :meth:`Lobbies.claim_host`)."""
        return await self.lobbies.claim_host(game_id, actor, departed)

    def host_away_at(self, game: LoadedGame) -> float:
        """When the lobby's host counts as away (see :meth:`Lobbies.host_away_at`)."""
        return self.lobbies.host_away_at(game)

    async def host_here(self, game_id: int, user_id: int) -> None:
        """Note that the lobby's host ``user_id`` is here (see :meth:`Lobbies.host_here`)."""
        await self.lobbies.host_here(game_id, user_id)

    # -- ending and housekeeping --------------------------------------------------------

    async def abandon(self, channel_id: int, actor: Actor, *, game_id: int | None = None,
                      as_a_loss: bool | None = None) -> LoadedGame:
        """End the channel's open game, or record the ask (see :class:`Abandoning`)."""
        return await self.abandoning.abandon(channel_id, actor, game_id=game_id,
                                             as_a_loss=as_a_loss)

    async def call_off(self, game_id: int, event: str, *,
                       unseen: bool = False) -> LoadedGame | None:
        """End a game whose board could not be posted, or whose channel or server is
        gone for the bot, with no result (abandoned, by nobody; a daily deal played on
        counts as a loss, :meth:`TableCore.given_up`), so that it holds no channel and
        counts toward nobody's open games; ``event`` says why. A daily deal ``unseen``
        (its first board was never posted) no longer holds its channel's day: the deal
        may be started there again. Return the game afterwards, or None if it had ended
        already or could not be ended (logged); never raise."""
        try:
            async with self.core.hold(game_id):
                game = await self.load(game_id)
                if not game.row.is_open:
                    return None
                ended = await self.core.close(game, "abandoned", event, None)
                if unseen and ended.row.daily is not None and ended.row.version <= 1:
                    try:
                        await self.store.release_daily(game_id)
                    except StorageError as exc:  # ended all the same: the day stays taken
                        log.warning("could not free the daily deal of game %s: %s",
                                    game_id, exc)
                return ended
        except Refusal as refusal:
            log.warning("could not call off game %s: %s", game_id, refusal)
            return None

    async def may_abandon(self, channel_id: int, actor: Actor) -> tuple[LoadedGame, bool]:
        """Refuse as :meth:`abandon` would, changing nothing (see :class:`Abandoning`)."""
        return await self.abandoning.may_abandon(channel_id, actor)

    def abandon_forfeits(self, game: LoadedGame, actor: Actor) -> bool:
        """Whether ``actor`` abandoning ``game`` loses it for its people (see
        :class:`Abandoning`)."""
        return self.abandoning.forfeits(game, actor)

    async def expire_idle(
        self, cutoffs: dict[str, float], ended: Callable[[LoadedGame], Awaitable[None]],
    ) -> int:
        """End every open game idle past its cutoff (see :class:`IdleExpiry`); return how
        many were ended."""
        return await self.expiry.expire_idle(cutoffs, ended, shards=self.shards)

    async def remember_notice(self, game_id: int, notice: NoticeRef | None, *,
                              seen_to: int | None = None) -> None:
        """Keep where the table's turn notice was posted (None: there is none now).

        With ``seen_to``, the notice to that person being posted (or the turn timer's
        reminder) is seen to (posted, or no longer due): it no longer waits to be posted.
        For what the bot itself posted; the board's version stays.
        """
        try:
            async with self.core.hold(game_id):
                game = await self.load(game_id)
                game.data.notice = notice
                due = game.data.notice_due
                if due is not None and (due.reminder or due.owed) and due.user == seen_to:
                    game.data.notice_due = None
                await self.core.save_table(game)
        except Refusal as refusal:
            log.warning("could not remember the turn notice of game %s: %s", game_id, refusal)

    async def set_board(self, game: LoadedGame, channel_id: int,
                        message_id: int) -> tuple[int, int] | None:
        """Record ``message_id`` as the game's current board (``game`` too); return the
        board it replaced, ``(channel id, message id)``, read with the write (of two
        boards posted at once, each replaced a different one). None when there was none,
        or when the board could not be recorded (logged)."""
        try:
            replaced = await self.store.set_board(game.id, channel_id, message_id)
        except StorageError as exc:
            log.warning("could not record the board of game %s: %s", game.id, exc)
            return None
        game.row.board_channel_id = channel_id
        game.row.board_message_id = message_id
        game.row.board_posted_at = self.now()
        return replaced


#: How many replay posts a finished game keeps the place of.
REPLAYS_KEPT = 5


def _too_many(limit: int) -> str:
    """The refusal of a start by a member who has ``limit`` open games in the server."""
    return (f"You already have {limit} game{'' if limit == 1 else 's'} going in this "
            "server. Finish one, or abandon it in its channel (/tinker abandon, "
            "/tinrealm abandon or /steam abandon), before starting another.")
