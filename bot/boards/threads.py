"""A thread per game: where a new game is played, its thread's name, and its archiving.

A game started with threads on gets a new public thread under the channel, named after
it ("Tinker · Alice · 2 Dec"); the game is stored against the thread, so its buttons,
votes and turn notices all live there. The thread is opened with Discord's longest
inactivity archive (a week), so a long game is never archived under its players; when
the game ends, the thread's archive time drops to an hour, and Discord archives it an
hour after its last message. Discord keeps that time, so nothing waits in the bot and a
restart loses nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Literal

import discord

from bot.boards.send_errors import SEND_ERRORS
from bot.table.loaded import LoadedGame

log = logging.getLogger(__name__)

#: Minutes without a message before Discord archives a game's thread: while it is played,
#: and once it has ended.
OPEN_ARCHIVE_MINUTES: Final = 10080
ENDED_ARCHIVE_MINUTES: Final = 60
#: Discord's longest thread name.
NAME_LIMIT = 100
#: How many ended games' threads this process remembers winding up (then forgets).
WOUND_KEPT = 4096

NO_PERMISSION = ("This game is played here rather than in a thread of its own: the bot "
                 "may not create public threads in this channel. A server admin can give it "
                 "the Create Public Threads and Send Messages in Threads permissions.")
NOT_TEXT = ("This game is played here: games get a thread of their own only in a text "
            "channel.")
NOT_OPENED = "Discord did not open a thread just now, so this game is played here."


def thread_name(title: str, starter: str, when: float) -> str:
    """Return a game's thread name: its title, its starter and the day, in 100 characters.

    The starter's name is cut first (any script: characters, not bytes, are counted).
    """
    day = datetime.fromtimestamp(when, UTC)
    date = f"{day.day} {day:%b}"
    name = " ".join("".join(ch for ch in starter if ch.isprintable()).split()) or "a player"
    room = NAME_LIMIT - len(title) - len(date) - len(" ·  · ")
    if len(name) > room:
        name = name[: max(room - 1, 1)].rstrip() + "…"
    return f"{title} · {name} · {date}"[:NAME_LIMIT]


@dataclass(slots=True)
class Place:
    """Where a new game is played: a channel id, the thread opened for it (if any), and
    whether that channel is a game's thread; ``note`` tells the starter privately why a
    thread they wanted was not opened."""

    channel_id: int
    opened: discord.Thread | None = None
    own: bool = False
    note: str | None = None


class GameThreads:
    """Opens a game's thread and winds it up when the game ends."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._wound: dict[int, None] = {}

    async def place(self, interaction: discord.Interaction[Any], title: str,
                    wanted: bool) -> Place:
        """Return where a game started by ``interaction`` is played, opening its thread.

        A command used inside a thread plays there (a thread the bot opened for an
        earlier game is kept open for the new one).
        """
        channel = interaction.channel
        here = interaction.channel_id or 0
        if isinstance(channel, discord.Thread):
            me = self.bot.user
            own = me is not None and channel.owner_id == me.id
            if own and channel.auto_archive_duration != OPEN_ARCHIVE_MINUTES:
                try:
                    await channel.edit(auto_archive_duration=OPEN_ARCHIVE_MINUTES)
                except SEND_ERRORS as exc:
                    log.info("could not keep thread %s open longer: %s", channel.id, exc)
            return Place(here, own=own)
        if not wanted:
            return Place(here)
        if not isinstance(channel, discord.TextChannel):
            return Place(here, note=NOT_TEXT)
        allowed = interaction.app_permissions
        if not (allowed.create_public_threads and allowed.send_messages_in_threads):
            return Place(here, note=NO_PERMISSION)
        name = thread_name(title, interaction.user.display_name or interaction.user.name,
                           interaction.created_at.timestamp())
        try:
            thread = await channel.create_thread(
                name=name, type=discord.ChannelType.public_thread,
                auto_archive_duration=OPEN_ARCHIVE_MINUTES, reason="a new game",
            )
        except discord.Forbidden:
            return Place(here, note=NO_PERMISSION)
        except SEND_ERRORS as exc:
            log.warning("could not open a game's thread: %s", exc)
            return Place(here, note=NOT_OPENED)
        return Place(thread.id, opened=thread, own=True)

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

    async def wind_up(self, game: LoadedGame) -> None:
        """Once a game with its own thread has ended, let Discord archive the thread an
        hour after its last message (once per game; never raise)."""
        if game.row.is_open or not game.data.thread or game.id in self._wound:
            return
        self._wound[game.id] = None
        if len(self._wound) > WOUND_KEPT:
            del self._wound[next(iter(self._wound))]
        await self._archive_after(game.row.channel_id, ENDED_ARCHIVE_MINUTES)

    async def _archive_after(self, thread_id: int, minutes: Literal[60, 10080]) -> None:
        try:
            thread = await self.bot.fetch_channel(thread_id)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(auto_archive_duration=minutes)
        except SEND_ERRORS as exc:
            log.info("could not change the archiving of thread %s: %s", thread_id, exc)
