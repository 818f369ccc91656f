"""The bot: start-up (storage, cogs, command sync), board clicks, housekeeping and shutdown.

Board clicks are routed by the bot itself, not by discord.py's View store: its
``on_interaction`` hands every component interaction to ``bot.boards.routing.route_click``,
which answers those with a board's tag (see ``bot/buttons.py``).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord.ext import commands, tasks

from bot.alive import AliveNotes
from bot.boards.in_flight import let_in
from bot.boards.pings import PingChoiceButton
from bot.boards.routing import route_click
from bot.boards.send_errors import UNKNOWN_INTERACTION, passing_failure, tell_privately
from bot.boards.service import Boards
from bot.config import ConfigError, Settings
from bot.health import HeartbeatWriter, health_file
from bot.pictures.drawing import PictureDrawer
from bot.pictures.fonts import RAQM
from bot.table import downtime
from bot.table.deadlines import STOP_WAIT_SECONDS, Deadlines
from bot.table.downtime import Outage, idle_cutoffs
from bot.table.errors import Refusal
from bot.table.lobby import not_a_member
from bot.table.service import Tables
from bot.table.settings import ServerSettings
from bot.text.names import safe_name
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


class TableTree(discord.app_commands.CommandTree):
    """The command tree: commands count as work in flight, and none start while closing."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse new commands privately once the bot is shutting down.

        A command let through counts as in flight until the task running it ends, so a
        clean shutdown waits for commands as it does for clicks (Tables.drain).
        """
        return await let_in(interaction)


def option_refusal(error: discord.app_commands.TransformerError) -> str:
    """Return the private answer to a command given an option it cannot take: a member
    who is not in the server (any more), or a value Discord did not offer."""
    if error.type in (discord.AppCommandOptionType.user,
                      discord.AppCommandOptionType.mentionable):
        who = error.value
        return not_a_member(safe_name(who.display_name, who.name)
                            if isinstance(who, discord.User | discord.Member) else "That member")
    return ("One of this command's options could not be read: choose it again from the "
            "list Discord shows.")


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

#: How often the running bot notes in the database (``meta``) that it is alive, and at a
#: clean stop once more: the next start knows when the bot was last running (to within
#: this after a crash), every backend alike.
ALIVE_SECONDS = 30.0

#: At start, the boards of the games (open or ended) saved from this long before the bot
#: was last known alive are edited again (an edit the stop or a crash left unmade, even
#: one Discord refused for a while, then shows): at most :data:`REDRAW_LIMIT`, the newest
#: first. The start of that window is kept in ``meta`` until the redraw is done, so a
#: restart that cuts it short leaves it owed to the next start
#: (:meth:`bot.alive.AliveNotes.owed_redraw`).
REDRAW_MARGIN_SECONDS = 120.0
REDRAW_LIMIT = 500
#: An outage shorter than this (two notes of being alive) is not counted: the note read
#: may be another process's that still serves the same shards (a deploy's overlap).
BRIEF_OUTAGE_SECONDS = 2 * ALIVE_SECONDS
#: The first wait before computer players are resumed again after a start whose read
#: of them failed; each later wait is twice as long, up to a minute.
RESUME_RETRY_SECONDS = 5.0


class TableBot(commands.Bot):
    """The bot process: owns the store, the game tables and the boards."""

    store: GameStore
    tables: Tables
    boards: Boards
    deadlines: Deadlines

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
        #: When this process started, and the recent outages before it, this one's last
        #: (:mod:`bot.table.downtime`): not idle time.
        self.started = clock()
        self.outages: list[Outage] = []
        self._redraw: asyncio.Task[None] | None = None
        self._timers: asyncio.Task[None] | None = None
        self._computers: asyncio.Task[None] | None = None
        #: When the bot was last alive before this start (None: not known).
        self.last_alive: float | None = None
        #: The looks for what Discord said while the bot was down (one a shard when
        #: sharded): :meth:`_look_for_missed`.
        self._missed: set[asyncio.Task[None]] = set()
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

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
        servers = self.tables.servers
        self.tables.notice_grace = lambda guild: servers.cached(guild).notice_grace_seconds
        try:  # known before the first move: turn notices follow each server's own wait
            await servers.read_all()
        except StorageError as exc:
            log.warning("could not read the servers' settings at start: %s", exc)
        self.tables.shards = self.shard_filter
        if self.settings.board_images and not RAQM:
            log.warning(NO_LAYOUT)
        drawer = PictureDrawer(processes=self.picture_process and self.settings.board_images)
        self.boards = Boards(self, self.tables, self.settings.computer_delay_seconds,
                             images=self.settings.board_images, drawer=drawer)
        self.boards.messages.edit_interval = self.settings.board_edit_seconds
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
        await self.sync_commands()
        if not self.force_sync:
            s = self.settings
            longest = max(s.solo_idle_hours, s.lobby_idle_hours, s.multi_idle_hours) * 3600
            self.alive = AliveNotes(self.store, self.clock, self.shard_filter,
                                    max(downtime.KEEP_SECONDS, longest))
            last_alive = await self.alive.recall_alive()
            self.last_alive = last_alive
            self.started = self.clock()
            down = None if last_alive is None else max(0.0, self.started - last_alive)
            if down is not None and down < BRIEF_OUTAGE_SECONDS:
                # As young as the notes a running process keeps: another process may be
                # serving these shards still (a deploy's overlap), or the restart was
                # quick; either way no turn timer is worth putting off.
                log.info("these shards were last noted alive %.0f s ago: not counted as "
                         "an outage", down)
            counted = None if down is None or down < BRIEF_OUTAGE_SECONDS else last_alive
            self.outages = await self.alive.note_outage(counted, self.started)
            self.tables.turns.outages = self.outages
            if counted is not None:
                log.info("the bot was down for %.0f s", down)
                self._timers = asyncio.create_task(self._put_off_timers(),
                                                   name="timers-put-off")
            since = await self.alive.owed_redraw(
                None if last_alive is None else last_alive - REDRAW_MARGIN_SECONDS)
            if since is not None:
                self._redraw = asyncio.create_task(self._redraw_recent(since),
                                                   name="board-redraw")
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
        """Note in the database that the bot is alive, every :data:`ALIVE_SECONDS`; keep
        with the outages the time the store was out of reach since the last note (clicks
        were refused then: neither idle time nor turn time)."""
        await self._note_alive()

    async def _note_alive(self) -> None:
        """Note that the bot is alive, and keep the time the store was out of reach with
        the outages (also at a stop: the next start counts it)."""
        trouble = self.tables.core.trouble
        if await self.alive.note_alive():
            trouble.worked()
        else:  # the store out of reach: the time counts from its first failure
            trouble.failed(self.clock())
        for start, length in trouble.take_closed():
            if length <= 0:
                continue  # one failure, and the next write worked
            log.info("the database was out of reach for %.0f s: not counted as idle or "
                     "turn time", length)
            # counted at once, while it is being stored (a deadline may fire meanwhile)
            self.outages = [*self.outages, (start, length)]
            self.tables.turns.outages = self.outages
            kept = await self.alive.note_outage(start, start + length)
            # as many as are stored: those reaching back past every idle cutoff go
            self.outages = downtime.kept([*self.outages, *kept], self.clock(),
                                         self.alive.keep_seconds)
            self.tables.turns.outages = self.outages

    async def _put_off_timers(self) -> None:
        """Move the running turn timers later by the outage before this start (see
        :meth:`bot.boards.service.Boards.put_off_timers`)."""
        try:
            moved = await self.boards.put_off_timers()
        except StorageError as exc:
            log.warning("could not read the tables whose turn timers the stop held: %s", exc)
            return
        if moved:
            log.info("turn timers of %d tables put off by the time the bot was down", moved)

    async def _redraw_recent(self, since: float) -> None:
        """Edit again the boards of the games saved since ``since`` (see
        :meth:`bot.boards.service.Boards.redraw_recent`); once all are seen to, the
        redraw is no longer owed (:meth:`bot.alive.AliveNotes.owed_redraw`)."""
        try:
            redrawn = await self.boards.redraw_recent(since, REDRAW_LIMIT)
        except StorageError as exc:
            log.warning("could not read the games to show again after the start: %s", exc)
            return
        if redrawn is None:
            return  # cut short by the stop: still owed to the next start
        if redrawn:
            log.info("boards of %d recently changed games shown again", redrawn)
        await self.alive.redraw_done()

    # -- commands sync ------------------------------------------------------------------

    def command_hash(self, guild: discord.abc.Snowflake | None = None) -> str:
        """Return a hash of the command set (global, or one guild's)."""
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        text = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

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
        """Sync commands only when they changed since the last sync, or when forced.

        With several processes (shards), only the one that runs shard 0 syncs.
        """
        if not self.syncs_commands:
            log.info("application commands are synced by the process running shard 0")
            return
        targets: list[discord.Object | None] = [None]
        if self.settings.dev_guild_id:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            targets.append(guild)
        for target in targets:
            key = "commands:global" if target is None else f"commands:guild:{target.id}"
            digest = self.command_hash(target)
            if not self.force_sync and await self.store.get_meta(key) == digest:
                log.info("application commands unchanged (%s); not syncing", key)
                continue
            try:
                synced = await self.tree.sync(guild=target)
            except discord.Forbidden as exc:
                if target is None:
                    raise
                log.warning("could not sync the commands to DEV_GUILD_ID %s: the bot is not "
                            "in that server, or was invited without the applications.commands "
                            "scope (%s); the global commands still work", target.id, exc)
                continue
            await self.store.set_meta(key, digest)
            self.synced.append(key)
            log.info("synced %d application commands (%s)", len(synced), key)
        await self._unsync_former_dev_guilds()

    async def _unsync_former_dev_guilds(self) -> None:
        """Take the commands copied to a server that is no longer DEV_GUILD_ID away from
        it: its members would see every command twice, the copy frozen at its last sync."""
        rows = await self.store.query(
            "SELECT key FROM meta WHERE key LIKE :key AND value <> ''",
            {"key": "commands:guild:%"})
        for (key,) in rows:
            guild_id = int(str(key).rsplit(":", 1)[1])
            if guild_id == self.settings.dev_guild_id:
                continue
            try:
                await self.tree.sync(guild=discord.Object(guild_id))  # none for it: cleared
            except discord.HTTPException as exc:
                log.warning("could not take the commands away from the former DEV_GUILD_ID "
                            "%s (%s); a server admin may remove the bot's copies there",
                            guild_id, exc)
                continue
            await self.store.set_meta(str(key), "")
            log.info("took the commands copied to the former DEV_GUILD_ID %s away", guild_id)

    # -- events -------------------------------------------------------------------------

    async def on_ready(self) -> None:
        """Log the invite link and how many games were restored, at the first READY, and
        start the computer players and the look for what went while the bot was down; a
        later one (Discord replaced the gateway session) says only that."""
        if self._resumed:
            log.info("gateway session re-established")
            return
        if self.application_id:
            log.info("invite link: %s", invite_url(self.application_id))
        log.info("ready: %d open games restored", self.restored)
        if not self._resumed:
            self._resumed = True
            self._computers = asyncio.create_task(self._resume_computers(),
                                                  name="computers-resume")
            if self.shard_filter is None:  # (a sharded bot looks as each shard is ready)
                self._look_for_missed(None)

    def _look_for_missed(self, shards: tuple[tuple[int, ...], int] | None) -> None:
        """Start looking for the servers and channels of ``shards`` (None: all) that went
        while the bot was down (:meth:`bot.boards.gone.GonePlaces.missed_while_down`), in
        the background: Discord does not say it again."""
        task = asyncio.create_task(self._find_missed(shards), name="missed-while-down")
        self._missed.add(task)
        task.add_done_callback(self._missed.discard)

    async def _find_missed(self, shards: tuple[tuple[int, ...], int] | None) -> None:
        """Look for what went while the bot was down; while the database cannot be read,
        try again, at most a minute apart. Nothing it raises ends more than the look."""
        pause = RESUME_RETRY_SECONDS
        while not self.tables.closing:
            try:
                await self.boards.messages.gone.missed_while_down(self, shards,
                                                                  self.last_alive)
            except StorageError as exc:
                log.warning("could not read the servers of the open games at the start "
                            "(trying again in %.0f s): %s", pause, exc)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 60.0)
                continue
            except Exception:
                log.exception("could not look for the servers and channels that went "
                              "while the bot was down")
            return

    async def _resume_computers(self) -> None:
        """Let computer players move wherever one is to act after the start (see
        :meth:`bot.boards.service.Boards.resume_computers`); while the database cannot be
        read, try again, at most a minute apart."""
        pause = RESUME_RETRY_SECONDS
        while not self.tables.closing:
            try:
                resumed = await self.boards.resume_computers()
            except StorageError as exc:
                log.warning("could not resume computer players (trying again in %.0f s): %s",
                            pause, exc)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 60.0)
                continue
            if resumed:
                log.info("computer players resumed in %d games", resumed)
            return

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

    async def on_guild_join(self, guild: discord.Guild) -> None:
        """A server added the bot: one that had removed it within the grace gets its games
        back, their boards shown as they are now (see :mod:`bot.boards.gone`)."""
        await self.boards.messages.gone.server_back(guild.id, self.boards.messages.update_soon)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        """A server is there (at a start, too): as :meth:`on_guild_join`, for one that
        added the bot back while it was down."""
        await self.on_guild_join(guild)

    def in_server(self, guild_id: int) -> bool | None:
        """Whether the bot is in the server ``guild_id`` now; None when another process
        serves it (its shard is not this one's) or the servers are not known yet."""
        shards = self.shard_filter
        if shards is not None and (guild_id >> 22) % shards[1] not in shards[0]:
            return None
        if not self.is_ready():
            return None
        return self.get_guild(guild_id) is not None

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Answer every failed command privately: a refusal's reason, or a short apology."""
        cause = getattr(error, "original", error)
        if isinstance(cause, Refusal):
            text = str(cause)
        elif isinstance(error, discord.app_commands.CheckFailure):
            text = str(error) or "You cannot use this command here."
        elif isinstance(error, discord.app_commands.TransformerError):
            # Discord sent an option the command cannot take (a member named who has left
            # the server comes as a user only): the member chose it, nothing failed here.
            log.info("command %s got an option it cannot take: %s",
                     interaction.command and interaction.command.name, error)
            text = option_refusal(error)
        elif isinstance(error, discord.app_commands.CommandNotFound | discord.app_commands
                        .CommandSignatureMismatch):
            # Discord still shows a command as it was before an update.
            log.info("a command Discord showed is not this bot's now: %s", error)
            text = ("This command has changed since Discord last showed it to you: reload "
                    "Discord (Ctrl+R, or reopen the app) and use /help to see the commands.")
        elif passing_failure(cause) or (isinstance(cause, discord.NotFound)
                                        and cause.code in UNKNOWN_INTERACTION):
            # Discord refused the command's answer for a while: what the command did stays
            # done (a private line is tried, and may be refused too).
            log.warning("could not answer command %s: %r",
                        interaction.command and interaction.command.name, cause)
            text = "Discord did not take the bot's answer just now. Please look again in a moment."
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=cause)
            text = "Something went wrong on our side; nothing was changed. Please try again."
        await tell_privately(interaction, text)

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
        }, [*self.outages, *self.tables.core.trouble.outages()])
        # A server that removed the bot first: its games end with no result, not as idle.
        await self.boards.messages.gone.sweep_left(self.in_server)
        ended = await self.tables.expire_idle(cutoffs, self.boards.show_ended)
        if ended:
            log.info("sweeper ended %d idle games", ended)
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
        :data:`bot.boards.messages.FLUSH_SECONDS`), and the time of the stop is stored
        (:meth:`bot.alive.AliveNotes.note_alive`) for the next start.
        """
        heartbeat = getattr(self, "heartbeat", None)
        if heartbeat is not None:  # from now on the health check says not connected
            await heartbeat.stop()
        tables = getattr(self, "tables", None)
        if tables is not None:
            tables.closing = True
            missed = list(self._missed)
            for starting in (self._redraw, self._timers, self._computers, *missed):
                if starting is not None:
                    starting.cancel()
            await asyncio.gather(*missed, return_exceptions=True)
            if not await tables.drain():
                log.warning("shutting down with requests still in flight")
            await self.boards.stop_computers()
            since = time.monotonic()  # the deadlines and their notices share one wait
            await self.deadlines.stop()
            await self.boards.stop_announcing(
                max(0.0, STOP_WAIT_SECONDS - (time.monotonic() - since)))
            await self.boards.messages.stop_updates()
            await self.boards.leftovers.stop()
        if self.alive_marker.is_running():
            self.alive_marker.cancel()
            await self._note_alive()
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
        look for those of its games that went while the bot was down."""
        if shard_id in self._looked:
            return
        self._looked.add(shard_id)
        self._look_for_missed(((shard_id,), self.settings.shard_count))
