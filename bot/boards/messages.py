"""A board's message: posting it, editing it in place, reposting it where it was deleted
or could not be edited any more.

The version each board message shows is kept here (:attr:`BoardMessages.shown`): the
click path asks it to tell a board left behind from a stale click. The edits the bot makes
by itself, with no click to answer (votes, closed voting windows, computer players, the
start's redraw), are asked for here (:meth:`BoardMessages.update_soon`) and made by
:class:`bot.boards.updates.BoardUpdates`: at most once an interval per board, again for
a while when Discord refuses one, and at once at a clean stop. The start's redraw never
posts a board: one deleted (a moderator's cleanup) or past Discord's edit limit is left as
it is, and one that is no longer its game's board (moved by ``/<game> board``) is not
edited.

A board whose channel or thread is gone (Unknown Channel) ends its game with no result
(:class:`bot.boards.gone.GonePlaces`).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.gone import CHANNEL_GONE, UNKNOWN_CHANNEL, GonePlaces
from bot.boards.leftovers import Leftovers
from bot.boards.no_pictures import NoPictures
from bot.boards.send_errors import (
    SEND_ERRORS,
    answered_already,
    answered_privately,
    mark_answered,
    passing_failure,
    tell_after_failure,
    tell_privately,
)
from bot.boards.threads import MISSING_PERMISSIONS, GameThreads, refused_access
from bot.boards.updates import FLUSH_SECONDS, BoardUpdates
from bot.table.errors import board_link
from bot.table.service import LoadedGame, Tables
from db.errors import StorageError

log = logging.getLogger(__name__)

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

#: Draws a game's board body: ``render(game, edit=..., keep=..., pictured=...)``.
Render = Callable[..., Awaitable[dict[str, Any]]]


class BoardMessages:
    """Posts, edits and reposts board messages; asks for the bot's own edits
    (:attr:`updates`)."""

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
        #: Boards whose edits (or turn notices) Discord refuses for want of access or a
        #: permission (the bot no longer sees the channel, say), and whether a player
        #: was told so; a board edited or posted again, or a notice posted, takes it off.
        self.locked_out: dict[int, bool] = {}
        #: Channels whose boards Discord refused a picture lately: their boards go as text.
        self.no_pictures = NoPictures()
        #: The latest boards turned into "moved" lines (their picture gone): an edit of
        #: the board drawn before is made on the board that replaced them instead.
        self._retired: dict[int, None] = {}
        #: The edits the bot makes of these boards by itself (votes, closed windows,
        #: computer players, the start's redraw).
        self.updates = BoardUpdates(self)
        #: Ends the games whose channel, thread or server is gone.
        self.gone = GonePlaces(tables, self.forget)
        #: What is done once a board is posted anew (its turn notice pointed at it).
        self.reposted: Callable[[LoadedGame], Awaitable[None]] = _nothing

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
        self.locked_out.pop(game_id, None)
        self.updates.forget(game_id)

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
            if await answered_privately(interaction, exc):
                # another process answered privately (a deploy's overlap: "restarting"
                # from one stopping): the board goes in the channel, the starter is told
                failed = await self.post(game, invite=invite)
                if failed is None:
                    await tell_privately(interaction, f"Your game is on: {game.link}")
                return failed
            message_id = await self._shown_after_all(interaction, game, invite, exc)
            if message_id is None:
                log.warning("could not answer with the board of game %s (%s); posting it",
                            game.id, exc)
                failed = await self.post(game, invite=invite)
                if failed is None:  # the game is on: never "The application did not respond"
                    await tell_after_failure(interaction, f"Your game is on: {game.link}", exc)
                return failed
        channel_id = interaction.channel_id or game.row.channel_id
        if message_id is not None:
            replaced = await self.tables.set_board(game, channel_id, message_id)
            self.mark_shown(game)
            await self._retire(replaced, game)
        return None

    async def _shown_after_all(self, interaction: discord.Interaction[Any], game: LoadedGame,
                               invite: tuple[int, ...], error: BaseException) -> int | None:
        """Return the id of the board a command's answer shows though it failed with
        ``error``, Discord saying the command was answered already (40060: a response
        was taken after all, see :func:`answered_already`): the board, if that was it;
        if it was a deferral whose answer was lost (a command's "thinking…" still
        loading, or a click's update, whose original is the message clicked: an ended
        board's Play again), the board as its follow-up. None when no board is known to
        show."""
        if not answered_already(interaction, error):
            return None
        try:
            original = await interaction.original_response()
            clicked = interaction.message.id if interaction.message is not None else None
            if not original.flags.loading and original.id != clicked:
                mark_answered(interaction, discord.InteractionResponseType.channel_message)
                return original.id
            # the deferral showed: a command's "thinking…", or a click's update (whose
            # original is the message clicked, such as an ended board's Play again)
            mark_answered(interaction, discord.InteractionResponseType.deferred_channel_message
                          if original.flags.loading
                          else discord.InteractionResponseType.deferred_message_update)
            body = _inviting(_without_none(await self.render(game)), invite)
            return (await interaction.followup.send(**body, wait=True)).id
        except SEND_ERRORS as exc:
            log.warning("could not find a board answered after all: %s", exc)
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
            drawn = await self.render(game, **self.no_pictures.as_text(channel.id))
            body = _inviting(_without_none(drawn), invite)
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
                self.no_pictures.refused(channel.id)
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
        if replaced is not None or deleted is not None:
            await self.reposted(game)
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
            self.let_go(game)  # (shown, left so, or never to be)
        return failed

    def let_go(self, game: LoadedGame) -> None:
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
                                         **self.no_pictures.as_text(message.channel.id))
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
                self.no_pictures.refused(message.channel.id)  # (the text went: it was that)
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
            if exc.code == THREAD_ARCHIVED and not reopened and _reopens(game):
                # A thread archived under an open game (a week of clicks alone, which do
                # not count as activity), or the game's own thread under a game the table
                # ended as idle (its week from the board's post runs out before the
                # game's from its last click): open again, its board is edited once more
                # (an ended game's thread is then let to archive within the hour).
                opened = await self.threads.reopen(message.channel.id)
                if opened is True:
                    return await self._edit(game, keep=keep, repost=repost, reopened=True)
                if isinstance(opened, BaseException) and passing_failure(opened):
                    return opened  # tried again later (:meth:`show`), the thread first
            log.warning("could not edit the board of game %s: %s", game.id, exc)
            failed: BaseException = exc
        except SEND_ERRORS as exc:
            log.warning("could not edit the board of game %s: %r", game.id, exc)
            failed = exc
        return failed

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
            functools.partial(_moved, channel.get_partial_message(message_id), link))

    # -- edits the bot makes by itself ---------------------------------------------------

    def update_soon(self, game_id: int, game: LoadedGame | None = None, *,
                    repost: bool = True) -> None:
        """Edit the game's board soon, as the bot's own edit; edits asked for meanwhile
        are made as one (see :meth:`BoardUpdates.update_soon`)."""
        self.updates.update_soon(game_id, game, repost=repost)

    async def redraw(self, game_ids: list[int]) -> bool:
        """Edit the boards of ``game_ids`` again after a start, posting no board; return
        whether every board was seen to (see :meth:`BoardUpdates.redraw`)."""
        return await self.updates.redraw(game_ids)

    async def stop_updates(self, timeout: float = FLUSH_SECONDS) -> None:
        """At shutdown: make the board edits already asked for now, for up to ``timeout``
        seconds; nothing is edited afterwards (see :meth:`BoardUpdates.stop`)."""
        await self.updates.stop(timeout)

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


async def _nothing(game: LoadedGame) -> None:
    """Do nothing with ``game`` (a hook left unset)."""


async def _moved(message: discord.PartialMessage, link: str) -> None:
    """Turn a board another replaced into the line linking to the new one; a message
    edited too often to be edited again (Discord's edit cap, 30046: the reason a fresh
    board was posted, most likely) is deleted instead, so that no old board keeps its
    buttons beside the new one."""
    try:
        await message.edit(content=moved_line(link), embed=None, view=None, attachments=[])
    except discord.HTTPException as exc:
        if exc.code != EDIT_CAP:
            raise
        await message.delete()


def _reopens(game: LoadedGame) -> bool:
    """Whether an archived thread is opened again for an edit of ``game``'s board: while
    the game is open, or once the table ended it as idle in its own thread (its end is
    shown; a game called off, abandoned or played in a member's thread is left so)."""
    return game.row.is_open or (game.data.thread and game.row.status == "expired")
