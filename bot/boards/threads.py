"""A thread per game: where a new game is played, its thread's name, and its archiving.

A game started with threads on gets a new public thread under the channel (an
announcement thread under an announcement channel), named after it ("Tinker · Alice ·
2 Dec"); the game is stored against the thread, so its buttons, votes and turn notices
all live there. The thread is opened with Discord's longest inactivity archive (a
week), so a long game is never archived under its players; when the game ends, the
thread's archive time drops to an hour, and Discord archives it an hour after its last
message. Discord keeps that time, so nothing waits in the bot and a restart loses
nothing.

A new game may start in the thread just as the old one's wind-up is under way (Play
again; a thread edit may wait on Discord's rate limit): the wind-up leaves alone a thread
that holds an open game, and the new game's start sets the week again when this process
has lowered the thread to an hour, before the game is stored or after (see
:meth:`GameThreads.place`, :meth:`GameThreads.stored` and :meth:`GameThreads.wind_up`),
so the new game's thread is not archived after an hour.

Before a game is stored anywhere, the bot's permissions there are checked: a board
needs View Channel, Send Messages (Send Messages in Threads in a thread) and Embed
Links, and a game the bot could not show is refused, naming the permission to grant.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

import discord

from bot.boards.send_errors import SEND_ERRORS
from bot.table.errors import Refusal, Unavailable
from bot.table.loaded import LoadedGame
from bot.text.names import isolated, one_line, shown_name
from bot.text.widths import group_start

log = logging.getLogger(__name__)

#: Minutes without a message before Discord archives a game's thread: while it is played,
#: and once it has ended.
OPEN_ARCHIVE_MINUTES: Final = 10080
ENDED_ARCHIVE_MINUTES: Final = 60
#: Discord's longest thread name.
NAME_LIMIT = 100
#: How many ended games' threads this process remembers winding up (then forgets).
WOUND_KEPT = 4096
#: How many threads this process remembers lowering to an hour (then forgets).
SHORT_KEPT = 4096

NO_PERMISSION = ("This game is played here rather than in a thread of its own: the bot "
                 "may not create public threads in this channel. A server admin can give it "
                 "the Create Public Threads and Send Messages in Threads permissions.")
#: Said instead when the bot may open threads but not post a board in one.
CANNOT_POST_IN_THREADS = ("This game is played here rather than in a thread of its own: the "
                          "bot may not post its board in a thread of this channel. A server "
                          "admin can give it {lacking} there.")
NOT_TEXT = ("This game is played here: games get a thread of their own only in a text "
            "channel.")
#: Why ``thread: yes`` opened no thread for a member who may not open threads there
#: (where the server does not give every game one).
MEMBER_MAY_NOT = ("This game is played here rather than in a thread of its own: you may "
                  "not create public threads in this channel.")
#: Why ``thread: yes`` chosen inside a thread opened no thread.
IN_A_THREAD = ("This game is played in this {where}: Discord opens no thread inside a "
               "{where}.")
NO_THREADS_HERE = ("This game is played here: Discord opens no threads in this channel, so "
                   "its games are played in the channel itself.")
THREAD_LIMIT = ("This game is played here: this channel has as many active threads as "
                "Discord allows. Games get threads of their own again once some of its "
                "threads are archived.")
NOT_OPENED = "Discord did not open a thread just now, so this game is played here."

#: Discord's error codes for a thread that cannot be opened under a channel: a channel of
#: the wrong type, and a channel with as many active threads as Discord allows.
WRONG_CHANNEL_TYPE: Final = 50024
TOO_MANY_THREADS: Final = 160006
#: Discord's error codes for a permission the bot lacks: Missing Access (it cannot see
#: the channel) and Missing Permissions.
MISSING_ACCESS: Final = 50001
MISSING_PERMISSIONS: Final = 50013


def in_forum(channel: object) -> bool:
    """Whether ``channel`` is a post of a forum (or media) channel, whose settings name
    the permissions of threads after posts."""
    return isinstance(channel, discord.Thread) and isinstance(channel.parent,
                                                              discord.ForumChannel)


def board_lacks(allowed: discord.Permissions, *, thread: bool,
                forum: bool = False) -> list[str]:
    """Return the permissions a board needs that ``allowed`` lacks, by the names Discord's
    settings show: View Channel, Send Messages (Send Messages in Threads in a ``thread``,
    Send Messages in Posts in a ``forum``'s post), Embed Links (the board is an embed)
    and Read Message History (a board a moderator deleted is found and posted again
    before a turn notice links to it; a notice a stop cut off is found and taken down).
    Attach Files is not needed: without it the board goes without its picture."""
    in_thread = "Send Messages in Posts" if forum else "Send Messages in Threads"
    send = (in_thread, allowed.send_messages_in_threads) if thread else (
        "Send Messages", allowed.send_messages)
    needed = (("View Channel", allowed.view_channel), send,
              ("Embed Links", allowed.embed_links),
              ("Read Message History", allowed.read_message_history))
    return [name for name, granted in needed if not granted]


def _listed(names: Sequence[str]) -> str:
    """Return permission names as words: "A", "A and B", "A, B and C"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _whose(forum: bool) -> str:
    """Where an admin grants a permission: the bot's role, or the channel's (a forum's
    post takes its forum's)."""
    return f"its role, or this {'forum' if forum else 'channel'}'s permissions"


def lacking_text(names: Sequence[str], *, forum: bool = False) -> str:
    """Return the private refusal of a game not started because the bot lacks ``names``
    where the command was used (a ``forum``'s post or not): what to grant, and who
    can."""
    them, plural = ("it", "") if len(names) == 1 else ("them", "s")
    return (f"No game was started: the bot needs the {_listed(names)} permission{plural} "
            f"here to post a game's board. A server admin can grant {them} to the bot "
            f"({_whose(forum)}); then start the game again.")


#: The private refusal of a start in a server that has the bot's commands but not the
#: bot itself (an install of its commands alone): no permission can be granted to it.
COMMANDS_ONLY = ("No game was started: this server has the bot's commands but not the bot "
                 "itself, so it cannot post a board. A server admin can add the bot with "
                 "its invite link (from whoever runs it); then start the game again.")
#: /help's line for such a server.
COMMANDS_ONLY_HELP = ("This server has the bot's commands but not the bot itself: a "
                      "server admin can add it with its invite link, then games start here.")


def commands_only(client: discord.Client, guild_id: int | None) -> bool:
    """Whether an interaction from server ``guild_id`` came where the bot itself is not
    a member (its commands were added alone): once the bot is ready it knows every
    server it is in, those in an outage included."""
    return guild_id is not None and client.is_ready() and client.get_guild(guild_id) is None


def refused_access(error: BaseException | None) -> bool:
    """Whether ``error`` is Discord refusing the bot access to a channel or a permission
    there (Missing Access, Missing Permissions): trying again soon changes nothing."""
    return isinstance(error, discord.Forbidden) and error.code in (MISSING_ACCESS,
                                                                   MISSING_PERMISSIONS)


def locked_out_text(*, thread: bool, forum: bool = False) -> str:
    """Return the private word to a player on a board whose edits Discord refuses for
    want of access or a permission (in a ``thread`` or not, a ``forum``'s post or not):
    what still works, and what an admin can grant."""
    place = "forum post" if forum else "thread" if thread else "channel"
    names = board_lacks(discord.Permissions.none(), thread=thread or forum, forum=forum)
    added = f", or add the bot to this {place}" if thread or forum else ""
    return (f"The bot can no longer update this board or post in this {place}: Discord "
            "refuses it access. The buttons still work, and the board catches up when "
            f"someone presses one. A server admin can grant the bot {_listed(names)} "
            f"({_whose(forum)}){added}.")


def not_posted_text(error: BaseException, *, thread: bool, where: str,
                    forum: bool = False) -> str:
    """Return the private word to the starter of a game called off because its board
    could not be posted ``where`` ("in this channel"; in a ``thread`` or not, a
    ``forum``'s post or not): why, and what to do.

    A permission Discord says is missing is named; Missing Permissions does not say
    which, so every permission a board needs there is named."""
    head = f"The game was called off: the bot could not post its board {where}"
    if isinstance(error, discord.Forbidden) and refused_access(error):
        names = (["View Channel"] if error.code == MISSING_ACCESS else
                 board_lacks(discord.Permissions.none(), thread=thread, forum=forum))
        return (f"{head}, as Discord says a permission is missing. The bot needs "
                f"{_listed(names)} there: a server admin can grant "
                f"{'it' if len(names) == 1 else 'them'} to the bot ({_whose(forum)}); "
                "then start the game again.")
    if isinstance(error, discord.HTTPException) and 400 <= error.status < 500 and (
            error.status != 429):
        return (f"{head}: Discord refused it (error {error.code or error.status}). Start "
                "the game again; if it is refused again, a server admin can look at the "
                "channel's settings and the server's AutoMod rules.")
    return f"{head}: Discord did not take it just now. Start the game again in a moment."


def thread_name(title: str, starter: str, when: float, fallback: str = "") -> str:
    """Return a game's thread name: its title, its starter and the day, in 100 characters.

    The starter's name is kept as :func:`bot.text.names.one_line` keeps it; one that would
    show blank gives way to ``fallback`` (their account name) or "a player". The name
    is cut first (any script: characters, not bytes, are counted), never inside an emoji,
    a flag or a syllable; a right-to-left name is isolated (:func:`bot.text.names.isolated`),
    so that the day after it keeps its place.
    """
    day = datetime.fromtimestamp(when, UTC)
    date = f"{day.day} {day:%b}"
    name = _shown_starter(starter, fallback)
    room = NAME_LIMIT - len(title) - len(date) - len(" ·  · ") - len(isolated(name)) + len(name)
    if len(name) > room:
        name = name[: max(group_start(name, room - 1), 1)].rstrip() + "…"
    return f"{title} · {isolated(name)} · {date}"[:NAME_LIMIT]


def thread_renamed(name: str, former: str) -> str | None:
    """Return the name ``name`` of a thread the bot opened for a game (its starter's)
    with ``former`` for the starter, its title and day kept, when it still has the shape
    :func:`thread_name` gives (whatever the starter was called then: a name since
    changed, a server nickname); None when it does not (one a moderator renamed)."""
    title, _, rest = name.partition(" · ")
    middle, _, day = rest.rpartition(" · ")
    if not title or not middle.strip(_ISOLATES) or not _DAY.fullmatch(day):
        return None
    return f"{title} · {former} · {day}"[:NAME_LIMIT]


#: The day at the end of a game's thread name, as :func:`thread_name` writes it.
_DAY = re.compile(r"[1-9]\d? (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)")
#: The marks that isolate a right-to-left name in a thread's name.
_ISOLATES = "\u2066\u2067\u2068\u2069"


def _shown_starter(starter: str, fallback: str) -> str:
    """Return the starter's name on one line; one that would show blank gives way to
    ``fallback`` (their account name) or "a player"."""
    return one_line(starter) or one_line(fallback) or "a player"


@dataclass(slots=True)
class Place:
    """Where a new game is played: a channel id, the thread opened for it (if any), and
    whether that channel is a game's thread, the channel it is a thread of (None: it is
    not one); ``note`` tells the starter privately why a thread they wanted was not
    opened; ``kept_open`` is the bot's own thread a week was set on for the start (its
    hour is set again if no game starts after all)."""

    channel_id: int
    opened: discord.Thread | None = None
    own: bool = False
    note: str | None = None
    parent: int | None = None
    kept_open: discord.Thread | None = None


class GameThreads:
    """Opens a game's thread and winds it up when the game ends."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._wound: dict[int, None] = {}
        #: Threads this process lowered to an hour whose week no start has set again.
        self._short: dict[int, None] = {}
        #: Per thread: the lock that one archive change at a time holds, and how many
        #: hold or await it (the entry goes when none do).
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    async def place(self, interaction: discord.Interaction[Any], title: str,
                    wanted: bool, *, asked: bool = False) -> Place:
        """Return where a game started by ``interaction`` is played, opening its thread
        (``wanted``; ``asked``: by the starter's own choice, not the server's setting,
        which needs the starter's own Create Public Threads permission there).

        A command used inside a thread plays there (a starter who asked for a thread is
        told why none was opened). In a thread the bot owns (opened
        for an earlier game, Play again) the new game's thread is set to archive after a
        week only when it may have been wound up: this process lowered it to an hour
        (a wind-up of it still under way is waited for first, so the week is set after
        the hour), or the interaction's channel data says it archives sooner than a week
        (a wind-up by an earlier run). Else no edit is made (thread edits are tightly
        rate-limited). Raise a :class:`Refusal` naming the permissions to grant when
        the bot could post the game's board nowhere.
        """
        if commands_only(self.bot, interaction.guild_id):
            raise Refusal(COMMANDS_ONLY)
        channel = interaction.channel
        here = interaction.channel_id or 0
        allowed = interaction.app_permissions
        if isinstance(channel, discord.Thread):
            _require(allowed, thread=True, forum=in_forum(channel))
            me = self.bot.user
            own = me is not None and channel.owner_id == me.id
            kept = own and await self._keep_open(channel)
            return Place(here, own=own, parent=channel.parent_id,
                         kept_open=channel if kept else None,
                         note=IN_A_THREAD.format(where="post" if in_forum(channel)
                                                 else "thread") if asked else None)
        if not wanted:
            return _here(here, allowed)
        if not isinstance(channel, discord.TextChannel):
            return _here(here, allowed, NOT_TEXT)
        if asked and not interaction.permissions.create_public_threads:
            # the bot opens threads on a member's word only where they could themselves
            return _here(here, allowed, MEMBER_MAY_NOT)
        lacking = board_lacks(allowed, thread=True)
        if not allowed.create_public_threads:
            lacking.insert(0, "Create Public Threads")
        if lacking:
            if board_lacks(allowed, thread=False):  # nowhere: name what the thread needs
                raise Refusal(lacking_text(lacking))
            if allowed.create_public_threads:  # it may open one but not post in it
                return Place(here, note=CANNOT_POST_IN_THREADS.format(
                    lacking=f"the {_listed(lacking)} permission{'s' * (len(lacking) > 1)}"))
            return Place(here, note=NO_PERMISSION)
        name = thread_name(title, shown_name(interaction.user),
                           interaction.created_at.timestamp())
        # An announcement channel holds announcement threads only.
        kind = (discord.ChannelType.news_thread if channel.is_news()
                else discord.ChannelType.public_thread)
        try:
            thread = await channel.create_thread(
                name=name, type=kind, auto_archive_duration=OPEN_ARCHIVE_MINUTES,
                reason="a new game",
            )
        except discord.Forbidden:
            return _here(here, allowed, NO_PERMISSION)
        except discord.HTTPException as exc:
            log.warning("could not open a game's thread: %s", exc)
            return _here(here, allowed, _not_opened(exc))
        except SEND_ERRORS as exc:
            log.warning("could not open a game's thread: %s", exc)
            return _here(here, allowed, NOT_OPENED)
        try:  # the starter finds it in their channel list, as if they had opened it
            await thread.add_user(interaction.user)
        except SEND_ERRORS as exc:
            log.info("could not add the starter to thread %s: %s", thread.id, exc)
        return Place(thread.id, opened=thread, own=True)

    @contextlib.asynccontextmanager
    async def opened(self, channel_id: int,
                     rename: Callable[[str], str | None] | None = None) -> AsyncIterator[None]:
        """Let the bot edit its messages in a thread for a while, renamed as ``rename``
        says (given the thread's name, the new one, or None to keep it): an archived
        thread is opened for the while (Discord edits messages in, and renames, one only
        while it is not) and archived again after (Discord lets the bot archive a thread
        a member opened only with Manage Threads: without it, such a thread stays open
        until Discord archives it when it has been idle its while). A channel, a locked
        thread, or one Discord does not say about, is left as it is. Never raise."""
        archived = False
        try:
            channel = await self.bot.fetch_channel(channel_id)
            if isinstance(channel, discord.Thread) and not channel.locked:
                name = rename(channel.name) if rename is not None else None
                if channel.archived or name:
                    was = bool(channel.archived)
                    if name:
                        await channel.edit(name=name, archived=False)
                    else:
                        await channel.edit(archived=False)
                    archived = was
        except SEND_ERRORS as exc:
            log.info("could not open thread %s for the bot's edits: %s", channel_id, exc)
        try:
            yield
        finally:
            if archived:  # unless a game started there meanwhile (Play again)
                async with self._editing(channel_id):
                    try:
                        if not await self._holds_a_game(channel_id):
                            await self.bot.http.edit_channel(channel_id, archived=True)
                    except SEND_ERRORS as exc:
                        log.info("could not archive thread %s again: %s", channel_id, exc)

    async def discard(self, thread: discord.Thread) -> None:
        """Remove a thread opened for a game that could not start after all."""
        try:
            await thread.delete()
            return
        except SEND_ERRORS as exc:  # without Manage Threads: its opener archives it instead
            log.info("could not delete an unused game thread (%s); archiving it", exc)
        try:
            await thread.edit(archived=True)
        except SEND_ERRORS as exc:
            log.warning("could not archive the unused game thread %s: %s", thread.id, exc)

    async def _keep_open(self, thread: discord.Thread, *, stored: bool = False) -> bool:
        """Set a week on a bot-owned thread a game is starting in, if it may have been
        wound up (see :meth:`place`); once the game is ``stored``, only if this process
        lowered it (the interaction's channel data is older than that). Return whether
        the week was set."""
        async with self._editing(thread.id):
            if thread.id not in self._short and (
                    stored or thread.auto_archive_duration == OPEN_ARCHIVE_MINUTES):
                return False
            self._short.pop(thread.id, None)
            try:
                # Archived meanwhile (an hour after its last game), it is unarchived too:
                # Discord edits an archived thread only so.
                await thread.edit(archived=False, auto_archive_duration=OPEN_ARCHIVE_MINUTES)
            except SEND_ERRORS as exc:
                log.info("could not keep thread %s open longer: %s", thread.id, exc)
                return False
            return True

    async def not_started(self, thread: discord.Thread) -> None:
        """Set the hour again on a bot-owned thread that :meth:`place` gave a week for a
        game that was then refused (nothing started: the ended game's thread archives an
        hour after its last message, as before); never raise."""
        async with self._editing(thread.id):
            try:
                if await self._holds_a_game(thread.id):
                    return
                await thread.edit(auto_archive_duration=ENDED_ARCHIVE_MINUTES)
                self._short[thread.id] = None
                if len(self._short) > SHORT_KEPT:
                    del self._short[next(iter(self._short))]
            except SEND_ERRORS as exc:
                log.info("could not change the archiving of thread %s: %s", thread.id, exc)

    async def reopen(self, thread_id: int) -> bool | BaseException:
        """Unarchive a thread a game's board is in (its archive time stays: a week for the
        bot's own game threads, and only a server's moderators may change a member's);
        return True once done, False for a thread a moderator locked (logged), or what
        Discord refused it with."""
        async with self._editing(thread_id):
            try:
                thread = await self.bot.fetch_channel(thread_id)
                if isinstance(thread, discord.Thread) and thread.locked:
                    log.info("thread %s was locked by a moderator: left archived", thread_id)
                    return False
                await self.bot.http.edit_channel(thread_id, archived=False)
            except SEND_ERRORS as exc:
                log.info("could not unarchive thread %s: %s", thread_id, exc)
                return exc
        log.info("unarchived thread %s, which holds a game's board", thread_id)
        return True

    async def stored(self, thread: discord.Thread) -> None:
        """Once a game is stored in a thread the bot owns, give the thread its week back
        if a wind-up lowered it to an hour after :meth:`place` looked and before the game
        was stored (the wind-up's own second look came too early to see the game)."""
        await self._keep_open(thread, stored=True)

    async def wind_up(self, game: LoadedGame) -> None:
        """Once a game with its own thread has ended, let Discord archive the thread an
        hour after its last message (once per game; never raise).

        A thread that holds an open game (a new one started there: Play again) is left
        as it is: the tables are asked just before the edit, and again once it is made;
        a game opened there meanwhile gets the week back. One archive change of a thread
        is made at a time, so a start waiting on this one sets its week after the hour.
        """
        if game.row.is_open or not game.data.thread or game.id in self._wound:
            return
        self._wound[game.id] = None
        if len(self._wound) > WOUND_KEPT:
            del self._wound[next(iter(self._wound))]
        thread_id = game.row.channel_id
        async with self._editing(thread_id):
            try:
                thread = await self.bot.fetch_channel(thread_id)
                if isinstance(thread, discord.Thread) and thread.archived:
                    if game.row.status == "expired":  # its end's edit opens it again,
                        self._wound.pop(game.id, None)  # and winds it up then
                    return
                if not isinstance(thread, discord.Thread) or await self._holds_a_game(
                        thread_id):
                    return
                await thread.edit(auto_archive_duration=ENDED_ARCHIVE_MINUTES)
                self._short[thread_id] = None
                if len(self._short) > SHORT_KEPT:
                    del self._short[next(iter(self._short))]
                if await self._holds_a_game(thread_id):  # started while the edit was made
                    self._short.pop(thread_id, None)
                    await thread.edit(auto_archive_duration=OPEN_ARCHIVE_MINUTES)
            except SEND_ERRORS as exc:
                log.info("could not change the archiving of thread %s: %s", thread_id, exc)

    async def _holds_a_game(self, thread_id: int) -> bool:
        """Return whether the tables hold an open game in the thread (False if they
        cannot be read: the wind-up goes ahead)."""
        tables = getattr(self.bot, "tables", None)
        if tables is None:
            return False
        try:
            return await tables.open_in_channel(thread_id) is not None
        except Unavailable:
            log.info("could not ask whether thread %s holds an open game", thread_id)
            return False

    @contextlib.asynccontextmanager
    async def _editing(self, thread_id: int) -> AsyncIterator[None]:
        """Hold the thread's lock: one archive change of a thread at a time."""
        lock, users = self._locks.get(thread_id) or (asyncio.Lock(), 0)
        self._locks[thread_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[thread_id]
            if users == 1:
                del self._locks[thread_id]
            else:
                self._locks[thread_id] = (lock, users - 1)


def _require(allowed: discord.Permissions, *, thread: bool, forum: bool = False) -> None:
    """Refuse a game whose board the bot could not post where the command was used."""
    lacking = board_lacks(allowed, thread=thread, forum=forum)
    if lacking:
        raise Refusal(lacking_text(lacking, forum=forum))


def _here(channel_id: int, allowed: discord.Permissions, note: str | None = None) -> Place:
    """Return the command's channel as the game's place (with ``note`` for the starter),
    or refuse if the bot could not post a board there."""
    _require(allowed, thread=False)
    return Place(channel_id, note=note)


def _not_opened(error: discord.HTTPException) -> str:
    """Return the starter's note for a thread Discord did not open: the reason when it
    holds for every game here (then trying again cannot help), else "just now"."""
    if error.code == WRONG_CHANNEL_TYPE:
        return NO_THREADS_HERE
    if error.code == TOO_MANY_THREADS:
        return THREAD_LIMIT
    if 400 <= error.status < 500 and error.status != 429:
        reason = error.text or f"error {error.code}"
        return f"This game is played here: Discord would not open a thread ({reason})."
    return NOT_OPENED
