"""Settings, read from the environment and an optional ``.env`` file."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.table.seating import TIMERS
from bot.table.settings import (
    NOTICE_GRACE_BOUNDS,
    OPEN_GAMES_BOUNDS,
    VOTE_WINDOW_BOUNDS,
    ServerSettings,
)

#: What every server plays with unless the .env or the server says otherwise.
SERVER = ServerSettings()

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

#: The least RETENTION_DAYS: a daily deal of day D is replayed from D+2 00:00 UTC, and
#: until then who first took part in it (kept with the game) decides its leaderboard;
#: a game of day D ends on D or later, so two days keep both.
MIN_RETENTION_DAYS = 2

#: What a person needs to do when the token is missing.
TOKEN_HELP = """\
DISCORD_TOKEN is not set, so the bot cannot log in to Discord.

To get a token:
  1. Open https://discord.com/developers/applications and choose "New Application".
  2. Under "Bot", press "Reset Token" and copy the token. No privileged gateway
     intents are needed: leave them all off.
  3. Put it in a file named .env next to pyproject.toml (copy .env.example):
         DISCORD_TOKEN=your-token-here
     or export DISCORD_TOKEN in the environment.
  4. Start the bot again. It logs an invite link (scopes "bot" and
     "applications.commands"; permissions View Channel, Send Messages, Send Messages
     in Threads, Create Public Threads, Embed Links, Attach Files, Read Message
     History). Open it to add the bot to a server.
"""


class ConfigError(Exception):
    """A setting is missing or invalid; the message names the setting."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Every setting the bot reads."""

    token: str
    database_path: Path
    dev_guild_id: int | None
    log_level: str
    solo_idle_hours: float
    lobby_idle_hours: float
    multi_idle_hours: float
    sweep_minutes: float
    computer_delay_seconds: float
    tinrealm_content: Path | None
    api_base: str | None
    gateway_url: str | None
    #: Seconds a vote stays open by default (C4); a starter may choose 10 s to 10 min.
    vote_window_seconds: float = SERVER.vote_window_seconds
    #: Whether boards carry a picture (text-only boards stay complete without it).
    board_images: bool = SERVER.pictures
    #: Open games a member may have started in one server (0: no limit).
    max_open_games: int = SERVER.max_open_games
    #: Least seconds between two edits the bot makes to one board by itself (votes,
    #: computer players), within Discord's rate of edits per channel.
    board_edit_seconds: float = 1.0
    #: Sharding: how many shards the bot has in all (0: not sharded), and which of them
    #: this process runs (empty: all of them).
    shard_count: int = 0
    shard_ids: tuple[int, ...] = ()
    #: A ``postgresql://`` URL; when set the bot uses PostgreSQL instead of DATABASE_PATH.
    database_url: str | None = None
    #: Days a finished game's state and action log are kept (results are kept for good).
    retention_days: float = 30.0
    #: Whether start commands put each game in its own thread by default (a server's
    #: /tablehouse settings and the command's own option come first).
    game_threads: bool = SERVER.threads
    #: Seconds a turn notice waits for a move before it mentions the player (0: at once).
    notice_grace_seconds: float = SERVER.notice_grace_seconds
    #: The heartbeat file (``HEALTH_FILE``); None: the default beside the SQLite database,
    #: one per shard process (see :func:`bot.health.health_file`).
    health_file: Path | None = None

    def __repr__(self) -> str:
        return f"Settings(database_path={self.database_path!s}, dev_guild_id={self.dev_guild_id})"


def _number(env: Mapping[str, str], name: str, default: float, minimum: float = 0.0) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value):
        raise ConfigError(f"{name} must be a finite number, got {raw!r}")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, got {raw!r}")
    return value


def _multi_idle_hours(env: Mapping[str, str]) -> float:
    """Read MULTI_IDLE_HOURS: more than the longest turn timer a table may have, or a
    table waiting on a slow player would end as idle before its timer's reminder and its
    computer could move it on."""
    longest = max(TIMERS.values()) / 3600
    hours = _number(env, "MULTI_IDLE_HOURS", 2 * 24, 0.01)
    if hours <= longest:
        raise ConfigError(f"MULTI_IDLE_HOURS must be more than {longest:g} (the longest turn "
                          f"timer of /steam new), got {env['MULTI_IDLE_HOURS'].strip()!r}")
    return hours


def _whole(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    """Read a whole number from ``low`` to ``high``; raise ConfigError naming ``name``."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a whole number, got {raw!r}") from None
    if not low <= value <= high:
        raise ConfigError(f"{name} must be from {low} to {high}, got {raw!r}")
    return value


def url_problem(url: str) -> str | None:
    """Say what keeps a PostgreSQL URL from being read (None: nothing), in words that
    never repeat any part of it (a password may be in it)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError on a port that is not a number)
    except ValueError:
        parts = None
    # Python reads the user's part up to the last "@", the PostgreSQL driver up to the
    # first: a second "@" (in a password not encoded) would send it to another host.
    where = url.split("//", 1)[-1].split("/", 1)[0].split("?", 1)[0]
    if parts is None or parts.fragment or where.count("@") > 1:
        return ("cannot be read as a URL: a character such as / # ? @ or : in the user "
                "name or password must be percent-encoded (%2F for /, %23 for #, %3F for "
                "?, %40 for @, %3A for :), and the port must be a number")
    return None


def load_settings(
    env: Mapping[str, str] | None = None, *, require_token: bool = True, dotenv: bool = True
) -> Settings:
    """Read the settings; raise ConfigError naming the setting at fault."""
    if env is None:
        if dotenv:
            from dotenv import load_dotenv

            load_dotenv(override=False)
        env = os.environ
    token = env.get("DISCORD_TOKEN", "").strip()
    if require_token and not token:
        raise ConfigError(TOKEN_HELP)
    if any(ch.isspace() for ch in token):
        raise ConfigError("DISCORD_TOKEN must not contain spaces or line breaks (copy it again)")

    dev_raw = env.get("DEV_GUILD_ID", "").strip()
    dev_guild_id: int | None = None
    if dev_raw:
        if not dev_raw.isdigit():
            raise ConfigError(f"DEV_GUILD_ID must be a server id (digits only), got {dev_raw!r}")
        dev_guild_id = int(dev_raw)

    level = env.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in LOG_LEVELS:
        raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, got {level!r}")

    db_raw = env.get("DATABASE_PATH", "").strip() or "data/tablehouse.db"
    if db_raw == ":memory:" or str(Path(db_raw)).startswith("file:"):
        raise ConfigError(f"DATABASE_PATH must be the path of a database file (the bot "
                          f"keeps its games there), got {db_raw!r}")
    if db_raw.endswith(("/", os.sep)):  # a folder's name: the bot would make a file of it
        raise ConfigError(f"DATABASE_PATH {db_raw!r} names a folder; name a file in it "
                          "(such as data/tablehouse.db)")
    content_raw = env.get("TINREALM_CONTENT", "").strip()
    content = Path(content_raw) if content_raw else None
    if content is not None and not content.is_file():
        raise ConfigError(f"TINREALM_CONTENT names {content_raw!r}, which is not a file")
    if content is not None:
        content = content.resolve()  # as games store it, read once here

    url = env.get("DATABASE_URL", "").strip() or None
    if url is not None and not url.startswith(("postgresql://", "postgres://")):
        raise ConfigError("DATABASE_URL must start with postgresql:// (or leave it unset)")
    if url is not None and (problem := url_problem(url)):
        raise ConfigError(f"DATABASE_URL {problem}")

    return Settings(
        token=token,
        database_path=Path(db_raw),
        dev_guild_id=dev_guild_id,
        log_level=level,
        solo_idle_hours=_number(env, "SOLO_IDLE_HOURS", 7 * 24, 0.01),
        lobby_idle_hours=_number(env, "LOBBY_IDLE_HOURS", 1, 0.01),
        multi_idle_hours=_multi_idle_hours(env),
        sweep_minutes=_number(env, "SWEEP_MINUTES", 10, 0.01),
        computer_delay_seconds=_number(env, "COMPUTER_DELAY_SECONDS", 1.5),
        tinrealm_content=content,
        api_base=env.get("DISCORD_API_BASE", "").strip() or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
        vote_window_seconds=_bounded(env, "VOTE_WINDOW_SECONDS", SERVER.vote_window_seconds,
                                     VOTE_WINDOW_BOUNDS),
        board_images=_flag(env, "BOARD_IMAGES", SERVER.pictures),
        max_open_games=_whole(env, "MAX_OPEN_GAMES", SERVER.max_open_games,
                              *OPEN_GAMES_BOUNDS),
        board_edit_seconds=_number(env, "BOARD_EDIT_SECONDS", 1.0, 0.0),
        **_shards(env),
        database_url=url,
        retention_days=_number(env, "RETENTION_DAYS", 30, MIN_RETENTION_DAYS),
        game_threads=_flag(env, "GAME_THREADS", SERVER.threads),
        notice_grace_seconds=_bounded(env, "TURN_NOTICE_GRACE_SECONDS",
                                      SERVER.notice_grace_seconds, NOTICE_GRACE_BOUNDS),
        health_file=_health_file(env),
    )


def _shards(env: Mapping[str, str]) -> dict[str, Any]:
    count_raw = env.get("SHARD_COUNT", "").strip()
    ids_raw = env.get("SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (how many shards there are in all)")
        return {}
    if not (count_raw.isascii() and count_raw.isdigit()) or int(count_raw) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of at least 1, got {count_raw!r}")
    count = int(count_raw)
    ids: list[int] = []
    for part in filter(None, (p.strip() for p in ids_raw.split(","))):
        if not (part.isascii() and part.isdigit()) or int(part) >= count:
            raise ConfigError(
                f"SHARD_IDS must list shard numbers from 0 to {count - 1}, got {ids_raw!r}"
            )
        ids.append(int(part))
    return {"shard_count": count, "shard_ids": tuple(sorted(set(ids)))}


def _health_file(env: Mapping[str, str]) -> Path | None:
    """Read ``HEALTH_FILE``: unset or empty means the default (None), as for every
    setting; a value must be able to name a file: not a folder, nor a path through a file.
    Raise ConfigError naming it. Whether this process may write it is checked only where
    the bot starts (:func:`bot.health.unwritable`): the health check, a backup or a
    migration run by another user, or from outside the bot's container, only reads it
    or not at all."""
    raw = env.get("HEALTH_FILE", "").strip()
    if not raw:
        return None
    path = Path(raw)
    if path.is_dir():
        raise ConfigError(f"HEALTH_FILE names {raw!r}, which is a folder, not a file")
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise ConfigError(f"HEALTH_FILE names {raw!r}, whose folder cannot be made: "
                          f"{str(folder)!r} is a file")
    return path


def _bounded(env: Mapping[str, str], name: str, default: float,
             bounds: tuple[int, int]) -> float:
    """Read a number of seconds within ``bounds`` (as a server may set it too); raise
    ConfigError naming ``name``."""
    low, high = bounds
    value = _number(env, name, default, low)
    if value > high:
        raise ConfigError(f"{name} must be at most {high}, got {value:g}")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name} must be on or off (true/false, 1/0), got {raw!r}")
