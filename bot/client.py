"""The bot: start-up (storage, tables, boards, cogs), board clicks, Discord's events,
housekeeping and shutdown.

Board clicks are routed by the bot itself, not by discord.py's View store: its
``on_interaction`` hands every component interaction to ``bot.boards.routing.route_click``,
which answers those with a board's tag (see :mod:`bot.boards.custom_ids`). Its parts: the command
tree (:mod:`bot.command_tree`), the commands' sync (:mod:`bot.command_sync`) and what a
start makes good of the time the bot was down (:mod:`bot.restart`).
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.alive import AliveNotes
from bot.boards.pings import PingChoiceButton
from bot.boards.routing import route_click
from bot.boards.service import Boards
from bot.command_sync import CommandSync
from bot.command_tree import TableTree
from bot.config import ConfigError, Settings
from bot.health import HeartbeatWriter, health_file
from bot.pictures.drawing import PictureDrawer
from bot.pictures.fonts import RAQM
from bot.restart import ALIVE_SECONDS, Restart
from bot.table import downtime
from bot.table.deadlines import STOP_WAIT_SECONDS, Deadlines
from bot.table.downtime import Outage, Pauses, idle_cutoffs
from bot.table.service import Tables
from bot.table.settings import ServerSettings
from db.base import STARTED_KEY, GameStore
from db.connect import open_store
from db.store import StorageError

log = logging.getLogger(__name__)

def _disk_hint(exc: BaseException) -> str:
    """Return a database error in words, with a hint when the disk is full (SQLite says
    "database or disk is full", or "disk I/O error" when it cannot even grow its log)."""
    words = str(exc) or type(exc).__name__
    if "disk is full" in words or "disk I/O error" in words:
        return f"{words} (check the free space on the disk that holds it)"
    return words


#: Said at start when Pillow cannot shape text here (its raqm needs the system's FriBiDi).
NO_LAYOUT = ("pictures draw names in Arabic, Hebrew and other joined scripts unjoined: "
             "install FriBiDi (apt-get install libfribidi0) and restart")

#: The cogs the bot loads, one per game plus the shared ones.
DEFAULT_COGS: tuple[str, ...] = ("cogs.help", "cogs.records", "cogs.server", "cogs.tinker",
                                 "cogs.tinrealm", "cogs.steam")

#: What the bot needs in a channel: see, talk, embed, attach the board's picture (when it
#: posts a board itself rather than answering a click), read back its own boards, and
#: open a thread for a game.
PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
)


def server_defaults(settings: Settings) -> ServerSettings:
    """Return the server settings the .env gives every server that chose none."""
    return ServerSettings(
        vote_window_seconds=settings.vote_window_seconds,
        threads=settings.game_threads,
        notice_grace_seconds=settings.notice_grace_seconds,
        pictures=settings.board_images,
        max_open_games=settings.max_open_games,
    )


def invite_url(application_id: int) -> str:
    """Return the link that adds the bot to a server with the scopes and permissions it needs."""
    return discord.utils.oauth_url(
        application_id, permissions=PERMISSIONS, scopes=("bot", "applications.commands")
    )


def create_bot(settings: Settings, **kwargs: Any) -> TableBot:
    """Return the bot for ``settings``: sharded when SHARD_COUNT is set."""
    # The bot never speaks in a voice channel: discord.py's warnings that voice would
    # need PyNaCl and davey are noise in a host's log.
    discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
    if settings.shard_count:
        return ShardedTableBot(settings, **kwargs)
    return TableBot(settings, **kwargs)


#: Longest rate-limit wait (seconds) before a request gives up with discord.RateLimited:
#: 30, the least discord.py takes (it raises any lower ``max_ratelimit_timeout`` to 30). A
#: click's answer does not wait on it: its answer clock defers the click after 2 s.
RATE_LIMIT_WAIT = 30.0



class TableBot(commands.Bot):
    """The bot process: owns the store, the game tables and the boards."""

    store: GameStore
    tables: Tables
    boards: Boards
    deadlines: Deadlines
    alive: AliveNotes
    restart: Restart

    def __init__(
        self,
        settings: Settings,
        *,
        cogs: Sequence[str] = DEFAULT_COGS,
        clock: Callable[[], float] = time.time,
        force_sync: bool = False,
        picture_process: bool = True,
        **client_options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            help_command=None,
            tree_cls=TableTree,
            # Commands only where the bot is installed in the server: a member's own
            # install would show them in servers with no bot to grant permissions to.
            allowed_installs=discord.app_commands.AppInstallationType(guild=True, user=False),
            # We only need guilds for names in logs, not before answering: be ready sooner.
            guild_ready_timeout=0.5,
            # Nothing the bot sends pings anyone unless that message says so.
            allowed_mentions=discord.AllowedMentions.none(),
            # A long rate limit raises at once instead of holding a click's answer.
            max_ratelimit_timeout=RATE_LIMIT_WAIT,
            **client_options,
        )
        self.settings = settings
        self.cog_modules = tuple(cogs)
        self.clock = clock
        self.force_sync = force_sync
        #: Whether pictures are drawn in a worker process (else in a thread).
        self.picture_process = picture_process
        self.synced: list[str] = []
        self.restored = 0
        self._resumed = False
        #: The times nobody could play though the bot ran (the tables' too, once they
        #: are made): among them when the gateway connection (of each shard: by id, 0
        #: unsharded) dropped and is not back since; a READY after it lost what Discord
        #: said meanwhile.
        self.pauses = Pauses()

    async def open_store(self) -> None:
        """Open the database (once); raise ConfigError naming DATABASE_PATH if it is unusable."""
        if getattr(self, "store", None) is not None:
            return
        path = self.settings.database_path
        if self.settings.database_url:
            named = "DATABASE_URL"
            try:
                self.store = await open_store(self.settings, self.clock)
            except StorageError as exc:
                raise ConfigError(f"DATABASE_URL cannot be used: {exc}") from None
        else:
            if path.is_dir():
                raise ConfigError(f"DATABASE_PATH {str(path)!r} is a folder; name a file in it")
            named = f"DATABASE_PATH {str(path)!r}"
            try:
                self.store = await open_store(path, self.clock)
            except (OSError, sqlite3.Error, ValueError) as exc:
                raise ConfigError(f"{named} cannot be used: {_disk_hint(exc)}") from None
        try:
            try:  # a database that takes no writes (read-only, a full disk) stops the start
                await self.store.set_meta(STARTED_KEY, f"{self.clock():.0f}")
            except StorageError as exc:
                raise ConfigError(f"{named} cannot be written: {_disk_hint(exc)}") from None
            self.restored = await self.store.count_open(shards=self.shard_filter)
        except BaseException:  # refused, or a stop meanwhile: the database is left closed
            await asyncio.shield(self.store.close())
            raise

    async def setup_hook(self) -> None:
        """Open storage, set up the tables and boards, load cogs, sync commands if needed."""
        await self.open_store()
        s = self.settings
        self.tables = Tables(self.store, clock=self.clock, vote_window=s.vote_window_seconds,
                             defaults=server_defaults(s))
        self.tables.core.pauses = self.pauses
        servers = self.tables.servers
        self.tables.notice_grace = lambda guild: servers.cached(guild).notice_grace_seconds
        try:  # known before the first move: turn notices follow each server's own wait
            await servers.read_all()
        except StorageError as exc:
            log.warning("could not read the servers' settings at start: %s", exc)
        self.tables.shards = self.shard_filter
        if self.settings.board_images and not RAQM:
            log.warning(NO_LAYOUT)
        # (started at the first picture: a server may turn pictures on where the
        # default, BOARD_IMAGES, is off)
        drawer = PictureDrawer(processes=self.picture_process)
        self.boards = Boards(self, self.tables, self.settings.computer_delay_seconds,
                             images=self.settings.board_images, drawer=drawer)
        self.boards.messages.updates.edit_interval = self.settings.board_edit_seconds
        self.add_dynamic_items(PingChoiceButton)
        shards = self.shard_filter
        self.deadlines = Deadlines(
            self.store, self.boards.fire_deadline, self.clock,
            due=lambda now, limit: self.store.due_games(now, limit, shards=shards),
            following=lambda: self.store.next_deadline(shards=shards),
        )
        self.tables.on_deadline = self.deadlines.wake
        for module in self.cog_modules:
            await self.load_extension(module)
        if isinstance(self.tree, TableTree):
            self.tree.check_choices()
        await self.sync_commands()
        longest = max(s.solo_idle_hours, s.lobby_idle_hours, s.multi_idle_hours) * 3600
        self.alive = AliveNotes(self.store, self.clock, self.shard_filter,
                                max(downtime.KEEP_SECONDS, longest))
        #: What this start makes good of the time the bot was down.
        self.restart = Restart(self, self.tables, self.boards, self.alive, self.clock)
        if not self.force_sync:
            await self.restart.begin()
            self.alive_marker.start()
            await self.boards.messages.gone.read_removals()  # before the first deadline
            await self.boards.messages.gone.note_start()  # before the first game started
            self.sweeper.change_interval(minutes=self.settings.sweep_minutes)
            self.sweeper.start()
            self.deadlines.start()
            self.heartbeat = HeartbeatWriter(self, health_file(self.settings))
            self.heartbeat.start()

    # -- being alive, and restarts ------------------------------------------------------

    @tasks.loop(seconds=ALIVE_SECONDS)
    async def alive_marker(self) -> None:
        """Note in the database that the bot is alive, every
        :data:`bot.restart.ALIVE_SECONDS`; keep with the outages the time the store was out
        of reach since the last note (clicks were refused then: neither idle time nor turn
        time)."""
        await self.restart.note_alive()

    @property
    def outages(self) -> list[Outage]:
        """The recent outages before this start, this one's last, and the times the store
        was out of reach since (:attr:`bot.restart.Restart.outages`): not idle time."""
        return self.restart.outages

    # -- commands sync ------------------------------------------------------------------

    @property
    def shard_filter(self) -> tuple[tuple[int, ...], int] | None:
        """This process's shards and the shard count, for background work (None: all)."""
        count = self.settings.shard_count
        if not count:
            return None
        return (self.settings.shard_ids or tuple(range(count)), count)

    @property
    def syncs_commands(self) -> bool:
        """Whether this process syncs application commands: only the one running shard 0."""
        shards = self.shard_filter
        return shards is None or 0 in shards[0]

    async def sync_commands(self) -> None:
        """Sync commands only when they changed since the last sync, or when forced
        (:class:`bot.command_sync.CommandSync`).

        With several processes (shards), only the one that runs shard 0 syncs.
        """
        if not self.syncs_commands:
            log.info("application commands are synced by the process running shard 0")
            return
        self.synced = await CommandSync(self.tree, self.store, self.settings.dev_guild_id,
                                        forced=self.force_sync).sync()

    # -- events -------------------------------------------------------------------------

    async def on_ready(self) -> None:
        """Log the invite link and how many games were restored, at the first READY, and
        start the computer players and the look for what went while the bot was down; a
        later one (Discord replaced the gateway session) says only that."""
        if self._resumed:
            log.info("gateway session re-established")
            dropped = self.pauses.back(0, self.clock())
            if self.shard_filter is None:  # (a sharded bot looks as each shard is ready)
                self.restart.look_for_missed(
                    None, lost_at=self.clock() if dropped is None else dropped)
            return
        if self.application_id:
            log.info("invite link: %s", invite_url(self.application_id))
        log.info("ready: %d open games restored", self.restored)
        # a drop before the first READY lost nothing to look for (a long one is a pause)
        self.pauses.back(0, self.clock())
        if not self._resumed:
            self._resumed = True
            self.restart.resume_computers()
            if self.shard_filter is None:  # (a sharded bot looks as each shard is ready)
                self.restart.look_for_missed(None)

    async def on_disconnect(self) -> None:
        """Note when the gateway connection dropped (a later READY looks from then)."""
        self.pauses.dropped(0, self.clock())

    async def on_resumed(self) -> None:
        """The session was resumed: Discord sends what it said meanwhile (no click came
        while it was out: a long drop is a pause)."""
        self.pauses.back(0, self.clock())

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Route a click on a board to the boards (other interactions: discord.py's).

        discord.py runs this event in one task per interaction; board components are not
        registered as DynamicItems, so that task is the only one a board click gets, and
        no ``View`` of the message is rebuilt to find the component. A failing click is
        logged and answered by ``route_click``; nothing it raises reaches discord.py.
        """
        await route_click(self.boards, interaction)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        """End the open game of a deleted thread, with no result."""
        await self.boards.messages.gone.channel_gone(payload.thread_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """End the open game of a deleted channel, and those of its threads, with no
        result."""
        await self.boards.messages.gone.channel_gone(channel.id, channel.guild.id)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Note that the bot was removed from a server: its open games end with no result
        unless it is back within the grace (see :mod:`bot.boards.gone`)."""
        await self.boards.messages.gone.server_left(guild.id)

    async def on_guild_unavailable(self, guild: discord.Guild) -> None:
        """Discord reports a server unavailable (an outage there): its games wait until
        it is available again (see :mod:`bot.boards.gone`)."""
        self.boards.messages.gone.server_out(guild.id)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot: one that had removed it within the grace gets its games
        back, their boards shown as they are now (see :mod:`bot.boards.gone`)."""
        await self.boards.messages.gone.server_back(guild.id, self.boards.messages.update_soon)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there (at a start, too): as :meth:`on_guild_join`, for one that
        added the bot back while it was down; and one unavailable when the start looked
        for what went while the bot was down has its channels looked at now."""
        await self.on_guild_join(guild)
        await self.boards.messages.gone.available_again(self, guild)

    def in_server(self, guild_id: int) -> bool | None:
        """Whether the bot is in the server ``guild_id`` now; None when another process
        serves it (its shard is not this one's) or the servers are not known yet."""
        shards = self.shard_filter
        if shards is not None and (guild_id >> 22) % shards[1] not in shards[0]:
            return None
        if not self.is_ready():
            return None
        if guild_id in self.boards.messages.gone.absent:  # a removal found late
            return False
        return self.get_guild(guild_id) is not None

    # -- housekeeping -------------------------------------------------------------------

    @tasks.loop(minutes=10)
    async def sweeper(self) -> None:
        """End games idle past their age and edit their boards to say so; a sweep that
        fails (logged) leaves the loop to sweep again at its next time."""
        try:
            await self.sweep_once()
        except Exception:
            log.warning("the idle sweep failed; it runs again at its next time",
                        exc_info=True)

    async def sweep_once(self) -> int:
        """Run one sweep now; return how many games were ended.

        The time the bot was down before this start, or before an earlier one, does not
        count as idle time (:func:`bot.table.downtime.idle_cutoffs`).
        """
        now = self.clock()
        s = self.settings
        cutoffs = idle_cutoffs(now, {
            "solo": s.solo_idle_hours * 3600,
            "lobby": s.lobby_idle_hours * 3600,
            "multi": s.multi_idle_hours * 3600,
        }, [*self.outages, *self.tables.core.unplayed()])
        # A server that removed the bot first: its games end with no result, not as idle;
        # so do those of channels deleted while their games could not be read.
        await self.boards.messages.gone.sweep_left(self.in_server)
        await self.boards.messages.gone.settle_gone()
        ended = await self.tables.expire_idle(cutoffs, self.boards.show_ended)
        if ended:
            log.info("sweeper ended %d idle games", ended)
        try:  # the claims of starts (a deploy's overlap lasts seconds)
            await self.boards.forget_claims()
        except StorageError as exc:
            log.warning("sweeper could not drop old start claims: %s", exc)
        try:  # a computer's turn another process left (stopped in a deploy's overlap)
            resumed = await self.boards.computers.resume(since=now - 2 * s.sweep_minutes * 60)
        except StorageError as exc:
            log.warning("sweeper could not look for computer players left waiting: %s", exc)
        else:
            if resumed:
                log.info("sweeper let computer players move in %d games", resumed)
        try:  # retention: finished games' states and logs go after RETENTION_DAYS
            while await self.store.prune_finished(now - s.retention_days * 86400) == 500:
                pass
        except StorageError as exc:
            log.warning("sweeper could not prune finished games: %s", exc)
        return ended

    # -- shutdown -----------------------------------------------------------------------

    async def close(self) -> None:
        """Finish clicks in flight, stop background work, close Discord, then the database.

        The board edits asked for until then are made (for a few seconds at most:
        :data:`bot.boards.updates.FLUSH_SECONDS`), and the time of the stop is stored
        (:meth:`bot.alive.AliveNotes.note_alive`) for the next start.
        """
        heartbeat = getattr(self, "heartbeat", None)
        if heartbeat is not None:  # from now on the health check says not connected
            await heartbeat.stop()
        tables = getattr(self, "tables", None)
        if tables is not None:
            tables.closing = True
            restart = getattr(self, "restart", None)
            if restart is not None:
                await restart.stop()
            if not await tables.drain():
                log.warning("shutting down with requests still in flight")
            await self.boards.stop_computers()
            since = time.monotonic()  # the deadlines and their notices share one wait
            await self.deadlines.stop()
            await self.boards.stop_announcing(
                max(0.0, STOP_WAIT_SECONDS - (time.monotonic() - since)))
            await self.boards.messages.stop_updates()
            await self.boards.leftovers.stop()
            await self.boards.replays.stop()
        if self.alive_marker.is_running():
            self.alive_marker.cancel()
            self.pauses.stopping(self.clock())  # (the next start counts from the note)
            await self.restart.note_alive()
        if self.sweeper.is_running():
            self.sweeper.cancel()
        await super().close()
        boards = getattr(self, "boards", None)
        if boards is not None:
            await boards.drawer.close()
        store = getattr(self, "store", None)
        if store is not None:
            await store.close()
            log.info("database closed")


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """The bot process running some of the bot's shards (SHARD_COUNT, SHARD_IDS)."""

    def __init__(self, settings: Settings, **kwargs: Any) -> None:
        super().__init__(
            settings,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids) or None,
            **kwargs,
        )
        #: The shards whose first READY of this process was seen.
        self._looked: set[int] = set()

    async def on_shard_ready(self, shard_id: int) -> None:
        """At a shard's first READY of this process (its servers and channels known),
        look for those of its games that went while the bot was down; at a later one
        (Discord replaced its session), for those that went since its connection
        dropped."""
        shards = ((shard_id,), self.settings.shard_count)
        if shard_id in self._looked:
            dropped = self.pauses.back(shard_id, self.clock())
            self.restart.look_for_missed(
                shards, lost_at=self.clock() if dropped is None else dropped)
            return
        self._looked.add(shard_id)
        # a drop before it lost nothing to look for (a long one is a pause)
        self.pauses.back(shard_id, self.clock())
        self.restart.look_for_missed(shards)

    async def on_disconnect(self) -> None:
        """(Each shard notes its own drop: :meth:`on_shard_disconnect`.)"""

    async def on_resumed(self) -> None:
        """(Each shard notes its own resume: :meth:`on_shard_resumed`.)"""

    async def on_shard_disconnect(self, shard_id: int) -> None:
        """Note when the shard's gateway connection dropped."""
        self.pauses.dropped(shard_id, self.clock())

    async def on_shard_resumed(self, shard_id: int) -> None:
        """The shard's session was resumed: Discord sends what it said meanwhile (a long
        drop is a pause, for the whole process: its other shards' games wait too)."""
        self.pauses.back(shard_id, self.clock())
