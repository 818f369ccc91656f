"""Posting a finished game's replay and a daily game's shareable result in its channel.

A replay is rebuilt and drawn in the drawing process a few frames at a time
(:mod:`bot.pictures.replay`), so the event loop only waits; the channel sees one line
that counts the frames drawn (edited at most once a second) and becomes the animated
picture. A game whose replay is being drawn is not drawn twice at once.

A daily result is posted once: a second tap while it is being posted, or a later one
within :data:`SHARE_AGAIN_AFTER` of the post (kept with the game, so after a restart
too), is answered privately with a link to it.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.answer_clock import AnswerClock
from bot.boards.send_errors import SEND_ERRORS
from bot.pictures import TITLES, describe
from bot.pictures.alt import LIMIT as ALT_LIMIT
from bot.pictures.drawing import PictureDrawer
from bot.pictures.endings import ending
from bot.pictures.replay import FILENAME, UPLOAD_LIMIT, animate, draw_frames
from bot.table.daily import replays_open
from bot.table.data import NoticeRef
from bot.table.errors import Refusal, board_link
from bot.table.loaded import LoadedGame
from bot.table.replay import (
    Frame,
    NoReplay,
    ReplayRequest,
    frames,
    last_finished,
    load_request,
)
from bot.table.service import Tables
from bot.table.share import share_of
from bot.text.names import plain, plain_players, read_length
from bot.text.widths import cut_to

log = logging.getLogger(__name__)

#: Frames drawn per trip to the drawing process: other boards are drawn in between.
CHUNK = 12

#: What an edit of a replay's line may raise: Discord's refusals, and a session closed
#: at a stop.
EDIT_ERRORS: tuple[type[BaseException], ...] = (*SEND_ERRORS, RuntimeError)
#: Longest wait, at a stop, for the replays being posted to be posted and kept.
POST_WAIT_SECONDS = 5.0
#: What a replay's line says when the bot stopped before it was drawn.
STOPPED = ("🎞️ This replay could not be finished: the bot restarted. Press **Replay** to "
           "draw it.")
#: What a replay post says once taken down (a player in it asked to be forgotten).
TAKEN_DOWN = ("🎞️ This replay was taken down: a player in it asked the bot to forget them. "
              "Press **Replay** on the game's board to draw it again.")

#: Replays and results mention nobody.
NOBODY = discord.AllowedMentions.none()

#: Edits the line a replay is drawn on (content, attachments).
EditLine = Callable[..., Awaitable[Any]]

#: Seconds after a game's result was shared before a press of Share posts it again (the
#: post has scrolled out of sight by then); a press before is shown the post.
SHARE_AGAIN_AFTER = 3600.0
#: Seconds after a game's replay was posted before a press of Replay draws it again (a
#: press before is shown the post: drawing takes the drawing process a few seconds);
#: kept for the :data:`REPLAYS_KEPT` latest replays, in memory.
REPLAY_AGAIN_AFTER = 600.0
REPLAYS_KEPT = 256


def progress_line(title: str, done: int, total: int) -> str:
    """The line shown while a replay is drawn."""
    return f"🎞️ Drawing the replay of {title}: {done} of {total} frames…"


def moves_text(moves: int) -> str:
    """Return how many moves a replay shows ("1 move", "12 moves")."""
    return f"{moves} move{'' if moves == 1 else 's'}"


def replay_line(kind: str, last: Frame, moves: int) -> str:
    """The line a posted replay shows: what it is, and how the game ended, names whole
    ("🎞️ Replay of Steam to Solar, 94 moves: Alice wins with 26. Alice 26 · Bob 20.")."""
    headline, detail = ending(kind, last.view, last.status, drawn=False).spoken
    said = " ".join(_sentence(part) for part in (headline, detail) if part)
    return f"🎞️ Replay of {TITLES.get(kind, kind)}, {moves_text(moves)}" + (
        f": {said}" if said else ".")


def _sentence(words: str) -> str:
    """``words`` ending as a sentence does."""
    words = words.strip()
    return words if words.endswith((".", "!", "?", "…")) else f"{words}."


def replay_alt(kind: str, last: Frame, moves: int) -> str:
    """Alt text of a replay: what it is, then the final position in words."""
    head = f"Replay of a game of {TITLES.get(kind, kind)}, {moves_text(moves)}, ending: "
    said = describe(kind, last.view, last.status, limit=ALT_LIMIT - len(head),
                    size=read_length)
    return cut_to(plain(head + said), ALT_LIMIT)


class Replays:
    """Draws and posts replays and daily results; one drawing per game at a time."""

    def __init__(self, tables: Tables, drawer: PictureDrawer) -> None:
        self.tables = tables
        self.drawer = drawer
        #: The games whose replay is being drawn now.
        self.drawing: set[int] = set()
        #: The games whose result is being shared now.
        self.sharing: set[int] = set()
        #: The latest replays posted: when (the event loop's clock) and the link.
        self.posted: dict[int, tuple[float, str]] = {}
        #: The latest games found not to be replayable (too large to post), and why:
        #: a press again is told so privately rather than drawing it all again.
        self.unable: dict[int, str] = {}
        #: The clock a share's time is kept by (seconds since the epoch): the table's.
        self.clock: Callable[[], float] = lambda: self.tables.now()
        #: Least time between two edits of the progress line (seconds).
        self.progress_interval = 1.0
        #: The progress lines of the replays being drawn, by game: what edits each.
        self._lines: dict[int, EditLine] = {}
        #: Whether the bot is stopping: no replay is drawn further.
        self.stopped = False
        #: The replays being posted (their picture uploaded, then their post kept with
        #: the game), each with its line until Discord has taken the picture: a stop
        #: lets them finish.
        self._posting: dict[asyncio.Task[None], EditLine | None] = {}

    async def stop(self) -> None:
        """At a stop, before Discord is closed: say on the line of each replay still being
        drawn that it could not be finished (Replay draws it after the start), and draw
        none further. A line Discord will not edit is left."""
        self.stopped = True
        for edit in list(self._lines.values()):
            await self._say(edit, STOPPED, stopping=True)
        if self._posting:  # a replay being posted is let finish, kept with its game
            await asyncio.wait(list(self._posting), timeout=POST_WAIT_SECONDS)
        for task, line in list(self._posting.items()):
            if line is not None and not task.done():
                task.cancel()  # (its picture not taken in time: its line says so)
                await self._say(line, STOPPED, stopping=True)

    async def replay(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Post the replay of game ``game_id`` in the channel, or say privately why not
        (on the answer clock: reading the game may be slow)."""
        async with AnswerClock.of(interaction, game_id) as clock:
            try:  # a click from another channel (forged) learns nothing of the game
                game = await self.tables.load_here(game_id, interaction.channel_id)
            except Refusal as refusal:
                await clock.tell(str(refusal))
                return
            if game_id in self.drawing:
                await clock.tell("This game's replay is being drawn already: "
                                 "it will appear here in a moment.")
                return
            posted = self.posted.get(game_id)
            if posted is not None and not any(posted[1].endswith(f"/{r.message}")
                                              for r in game.data.replays):
                posted = None  # taken down since (by any process), or never kept
            if posted is not None and (asyncio.get_running_loop().time() - posted[0]
                                       < REPLAY_AGAIN_AFTER):
                where = f": {posted[1]}" if posted[1] else " a moment ago."
                await clock.tell(f"This game's replay was posted here{where}")
                return
            if game_id in self.unable:
                await clock.tell(self.unable[game_id])
                return
            self.drawing.add(game_id)
            try:
                await self._replay(clock, game_id)
            except Refusal as refusal:
                await clock.tell(str(refusal))
            except SEND_ERRORS as exc:
                log.warning("could not post the replay of game %s: %s", game_id, exc)
            finally:
                self.drawing.discard(game_id)

    async def replay_last(self, interaction: discord.Interaction[Any], kind: str) -> None:
        """Post the replay of the channel's last ended game of ``kind`` (on the answer
        clock: finding it may be slow)."""
        async with AnswerClock.of(interaction) as clock:
            try:
                found = await last_finished(self.tables.core.store,
                                            interaction.channel_id or 0, kind)
            except Refusal as refusal:  # the store cannot be read
                await clock.tell(str(refusal))
                return
            if found is None:
                # Games in threads of their own are found from their thread only.
                here = ("" if isinstance(interaction.channel, discord.Thread) else
                        " A game played in a thread of its own is replayed from its thread.")
                await clock.tell("No game of this kind has ended in this channel "
                                 f"yet, so there is nothing to replay.{here}")
                return
            await self.replay(interaction, found)

    async def _replay(self, clock: AnswerClock, game_id: int) -> None:
        request = await load_request(self.tables.core.store, game_id)
        if request.daily is not None and self.tables.now() < replays_open(request.daily):
            # Every server plays the same daily deal that day (and finishes it after
            # midnight): its replay would show the deal to those still playing it.
            share = " Share posts its result without spoilers." if request.status == "over" \
                else ""
            raise NoReplay(
                "A daily game can be replayed once the day after its day is over "
                f"(<t:{int(replays_open(request.daily))}:R>), so nobody sees the day's deal "
                f"before they have played it.{share}")
        if not (await self.tables.servers.get(request.guild_id)).pictures:
            raise NoReplay("Board pictures are turned off in this server, so the bot "
                           "draws no replays here.")
        title = TITLES.get(request.kind, request.kind)
        try:  # rebuilt before anything is posted: one that cannot be is said privately
            shown = await self.drawer.run(frames, request)
        except (OSError, RuntimeError, ValueError) as exc:  # (the drawing process closed)
            log.warning("could not rebuild game %s to replay it: %s", game_id, exc)
            raise NoReplay("This game's replay could not be drawn just now; press Replay "
                           "again in a moment.") from exc
        if self.stopped:  # (stopped while its frames were rebuilt: nothing posted)
            raise NoReplay("The bot is restarting: press Replay again in a moment.")
        edit = await _post_line(clock, progress_line(title, 0, len(shown)))
        self._lines[game_id] = edit
        if self.stopped:  # (stopped while the line was on its way)
            await self._say(edit, STOPPED, stopping=True)
            self._lines.pop(game_id, None)
            return
        try:
            await self._draw(edit, request, title, shown)
        except Refusal as refusal:  # the line is public by now: it says why
            await self._say(edit, str(refusal))
        except (OSError, RuntimeError, ValueError) as exc:
            if self.stopped:  # (the drawing process closed at the stop: the line says so)
                return
            log.warning("the replay of game %s could not be drawn: %s", game_id, exc)
            await self._say(edit, f"The replay of this game of {title} could not be drawn.")
        except SEND_ERRORS as exc:  # Discord refused the picture (or an edit): say so
            log.warning("could not post the replay of game %s: %s", game_id, exc)
            await self._say(edit, f"The replay of this game of {title} could not be posted; "
                                  "press Replay to try again.", stopping=True)
        finally:
            self._lines.pop(game_id, None)

    async def _say(self, edit: EditLine, text: str, *, stopping: bool = False) -> None:
        """Say ``text`` on a replay's line instead of its picture (unless the bot is
        stopping and this is not the word that says so); a failure is logged."""
        if self.stopped and not stopping:
            return
        try:
            await edit(content=text, attachments=[])
        except EDIT_ERRORS as exc:  # (the session may be closed)
            log.info("could not say why a replay was not posted: %r", exc)

    async def _draw(self, edit: EditLine, request: ReplayRequest, title: str,
                    shown: list[Frame]) -> None:
        """Draw the replay's frames ``shown``, counting them on the progress line, and
        post it."""
        loop = asyncio.get_running_loop()
        edited = loop.time()
        pngs: list[bytes] = []
        for start in range(0, len(shown), CHUNK):
            if self.stopped:
                return  # (its line says it was stopped)
            chunk = [(plain_players(f.view), f.status) for f in shown[start:start + CHUNK]]
            pngs += await self.drawer.run(draw_frames, request.kind, chunk)
            if self.stopped:
                return  # (its line says it was stopped)
            if loop.time() - edited >= self.progress_interval and len(pngs) < len(shown):
                edited = loop.time()
                await edit(content=progress_line(title, len(pngs), len(shown)))
        gif = await self.drawer.run(animate, pngs)
        if self.stopped:
            return
        if not gif or len(gif) > UPLOAD_LIMIT:
            self._lines.pop(request.game_id, None)  # its last word
            why = "is too large to post" if gif else "could not be drawn"
            said = f"The replay of this game of {title} {why}."
            await edit(content=said)
            if gif:  # it would be as large drawn again
                _keep_latest(self.unable, request.game_id, said)
            return
        # posted as a task of its own, that a stop lets finish (see :meth:`stop`)
        self._lines.pop(request.game_id, None)
        task = asyncio.ensure_future(self._post(edit, request, shown, gif))
        self._posting[task] = edit
        task.add_done_callback(lambda done: self._posting.pop(done, None))
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.cancelled():
                raise  # (this replay itself is being stopped)
            # cut off by the stop, which said so on its line

    async def _post(self, edit: EditLine, request: ReplayRequest, shown: list[Frame],
                    gif: bytes) -> None:
        """Post the drawn replay ``gif`` on its line, and keep the post with its game."""
        file = discord.File(io.BytesIO(gif), filename=FILENAME,
                            description=replay_alt(request.kind, shown[-1], len(request.moves)))
        shown_at = await edit(content=replay_line(request.kind, shown[-1],
                                                  len(request.moves)), attachments=[file])
        task = asyncio.current_task()
        if task in self._posting:  # posted: a stop no longer speaks on its line
            self._posting[task] = None
        self._posted(request.game_id, getattr(shown_at, "jump_url", "") or "")
        if isinstance(shown_at, discord.Message):
            try:  # (taken down if a player in it asks the bot to forget them)
                await self.tables.note_replayed(
                    request.game_id, NoticeRef(shown_at.channel.id, shown_at.id))
            except Refusal as refusal:
                log.warning("could not keep the replay post of game %s: %s",
                            request.game_id, refusal)

    async def take_down(self, client: discord.Client, game: LoadedGame) -> None:
        """Take down the replay posts of ``game``, finished, whose pictures name a member
        who asked the bot to forget them: each says so instead (Replay draws it anew),
        and none is linked to any more. A post Discord will not edit is left."""
        self.posted.pop(game.id, None)
        self.unable.pop(game.id, None)
        if not game.data.replays:
            return
        for post in game.data.replays:
            message = client.get_partial_messageable(
                post.channel, guild_id=game.row.guild_id).get_partial_message(post.message)
            try:
                await message.edit(content=TAKEN_DOWN, attachments=[])
            except SEND_ERRORS as exc:
                log.info("could not take down a replay of game %s: %s", game.id, exc)
        try:
            await self.tables.note_replayed(game.id, None)
        except Refusal as refusal:
            log.warning("could not forget the replay posts of game %s: %s", game.id, refusal)

    def _posted(self, game_id: int, link: str) -> None:
        """Remember that the replay of ``game_id`` was posted (at ``link``), among the
        :data:`REPLAYS_KEPT` latest."""
        _keep_latest(self.posted, game_id, (asyncio.get_running_loop().time(), link))

    async def share(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """Post the spoiler-free result of the finished daily game ``game_id`` once (on
        the answer clock: reading the game may be slow); a second tap while it is posted,
        or a later one soon after, is answered privately with a link to the post."""
        async with AnswerClock.of(interaction, game_id) as clock:
            if game_id in self.sharing:
                await clock.tell("This game's result is being shared already: it will "
                                 "appear here in a moment.")
                return
            self.sharing.add(game_id)
            try:
                game = await self.tables.load_here(game_id, interaction.channel_id)
                link = await self._shared_link(game_id)
                if link is not None:
                    await clock.tell(f"This game's result was shared here already: {link}"
                                     if link else
                                     "This game's result was shared here already.")
                    return
                request = await load_request(self.tables.core.store, game_id, sharing=True)
                if request.daily is None or request.status != "over":
                    raise NoReplay("Only a finished daily game has a result to share.")
                try:
                    text = await self.drawer.run(share_of, request)
                except RuntimeError as exc:  # the drawing process is closed (a stop)
                    log.warning("could not work out the result of game %s: %s", game_id, exc)
                    raise NoReplay("This game's result could not be worked out just now; "
                                   "press Share again in a moment.") from exc
                # a thread opened for the game archives soon after it: the result goes
                # to its channel; a member's thread (private, perhaps) keeps its own
                link = await _post_in_parent(
                    clock, game.data.parent if game.data.thread else None, text)
                if link is None:
                    link = await _post_message(clock, text)
                try:
                    await self.tables.note_shared(game_id, self.clock(), link)
                except Refusal as refusal:  # posted: only a later tap may post it again
                    log.warning("could not keep that game %s was shared: %s", game_id,
                                refusal)
            except Refusal as refusal:
                await clock.tell(str(refusal))
            except SEND_ERRORS as exc:
                log.warning("could not share the result of game %s: %s", game_id, exc)
            finally:
                self.sharing.discard(game_id)

    async def _shared_link(self, game_id: int) -> str | None:
        """Return the link to the game's result if it was shared lately, else None (also
        when the game cannot be read: Share then says why)."""
        try:
            shared = (await self.tables.load(game_id)).data.shared
        except Refusal:
            return None
        if shared is None or self.clock() - shared[0] >= SHARE_AGAIN_AFTER:
            return None
        return shared[1]


async def _post_public(clock: AnswerClock, text: str) -> discord.WebhookMessage | None:
    """Answer publicly with ``text``: the first response when the interaction is still
    unanswered (then None: it is the interaction's original response), else (the clock
    deferred it; a deferred click's original response is the message clicked) a
    follow-up of its own, returned. May raise one of :data:`SEND_ERRORS`."""
    await clock.settle()
    interaction = clock.interaction
    if not interaction.response.is_done():
        await interaction.response.send_message(text, allowed_mentions=NOBODY)
        return None
    return await interaction.followup.send(text, allowed_mentions=NOBODY, wait=True)


async def _post_message(clock: AnswerClock, text: str) -> str:
    """Post ``text`` publicly (:func:`_post_public`); return the link to the post (""
    when it cannot be told). May raise one of :data:`SEND_ERRORS` when nothing was
    posted."""
    post = await _post_public(clock, text)
    if post is not None:
        return post.jump_url
    try:
        return (await clock.interaction.original_response()).jump_url
    except SEND_ERRORS as exc:  # posted all the same: remembered without its link
        log.warning("could not read back a shared result: %s", exc)
        return ""


async def _post_in_parent(clock: AnswerClock, parent: int | None, text: str) -> str | None:
    """For a game played in a thread of its own (``parent``: the channel it was started
    from), post ``text`` in that channel, where the others are (the thread archives
    itself an hour after the game), and tell the clicker privately where; return the
    link to the post. None when the game has no thread, or the channel refused the post
    (logged): it is then posted where it was asked for."""
    if parent is None:
        return None
    interaction = clock.interaction
    channel = interaction.client.get_partial_messageable(parent, guild_id=interaction.guild_id)
    try:
        sent = await channel.send(text, allowed_mentions=NOBODY)
    except SEND_ERRORS as exc:
        log.warning("could not share a result in channel %s: %s", parent, exc)
        return None
    link = board_link(interaction.guild_id, parent, sent.id)
    await clock.tell(f"Shared in <#{parent}>: {link}")
    return link


async def _post_line(clock: AnswerClock, text: str) -> EditLine:
    """Post the public line a replay is drawn on (:func:`_post_public`); return what
    edits it. May raise one of :data:`SEND_ERRORS`."""
    post = await _post_public(clock, text)
    return clock.interaction.edit_original_response if post is None else post.edit


def _keep_latest(kept: dict[int, Any], game_id: int, value: Any) -> None:
    """Keep ``value`` for ``game_id`` in ``kept``, among the :data:`REPLAYS_KEPT` latest."""
    kept.pop(game_id, None)
    kept[game_id] = value
    if len(kept) > REPLAYS_KEPT:
        del kept[next(iter(kept))]
