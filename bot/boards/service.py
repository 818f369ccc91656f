"""Boards: the Discord side of the tables; starting games, handled deadlines and turn
notices here, the clicks, board messages, notices, computer players and threads its parts.

Each game's cog registers a :class:`Renderer` for its kind; everything else here is
generic: the start of a game (in the channel or in a thread of its own), what a handled
deadline shows. Answering clicks is :class:`bot.boards.clicks.BoardClicks`'s
(:attr:`Boards.clicks`); posting, editing and reposting board messages is
:class:`bot.boards.messages.BoardMessages`'s (:attr:`Boards.messages`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock
from bot.boards.clicks import BoardClicks
from bot.boards.computers import ComputerPlayers
from bot.boards.hosting import HostControls
from bot.boards.leftovers import Leftovers
from bot.boards.messages import BoardMessages
from bot.boards.notices import LobbyInvitations, TurnNotices
from bot.boards.pings import PingChoices
from bot.boards.render import (
    BoardRenderer,
    Renderer,
)
from bot.boards.replay import Replays
from bot.boards.send_errors import SEND_ERRORS, answered_privately, tell_privately
from bot.boards.threads import (
    GameThreads,
    Place,
    in_forum,
    not_posted_text,
    thread_renamed,
)
from bot.pictures.drawing import PictureDrawer
from bot.table.errors import (
    AnsweredElsewhere,
    Refusal,
)
from bot.table.service import LoadedGame, Play, Tables
from db.errors import StorageError

log = logging.getLogger(__name__)


#: The most games whose boards a start edits again (see :meth:`Boards.redraw_recent`):
#: far more than the few minutes before a stop save, however busy.
REDRAW_MOST = 1_000_000
#: The ``meta`` key (with the interaction's id) of a start taken by one process (see
#: :meth:`Boards.start_game`); its value is when, then the process's token.
START_CLAIM = "start_claim:"
#: How long a start's claim is kept (the sweep drops older ones): a deploy's overlap
#: lasts seconds.
START_CLAIM_SECONDS = 3600.0


def claim_value(at: float, token: str) -> str:
    """Return a start claim's ``meta`` value: the time, fixed-width so that values sort
    by it, then the process's token."""
    return f"{at:017.3f} {token}"


class Boards:
    """Answers clicks and starts games; holds the parts that post and edit the board
    messages (:attr:`messages`), move computer players, send turn notices, open threads."""

    def __init__(
        self,
        bot: discord.Client,
        tables: Tables,
        computer_delay: float = 1.5,
        *,
        images: bool = True,
        drawer: PictureDrawer | None = None,
    ) -> None:
        self.bot = bot
        self.tables = tables
        #: This process's own mark on the starts it takes (:meth:`start_game`).
        self.token = uuid.uuid4().hex
        #: Renders boards (embed, components, picture).
        self.drawing = BoardRenderer(images=images, drawer=drawer)
        self.drawing.pictures_for = self._pictures_in
        #: The tables' computer players, and their turn notices.
        self.computers = ComputerPlayers(tables, computer_delay, self._computer_moved)
        #: Members' choices of being pinged by turn notices.
        self.pings = PingChoices(tables)
        #: Takes back old notices, invitations and boards (again later, if Discord fails).
        self.leftovers = Leftovers()
        #: Games' own threads: opened at the start, archived after the end.
        self.threads = GameThreads(bot)
        #: The board messages: posted, edited, reposted; the bot's own edits.
        self.messages = BoardMessages(bot, tables, self._render, self.threads,
                                      self.leftovers)
        self.notices = TurnNotices(bot, tables, self.pings, self.leftovers,
                                   self.messages.locked_out)
        self.messages.gone.forget = self._forget_gone
        self.messages.reposted = self.notices.relink
        #: Replays and daily results of ended games.
        self.replays = Replays(tables, self.drawing.drawer)
        #: The host's private controls of a lobby.
        self.hosting = HostControls(tables, LobbyInvitations(bot, tables, self.leftovers),
                                    self.messages.show)
        self.messages.gone.called_off = self.hosting.invitations.clear
        self.messages.gone.show_ended = self.show_ended
        #: Answers the clicks on boards, on the parts above.
        self.clicks = BoardClicks(bot, tables, messages=self.messages,
                                  computers=self.computers, hosting=self.hosting,
                                  replays=self.replays, renderers=self.drawing.renderers,
                                  render=self._render, announce=self._announce)
        #: Notices of handled deadlines being posted (a rate limit holds one back for
        #: seconds; the deadline loop does not wait for it).
        self._announcing: set[asyncio.Task[None]] = set()

    def _forget_gone(self, game_id: int) -> None:
        """Forget a game called off with its channel, thread or server: its board and its
        turn notice are gone with it."""
        self.messages.forget(game_id)
        self.notices.forget(game_id)

    def _pictures_in(self, guild_id: int | None) -> bool:
        """Whether boards in a server carry pictures (its setting, as last read)."""
        if self.tables is None:  # rendering boards with no table behind them
            return self.images
        return self.tables.servers.cached(guild_id).pictures

    @property
    def drawer(self) -> PictureDrawer:
        """What draws the pictures."""
        return self.drawing.drawer

    @property
    def renderers(self) -> dict[str, Renderer]:
        """The renderer of each kind of game."""
        return self.drawing.renderers

    @property
    def images(self) -> bool:
        """Whether boards carry a picture."""
        return self.drawing.images

    def register(self, renderer: Renderer) -> None:
        """Register the renderer of one kind of game."""
        self.drawing.register(renderer)

    async def _render(self, game: LoadedGame, **options: Any) -> dict[str, Any]:
        """Return the board's body with its picture drawn off the event loop (if its
        server's boards carry pictures: read once per server and process)."""
        await self.tables.servers.get(game.row.guild_id)
        return await self.drawing.render_async(game, **options)

    # -- clicks -------------------------------------------------------------------------

    async def handle_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        """Apply a board click and answer it with one UPDATE_MESSAGE, or refuse privately
        (see :class:`bot.boards.clicks.BoardClicks`)."""
        await self.clicks.handle_click(interaction, game_id, version, action_id)

    # -- starting -----------------------------------------------------------------------

    async def _claim(self, interaction: discord.Interaction[Any]) -> None:
        """Take this start for this process, or raise AnsweredElsewhere: in a deploy's
        overlap both processes of a shard get every interaction, and one start must open
        one thread and one game and answer once. A store that cannot be written lets the
        start go on (storing its game says what is wrong)."""
        mine = claim_value(self.tables.now(), self.token)
        try:
            taken = await self.tables.store.first_meta(f"{START_CLAIM}{interaction.id}", mine)
        except StorageError as exc:
            log.debug("could not note the start of interaction %s: %s", interaction.id, exc)
            return
        if taken != mine:
            log.info("start of interaction %s taken by another process", interaction.id)
            raise AnsweredElsewhere()

    async def forget_claims(self) -> int:
        """Drop the starts' claims older than :data:`START_CLAIM_SECONDS`; return how
        many (raise StorageError if the store cannot)."""
        return await self.tables.store.drop_meta_before(
            START_CLAIM, claim_value(self.tables.now() - START_CLAIM_SECONDS, ""))

    async def start_game(
        self,
        interaction: discord.Interaction[Any],
        create: Callable[[int, bool, int | None], Awaitable[LoadedGame]],
        *,
        title: str,
        thread: bool | None = None,
        invite: tuple[int, ...] = (),
    ) -> LoadedGame:
        """Create a game with ``create(channel_id, own_thread, parent)`` (``parent``: the
        channel whose thread the game is played in, or None) and answer with its board.

        With ``thread`` (None: the server's setting) the game gets a new public thread:
        the command is answered with one line that links to it, then the board is posted
        there. Where no thread can be opened, the game is played in the channel and the
        starter is told why privately. A game that cannot start leaves no thread behind.
        Where the bot could not post a board (a permission it lacks), no game is created;
        a game whose board Discord still refuses is called off at once (no result; its
        new thread and the line pointing to it are taken back) and the refusal says why,
        naming the permission to grant when Discord says one is missing.
        """
        # Opening a thread, storing the game and drawing its board may take longer than
        # Discord waits for a first answer (a rate limit on threads, a slow disk): the
        # clock defers the command then, and the answer follows the deferral.
        clock = AnswerClock.of(interaction)
        try:
            await self._claim(interaction)
            server = await self.tables.servers.get(interaction.guild_id)
            wants_thread = server.threads if thread is None else thread
            if wants_thread:  # refused before a thread is opened for nothing
                await self.tables.check_room(interaction.guild_id, interaction.user.id)
            place = await self.threads.place(interaction, title, wants_thread,
                                             asked=thread is True and not server.threads)
            if place.opened is None:
                try:
                    game = await create(place.channel_id, place.own, place.parent)
                except Refusal:
                    if place.kept_open is not None:  # no game after all: its hour again
                        await self.threads.not_started(place.kept_open)
                    raise
                if place.own and isinstance(interaction.channel, discord.Thread):
                    await self.threads.stored(interaction.channel)
                failed = await self.messages.send_board(interaction, game, invite=invite,
                                                        before=clock.settle)
                if failed is not None:
                    await self._call_off(game, failed, place)
                    in_thread = isinstance(interaction.channel, discord.Thread)
                    forum = in_forum(interaction.channel)
                    raise Refusal(not_posted_text(
                        failed, thread=in_thread, forum=forum,
                        where=("in this post" if forum else "in this thread") if in_thread
                        else "in this channel"))
                if place.note:
                    await tell_privately(interaction, place.note)
                self.computers.schedule(game)
                return game
            try:
                game = await create(place.opened.id, True, interaction.channel_id)
            except Refusal:
                await self.threads.discard(place.opened)
                raise
            starter = actor_of(interaction).name
            line = f"🧵 {starter} started {title} in {place.opened.mention}"
            await clock.settle()
            # the line first: the board's picture may take a while to draw
            take_back = await _point_to_thread(interaction, line, game.id)
            failed = await self.messages.post(game, invite=invite)
            if failed is not None:
                await self._call_off(game, failed, place)
                if take_back is not None:
                    try:
                        await take_back()
                    except SEND_ERRORS as exc:
                        log.info("could not take back the line of game %s: %s", game.id, exc)
                raise Refusal(not_posted_text(failed, thread=True,
                                              where="in the game's thread"))
            self.computers.schedule(game)
            return game
        finally:
            await clock.settle()

    async def _call_off(self, game: LoadedGame, failed: BaseException, place: Place) -> None:
        """End a game just started whose board could not be posted (no result), so nothing
        is left holding its channel or its starter's open games: a thread opened for it is
        removed, a thread it was started in may be archived again."""
        log.warning("calling off game %s: its board could not be posted (%s)", game.id, failed)
        ended = await self.tables.call_off(
            game.id, "The game was called off: its board could not be posted.", unseen=True)
        if place.opened is not None:
            await self.threads.discard(place.opened)
        elif ended is not None:
            await self.threads.wind_up(ended)

    async def fire_deadline(self, game_id: int) -> None:
        """Handle a game's due deadline (a vote window closing) and show what it did.

        Its turn notice (or reminder) is posted on its own: a post that Discord holds
        back does not hold up the other deadlines due (another channel's vote window).
        """
        play = await self.tables.fire_deadline(game_id)
        if play is None:
            return
        if play.events or play.redraw:
            self.messages.update_soon(game_id, play.game)
        task = asyncio.create_task(self._announce(play.game, play.notice,
                                                  reminder=play.reminder, nonce=play.nonce),
                                   name=f"deadline-notice-{game_id}")
        self._announcing.add(task)
        task.add_done_callback(self._announced)
        self.computers.schedule(play.game)

    def _announced(self, task: asyncio.Task[None]) -> None:
        """Forget a deadline's notice posted (or not: said in the log)."""
        self._announcing.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("could not post the notice of a deadline: %r", task.exception(),
                        exc_info=task.exception())

    def show_forgotten(self, games: list[tuple[int, bool]], former: str) -> None:
        """Show again, in the background, the boards of the finished games a member's
        /forget-me took their name out of (``games``: each with whether they started
        it), pictures drawn again, and take down their replay posts; the thread the bot
        opened for one they started, named after them (by whatever name they had then),
        is renamed after ``former``. Cut off at a stop, like a notice."""
        task = asyncio.create_task(self._show_forgotten(games, former),
                                   name="forgotten-boards")
        self._announcing.add(task)
        task.add_done_callback(self._announced)

    async def _show_forgotten(self, games: list[tuple[int, bool]], former: str) -> None:
        places: dict[int, list[LoadedGame]] = {}
        started = {game_id for game_id, theirs in games if theirs}
        for game_id, _theirs in games:
            try:
                game = await self.tables.load(game_id)
            except Refusal as refusal:
                log.info("could not read game %s to show it again: %s", game_id, refusal)
                continue
            place = game.row.board_channel_id or game.row.channel_id
            places.setdefault(place, []).append(game)

        def renamed(name: str) -> str | None:
            return thread_renamed(name, former)

        for place, held in places.items():
            # a thread the bot opened for a game of theirs is named after them (not one
            # opened for another's game that they played again in)
            theirs = False
            if any(game.data.thread and game.id in started for game in held):
                try:
                    theirs = await self.tables.find.first_game_in(place) in started
                except Refusal as refusal:
                    log.info("could not read the first game of thread %s: %s", place,
                             refusal)
            async with self.threads.opened(place, renamed if theirs else None):
                for game in held:
                    self.messages.shown.pop(game.id, None)  # its picture named them
                    await self.messages.refresh(game, repost=False)
                    await self.replays.take_down(self.bot, game)  # so do its replays

    async def stop_announcing(self, timeout: float) -> None:
        """At a stop: let the deadlines' notices on their way be posted, for ``timeout``
        seconds at most, then cut them off (a reminder cut off is posted after the start:
        it waits in its table's data until it is out)."""
        tasks = list(self._announcing)
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=timeout)
        if late:
            log.warning("stopping while %d turn notices are still being posted", len(late))
        for task in late:
            task.cancel()
        for task in late:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _computer_moved(self, play: Play) -> None:
        """After a computer's move: edit the board (at most once a second), notices."""
        self.messages.update_soon(play.game.id, play.game)
        await self._announce(play.game, play.notice)

    def schedule_computers(self, game: LoadedGame) -> None:
        """Start moving computer players of ``game`` if one is to act."""
        self.computers.schedule(game)

    async def resume_computers(self) -> int:
        """After a restart, let computer players move wherever one is to act."""
        return await self.computers.resume()

    async def redraw_recent(self, since: float, batch: int) -> int | None:
        """After a start, edit again the boards of the games saved at or after ``since``,
        open or ended, the newest first, ``batch`` at a time; return how many, or None
        when the stop came before all were seen to. An edit a stop or a crash left
        unmade (a computer's move, a closed vote window, the end of a game) is shown so,
        with no click needed; no board is posted (:meth:`BoardMessages.redraw`). Raise
        StorageError if the games cannot be read. The games are read once, before any
        is redrawn (their ids only): one saved meanwhile is still among them."""
        ids = await self.tables.store.changed_since(since, limit=REDRAW_MOST,
                                                    shards=self.tables.shards)
        for start in range(0, len(ids), batch):
            if not await self.messages.redraw(ids[start:start + batch]):
                return None
            await self._tidy_ended(ids[start:start + batch])
        return len(ids)

    async def _tidy_ended(self, game_ids: list[int]) -> None:
        """Of ``game_ids`` (redrawn after a start), take down the turn notice and the
        invitations of each game that ended with them still standing: a stop or a crash
        came between its last save and its announcement, and an ended game gets no other
        (its thread is wound up too)."""
        for game_id in game_ids:
            try:
                game = await self.tables.load(game_id)
            except Refusal:
                continue
            if not game.row.is_open and (game.data.notice is not None or game.data.invites):
                await self._announce(game, None)

    async def put_off_timers(self) -> int:
        """After a start, move the running turn timers later by the time the bot was down
        during their run, and show each table's new end on its board; return how many
        moved."""
        tables = self.tables
        ids = await tables.store.active_multiseat_ids(waiting=True, shards=tables.shards)
        moved = 0
        for game_id in ids:
            if tables.closing:
                break
            try:
                play = await tables.put_off_timer(game_id)
            except Refusal:
                continue
            if play is not None:
                self.messages.update_soon(game_id, play.game)
                moved += 1
        return moved

    async def stop_computers(self) -> None:
        """Cancel computer players' pending moves (at shutdown)."""
        await self.computers.stop()

    async def show_ended(self, game: LoadedGame) -> None:
        """Show a game the table ended by itself (idle too long): its board says so and
        its turn notice leaves the channel, as when a game is abandoned. A board deleted
        meanwhile is not posted again: nobody plays the game any more. A game ended as
        idle in its own thread, archived by Discord meanwhile, has the thread opened for
        its end to show (:meth:`BoardMessages.refresh`)."""
        await self.messages.show(game, repost=False)
        await self._announce(game, None)

    async def announce(self, game: LoadedGame, notice: tuple[int, str] | None) -> None:
        """Tell a person it is their turn (see :class:`TurnNotices`), delete the lobby's
        invitations that are done with (see :class:`LobbyInvitations`); after the end,
        let the game's own thread be archived."""
        await self._announce(game, notice)

    async def _announce(self, game: LoadedGame, notice: tuple[int, str] | None, *,
                        reminder: bool = False, nonce: str | None = None) -> None:
        if (notice is not None and game.data.notices) or reminder:
            await self.messages.keep_posted(game)  # the notice links to a board there
        await self.notices.announce(game, notice, reminder=reminder, nonce=nonce)
        await self.hosting.invitations.clear(game)
        await self.threads.wind_up(game)


async def _point_to_thread(interaction: discord.Interaction[Any], line: str,
                           game_id: int) -> Callable[[], Awaitable[None]] | None:
    """Answer a start command with ``line`` (it links to the game's thread); return how to
    delete it again, or None if it could not be sent (logged)."""
    try:
        if interaction.response.is_done():
            sent = await interaction.followup.send(
                line, allowed_mentions=discord.AllowedMentions.none(), wait=True)
            return sent.delete
        await interaction.response.send_message(
            line, allowed_mentions=discord.AllowedMentions.none())
    except SEND_ERRORS as exc:
        if await answered_privately(interaction, exc):
            # another process answered first, privately (a deploy's overlap): the starter
            # is told where their game is, privately too
            await tell_privately(interaction, line)
            return None
        log.warning("could not point to the thread of game %s: %s", game_id, exc)
        return None
    return interaction.delete_original_response

