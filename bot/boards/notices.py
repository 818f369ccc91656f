"""Turn notices: one line per table that names only the person whose turn it is, with a
link button to the board, the table's previous one deleted first.

When a notice goes out is the table's business (``bot.table.turns``: after a grace time,
or at once); this module posts it, pinging the person unless they chose not to be
pinged (:class:`bot.boards.pings.PingChoices`), and deletes a notice once the turn it
announced has passed.

A lobby's invitations (:class:`LobbyInvitations`) are kept the same way: one line per
invited member, deleted once that member joins, and when the lobby starts or closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import functools
import logging
from collections.abc import Iterator
from typing import Any

import discord

from bot.boards.leftovers import Leftovers
from bot.boards.pings import PingChoices
from bot.boards.send_errors import SEND_ERRORS, passing_failure
from bot.boards.threads import refused_access
from bot.table.data import NoticeRef
from bot.table.errors import Refusal
from bot.table.loaded import LoadedGame
from bot.table.service import Tables

log = logging.getLogger(__name__)


class TurnNotices:
    """Posts and deletes the tables' turn notices."""

    def __init__(self, bot: discord.Client, tables: Tables, pings: PingChoices,
                 leftovers: Leftovers, locked_out: dict[int, bool]) -> None:
        self.bot = bot
        self.tables = tables
        self.pings = pings
        #: The boards' games whose channel refuses the bot (``BoardMessages.locked_out``):
        #: a notice Discord refuses so is added, so that the next clicker is told.
        self.locked_out = locked_out
        #: Takes back the notices whose turn passed (again later, if Discord fails).
        self.leftovers = leftovers
        #: Each table's current turn notice, and a lock so notices go out one at a time.
        self._notices: dict[int, NoticeRef] = {}
        #: The nonce each of those was posted with, if any (:attr:`NoticeDue.nonce`).
        self._nonces: dict[int, str] = {}
        self._notice_locks: dict[int, asyncio.Lock] = {}
        #: Each table's notice on its way (whom it names, the table's version it was made
        #: for, the post): a rate limit can hold a post back for seconds, during which
        #: the turn may pass, or its person may play.
        self._posting: dict[int, tuple[int, int, asyncio.Task[discord.Message]]] = {}

    async def announce(self, game: LoadedGame, notice: tuple[int, str] | None, *,
                       reminder: bool = False, nonce: str | None = None) -> None:
        """Tell a person it is their turn: one line that names only them, with a link
        button to the board; it pings them unless they chose not to be pinged.

        The table's previous notice is deleted first, so a channel holds at most one per
        table; a finished table's last notice goes too, and so does one whose turn has
        passed. Nothing is sent for a table started with notices off, but a turn timer's
        ``reminder`` (C6: reminded once before a computer takes the seat), which goes
        there without a ping. A reminder's ``nonce`` (the one its posts carry) tells a
        try made again while the first was on its way from a new reminder.
        """
        if len(game.seats) < 2:
            return
        posting = self._posting.get(game.id)
        if posting is not None and not _due(game, posting[0], posting[1]):
            posting[2].cancel()  # its turn has passed, or been played, before it went out
        if notice is None and game.row.is_open and not self._passed(game):
            return
        async with self._notice_lock(game.id):
            try:
                current: LoadedGame | None = await self.tables.load(game.id)
            except Refusal:
                current = None
            stored = current.data.notice if current is not None else None
            if notice is None and current is not None and current.row.is_open:
                held = (self._notices.get(game.id), stored)
                if all(n is None or not n.user or n.user == current.person_to_act()
                       for n in held):
                    return  # as the table is now, the notice held is still due (a newer
                    # move posted it since ``game`` was read): nothing to take back
            due = current.data.notice_due if current is not None else None
            # a reminder, or a notice whose wait is over, waits in the table's data until
            # it is seen to (posted or not due)
            seen_to = (notice[0] if notice is not None and due is not None
                       and (due.reminder or due.owed) and due.user == notice[0] else None)
            if (notice is not None and not reminder and stored is not None
                    and stored.user == notice[0] and seen_to is None):
                return  # out already: a second try of a fired notice, made while its first
                # was on its way (a slow post), waited here until the first was stored
            mine = self._notices.get(game.id)
            if (reminder and nonce is not None and seen_to is None and mine is not None
                    and stored == mine and self._nonces.get(game.id) == nonce):
                return  # out already: this reminder's first try, slow, was stored
                # meanwhile (its wait ran out while it was on its way)
            # an owed notice's every try carries one name: a post Discord took just
            # before a stop is given back to the try after the start, not made twice
            nonce = due.nonce if due is not None and seen_to else None
            if (nonce is not None and mine is not None and self._nonces.get(game.id) == nonce
                    and (stored is None or stored.message != mine.message)):
                # posted by this process, but its storing failed: stored now, not posted
                # again (its nonce names that post, which deleted Discord would refuse)
                await self.tables.remember_notice(game.id, mine, seen_to=seen_to)
                return
            self._nonces.pop(game.id, None)
            # what this process posted, and what is stored: another process (a deploy's
            # overlap) may have posted the stored one since
            olds = {(n.channel, n.message): n for n in (self._notices.pop(game.id, None), stored)
                    if n is not None}
            for old in olds.values():
                await self.leftovers.take_back(
                    f"the turn notice {old.message} of game {game.id}",
                    self.bot.get_partial_messageable(
                        old.channel, guild_id=game.row.guild_id,
                    ).get_partial_message(old.message).delete)
            if not game.row.is_open or notice is None or not (game.data.notices or reminder):
                if stored:
                    await self.tables.remember_notice(game.id, None)
                return
            user_id, text = notice
            made = game.row.version
            if not await self._still_due(game.id, user_id, made, current):
                if stored or seen_to:
                    await self.tables.remember_notice(game.id, None, seen_to=seen_to)
                return
            channel = self.bot.get_partial_messageable(
                game.row.board_channel_id or game.row.channel_id, guild_id=game.row.guild_id
            )
            pinged = ([discord.Object(user_id)]
                      if game.data.notices and await self.pings.wants_ping(user_id) else [])
            # a little before now, in case this machine's clock is ahead of Discord's
            since = discord.utils.time_snowflake(
                discord.utils.utcnow() - datetime.timedelta(minutes=1))
            named: dict[str, Any] = {} if nonce is None else {"nonce": nonce}
            post = asyncio.ensure_future(channel.send(
                text, view=board_button(game.link),
                allowed_mentions=discord.AllowedMentions(
                    everyone=False, roles=False, replied_user=False, users=pinged,
                ),
                **named,
            ))
            self._posting[game.id] = (user_id, made, post)
            try:
                message = await post
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    raise  # this announcement itself is being stopped
                # the turn passed while the post was on its way: held back by a rate
                # limit it was not sent, but Discord may have taken it in flight (made
                # by now, give or take the clocks' difference)
                until = discord.utils.time_snowflake(
                    discord.utils.utcnow() + datetime.timedelta(minutes=1))
                self.leftovers.later(
                    f"a turn notice of game {game.id} stopped on its way",
                    functools.partial(self._take_back_stopped, game, channel,
                                      (since, until), text))
                return
            except SEND_ERRORS as exc:
                log.warning("could not post a turn notice in game %s: %s", game.id, exc)
                if refused_access(exc):
                    self.locked_out.setdefault(game.id, False)
                if passing_failure(exc):  # posted again in a while, while still their turn
                    with contextlib.suppress(Refusal):
                        await self.tables.notice_refused(game.id, game.row.version,
                                                         user_id, text, reminder=reminder)
                elif stored or seen_to:  # refused for good: not tried again
                    await self.tables.remember_notice(game.id, None, seen_to=seen_to)
                return
            finally:
                self._posting.pop(game.id, None)
            if not await self._still_due(game.id, user_id, made):
                # the turn passed, or was played, while the post was on its way: take it back
                await self.leftovers.take_back(
                    f"the turn notice {message.id} of game {game.id}", message.delete)
                if stored or seen_to:
                    await self.tables.remember_notice(game.id, None, seen_to=seen_to)
                return
            note = NoticeRef(message.channel.id, message.id, user_id)
            self._notices[game.id] = note
            if nonce is not None:
                self._nonces[game.id] = nonce
            self.locked_out.pop(game.id, None)  # the channel takes the bot's posts again
            await self.tables.remember_notice(game.id, note, seen_to=seen_to)

    async def _take_back_stopped(self, game: LoadedGame, channel: discord.PartialMessageable,
                                 within: tuple[int, int], text: str) -> None:
        """Delete the notice ``text`` of ``game`` if its post, stopped on its way, reached
        the channel all the same: a message of the bot's with those words and a link to
        this game's board, between the message ids ``within`` (not the table's notice
        now)."""
        kept = {n.message for n in (self._notices.get(game.id),) if n is not None}
        with contextlib.suppress(Refusal):
            stored = (await self.tables.load(game.id)).data.notice
            if stored is not None:
                kept.add(stored.message)
        me = self.bot.user
        since, until = within
        async for message in channel.history(limit=100, before=discord.Object(until),
                                             after=discord.Object(since), oldest_first=False):
            if (me is not None and message.author.id == me.id and message.content == text
                    and message.id not in kept and _links_to(message, game.link)):
                await message.delete()

    async def relink(self, game: LoadedGame) -> None:
        """Point the table's standing turn notice, if any, at its board as just posted
        again (``game`` as read after it was): its button opens the board to play, not
        the old message. A notice Discord will not edit (deleted meanwhile) is left."""
        note = game.data.notice or self._notices.get(game.id)
        if note is None or not game.row.is_open or not game.link:
            return
        message = self.bot.get_partial_messageable(
            note.channel, guild_id=game.row.guild_id).get_partial_message(note.message)
        try:
            await message.edit(view=board_button(game.link))
        except SEND_ERRORS as exc:
            log.info("could not point the turn notice of game %s at its new board: %s",
                     game.id, exc)

    def forget(self, game_id: int) -> None:
        """Forget the turn notice of a game whose channel is gone (nothing to delete)."""
        self._notices.pop(game_id, None)
        self._nonces.pop(game_id, None)

    async def _still_due(self, game_id: int, user_id: int, made: int,
                         current: LoadedGame | None = None) -> bool:
        """Whether a notice to ``user_id`` made at version ``made`` of the table
        ``game_id`` is still due (as the table is read now, or as ``current`` was just
        read): see :func:`_due`."""
        if current is None:
            try:
                current = await self.tables.load(game_id)
            except Refusal:
                return False
        return _due(current, user_id, made)

    def _passed(self, game: LoadedGame) -> bool:
        """Whether the table's posted notice is for someone whose turn it no longer is."""
        notes = (self._notices.get(game.id), game.data.notice)  # another process may have
        # posted the stored one
        return any(n is not None and bool(n.user) and n.user != game.person_to_act()
                   for n in notes)

    def _notice_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._notice_locks.get(game_id)
        if lock is None:
            lock = self._notice_locks[game_id] = asyncio.Lock()
            if len(self._notice_locks) > 1000:  # forget idle tables' locks
                for gid in [g for g, lk in self._notice_locks.items() if not lk.locked()][:500]:
                    if gid != game_id:
                        del self._notice_locks[gid]
        return lock


def _links_to(message: discord.Message, link: str) -> bool:
    """Whether ``message`` carries the link button to the board at ``link`` (a notice's
    words are the same at every table: its link tells them apart)."""
    return any(getattr(item, "url", None) == link
               for row in message.components for item in getattr(row, "children", ()))


def _due(game: LoadedGame, user_id: int, made: int) -> bool:
    """Whether a notice to ``user_id`` made at version ``made`` of ``game`` is still due:
    the table is open, it is their turn, and they have not played since (a step of a
    turn of several)."""
    if not game.row.is_open or game.person_to_act() != user_id:
        return False
    if game.row.version <= made:
        return True
    last = game.data.turns[-1] if game.data.turns else None
    seat = game.seat_of(user_id)
    return not (last is not None and seat is not None and last.seat == seat
                and not last.by_computer)


#: The most invitation lines a lobby keeps in the channel: the host invites no more while
#: this many are out (:func:`bot.boards.hosting.why_not_invite`); one past it (two
#: picks at once) deletes the oldest.
MOST_INVITES = 25


class LobbyInvitations:
    """Keeps a lobby's invitation messages (one per invited member, stored with the
    table's data) and deletes them once that member joins, and when the lobby starts or
    closes. The game's lock is never held while Discord is asked anything."""

    def __init__(self, bot: discord.Client, tables: Tables, leftovers: Leftovers) -> None:
        self.bot = bot
        self.tables = tables
        #: Takes back the invitations (again later, if Discord fails).
        self.leftovers = leftovers
        #: The (game, member) pairs whose invitation is on its way: a second ask to
        #: invite them meanwhile (a double pick) posts, and pings, nothing more.
        self._posting: set[tuple[int, int]] = set()

    @contextlib.contextmanager
    def posting(self, game_id: int, user_id: int) -> Iterator[bool]:
        """Hold the invitation of ``user_id`` to the lobby ``game_id`` as on its way while
        the block runs; give whether it was free (False: one is on its way already, and
        the block must post nothing)."""
        key = (game_id, user_id)
        if key in self._posting:
            yield False
            return
        self._posting.add(key)
        try:
            yield True
        finally:
            self._posting.discard(key)

    @staticmethod
    def invitation_of(game: LoadedGame, user_id: int) -> NoticeRef | None:
        """Return the lobby's invitation to ``user_id``, or None if there is none."""
        return next((r for r in game.data.invites if r.user == user_id), None)

    async def keep(self, game_id: int, user_id: int, message: discord.Message) -> None:
        """Remember ``message``, the invitation just posted to ``user_id``. One the lobby
        cannot keep (it started or closed meanwhile, or the member joined or was invited
        meanwhile) is deleted, as is the oldest once the lobby holds too many."""
        ref = NoticeRef(message.channel.id, message.id, user_id)
        guild_id: int | None = None
        gone = [ref]
        try:
            async with self.tables.core.hold(game_id):
                game = await self.tables.load(game_id)
                guild_id = game.row.guild_id
                kept = game.data.invites
                if (game.row.status == "lobby" and game.seat_of(user_id) is None
                        and self.invitation_of(game, user_id) is None):
                    kept = [*kept, ref]
                    gone = kept[:-MOST_INVITES]
                    game.data.invites = kept[-MOST_INVITES:]
                    game.data.host_seen = self.tables.core.now()  # (the host invited)
                    await self.tables.core.save_table(game)
        except Refusal as refusal:
            log.warning("could not keep an invitation of game %s: %s", game_id, refusal)
            return
        await self._delete(guild_id, gone)

    async def clear(self, game: LoadedGame) -> None:
        """Delete the lobby's invitations to members seated now, and every one once it has
        started or closed (``game`` as just saved: nothing is read when none is due)."""
        if not self._due(game):
            return
        try:
            async with self.tables.core.hold(game.id):
                current = await self.tables.load(game.id)
                gone = self._due(current)
                if gone:
                    current.data.invites = [r for r in current.data.invites
                                            if r not in gone]
                    await self.tables.core.save_table(current)
        except Refusal as refusal:
            log.warning("could not delete the invitations of game %s: %s", game.id, refusal)
            return
        game.data.invites = [r for r in game.data.invites if r not in gone]
        await self._delete(game.row.guild_id, gone)

    @staticmethod
    def _due(game: LoadedGame) -> list[NoticeRef]:
        """The invitations of ``game`` to delete: those to seated members, all of them
        once the lobby has started or closed."""
        if game.row.status != "lobby":
            return list(game.data.invites)
        return [r for r in game.data.invites if game.seat_of(r.user) is not None]

    async def _delete(self, guild_id: int | None, refs: list[NoticeRef]) -> None:
        """Delete the invitation messages ``refs`` (one already gone is fine)."""
        for ref in refs:
            channel = self.bot.get_partial_messageable(ref.channel, guild_id=guild_id)
            await self.leftovers.take_back(f"the invitation {ref.message}",
                                           channel.get_partial_message(ref.message).delete)


#: The label of a notice's link button.
OPEN_BOARD = "Open the board"


def board_button(link: str) -> discord.ui.View:
    """Return a notice's link button to the board (no button when the board is unknown)."""
    view = discord.ui.View(timeout=None)
    if link:
        view.add_item(discord.ui.Button(label=OPEN_BOARD, url=link))
    return view
