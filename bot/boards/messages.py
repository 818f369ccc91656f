"""A board's message: posting it, editing it in place, reposting it where it was deleted
or could not be edited any more, and the edits the bot makes by itself.

Votes, closed voting windows and computer players change a board with no click to
answer: those edits are made at most once an interval per board, however the changes
arrive (:meth:`BoardMessages.update_soon`). Such an edit that Discord refuses for a while
(a rate limit longer than the client waits, a server error, a 403) is made again: after
the wait Discord asks for, else after a pause that doubles each time, a few times at
most, and not at all once a newer board is shown. The version each board message shows
is kept here too (:attr:`BoardMessages.shown`): the click path asks it to tell a board
left behind from a stale click.

At a clean stop the edits already asked for are made at once, without waiting for their
interval, for up to :data:`FLUSH_SECONDS` (:meth:`BoardMessages.stop_updates`). What a
stop or a crash still left undone is made after the next start: the boards of the games
saved shortly before the bot was last alive are edited again (:meth:`BoardMessages.redraw`,
asked by :meth:`bot.boards.service.Boards.redraw_recent`). Such an edit never posts a board:
one deleted (a moderator's cleanup) or past Discord's edit limit is left as it is, and one
that is no longer its game's board (moved by ``/<game> board``) is not edited.

A board whose channel or thread is gone (Unknown Channel) ends its game with no result
(:class:`bot.boards.gone.GonePlaces`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.gone import CHANNEL_GONE, UNKNOWN_CHANNEL, GonePlaces
from bot.boards.leftovers import Leftovers
from bot.boards.send_errors import SEND_ERRORS, passing_failure
from bot.boards.threads import MISSING_PERMISSIONS, GameThreads, refused_access
from bot.table.errors import Refusal, board_link
from bot.table.service import LoadedGame, Tables
from db.errors import StorageError

log = logging.getLogger(__name__)

#: How many boards' last edit times are kept before the old ones are forgotten.
EDITED_KEPT = 1000
#: How many ended games' board versions are kept (:meth:`BoardMessages.behind`): enough
#: for every edit that may still be held back from before their end.
ENDED_KEPT = 10_000
#: How many boards turned into "moved" lines are remembered (:meth:`BoardMessages._retire`).
RETIRED_KEPT = 1000

#: Discord's error code for a message past its edit limit.
EDIT_CAP = 30046
#: Discord's error code for an operation on an archived thread (a message's edit).
THREAD_ARCHIVED = 50083
#: Discord's code for a request it cannot read: an edit that keeps a picture the message
#: does not have (``attachment://board.png``) is one.
INVALID_FORM_BODY = 50035

#: How many times in a row the bot tries one of its own edits of a board that Discord
#: refuses (the first try included) before it leaves the board as it is.
EDIT_TRIES = 5

#: How long a clean stop waits for the board edits already asked for (seconds).
FLUSH_SECONDS = 5.0

#: Boards edited again at once after a start (:meth:`BoardMessages.redraw`).
REDRAW_AT_ONCE = 10
#: The most boards the bot edits by itself at once (see ``BoardMessages.update_soon``).
MAX_UPDATING = 64

#: Draws a game's board body: ``render(game, edit=..., keep=..., pictured=...)``.
Render = Callable[..., Awaitable[dict[str, Any]]]


#: How long boards of a channel that refused a board's picture go as text before a
#: picture is tried again, and how many such channels are remembered.
NO_PICTURES_SECONDS = 600.0
NO_PICTURES_KEPT = 1000


class BoardMessages:
    """Posts, edits and reposts board messages; makes the bot's own edits, one at a time."""

    def __init__(self, bot: discord.Client, tables: Tables, render: Render,
                 threads: GameThreads, leftovers: Leftovers | None = None) -> None:
        self.bot = bot
        self.tables = tables
        self.render = render
        self.threads = threads
        #: Retires the boards a newer one replaced (again later, if Discord fails).
        self.leftovers = leftovers or Leftovers()
        #: The version each board message shows, as far as this process knows, and when
        #: (wall clock, as Discord stamps a message's edits) it was shown so.
        self.shown: dict[int, int] = {}
        self.shown_at: dict[int, float] = {}
        #: The version on the boards of games that ended (the newest :data:`ENDED_KEPT`):
        #: an edit held back from before the end (a vote's tally) is not drawn over them.
        self._ended: dict[int, int] = {}
        #: When the bot last edited each board by itself (monotonic seconds), and which
        #: save of the game that edit showed (:func:`_saved`).
        self._edited: dict[int, float] = {}
        self._drawn: dict[int, tuple[int, float]] = {}
        #: Boards waiting for an edit (votes, closed windows), and the task editing each;
        #: boards whose last such edit Discord refused, to be tried again.
        self._dirty: set[int] = set()
        self._retrying: set[int] = set()
        #: Boards whose edit asked for is only the start's redraw's (posts no board).
        self._quiet: set[int] = set()
        #: Boards whose edits (or turn notices) Discord refuses for want of access or a
        #: permission (the bot no longer sees the channel, say), and whether a player
        #: was told so; a board edited or posted again, or a notice posted, takes it off.
        self.locked_out: dict[int, bool] = {}
        #: Channels whose boards Discord refused a picture (no Attach Files there), with
        #: when (the event loop's clock): their boards go as text, without a request
        #: refused first, and a picture is tried again after :data:`NO_PICTURES_SECONDS`.
        self._no_pictures: dict[int, float] = {}
        #: The latest boards turned into "moved" lines (their picture gone): an edit of
        #: the board drawn before is made on the board that replaced them instead.
        self._retired: dict[int, None] = {}
        self._latest: dict[int, LoadedGame] = {}
        self._updaters: dict[int, asyncio.Task[None]] = {}
        #: The most boards edited by the bot itself at once (each edit waits on Discord's
        #: rate limits); the boards asked for beyond them wait here, in order, holding
        #: only their ids (the game is read again when its turn comes).
        self.max_updating = MAX_UPDATING
        self._waiting: dict[int, None] = {}
        #: Pause between two edits of one board made by the bot itself (not a click's answer).
        self.edit_interval = 1.0
        #: Set when a clean stop makes the edits asked for at once (no interval to wait).
        self._flush = asyncio.Event()
        #: Set once the stop is done with edits: none is asked for after it.
        self._stopped = False
        #: Ends the games whose channel, thread or server is gone.
        self.gone = GonePlaces(tables, self.forget)

    def behind(self, game: LoadedGame) -> bool:
        """Whether a newer board of the game than ``game``'s was shown meanwhile."""
        shown = max(self.shown.get(game.id, -1), self._ended.get(game.id, -1))
        return shown > game.row.version

    def mark_shown(self, game: LoadedGame) -> None:
        """Remember the version on the game's board (once the game has ended, among the
        last :data:`ENDED_KEPT` ended games only)."""
        if game.row.is_open:
            self.shown[game.id] = game.row.version
            self.shown_at[game.id] = time.time()
            return
        self.shown.pop(game.id, None)
        self.shown_at.pop(game.id, None)
        self._ended.pop(game.id, None)
        self._ended[game.id] = game.row.version
        if len(self._ended) > ENDED_KEPT:
            del self._ended[next(iter(self._ended))]

    def forget(self, game_id: int) -> None:
        """Forget a game whose board is gone with its channel: no edit of it is made now."""
        self.shown.pop(game_id, None)
        self.shown_at.pop(game_id, None)
        self._ended.pop(game_id, None)
        self._dirty.discard(game_id)
        self._waiting.pop(game_id, None)
        self._retrying.discard(game_id)
        self._quiet.discard(game_id)
        self.locked_out.pop(game_id, None)
        self._latest.pop(game_id, None)

    async def send_board(
        self,
        interaction: discord.Interaction[Any],
        game: LoadedGame,
        *,
        invite: tuple[int, ...] = (),
        before: Callable[[], Awaitable[None]] | None = None,
    ) -> BaseException | None:
        """Answer a command with a new board for ``game`` and retire the previous one.

        ``invite`` names members the board's message mentions (once, when it is posted);
        ``before`` runs just before the answer leaves (an answer clock settling). A
        command deferred meanwhile is answered by a follow-up; an answer that fails is
        posted in the channel instead. Return None once the board is shown, or what
        stopped it (logged): a game just started is then called off.
        """
        body = _inviting(_without_none(await self.render(game)), invite)
        if before is not None:
            await before()
        try:
            if interaction.response.is_done():
                sent = await interaction.followup.send(**body, wait=True)
                message_id: int | None = sent.id
            else:
                response = await interaction.response.send_message(**body)
                message_id = response.message_id
        except SEND_ERRORS as exc:
            log.warning("could not answer with the board of game %s (%s); posting it", game.id,
                        exc)
            return await self.post(game)
        channel_id = interaction.channel_id or game.row.channel_id
        if message_id is not None:
            replaced = await self.tables.set_board(game, channel_id, message_id)
            self.mark_shown(game)
            await self._retire(replaced, game)
        return None

    async def post(self, game: LoadedGame, *,
                   invite: tuple[int, ...] = ()) -> BaseException | None:
        """Post a fresh board in the game's channel and retire the previous one.

        ``invite`` names members the new message mentions (see :meth:`send_board`).
        Return None once it is posted, or the error that stopped it (logged).
        """
        return await self._post(game, invite=invite)

    async def keep_posted(self, game: LoadedGame) -> None:
        """Post the open ``game``'s board again if it was deleted (a moderator's clean-up),
        so that a turn notice about to link to it leads to a board: one read of the
        message. A read Discord refuses, or a channel gone, is left to the board's next
        edit (logged)."""
        if not game.row.is_open or game.row.board_message_id is None:
            return
        message = await self._board_now(game, stored=False)
        if message is None:
            return
        try:
            await message.fetch()
        except discord.NotFound as exc:
            if exc.code == UNKNOWN_CHANNEL:
                return
            log.info("board of game %s was deleted; posting a new one", game.id)
            game.row.board_message_id = None
            await self._post(game, deleted=message.id)
        except SEND_ERRORS as exc:
            log.warning("could not read the board of game %s: %s", game.id, exc)

    async def _post(self, game: LoadedGame, *, invite: tuple[int, ...] = (),
                    deleted: int | None = None) -> BaseException | None:
        """:meth:`post`; ``deleted`` is a board message known to be gone (not retired)."""
        channel = self.bot.get_partial_messageable(
            game.row.board_channel_id or game.row.channel_id, guild_id=game.row.guild_id
        )
        try:
            body = _inviting(_without_none(await self.render(game, **self._as_text(channel.id))),
                             invite)
            try:
                message = await channel.send(**body)
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS or "file" not in body:
                    raise
                # perhaps no Attach Files here: the board goes without its picture (still
                # an embed: without Embed Links this fails too)
                message = await channel.send(**_inviting(
                    _without_none(await self.render(game, pictured=False)), invite))
                # the picture was what Discord refused (a channel shut to the bot refuses
                # the text too, and its boards keep their pictures once it is open again)
                self._refused_pictures(channel.id)
        except discord.NotFound as exc:
            log.warning("could not post the board of game %s: %s", game.id, exc)
            if exc.code == UNKNOWN_CHANNEL:
                return await self._channel_gone(game, channel.id, exc)
            return exc
        except SEND_ERRORS as exc:
            log.warning("could not post the board of game %s: %s", game.id, exc)
            return exc
        replaced = await self.tables.set_board(game, message.channel.id, message.id)
        self.mark_shown(game)
        self.locked_out.pop(game.id, None)  # the channel takes the bot's posts again
        if replaced is not None and replaced[1] != deleted:
            await self._retire(replaced, game)
        return None

    async def refresh(self, game: LoadedGame, *, keep: bool = False,
                      repost: bool = True) -> BaseException | None:
        """Edit the game's board in place; post a new one if it was deleted or capped.

        With ``keep`` the message keeps its picture (only the text changed: a vote).
        Without ``repost`` (the start's redraw) no board is posted: a board deleted,
        capped or gone with its thread is left so, and a message that is no longer the
        game's board as stored is not edited. An ended game's own thread is let to be
        archived. Return None once the board shows the game (or is left so), or what
        stopped it (logged); a board whose channel is gone ends its game.
        """
        failed = await self._edit(game, keep=keep, repost=repost)
        await self.threads.wind_up(game)
        if failed is None or not passing_failure(failed):
            self._let_go(game)  # (shown, left so, or never to be)
        return failed

    def _let_go(self, game: LoadedGame) -> None:
        """Forget an ended game whose last board edit will not be made (its board deleted,
        its thread archived, the channel shut to the bot): nobody plays it any more, and
        what was noted of its board would be held for the process's life."""
        if not game.row.is_open:
            self.mark_shown(game)
            self.locked_out.pop(game.id, None)

    async def show(self, game: LoadedGame, *, repost: bool = True) -> None:
        """Edit the game's board now (:meth:`refresh`); an edit Discord refuses for a
        while (a server error, a long rate limit) is left to :meth:`update_soon`, which
        tries again with pauses, so the board does not stay on an older move until a
        click."""
        failed = await self.refresh(game, repost=repost)
        if failed is not None and passing_failure(failed):
            self.update_soon(game.id, game, repost=repost)
        elif refused_access(failed) and game.row.is_open:
            self.locked_out.setdefault(game.id, False)  # the next clicker is told

    async def _channel_gone(self, game: LoadedGame, channel_id: int,
                            error: discord.NotFound) -> BaseException | None:
        """The channel ``channel_id`` that held the game's board is gone: post the board in
        the game's own channel if that is another one, else call the game off. Return as
        :meth:`post` does."""
        if channel_id != game.row.channel_id:
            deleted = game.row.board_message_id
            game.row.board_channel_id = game.row.board_message_id = None
            return await self._post(game, deleted=deleted)
        await self.gone.call_off(game.id, CHANNEL_GONE)
        return error

    async def _edit(self, game: LoadedGame, *, keep: bool, repost: bool = True,
                    reopened: bool = False) -> BaseException | None:
        if game.row.board_message_id is None or game.row.board_channel_id is None:
            return await self.post(game) if repost else None
        message = self._message(game)
        try:
            try:
                body = await self.render(game, edit=True, keep=keep,
                                         **self._as_text(message.channel.id))
                if self.behind(game):
                    return None  # a newer board was shown while this one was drawn
                now = await self._board_now(game, stored=not repost)
                if now is not None and now.id in self._retired:
                    # retired while this edit was drawn (a /<game> board): the new one
                    now = await self._board_now(game, stored=not repost)
                if (now is None or now.id in self._retired
                        or self.behind(game)):  # (a click may answer meanwhile)
                    return None
                message = now
                await message.edit(**body)
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS:
                    raise
                # no Attach Files here: the board goes as text
                body = await self.render(game, edit=True, pictured=False)
                now = await self._board_now(game, stored=not repost)
                if now is None:
                    return None
                message = now
                await message.edit(**body)
                self._refused_pictures(message.channel.id)  # (the text went: it was that)
            await self._moved_meanwhile(game, message)
            behind = self.behind(game)
            self.mark_shown(game)  # what the message shows now
            self.locked_out.pop(game.id, None)  # the channel takes the bot's edits again
            if behind:  # a newer board was shown while this edit waited: show it again
                self.update_soon(game.id)
            return None
        except discord.NotFound as exc:
            channel_id = message.channel.id
            if exc.code == UNKNOWN_CHANNEL:
                log.info("the channel of game %s's board is gone", game.id)
                if not repost and channel_id != game.row.channel_id:
                    return None  # the start's redraw posts no board elsewhere
                return await self._channel_gone(game, channel_id, exc)
            if not repost:
                log.info("board of game %s was deleted; left so", game.id)
                return None
            log.info("board of game %s was deleted; posting a new one", game.id)
            game.row.board_message_id = None
            return await self._post(game, deleted=message.id)
        except discord.HTTPException as exc:
            if exc.code == EDIT_CAP:
                return await self.post(game) if repost else None
            if exc.code == INVALID_FORM_BODY and keep:
                # No picture to keep: pictures were turned on since the board was shown,
                # or it went as text (no Attach Files). The picture goes with the edit.
                return await self._edit(game, keep=False, repost=repost, reopened=reopened)
            if (exc.code == THREAD_ARCHIVED and not reopened and game.row.is_open
                    and await self.threads.reopen(message.channel.id)):
                # A thread archived under an open game (a week of clicks alone, which do
                # not count as activity): open again, its board is edited once more.
                return await self._edit(game, keep=keep, repost=repost, reopened=True)
            log.warning("could not edit the board of game %s: %s", game.id, exc)
            failed: BaseException = exc
        except SEND_ERRORS as exc:
            log.warning("could not edit the board of game %s: %r", game.id, exc)
            failed = exc
        return failed

    def _as_text(self, channel_id: int) -> dict[str, Any]:
        """Return how a board of ``channel_id`` is drawn: as text (``pictured=False``)
        while Discord refused the channel's last picture lately, else as its game says."""
        refused = self._no_pictures.get(channel_id)
        if refused is None:
            return {}
        if asyncio.get_running_loop().time() - refused < NO_PICTURES_SECONDS:
            return {"pictured": False}
        del self._no_pictures[channel_id]  # a picture is tried again (granted since?)
        return {}

    def _refused_pictures(self, channel_id: int) -> None:
        """Note that Discord refused a board's picture in ``channel_id`` (kept for the
        :data:`NO_PICTURES_KEPT` latest channels)."""
        self._no_pictures.pop(channel_id, None)
        self._no_pictures[channel_id] = asyncio.get_running_loop().time()
        if len(self._no_pictures) > NO_PICTURES_KEPT:
            del self._no_pictures[next(iter(self._no_pictures))]

    def _message(self, game: LoadedGame) -> discord.PartialMessage:
        """Return the message ``game`` names as its board (which it must name)."""
        assert game.row.board_channel_id is not None and game.row.board_message_id is not None
        channel = self.bot.get_partial_messageable(
            game.row.board_channel_id, guild_id=game.row.guild_id
        )
        return channel.get_partial_message(game.row.board_message_id)

    async def _where(self, game: LoadedGame) -> tuple[int, int] | None:
        """Return where the game's board is now, ``(channel id, message id)``: as this
        process last kept the game (:meth:`set_board` keeps it so), else as stored. None
        when the game names no board or is not stored; a read that fails raises
        :class:`StorageError`."""
        kept = self.tables.store.kept_board(game.id)
        if kept is None:
            row = await self.tables.store.get_game(game.id)
            if row is None:
                return None
            kept = (row.board_channel_id, row.board_message_id)
        channel_id, message_id = kept
        if channel_id is None or message_id is None:
            return None
        return channel_id, message_id

    async def _board_now(self, game: LoadedGame, *,
                         stored: bool) -> discord.PartialMessage | None:
        """Return the game's board message as it is now, not as ``game`` was read (a
        ``/<game> board`` may have moved it since): an edit never brings a retired board
        back. ``game`` is told where its board is. A read that fails (logged) leaves
        ``game``'s own board, or with ``stored`` (the start's redraw) none: None, and so
        does a game no longer stored with ``stored``."""
        try:
            where = await self._where(game)
        except StorageError as exc:
            log.warning("could not read game %s before editing its board: %s", game.id, exc)
            if stored:
                return None
        else:
            if where is None and stored:
                log.info("game %s has no board stored; not edited", game.id)
                return None
            if where is not None and where[1] != game.row.board_message_id:
                log.info("board of game %s moved from message %s to %s; editing that one",
                         game.id, game.row.board_message_id, where[1])
                game.row.board_channel_id, game.row.board_message_id = where
        return self._message(game)

    async def _moved_meanwhile(self, game: LoadedGame, message: discord.PartialMessage) -> None:
        """Retire ``message``, a board just edited, if a newer board replaced it while the
        edit was on its way (its retiring may have landed first)."""
        with contextlib.suppress(StorageError):
            where = await self._where(game)
            if where is not None and where[1] != message.id:
                game.row.board_channel_id, game.row.board_message_id = where
                await self._retire((message.channel.id, message.id), game)

    async def answered_on(self, game: LoadedGame, message: discord.Message) -> None:
        """A click's answer just drew ``game`` on ``message``, the board clicked. Where the
        game's board is now another message, the newer of the two is the board:
        ``message`` when it is newer (it is recorded), else the board a ``/<game> board``
        posted while the click was applied (drawn before the click's move): ``message``
        says it moved again, and the board is edited to show the game."""
        try:
            where = await self._where(game)
        except StorageError:
            where = (game.row.board_channel_id or 0, game.row.board_message_id or 0)
        if where is not None and where[1] == message.id:
            return
        if where is None or where[1] < message.id:  # message ids grow with time
            await self._retire(await self.tables.set_board(game, message.channel.id,
                                                           message.id), game)
            return
        game.row.board_channel_id, game.row.board_message_id = where
        self.shown.pop(game.id, None)  # what the board shows is not known
        await self._retire((message.channel.id, message.id), game)
        self.update_soon(game.id)

    async def _retire(self, board: tuple[int, int] | None, game: LoadedGame) -> None:
        """Turn ``board``, a message the game's board replaced, into a line linking to the
        board ``game`` names now."""
        if board is None or board[1] == game.row.board_message_id:
            return
        channel_id, message_id = board
        self._retired[message_id] = None  # no edit of a board is made on it from now
        if len(self._retired) > RETIRED_KEPT:
            del self._retired[next(iter(self._retired))]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=game.row.guild_id)
        link = board_link(game.row.guild_id, game.row.board_channel_id, game.row.board_message_id)
        await self.leftovers.take_back(
            f"the old board {message_id} of game {game.id}",
            functools.partial(channel.get_partial_message(message_id).edit,
                              content=moved_line(link), embed=None, view=None, attachments=[]))

    # -- edits the bot makes by itself ---------------------------------------------------

    def update_soon(self, game_id: int, game: LoadedGame | None = None, *,
                    repost: bool = True) -> None:
        """Edit the game's board soon; edits asked for meanwhile are made as one.

        Votes and closed windows change a board without a click to answer: at most one
        edit per board is in flight, and a burst of votes costs one or two edits.
        ``game`` is the game as just saved, which spares reading it again; of two such
        asks answered out of the order they were saved in (votes leave the version as it
        is), the one saved last is drawn. Without ``repost`` (the start's redraw) the
        edit posts no board (see :meth:`refresh`), unless an ordinary ask joins it. After
        :meth:`stop_updates` nothing is edited (the next start edits the boards of the
        games saved just before the stop).
        """
        if self._stopped:
            return
        if repost:
            self._quiet.discard(game_id)
        elif game_id not in self._dirty:
            self._quiet.add(game_id)
        if game is not None:
            held = self._latest.get(game_id)
            if held is None or _saved(held) <= _saved(game):
                self._latest[game_id] = game
        else:
            self._latest.pop(game_id, None)
        self._dirty.add(game_id)
        task = self._updaters.get(game_id)
        if task is not None and not task.done():
            return
        if len(self._updaters) >= self.max_updating:
            self._waiting[game_id] = None
            self._latest.pop(game_id, None)
            return
        self._start_update(game_id)

    def _start_update(self, game_id: int) -> None:
        """Start the task that edits the game's board."""
        self._updaters[game_id] = asyncio.create_task(
            self._update(game_id), name=f"board-update-{game_id}")

    def _next_waiting(self) -> None:
        """Start the edits of boards waiting for their turn, while there is room."""
        while self._waiting and len(self._updaters) < self.max_updating and not self._stopped:
            game_id = next(iter(self._waiting))
            del self._waiting[game_id]
            if game_id not in self._updaters and game_id in self._dirty:
                self._start_update(game_id)

    async def _update(self, game_id: int) -> None:
        tries = 0  # edits of this board Discord refused in a row
        retry_at = -math.inf
        repost = True  # False while the edit made is only the start's redraw's
        try:
            # Closing does not stop it: the edits asked for before the stop are made
            # (stop_updates waits for them, and no longer than FLUSH_SECONDS).
            while game_id in self._dirty or game_id in self._retrying:
                # However votes arrive, the bot edits one board at most once an interval
                # (but at a clean stop, which makes what was asked for at once).
                wait = max(self._edited.get(game_id, -math.inf) + self.edit_interval,
                           retry_at) - time.monotonic()
                if wait > 0 and not self._flush.is_set():
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(wait):
                            await self._flush.wait()
                asked = game_id in self._dirty  # else only a refused edit is made again
                if not asked and (game_id not in self._retrying or self._flush.is_set()):
                    break  # forgotten meanwhile (its channel is gone), or stopping
                if asked:
                    repost = game_id not in self._quiet
                    self._quiet.discard(game_id)
                self._dirty.discard(game_id)
                self._retrying.discard(game_id)
                game = self._latest.pop(game_id, None)
                if game is None:
                    try:
                        game = await self.tables.load(game_id)
                    except Refusal:
                        return
                shown = self.shown.get(game_id, -1)
                if self.behind(game) or _saved(game) < self._drawn.get(
                        game_id, (-1, -math.inf)) or (not asked and shown == game.row.version):
                    continue  # a newer board is already shown (since the edit refused)
                failed = await self.refresh(game, keep=shown == game.row.version,
                                            repost=repost)
                self._edited[game_id] = time.monotonic()
                if failed is None:
                    self._drawn[game_id] = _saved(game)
                    tries = 0
                    if self._waiting and game_id in self._dirty:
                        # Asked for again while other boards wait their turn: this one
                        # waits behind them rather than keeping its place for ever.
                        self._waiting[game_id] = None
                        return
                    continue
                tries += 1
                pause = self._refused(game, failed, tries)
                if pause is not None:
                    retry_at = time.monotonic() + pause
                    self._retrying.add(game_id)
                else:
                    self._let_go(game)  # given up
        except Exception:
            log.warning("could not update the board of game %s", game_id, exc_info=True)
        finally:
            self._updaters.pop(game_id, None)
            self._latest.pop(game_id, None)
            self._retrying.discard(game_id)
            self._next_waiting()
            if len(self._edited) > EDITED_KEPT:  # forget boards edited long ago
                horizon = time.monotonic() - self.edit_interval
                for old in [g for g, at in self._edited.items() if at < horizon]:
                    del self._edited[old]
                    self._drawn.pop(old, None)

    def _refused(self, game: LoadedGame, failed: BaseException, tries: int) -> float | None:
        """Note that Discord refused the bot's own edit of ``game``'s board ``tries`` times
        in a row; return how long to wait before it is made again, or None when it is not:
        a refusal that trying again cannot change, or :data:`EDIT_TRIES` made (logged).
        The wait is what Discord asked for, and at least an edit interval doubled per try.
        """
        if self.shown.get(game.id, -1) <= game.row.version:
            # Not shown after all (a vote's tally keeps the version): the edit made again
            # is not taken for one already made.
            self.shown.pop(game.id, None)
        if refused_access(failed):
            # shut out of the channel: trying again in seconds changes nothing; a click
            # shows the board meanwhile, and the next edit asked for tries again
            self.locked_out.setdefault(game.id, False)
            return None
        if isinstance(failed, discord.HTTPException) and not (
                failed.status in (403, 429) or failed.status >= 500):
            return None
        if tries >= EDIT_TRIES:
            log.warning("gave up editing the board of game %s after %d tries: %s", game.id,
                        tries, failed)
            return None
        wanted = failed.retry_after if isinstance(failed, discord.RateLimited) else 0.0
        return max(wanted, self.edit_interval * 2 ** tries)

    async def redraw(self, game_ids: list[int]) -> bool:
        """Edit the boards of ``game_ids`` again, each as its game is stored now: after a
        start, for the games whose last edit a stop or a crash may have left unmade.
        Return whether every board was seen to (False when the stop came first).

        The edits go the way of every edit the bot makes by itself
        (:meth:`update_soon`: one at a time per board, at most once an interval, never
        over a newer board), :data:`REDRAW_AT_ONCE` boards at a time. They post no
        board (see :meth:`refresh` without ``repost``): a board deleted or past its edit
        limit is left as it is, and a message no longer its game's board is not edited.
        """
        for start in range(0, len(game_ids), REDRAW_AT_ONCE):
            batch = game_ids[start:start + REDRAW_AT_ONCE]
            for game_id in batch:
                self.update_soon(game_id, repost=False)
                if game_id in self._waiting:  # the redraw keeps to its own batches
                    del self._waiting[game_id]
                    self._start_update(game_id)
            tasks = [t for g in batch if (t := self._updaters.get(g)) is not None]
            if tasks:
                await asyncio.wait(tasks)
            if self._stopped:
                return False
        return True

    async def stop_updates(self, timeout: float = FLUSH_SECONDS) -> None:
        """At shutdown: make the board edits already asked for now, without waiting for
        their interval (a refused edit is not tried again), for up to ``timeout``
        seconds; cancel what is left then. Nothing is edited afterwards."""
        self._flush.set()
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        # A finished edit starts one that waited for its turn: wait for those too.
        while self._updaters and (left := until - loop.time()) > 0:
            await asyncio.wait(list(self._updaters.values()), timeout=left)
        if self._updaters or self._waiting:
            log.warning("stopping with %d board edits not made",
                        len(self._updaters) + len(self._waiting))
        self._stopped = True
        self._waiting.clear()
        tasks = list(self._updaters.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _without_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _inviting(body: dict[str, Any], invite: tuple[int, ...]) -> dict[str, Any]:
    """Return a new board's body mentioning the invited members (and only them)."""
    if invite:
        body["content"] = "Invited: " + " ".join(f"<@{u}>" for u in invite)
        body["allowed_mentions"] = discord.AllowedMentions(
            everyone=False, roles=False, replied_user=False,
            users=[discord.Object(u) for u in invite],
        )
    return body


def moved_line(link: str) -> str:
    """Return what an old board says once a new one is posted: one line, a masked link."""
    return f"This board moved: [open the new board]({link})." if link else "This board moved."


def _saved(game: LoadedGame) -> tuple[int, float]:
    """When ``game`` was saved, in the order of its saves: its version, then the save's
    time (which every save moves forward)."""
    return game.row.version, game.row.updated_at
