"""Each server's own defaults (``/tablehouse settings``), read once per server and process.

A server's stored settings hold only what it chose; everything else is the bot's default
(its ``.env``: VOTE_WINDOW_SECONDS, GAME_THREADS, TURN_NOTICE_GRACE_SECONDS, BOARD_IMAGES,
MAX_OPEN_GAMES). :class:`ServerBook` keeps each server's settings in memory once read,
so a click costs no database read for them; a change through this process replaces its
copy at once. Another process (a second shard's, during a deployment overlap) sees a
change when it next reads that server: after its restart, or within
:data:`FRESH_SECONDS`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from bot.table.errors import Refusal, Unavailable
from bot.table.polls import DEFAULT_WINDOW, MAX_WINDOW, MIN_WINDOW
from db.base import SETTING_COLUMNS, GameStore, settings_row
from db.errors import StorageError

log = logging.getLogger(__name__)

#: Bounds of each number a server may set: (least, most).
VOTE_WINDOW_BOUNDS = (MIN_WINDOW, MAX_WINDOW)
NOTICE_GRACE_BOUNDS = (0, 3600)
OPEN_GAMES_BOUNDS = (0, 100)
#: How long a process trusts its copy of a server's settings before reading them again.
FRESH_SECONDS = 300.0


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What a server plays with by default (each field: the server's choice or the bot's)."""

    #: Seconds a vote stays open when the starter picks none (C4).
    vote_window_seconds: float = DEFAULT_WINDOW
    #: Whether start commands put each game in its own thread unless told otherwise.
    threads: bool = False
    #: Seconds a turn notice waits before it mentions the player (0: at once).
    notice_grace_seconds: float = 45.0
    #: Whether boards carry a picture.
    pictures: bool = True
    #: Open games a member may have started in the server (0: no limit).
    max_open_games: int = 5

    def lines(self) -> list[str]:
        """Return the settings in plain words, one line each (for /help and the command)."""
        grace = f"{self.notice_grace_seconds:g}"
        cap = self.max_open_games
        return [
            f"Votes stay open {self.vote_window_seconds:g} s",
            f"Each game in its own thread: {'on' if self.threads else 'off'}",
            "Turn notices: " + ("mention at once" if not self.notice_grace_seconds
                                else f"mention after {grace} s"),
            f"Board pictures: {'on' if self.pictures else 'off'}",
            "Open games per member: " + (f"{cap}" if cap else "no limit"),
        ]


    def summary(self) -> str:
        """Return the settings in one short line (for /help)."""
        grace = f"{self.notice_grace_seconds:g}"
        cap = self.max_open_games
        return " · ".join((
            f"Votes {self.vote_window_seconds:g} s",
            f"threads {'on' if self.threads else 'off'}",
            "turn notices " + ("at once" if not self.notice_grace_seconds
                               else f"after {grace} s"),
            f"pictures {'on' if self.pictures else 'off'}",
            f"{cap} open game{'' if cap == 1 else 's'} each" if cap else "no game limit",
        ))


#: The names a server may set.
SETTING_NAMES = tuple(f.name for f in fields(ServerSettings))


def resolve(defaults: ServerSettings, stored: Mapping[str, Any],
            guild_id: int | None = None) -> ServerSettings:
    """Return ``defaults`` with what a server (``guild_id``) stored (an absent name keeps
    its default, and so does a value that cannot be read: logged)."""
    chosen = {k: v for k, v in stored.items() if k in SETTING_NAMES and v is not None}
    typed: dict[str, Any] = {}
    for name, value in chosen.items():
        kind = type(getattr(defaults, name))
        try:
            typed[name] = kind(value)
        except (TypeError, ValueError):
            log.warning("server %s's stored setting %s cannot be read (%r): its default "
                        "applies", guild_id, name, value)
    return replace(defaults, **typed)


def checked(changes: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``changes`` typed for storage, or refuse a value out of bounds with its reason."""
    out: dict[str, Any] = {}
    for name, value in changes.items():
        if name not in SETTING_NAMES:
            raise Refusal(f"There is no setting called {name}.")
        if value is None or isinstance(value, bool):
            out[name] = value
            continue
        bounds = {"vote_window_seconds": ("The vote window", VOTE_WINDOW_BOUNDS),
                  "notice_grace_seconds": ("The turn-notice wait", NOTICE_GRACE_BOUNDS),
                  "max_open_games": ("The open-game limit", OPEN_GAMES_BOUNDS)}.get(name)
        if bounds is not None:
            what, (least, most) = bounds
            if not least <= value <= most:
                raise Refusal(f"{what} must be from {least} to {most}.")
        out[name] = int(value) if name == "max_open_games" else float(value)
    return out


class ServerBook:
    """Each server's settings, read from the store once and kept (see the module docstring)."""

    def __init__(self, store: GameStore, defaults: ServerSettings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self._defaults = defaults
        self._clock = clock
        self._known: dict[int, tuple[float, ServerSettings]] = {}
        #: What each server chose itself, as last read or stored by this process.
        self._chosen: dict[int, frozenset[str]] = {}

    @property
    def defaults(self) -> ServerSettings:
        """The bot's defaults (its .env), for whatever a server did not choose."""
        return self._defaults

    @defaults.setter
    def defaults(self, value: ServerSettings) -> None:
        self._defaults = value
        self._known.clear()  # every copy was resolved against the old defaults
        self._chosen.clear()

    def forget(self, guild_id: int) -> None:
        """Let go of a server the bot is no longer in (read again from the store if it
        comes back): a long-running bot keeps no copy per server it ever served."""
        self._known.pop(guild_id, None)
        self._chosen.pop(guild_id, None)

    def cached(self, guild_id: int | None) -> ServerSettings:
        """Return the server's settings as this process knows them, without reading."""
        if guild_id is None:
            return self.defaults
        known = self._known.get(guild_id)
        return known[1] if known is not None else self.defaults

    async def get(self, guild_id: int | None) -> ServerSettings:
        """Return the server's settings; read them only when this process has no fresh copy.

        A store that cannot be read gives the defaults (games still start) and is tried
        again on the next call.
        """
        if guild_id is None:
            return self.defaults
        known = self._known.get(guild_id)
        now = self._clock()
        if known is not None and now - known[0] < FRESH_SECONDS:
            return known[1]
        try:
            stored = await self.store.server_settings(guild_id)
        except StorageError:
            return known[1] if known is not None else self.defaults
        return self._keep(guild_id, stored, now)

    async def read_all(self) -> int:
        """Read every server's stored settings at once; return how many servers have any.

        A bot that has just started knows them all before its first move: a turn notice
        timed while a game moves (:meth:`cached`) follows its server's own wait from the
        first move after a restart, not the bot's default.
        """
        rows = await self.store.query(
            f"SELECT guild_id, {', '.join(SETTING_COLUMNS)} FROM server_settings")
        now = self._clock()
        for guild_id, *values in rows:
            self._keep(int(guild_id), settings_row(values), now)
        return len(rows)

    async def stored(self, guild_id: int) -> dict[str, Any]:
        """Return only what the server chose itself (read now), for showing it."""
        try:
            stored = await self.store.server_settings(guild_id)
        except StorageError as exc:
            raise Unavailable() from exc
        self._keep(guild_id, stored, self._clock())
        return stored

    def chosen(self, guild_id: int) -> frozenset[str]:
        """Return the names of the settings the server chose itself, as this process last
        read or stored them (after :meth:`change`: what the change left)."""
        return self._chosen.get(guild_id, frozenset())

    async def change(self, guild_id: int, changes: Mapping[str, Any]) -> ServerSettings:
        """Store a server's changes (None: back to the bot's default); return its settings.

        Refuse a value out of bounds, changing nothing.
        """
        values = checked(changes)
        try:
            stored = await self.store.set_server_settings(guild_id, values)
        except StorageError as exc:
            raise Unavailable() from exc
        return self._keep(guild_id, stored, self._clock())

    def _keep(self, guild_id: int, stored: Mapping[str, Any], now: float) -> ServerSettings:
        settings = resolve(self.defaults, stored, guild_id)
        self._known[guild_id] = (now, settings)
        self._chosen[guild_id] = frozenset(k for k, v in stored.items() if v is not None)
        return settings
