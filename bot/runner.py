"""Running the bot as a process: settings, logging, signals, a clean exit."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path

import aiohttp
import discord
import yarl
from discord.gateway import ReconnectWebSocket

from bot.config import ConfigError, Settings, load_settings
from bot.health import health_file, unwritable
from bot.logs import setup_logging
from db.errors import StorageError
from db.migrate import SchemaTooNew

log = logging.getLogger("bot")

#: The cyclic garbage collector's thresholds for a serving bot (Python's own: 700, 10, 10).
GC_THRESHOLDS = (700, 20, 100)


def tune_collector() -> None:
    """Make the garbage collector's full collections rarer, for a long-running bot.

    A serving bot holds a large heap that lives as long as the process (discord.py's
    caches of servers, channels and members, the games kept in memory). With Python's
    own thresholds the whole heap is scanned after every hundred young collections, here
    after every two thousand; with 1,000 boards clicking at once that saves about a tenth
    of a click's CPU (docs/performance.md, "The garbage collector"). Young collections are
    unchanged, reference counting still frees almost everything at once, and cycles are
    still collected, only later.
    """
    gc.set_threshold(*GC_THRESHOLDS)


def database_named(settings: Settings) -> str:
    """Return the setting that names the bot's database, and the database, for a message:
    ``DATABASE_URL`` without its password (nor its query, which may hold one), or
    ``DATABASE_PATH``."""
    if settings.database_url:
        try:
            url = yarl.URL(settings.database_url)
            shown = str(url.with_password(None).with_query(None).with_fragment(None))
        except (ValueError, TypeError):
            shown = "(not a valid URL)"
        return f"DATABASE_URL {shown}"
    return f"DATABASE_PATH {str(settings.database_path)!r}"


def hide_password(text: str, settings: Settings) -> str:
    """Return ``text`` with the password of ``settings``' DATABASE_URL hidden."""
    try:
        password = yarl.URL(settings.database_url or "").password
    except (ValueError, TypeError):
        password = None
    return text.replace(password, "***") if password else text


def database_failure(exc: BaseException, settings: Settings) -> str:
    """Return what to tell the admin when the database could not be opened at start."""
    if isinstance(exc, ConfigError):  # the message names DATABASE_URL or DATABASE_PATH
        text = str(exc).rstrip()
    elif isinstance(exc, SchemaTooNew):
        text = f"Cannot open the database: {exc}"
    else:
        text = (f"Cannot open the database ({database_named(settings)}): "
                f"{str(exc) or type(exc).__name__}")
    return hide_password(text, settings)


async def serve(force_sync: bool = False, cogs: Sequence[str] | None = None) -> int:
    """Run the bot with ``cogs`` (default: every game) until it is closed.

    With ``force_sync``, only sync the application commands with Discord, then exit.
    """
    from bot.client import DEFAULT_COGS, create_bot

    settings = await asyncio.to_thread(load_settings)  # reads .env and the content file
    setup_logging(settings.log_level, settings.token)
    tune_collector()
    if settings.api_base:
        discord.http.Route.BASE = settings.api_base.rstrip("/")
        log.warning("using the Discord API at %s (testing only)", settings.api_base)
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
    bot = create_bot(settings, force_sync=force_sync, cogs=cogs or DEFAULT_COGS)
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    # Opening the database may wait long (another process migrating it): a stop meanwhile
    # cancels the wait.
    opening = loop.create_task(bot.open_store(), name="open-database")

    def stop() -> None:
        if not opening.done():
            log.info("stopping: the database was not open yet")
            opening.cancel()
        elif not closing:
            log.info("stopping: finishing clicks in flight")
            closing.append(loop.create_task(bot.close()))

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop)
    try:
        await opening
    except asyncio.CancelledError:
        task = asyncio.current_task()
        if not opening.cancelled() or (task is not None and task.cancelling()):
            raise
        log.info("stopped")
        return 0
    except (ConfigError, SchemaTooNew, StorageError, OSError) as exc:
        # The database, not Discord: an OSError here (a timeout) is the database's.
        print(database_failure(exc, settings), file=sys.stderr)
        return 2
    try:
        if force_sync:
            async with bot:
                await bot.login(settings.token)  # runs setup_hook, which syncs
            if not bot.syncs_commands:
                log.warning("nothing synced: only the process running shard 0 syncs the "
                            "application commands (SHARD_IDS)")
                return 1
            log.info("application commands synced; exiting")
            return 0
        async with bot:
            await bot.start(settings.token)
        if closing:
            await closing[0]
    except Exception as exc:
        if closing:  # a stop while starting closed what the start was using: a stop
            log.info("stopped while starting (%s)", type(exc).__name__)
            with contextlib.suppress(Exception):
                await closing[0]
            if force_sync:
                print("Stopped before the application commands were synced.", file=sys.stderr)
                return 1
            log.info("stopped")
            return 0
        return _start_failure(exc, settings)
    log.info("stopped")
    return 0


#: The failures of a connection to Discord (a network's, or a gateway closed).
CONNECTION_FAILURES = (aiohttp.ClientError, OSError, ReconnectWebSocket,
                       discord.ConnectionClosed, discord.GatewayNotFound)
#: Discord's gateway close code for a token it refuses (reset while the bot ran).
TOKEN_REFUSED = 4004
#: Discord's gateway close codes that ask for other shards, with what they mean.
SHARDING_CODES = {4010: "invalid shard", 4011: "sharding required",
                  4013: "invalid intents", 4014: "disallowed intents"}


def _raised_in_discord(exc: BaseException) -> bool:
    """Whether ``exc`` was raised in discord.py's own code (not the bot's)."""
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and Path(frames[-1].filename).is_relative_to(
        Path(discord.__file__).parent)


def _start_failure(exc: Exception, settings: Settings) -> int:
    """Say why the bot could not start serving and return the exit code (raise what is
    not known: a fault of the bot's own, with its traceback)."""
    failed = exc.__context__
    if (isinstance(exc, AttributeError) and isinstance(failed, CONNECTION_FAILURES)
            and _raised_in_discord(exc)):
        # discord.py 2.7 (Rapptz/discord.py#10520): a first gateway connection that fails
        # raises AttributeError while handling the failure, which is what to say
        log.info("discord.py failed while handling a failed connection: %r", exc)
        return _start_failure(failed, settings)
    if isinstance(exc, StorageError):  # the database, from the start's own reads or writes
        print(database_failure(exc, settings), file=sys.stderr)
        return 2
    if isinstance(exc, (aiohttp.ClientError, OSError, ReconnectWebSocket)):
        why = "the gateway connection closed" if isinstance(exc, ReconnectWebSocket) else exc
        print(f"Could not reach Discord ({why}). Check the network connection and try again.",
              file=sys.stderr)
        return 1
    if isinstance(exc, discord.LoginFailure) or (
            isinstance(exc, discord.ConnectionClosed) and exc.code == TOKEN_REFUSED):
        print("Discord refused the token in DISCORD_TOKEN (reset since the bot started, "
              "perhaps): copy it again from the developer portal (Bot > Reset Token).",
              file=sys.stderr)
        return 1
    if isinstance(exc, discord.ConnectionClosed) and exc.code in SHARDING_CODES:
        print(f"Discord closed the connection ({exc.code}: {SHARDING_CODES[exc.code]}). "
              "Set SHARD_COUNT (and SHARD_IDS) as docs/deploy.md (Sharding) says.",
              file=sys.stderr)
        return 1
    if isinstance(exc, (discord.DiscordServerError, discord.GatewayNotFound)):
        print(f"Discord is having trouble ({exc}); try again in a few minutes.",
              file=sys.stderr)
        return 1
    raise exc


def main(force_sync: bool = False, cogs: Sequence[str] | None = None) -> int:
    """Run the bot until SIGTERM or SIGINT; return the process exit code."""
    try:
        settings = load_settings()
        problem = None if force_sync else unwritable(health_file(settings))
        if problem is not None:  # only the bot that serves writes a heartbeat
            print(f"HEALTH_FILE: the heartbeat file {problem}.", file=sys.stderr)
            return 2
        if settings.tinrealm_content is not None:
            from bot.games.tinrealm.content import ContentError
            from bot.games.tinrealm.engine import ENGINE as TINREALM

            try:  # read once, before the bot serves: games find it in the engine's cache
                TINREALM.content(str(settings.tinrealm_content))
            except ContentError as exc:
                print(f"TINREALM_CONTENT is not usable: {exc}", file=sys.stderr)
                return 2
        return asyncio.run(serve(force_sync, cogs))
    except ConfigError as exc:
        print(str(exc).rstrip(), file=sys.stderr)
        return 2
    except SchemaTooNew as exc:
        print(f"Cannot open the database: {exc}", file=sys.stderr)
        return 2
