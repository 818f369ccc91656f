"""Games whose channel, thread or server is gone for the bot.

A channel or thread deleted mid-game (Discord answers the board's next edit or post with
Unknown Channel, or tells the bot by an event), or a server the bot was removed from,
leaves open games nobody can reach any more: not even ``/<game> abandon``, which works
in the game's own channel. Each is called off (:meth:`Tables.call_off`: abandoned by
nobody, no result but a daily deal's played on, which counts as a loss for who played
it: :meth:`bot.table.core.TableCore.given_up`), so it holds no channel and counts toward
nobody's open games, and its starter may start another at once. A server's open games
are read from the store a bounded batch at a time (an index of open games by server),
never all at once.

A server that removed the bot keeps its games for :data:`SERVER_GRACE_SECONDS` first:
an admin who removed it by mistake and adds it back finds them as they were. The
removal is stored (``meta``), so the grace outlasts a restart; the idle sweep calls off
the games of a server the bot is still not back in once it is over
(:meth:`GonePlaces.sweep_left`); nothing of them can be edited then, so if the bot is
added back later, their boards are shown ended and their turn notices and invitations
taken down. Meanwhile nobody there can click: the games' deadlines
wait (no vote closes, no turn timer runs out, no reminder is posted), and the turn
timers are put off by the time away when the bot is back. A server Discord reports
unavailable (an outage at Discord's) waits the same way, never called off, until
Discord has it again.

What Discord said while the bot was down is never said again: at a start, once a shard
is ready (:meth:`GonePlaces.missed_while_down`), the servers and channels of the games
open before the start are looked at against what Discord reports. A server the bot is
not in (one Discord reports unavailable is in an outage, not gone) counts as a removal
from when the bot was last alive, with the same grace; a channel or thread the bot does
not see (an archived thread is not seen either) is asked for, one at a time and at most
one a :data:`FETCH_INTERVAL_SECONDS`, and its game is called off only if Discord answers
Unknown Channel. A server in an outage at that look has its channels looked at once
Discord has it again (:meth:`GonePlaces.available_again`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

import discord

from bot.boards.send_errors import SEND_ERRORS
from bot.table.errors import Refusal, Unavailable
from bot.table.loaded import LoadedGame
from bot.table.service import Tables
from db.errors import StorageError
from db.rows import Shards, shard_sql
from db.sweep import BATCH, groups

log = logging.getLogger(__name__)

#: Discord's error code for a channel (or thread) that does not exist (any more).
UNKNOWN_CHANNEL: Final = 10003

#: The last event of a game called off here.
CHANNEL_GONE = "The game was called off: its channel or thread was deleted."
SERVER_LEFT = "The game was called off: the bot is no longer in this server."

#: How long after the bot was removed from a server its open games there are called off,
#: unless it is back by then.
SERVER_GRACE_SECONDS = 3600.0
#: The ``meta`` key (with the server's id) of when the bot was removed from a server.
LEFT_KEY = "server_left:"
#: The ``meta`` key (with the server's id) of a server whose games were called off when
#: its grace ran out (the value: when the bot had been removed). Nothing could be edited
#: there then: if the bot is added back, their boards are shown ended and their turn
#: notices and invitations taken down (:meth:`GonePlaces.server_back`).
CALLED_OFF_KEY = "server_called_off:"
#: The games of a server called off since a time (``since``), by id after ``after``, at
#: most ``limit``.
CALLED_OFF_SQL = ("SELECT id FROM games WHERE guild_id = :guild AND status = 'abandoned'"
                  " AND updated_at >= :since AND id > :after ORDER BY id LIMIT :limit")

#: The pauses before a game's save at the bot's return to a server is tried again, when
#: the database failed it (locked, say): its idle time must count from the return.
BACK_RETRY_SECONDS = (0.5, 2.0, 5.0)

#: At a start, the least time between two channels asked of Discord (to learn whether
#: they are still there): the start's other requests, and the other processes' of a
#: sharded bot, stay well within Discord's limit for the whole bot (50 a second).
FETCH_INTERVAL_SECONDS = 1.0

#: The servers of the open games of some shards, among the games up to a given id
#: (parameter ``last``; ``{shards}``: the shards' condition).
OPEN_SERVERS_SQL = ("SELECT DISTINCT guild_id FROM games WHERE status IN ('lobby', 'active')"
                    " AND guild_id IS NOT NULL AND id <= :last AND {shards}")
#: The open games of a server and their channels, by id after ``after`` up to ``last``,
#: at most ``limit`` (the index of open games by server answers it).
OPEN_CHANNELS_SQL = ("SELECT id, channel_id FROM games WHERE guild_id = :guild"
                     " AND status IN ('lobby', 'active') AND id > :after AND id <= :last"
                     " ORDER BY id LIMIT :limit")


class GonePlaces:
    """Calls off the open games of a deleted channel or thread, or of a server the bot
    is no longer in."""

    def __init__(self, tables: Tables, forget: Callable[[int], None]) -> None:
        self.tables = tables
        #: Told the id of each game called off here (its board is gone: nothing to edit).
        self.forget = forget
        #: Given each game called off here, afterwards: a lobby's invitations posted in
        #: the channel its thread was a thread of go with it.
        self.called_off: Callable[[LoadedGame], Awaitable[None]] | None = None
        #: Shows a game called off with its server ended, once the bot is back there:
        #: its board, turn notice and invitations (set by the boards).
        self.show_ended: Callable[[LoadedGame], Awaitable[None]] | None = None
        #: The servers whose games were called off while the bot was away, with when it
        #: had been removed (read with the removals).
        self._called_off: dict[int, float] = {}
        #: The servers whose removal of the bot is noted in ``meta``, with when (None: not
        #: read yet; once read, it is the table service's :attr:`Tables.removed`, whose
        #: games' deadlines wait), and the lock its one read is made under.
        self._removals: dict[int, float] | None = None
        self._reading = asyncio.Lock()
        #: The newest game when this process started (None: not read yet): the games
        #: after it began in this run, in channels the bot saw.
        self.started_with: int | None = None
        #: Spaces the channels asked of Discord at a start, every shard's alike.
        self.pace = Pace(FETCH_INTERVAL_SECONDS)
        #: The servers Discord reported unavailable when the start looked (an outage):
        #: their channels are looked at once Discord has them again.
        self.unseen: set[int] = set()
        #: Deleted channels (with their server, for their threads) whose games could not
        #: be read or ended when Discord said so, once: looked at again by each sweep
        #: (:meth:`settle_gone`).
        self.unsettled: dict[int, int | None] = {}
        #: The servers a sharded client still has, from before a new gateway session,
        #: that Discord says the bot is no longer in (it missed their removal): not
        #: the bot's until Discord sends them again (:meth:`server_back`).
        self.absent: set[int] = set()

    async def channel_gone(self, channel_id: int,
                           guild_id: int | None = None) -> LoadedGame | None:
        """Call off the open game of a deleted channel or thread; return it afterwards, or
        None if there was none (or it could not be read or ended: logged, and looked at
        again by the next sweep, as Discord says it once). Never raise.

        With the channel's server (``guild_id``), the games played in the channel's
        threads are called off too: Discord deletes a channel's threads with it, and
        says so by the channel's event alone."""
        self.unsettled.pop(channel_id, None)
        if guild_id is not None:
            try:
                threads = await self.tables.find.open_in_threads_of(guild_id, channel_id)
            except Refusal as refusal:
                log.warning("could not read the games in threads of deleted channel %s: %s",
                            channel_id, refusal)
                self.unsettled[channel_id] = guild_id
                threads = []
            for game_id, _thread, _kind in threads:
                if await self.call_off(game_id, CHANNEL_GONE) is None:  # not saved
                    self.unsettled[channel_id] = guild_id
        try:
            game = await self.tables.open_in_channel(channel_id)
        except Refusal as refusal:
            log.warning("could not read the game of deleted channel %s: %s", channel_id,
                        refusal)
            self.unsettled[channel_id] = guild_id
            return None
        if game is None:
            return None
        ended = await self.call_off(game.id, CHANNEL_GONE)
        if ended is None:  # not saved (or ended meanwhile: the sweep finds it so)
            self.unsettled[channel_id] = guild_id
        return ended

    async def settle_gone(self) -> int:
        """Call off the games of the deleted channels whose games could not be read when
        Discord said so (:attr:`unsettled`); return how many were. Never raise."""
        count = 0
        for channel_id, guild_id in list(self.unsettled.items()):
            count += await self.channel_gone(channel_id, guild_id) is not None
        return count

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
                    ended = await asyncio.gather(*(
                        self.call_off(i, SERVER_LEFT, reachable=False) for i in group))
                    count += sum(game is not None for game in ended)
                after = ids[-1]
        except StorageError as exc:
            log.warning("could not read the open games of server %s: %s", guild_id, exc)
        if count:
            log.info("called off %d games of server %s, which the bot left", count, guild_id)
        self.tables.servers.forget(guild_id)
        return count

    async def _left(self) -> dict[int, float]:
        """The servers whose removal of the bot is noted (read once, then kept: the
        servers that are there at a start all ask at once, and share the one read)."""
        async with self._reading:
            if self._removals is None:
                rows = await self.tables.store.query(
                    "SELECT key, value FROM meta WHERE (key LIKE :left OR key LIKE :gone)"
                    " AND value <> ''", {"left": f"{LEFT_KEY}%", "gone": f"{CALLED_OFF_KEY}%"})
                self._called_off = _removals(
                    [r for r in rows if str(r[0]).startswith(CALLED_OFF_KEY)], CALLED_OFF_KEY)
                self._removals = self.tables.removed
                self._removals.update(_removals(
                    [r for r in rows if str(r[0]).startswith(LEFT_KEY)]))
            return self._removals

    async def read_removals(self) -> None:
        """Read the servers that removed the bot (at a start, before any deadline is
        handled: their games' deadlines wait from the first look). Never raise: one
        that cannot be read now is read when a server asks."""
        try:
            await self._left()
        except StorageError as exc:
            log.warning("could not read the servers the bot was removed from: %s", exc)

    async def server_left(self, guild_id: int, since: float | None = None) -> None:
        """Note that the bot was removed from a server: its open games are called off if
        it is not back within :data:`SERVER_GRACE_SECONDS` (:meth:`sweep_left`). With
        ``since`` (a removal found at a start: when the bot was last alive before it),
        the grace counts from then, and a removal noted already keeps its own time.
        Never raise."""
        try:
            now = self.tables.now()
            if since is not None and guild_id in await self._left():
                return  # heard when it happened, or found at an earlier start
            left = now if since is None else min(since, now)
            await self.tables.store.set_meta(f"{LEFT_KEY}{guild_id}", repr(left))
            (await self._left())[guild_id] = left
        except StorageError as exc:
            log.warning("could not note that the bot left server %s: %s", guild_id, exc)
            return
        log.info("removed from server %s%s: its open games are called off in %.0f minutes "
                 "unless the bot is back", guild_id,
                 "" if since is None else " while the bot was down",
                 max(0.0, SERVER_GRACE_SECONDS - (now - left)) / 60)

    def server_out(self, guild_id: int) -> None:
        """Note that Discord reports a server unavailable (an outage at Discord's, not a
        removal): its games' deadlines wait until it is there again
        (:meth:`server_back`)."""
        if guild_id not in self.tables.unavailable:
            self.tables.unavailable[guild_id] = self.tables.now()
            log.info("server %s is unavailable at Discord's: its games wait", guild_id)

    async def server_back(self, guild_id: int, redraw: Callable[[int], None]) -> int:
        """The bot was added to a server, or Discord has it again after an outage: if it
        had been removed from it within the grace, forget the removal; then put each open
        game's turn timer off by the time away or out (nobody could click; its deadlines
        waited) and ``redraw`` its board. Return how many games; never raise."""
        self.absent.discard(guild_id)
        removals: dict[int, float] = {}
        left = None
        try:
            removals = await self._left()
            left = removals.get(guild_id)
            if guild_id in self._called_off:
                await self._tidy_called_off(guild_id)
            if left is not None:
                await self.tables.store.set_meta(f"{LEFT_KEY}{guild_id}", "")
        except StorageError as exc:  # (a removal not forgotten: the sweep forgets it)
            log.warning("could not read whether server %s had removed the bot: %s",
                        guild_id, exc)
        out = self.tables.unavailable.get(guild_id)
        since = min((t for t in (left, out) if t is not None), default=None)
        if since is None:
            return 0
        try:
            count = await self._go_on(guild_id, since, redraw)
        finally:
            removals.pop(guild_id, None)  # its deadlines go on, from the new ends
            self.tables.unavailable.pop(guild_id, None)
        log.info("back in server %s (%s): its %d open games go on", guild_id,
                 "added back" if left is not None else "available again", count)
        return count

    async def _go_on(self, guild_id: int, since: float,
                     redraw: Callable[[int], None]) -> int:
        """Put the turn timer of each open game of a server off by the time since
        ``since``, and ``redraw`` its board; return how many games (those read before
        the database failed, if it did)."""
        away = ((since, max(0.0, self.tables.now() - since)),)
        count, after = 0, 0
        try:
            while ids := await self.tables.store.open_games_in_guild(
                    guild_id, limit=BATCH, after_id=after):
                for game_id in ids:
                    await self._put_off(game_id, away)
                    redraw(game_id)
                count += len(ids)
                after = ids[-1]
        except StorageError as exc:
            log.warning("could not read the open games of server %s: %s", guild_id, exc)
        return count

    async def _put_off(self, game_id: int, away: tuple[tuple[float, float], ...]) -> None:
        """Put a game's turn timer off by the time away, and its idle time to count from
        now (:meth:`Tables.put_off_timer`); a save the database fails for a while is
        tried again (:data:`BACK_RETRY_SECONDS`), a damaged game left as it is."""
        for pause in (*BACK_RETRY_SECONDS, None):
            try:
                await self.tables.put_off_timer(game_id, away)
                return
            except Unavailable:
                if pause is None:
                    log.warning("could not put game %s off by the time away", game_id)
                    return
                await asyncio.sleep(pause)
            except Refusal:
                return

    async def _tidy_called_off(self, guild_id: int) -> None:
        """The bot is back in a server whose games were called off while it was away:
        show each ended (its board, turn notice and invitations could not be seen to
        then), a batch at a time; then forget the server. Raise StorageError when they
        cannot be read (the next start tries again)."""
        since = self._called_off[guild_id]
        after, shown = 0, 0
        while not self.tables.closing:
            rows = await self.tables.store.query(CALLED_OFF_SQL, {
                "guild": guild_id, "since": since, "after": after, "limit": BATCH})
            for (game_id,) in rows:
                try:
                    game = await self.tables.load(int(game_id))
                except Refusal:
                    continue
                # (abandoned since the removal: called off, as nobody there could act;
                # retention may have emptied its events, and its notice's place with them)
                if self.show_ended is not None:
                    await self.show_ended(game)
                    shown += 1
            if len(rows) < BATCH:
                break
            after = int(rows[-1][0])
        else:
            return  # a stop: the next start goes on
        await self.tables.store.set_meta(f"{CALLED_OFF_KEY}{guild_id}", "")
        self._called_off.pop(guild_id, None)
        log.info("back in server %s: %d games called off meanwhile shown ended", guild_id,
                 shown)

    async def sweep_left(self, in_server: Callable[[int], bool | None]) -> int:
        """Call off the open games of every server the bot was removed from over
        :data:`SERVER_GRACE_SECONDS` ago and is not back in (``in_server``: whether the
        bot is in a server now, None for a server another process serves); forget the
        removals of servers it is back in. Return how many games were called off; never
        raise."""
        try:
            rows = await self.tables.store.query(
                "SELECT key, value FROM meta WHERE key LIKE :left AND value <> ''",
                {"left": f"{LEFT_KEY}%"})
        except StorageError as exc:
            log.warning("could not read the servers the bot left: %s", exc)
            return 0
        count = 0
        for key, value in rows:
            try:
                guild_id, left = int(str(key)[len(LEFT_KEY):]), float(value)
            except ValueError:
                continue
            here = in_server(guild_id)
            if here is None or (not here and self.tables.now() - left < SERVER_GRACE_SECONDS):
                continue
            if not here:
                count += await self.server_gone(guild_id)
                try:  # some left (a storage error, a stop): the next sweep goes on
                    if await self.tables.store.open_games_in_guild(guild_id, limit=1):
                        continue
                    # their boards and notices are seen to if the bot is added back
                    await self.tables.store.set_meta(f"{CALLED_OFF_KEY}{guild_id}",
                                                     repr(left))
                except StorageError:
                    continue
                self._called_off[guild_id] = left
            try:
                await self.tables.store.set_meta(str(key), "")
            except StorageError as exc:
                log.warning("could not forget that the bot left server %s: %s", guild_id,
                            exc)
            else:
                if self._removals is not None:
                    self._removals.pop(guild_id, None)
        return count

    async def note_start(self) -> None:
        """Note the newest game at this start, before any can be started: those after it
        are left out of :meth:`missed_while_down`. Never raise: one not read now is read
        then."""
        try:
            self.started_with = await self._newest()
        except StorageError as exc:
            log.warning("could not read the newest game at the start: %s", exc)

    async def _newest(self) -> int:
        """The id of the newest game stored (0: none)."""
        rows = await self.tables.store.query("SELECT max(id) FROM games")
        return int(rows[0][0] or 0) if rows else 0

    async def missed_while_down(self, client: discord.Client, shards: Shards | None,
                                since: float | None, *, every: bool = False) -> None:
        """Deal with what Discord did not tell the bot while it was down, for the games of
        ``shards`` (None: every game) open before this start (``every``: open now, after
        a gap in the gateway session): a server the bot is not in (not one Discord
        reports unavailable) is noted as left ``since`` (when the bot was last alive, or
        lost its session; None: now), and the game of a channel or thread Discord no
        longer has is called off (see the module docstring). Raise StorageError when
        the games' servers cannot be read; otherwise never raise."""
        if self.started_with is None:
            self.started_with = await self._newest()
        last = await self._newest() if every else self.started_with
        rows = await self.tables.store.query(
            OPEN_SERVERS_SQL.format(shards=shard_sql(shards)), {"last": last})
        present = None
        if every and rows and isinstance(client, discord.AutoShardedClient):
            present = await _servers_of(client)
        found = Found()
        for (guild_id,) in rows:
            if self.tables.closing:
                break
            guild = client.get_guild(int(guild_id))
            if guild is None or (present is not None and guild.id not in present):
                if guild is not None:
                    self.absent.add(guild.id)
                await self.server_left(int(guild_id), since)
                found.left += 1
            elif guild.unavailable:  # an outage: its channels are not known now
                self.unseen.add(guild.id)
                self.server_out(guild.id)
            else:
                await self._look_at_channels(client, guild, last, found)
        found.report()

    async def available_again(self, client: discord.Client, guild: discord.Guild) -> None:
        """A server unavailable when the start looked (:meth:`missed_while_down`) is
        there again: look at its games' channels now, as the start would have. Never
        raise."""
        if guild.id not in self.unseen or self.started_with is None:
            return
        self.unseen.discard(guild.id)
        found = Found()
        await self._look_at_channels(client, guild, self.started_with, found)
        found.report()

    async def _look_at_channels(self, client: discord.Client, guild: discord.Guild,
                                last: int, found: Found) -> None:
        """Look at the channels of a server's games open before the start (up to game
        ``last``), a batch at a time: Discord is asked about each the bot does not see
        (one game a channel: ruling C3). Never raise."""
        after = 0
        try:
            while not self.tables.closing:
                rows = await self.tables.store.query(OPEN_CHANNELS_SQL, {
                    "guild": guild.id, "after": after, "last": last, "limit": BATCH})
                for _game_id, channel_id in rows:
                    if self.tables.closing:
                        return
                    if guild.get_channel_or_thread(int(channel_id)) is None:
                        await self._look_at_channel(client, guild.id, int(channel_id),
                                                    found)
                if len(rows) < BATCH:
                    return
                after = int(rows[-1][0])
        except StorageError as exc:
            log.warning("could not read the open games of server %s at the start: %s",
                        guild.id, exc)

    async def _look_at_channel(self, client: discord.Client, guild_id: int, channel_id: int,
                               found: Found) -> None:
        """Ask Discord for a channel or thread the bot does not see, if its game is still
        open, and call the game off if Discord no longer has it (with the games of its
        threads, for a channel)."""
        try:
            game = await self.tables.open_in_channel(channel_id)
        except Refusal as refusal:
            log.warning("could not read the game of channel %s: %s", channel_id, refusal)
            return
        if game is None:
            return  # ended meanwhile (a thread's, perhaps, with its deleted channel)
        await self.pace.wait()
        there = await channel_there(client, channel_id)
        if there is None:
            found.unknown += 1
        if there is not False:
            return
        threaded = game.data.thread or game.data.parent is not None
        if await self.channel_gone(channel_id, None if threaded else guild_id) is not None:
            found.gone += 1

    async def call_off(self, game_id: int, why: str, *,
                       reachable: bool = True) -> LoadedGame | None:
        """Call off one game (``why`` is its last event); return it afterwards, or None if
        it had ended already or could not be ended (logged). Not ``reachable`` (a server
        the bot is out of), what goes with it is left to the bot's return there
        (:meth:`_tidy_called_off`): nothing of the server can be deleted now. Never
        raise."""
        ended = await self.tables.call_off(game_id, why)
        if ended is not None:
            log.info("game %s called off: %s", game_id, why)
            self.forget(game_id)
            if self.called_off is not None and reachable:
                await self.called_off(ended)
        return ended


class Found:
    """What a start found Discord had not told the bot while it was down."""

    def __init__(self) -> None:
        #: Servers that removed the bot.
        self.left = 0
        #: Games called off, their channel or thread deleted.
        self.gone = 0
        #: Channels Discord did not say about (no access, a server error, a rate limit).
        self.unknown = 0

    def report(self) -> None:
        """Log what was found (nothing when all was as the bot left it)."""
        if self.left or self.gone:
            log.info("found at the start: removed from %d servers, %d games called off "
                     "with their deleted channels", self.left, self.gone)
        if self.unknown:
            log.warning("at the start, Discord did not say whether %d of the channels the "
                        "bot does not see are still there: their games go on", self.unknown)


class Pace:
    """Spaces requests at least ``interval`` seconds apart (the first goes at once),
    however many tasks make them."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self._last: float | None = None
        self._turn = asyncio.Lock()

    async def wait(self) -> None:
        """Wait until the next request may go."""
        async with self._turn:
            if self._last is not None:
                await asyncio.sleep(max(0.0, self._last + self.interval - time.monotonic()))
            self._last = time.monotonic()


async def channel_there(client: discord.Client, channel_id: int) -> bool | None:
    """Whether Discord still has the channel or thread ``channel_id`` (asked: one the bot
    does not see may be an archived thread); None when it did not say (no access, a
    server error, a rate limit, the connection)."""
    try:
        await client.fetch_channel(channel_id)
    except discord.NotFound as exc:
        if exc.code == UNKNOWN_CHANNEL:
            return False
        log.info("could not ask Discord for channel %s: %s", channel_id, exc)
        return None
    except discord.InvalidData:
        return True  # a kind of channel discord.py does not know: there all the same
    except SEND_ERRORS as exc:
        log.info("could not ask Discord for channel %s: %r", channel_id, exc)
        return None
    return True


async def _servers_of(client: discord.Client) -> set[int] | None:
    """Return the ids of every server Discord says the bot is in (None: it did not
    say). A sharded discord.py client keeps the servers it had over a new gateway
    session, a removal it missed included, so only Discord's list tells."""
    try:
        return {guild.id async for guild in client.fetch_guilds(limit=None)}
    except SEND_ERRORS as exc:
        log.warning("could not list the servers the bot is in: %s", exc)
        return None


def _removals(rows: list[tuple[object, ...]], prefix: str = LEFT_KEY) -> dict[int, float]:
    """Read the stored removals (``meta`` rows of key, ``prefix`` and the server's id, and
    time) by server id."""
    found: dict[int, float] = {}
    for key, value in rows:
        try:
            found[int(str(key)[len(prefix):])] = float(str(value))
        except ValueError:
            continue
    return found
