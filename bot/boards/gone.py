"""Games whose channel, thread or server is gone for the bot.

A channel or thread deleted mid-game (Discord answers the board's next edit or post with
Unknown Channel, or tells the bot by an event), or a server the bot was removed from,
leaves open games nobody can reach any more: not even ``/<game> abandon``, which works
in the game's own channel. Each is called off (:meth:`Tables.call_off`: abandoned by
nobody, no result), so it holds no channel and counts toward nobody's open games, and
its starter may start another at once. A server's open games are read from the store a
bounded batch at a time (an index of open games by server), never all at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Final

from bot.table.errors import Refusal
from bot.table.loaded import LoadedGame
from bot.table.service import Tables
from db.errors import StorageError
from db.sweep import BATCH, groups

log = logging.getLogger(__name__)

#: Discord's error code for a channel (or thread) that does not exist (any more).
UNKNOWN_CHANNEL: Final = 10003

#: The last event of a game called off here.
CHANNEL_GONE = "The game was called off: its channel or thread was deleted."
SERVER_LEFT = "The game was called off: the bot is no longer in this server."


class GonePlaces:
    """Calls off the open games of a deleted channel or thread, or of a server the bot
    is no longer in."""

    def __init__(self, tables: Tables, forget: Callable[[int], None]) -> None:
        self.tables = tables
        #: Told the id of each game called off here (its board is gone: nothing to edit).
        self.forget = forget

    async def channel_gone(self, channel_id: int,
                           guild_id: int | None = None) -> LoadedGame | None:
        """Call off the open game of a deleted channel or thread; return it afterwards, or
        None if there was none (or it could not be read: logged). Never raise.

        With the channel's server (``guild_id``), the games played in the channel's
        threads are called off too: Discord deletes a channel's threads with it, and
        says so by the channel's event alone."""
        if guild_id is not None:
            try:
                threads = await self.tables.open_in_threads_of(guild_id, channel_id)
            except Refusal as refusal:
                log.warning("could not read the games in threads of deleted channel %s: %s",
                            channel_id, refusal)
                threads = []
            for game_id, _thread, _kind in threads:
                await self.call_off(game_id, CHANNEL_GONE)
        try:
            game = await self.tables.open_in_channel(channel_id)
        except Refusal as refusal:
            log.warning("could not read the game of deleted channel %s: %s", channel_id,
                        refusal)
            return None
        if game is None:
            return None
        return await self.call_off(game.id, CHANNEL_GONE)

    async def server_gone(self, guild_id: int) -> int:
        """Call off every open game of a server the bot is no longer in, a batch at a time
        and a few of a batch at once; return how many were called off. Never raise."""
        count = 0
        after = 0
        try:
            while not self.tables.closing:  # at a shutdown the idle sweep ends the rest later
                ids = await self.tables.store.open_games_in_guild(guild_id, limit=BATCH,
                                                                  after_id=after)
                if not ids:
                    break
                for group in groups(ids):
                    ended = await asyncio.gather(*(self.call_off(i, SERVER_LEFT)
                                                   for i in group))
                    count += sum(game is not None for game in ended)
                after = ids[-1]
        except StorageError as exc:
            log.warning("could not read the open games of server %s: %s", guild_id, exc)
        if count:
            log.info("called off %d games of server %s, which the bot left", count, guild_id)
        return count

    async def call_off(self, game_id: int, why: str) -> LoadedGame | None:
        """Call off one game (``why`` is its last event); return it afterwards, or None if
        it had ended already or could not be ended (logged). Never raise."""
        ended = await self.tables.call_off(game_id, why)
        if ended is not None:
            log.info("game %s called off: %s", game_id, why)
            self.forget(game_id)
        return ended
