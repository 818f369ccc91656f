"""When the bot was last alive, its recent outages, and the board redraw a start owes:
notes in the store's ``meta`` table that outlive the process.

The running bot notes every little while that it is alive (:meth:`AliveNotes.note_alive`,
per shard when it is sharded), so a start knows how long the bot was down: the time a
turn timer or an idle game does not count (:mod:`bot.table.downtime`), and from when the
boards may show less than their games (the redraw owed, kept until it is done). A note
that cannot be read or is damaged counts as unknown, with a warning; none stops the bot.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable

from bot.table import downtime
from bot.table.downtime import Outage
from db.base import GameStore
from db.errors import StorageError

log = logging.getLogger(__name__)

#: The ``meta`` keys of when the bot was last alive (any process) and of its recent
#: outages (every process's). A sharded bot also notes when each shard was last served,
#: under this name and the shard (:attr:`AliveNotes.alive_keys`).
ALIVE, OUTAGES = "alive", "outages"
#: The ``meta`` key of the bot's shard layout, and when the bot was last alive before it
#: (:meth:`AliveNotes._layout_change`).
LAYOUT = "shard_layout"
#: How long after a change of the shard count a process with no note for its shards takes
#: them as last served before the change (the new count's processes start by then).
NEW_LAYOUT_SECONDS = 3600.0


class AliveNotes:
    """One process's notes of being alive, over the store (see the module docstring).

    ``shards`` are the process's shards and the shard count (None: not sharded);
    ``keep_seconds`` how far back outages are kept (as far as any idle cutoff reaches).
    """

    def __init__(self, store: GameStore, clock: Callable[[], float],
                 shards: tuple[tuple[int, ...], int] | None, keep_seconds: float) -> None:
        self.store = store
        self.clock = clock
        self.shards = shards
        self.keep_seconds = keep_seconds

    def _meta_key(self, name: str) -> str:
        """Return the ``meta`` key ``name`` of this process's shards."""
        shards = self.shards
        if shards is None:
            return name
        return f"{name}:{'-'.join(str(i) for i in shards[0])}/{shards[1]}"

    @property
    def alive_keys(self) -> list[str]:
        """The ``meta`` keys of when each of this process's shards was last served
        (:data:`ALIVE` alone when the bot is not sharded): a shard's key is the same
        whichever process serves it."""
        shards = self.shards
        if shards is None:
            return [ALIVE]
        ids, count = shards
        return [f"{ALIVE}:{i}/{count}" for i in ids]

    @property
    def redraw_key(self) -> str:
        """The ``meta`` key of the start of the redraw still owed to this process's shards
        (empty when none is)."""
        return self._meta_key("redraw_since")

    async def owed_redraw(self, since: float | None) -> float | None:
        """Return from when the boards are to be redrawn at this start: the older of
        ``since`` (this start's window, None if there is none) and the window a start
        before left unfinished, and store it as owed until the redraw is done
        (:meth:`redraw_done`). A stored value that cannot be read or is damaged
        counts as none (a warning); one that cannot be stored is a warning too."""
        owed = await self._meta_time(self.redraw_key, "the board redraw still owed")
        if owed is not None:
            since = owed if since is None else min(since, owed)
        if since is not None and since != owed:
            try:
                await self.store.set_meta(self.redraw_key, repr(since))
            except StorageError as exc:
                log.warning("could not store the board redraw owed: %s", exc)
        return since

    async def recall_alive(self) -> float | None:
        """Return when this process's shards were last served (the oldest of their notes:
        each shard's downtime is at least that long); a time later than now is taken as
        now (a clock that ran ahead).

        Every process notes when each of its shards was last served, and when the whole
        bot was (:data:`ALIVE`). A shard's note is the one to read unless it is older
        than the last change of the shard count (a count used before may come back, its
        notes old): then the shards were last served when the bot was last alive before
        the change (:meth:`_layout_change`). With no note for any of its shards, the
        process reads the note of its shards as one (an older release's), else that
        time too while the change is new (the other processes of a new count start
        within moments), else when the whole bot was last alive."""
        what = "when the bot was last alive"
        now = self.clock()
        whole = await self._meta_time(ALIVE, what)
        whole = None if whole is None else min(whole, now)
        change, noted = await self._layout_change(whole, now)
        if self.shards is None:
            return whole
        notes = [note for note in [await self._meta_time(key, what) for key in self.alive_keys]
                 if note is not None]
        if not notes:
            older = await self._meta_time(self._meta_key(ALIVE), what)
            notes = [] if older is None else [older]
        if notes:
            oldest = min(*notes, now)
            return oldest if change is None or oldest >= change else change
        if change is not None and noted is not None and now - noted <= NEW_LAYOUT_SECONDS:
            return change
        return whole

    async def _layout_change(self, whole: float | None,
                             now: float) -> tuple[float | None, float | None]:
        """Return when the bot was last alive before its shard count (or its being
        unsharded) last changed, and when that change was noted; (None, None) when no
        change is known. The first start after a change notes it (:data:`LAYOUT`: the
        layout, then "@" and each time). A noted time that is damaged or later than
        ``now`` is noted again as no change known."""
        layout = "unsharded" if self.shards is None else f"{self.shards[1]} shards"
        try:
            raw = await self.store.get_meta(LAYOUT) or ""
        except StorageError as exc:
            log.warning("could not read the bot's shard layout: %s", exc)
            return None, None
        noted_layout, *times = raw.split("@")
        change: float | None = None
        noted: float | None = now
        if noted_layout == layout:
            try:
                change, noted = (float(t) if t else None for t in (*times, "", "")[:2])
            except ValueError:
                change = math.nan
            if change is None or (math.isfinite(change) and change <= now):
                return change, noted
            log.warning("the shard layout's time is unreadable (%r): noted again", raw[:60])
            change = None
        elif raw:  # another layout was noted: this start is the change (none noted: none known)
            change = whole
        if change is None:
            noted = None
        value = "" if change is None else f"{change!r}@{noted!r}"
        try:
            await self.store.set_meta(LAYOUT, f"{layout}@{value}")
        except StorageError as exc:
            log.warning("could not store the bot's shard layout: %s", exc)
        return change, noted

    async def _meta_time(self, key: str, what: str) -> float | None:
        """Return the time stored in ``meta`` under ``key``, or None when there is none
        (nothing or an empty value stored); one that cannot be read, or is not a finite
        number, is None too, with a warning naming ``what`` it is."""
        try:
            raw = await self.store.get_meta(key)
        except StorageError as exc:
            log.warning("could not read %s (taken as unknown): %s", what, exc)
            return None
        if not raw:
            return None
        try:
            value = float(raw)
        except ValueError:
            value = math.nan
        if not math.isfinite(value):
            log.warning("%s is unreadable (%r): taken as unknown", what, raw[:40])
            return None
        return value

    async def note_outage(self, last_alive: float | None, started: float) -> list[Outage]:
        """Return the bot's recent outages (:mod:`bot.table.downtime`), the one that ends
        at this start added (from ``last_alive``, if known), and store this process's for
        the next starts. Each process keeps its shards' own list (:data:`OUTAGES` and its
        shards, so that two processes starting at once never write over each other's);
        the outages returned are every list's, so a game's downtime is never less than
        its process's (more, by another process's, on the safe side). Those no idle
        cutoff reaches back to are left out. A list that cannot be read or is damaged
        counts as none, and one that cannot be stored is a warning: neither stops the
        bot."""
        key = self._meta_key(OUTAGES)
        stored = await self._outages(key)
        own = list(stored or [])
        if last_alive is not None:
            own.append((last_alive, started - last_alive))
            own = downtime.kept(own, started, self.keep_seconds)
            if stored is None:  # not read: writing the new one alone would lose the rest
                log.warning("the bot's recent outages could not be read: the new one is "
                            "not stored")
            else:
                try:
                    await self.store.set_meta(key, downtime.dumps(own))
                except StorageError as exc:
                    log.warning("could not store the bot's recent outages: %s", exc)
        try:
            rows = await self.store.query(
                "SELECT key FROM meta WHERE key = :bare OR key LIKE :sharded",
                {"bare": OUTAGES, "sharded": f"{OUTAGES}:%"})
        except StorageError as exc:
            log.warning("could not read the other processes' outages (taken as none): %s",
                        exc)
            rows = []
        outages = list(own)
        for (other,) in rows:
            if other != key:
                outages += await self._outages(str(other)) or []
        return downtime.kept(sorted(set(outages)), started, self.keep_seconds)

    async def _outages(self, key: str) -> list[Outage] | None:
        """Return the outages stored under ``key``: none when they are damaged (a
        warning), None when they cannot be read now (a warning)."""
        try:
            raw = await self.store.get_meta(key)
        except StorageError as exc:
            log.warning("could not read the bot's recent outages (taken as none): %s", exc)
            return None
        try:
            return downtime.loads(raw)
        except ValueError as exc:
            log.warning("the bot's recent outages are damaged (taken as none): %s", exc)
            return []

    async def note_alive(self) -> StorageError | None:
        """Store that the bot is alive now; return the failure when it could not (the
        caller notes it with the store's other failures: see
        :meth:`bot.table.core.TableCore.storage_failed`), else None."""
        try:
            now = repr(self.clock())
            for key in {*self.alive_keys, ALIVE}:
                await self.store.set_meta(key, now)
        except StorageError as exc:
            log.debug("could not note that the bot is alive: %s", exc)
            return exc
        return None

    async def redraw_done(self) -> None:
        """Note that the board redraw owed is done (a failure is a warning)."""
        try:
            await self.store.set_meta(self.redraw_key, "")
        except StorageError as exc:
            log.warning("could not note that the board redraw is done: %s", exc)
