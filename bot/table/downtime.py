"""The time the bot was down is not idle time.

Each start notes the outage before it (from when the bot was last known alive to the
start) in a list of recent outages, which the ``meta`` table keeps across restarts (per
shard set, :meth:`bot.alive.AliveNotes.note_outage`). The idle sweep counts a game's idle
time without every outage since it was saved (:func:`idle_cutoffs`), so a second restart
does not forget the long outage before the first one. A turn timer does not run while
the bot is down either (:func:`down_between`): a seat is not handed to a computer for a
turn its player could not take.

The list keeps the outages that can still matter: those that ended less than
:data:`KEEP_SECONDS` (or the longest idle time, if longer) of running time ago, at most
:data:`MAX_KEPT` of them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

#: An outage: when it started (the bot last known alive) and how long it lasted, seconds.
Outage = tuple[float, float]

#: Outages are kept for at least this much running time after their end (8 days: longer
#: than the default idle times, the solo one being 7 days).
KEEP_SECONDS = 8 * 86400.0

#: At most this many outages are kept (the newest): a crash loop of short runs does not
#: grow the list without end.
MAX_KEPT = 1000


def merged(outages: Iterable[Outage]) -> list[Outage]:
    """Return ``outages`` oldest first, overlapping ones joined, and those that are not
    finite or not longer than zero left out."""
    spans = sorted((s, s + n) for s, n in outages
                   if math.isfinite(s) and math.isfinite(n) and n > 0)
    joined: list[list[float]] = []
    for start, end in spans:
        if joined and start <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        else:
            joined.append([start, end])
    return [(start, end - start) for start, end in joined]


def idle_cutoffs(now: float, idle_seconds: Mapping[str, float],
                 outages: Sequence[Outage] = ()) -> dict[str, float]:
    """Return the idle sweep's cutoff of each group (``updated_at`` before it: idle) for
    ``idle_seconds`` (group to idle time), leaving out the time the bot was down.

    A game idle only because nobody could play it must not end: its idle time is the
    time the bot ran since it was saved, without any of ``outages``. Each cutoff is found
    by walking back from ``now`` until the bot has run for the idle time: every outage
    after the cutoff moves it back by the outage's length (a cutoff exactly at an
    outage's end is moved too).
    """
    newest_first = merged(outages)[::-1]
    cutoffs = {}
    for group, idle in idle_seconds.items():
        at, left = now, idle  # walking back from ``at``: ``left`` running time to go
        for start, length in newest_first:
            ran = max(0.0, at - (start + length))
            if ran > left:
                break
            left -= ran
            at = min(at, start)
        cutoffs[group] = at - left
    return cutoffs


def down_between(outages: Iterable[Outage], start: float, end: float) -> float:
    """Return how long the bot was down between ``start`` and ``end`` (seconds): the
    part of ``outages`` (joined) inside that span."""
    return sum(max(0.0, min(end, s + n) - max(start, s)) for s, n in merged(outages))


def kept(outages: Iterable[Outage], now: float,
         keep_seconds: float = KEEP_SECONDS) -> list[Outage]:
    """Return ``outages`` (joined, oldest first) without those that ended more than
    ``keep_seconds`` of running time before ``now``: no idle cutoff reaches back past
    them. At most the :data:`MAX_KEPT` newest are kept."""
    newest_first = merged(outages)[::-1]
    at, ran = now, 0.0
    keep: list[Outage] = []
    for start, length in newest_first:
        ran += max(0.0, at - (start + length))
        if ran > keep_seconds or len(keep) == MAX_KEPT:
            break
        keep.append((start, length))
        at = min(at, start)
    return keep[::-1]


def dumps(outages: Sequence[Outage]) -> str:
    """Return ``outages`` as the ``meta`` table keeps them (JSON pairs)."""
    return json.dumps([[start, length] for start, length in outages])


def loads(raw: str | None) -> list[Outage]:
    """Read outages kept by :func:`dumps` (None: none noted yet); raise ValueError if
    ``raw`` is damaged."""
    if raw is None:
        return []
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if not isinstance(data, list):
        raise ValueError("not a list")
    outages = []
    for item in data:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool)
                           and math.isfinite(x) for x in item)):
            raise ValueError(f"not a pair of times: {item!r}")
        outages.append((float(item[0]), float(item[1])))
    return outages


class StorageTrouble:
    """The time the store could not be written while the bot ran: not idle time either.

    A database out of reach (or refusing writes: read-only, a full disk) refuses every
    click, so a turn timer must not run through it, nor an idle time. A failed read or
    write opens a span (:meth:`failed`), and each later failure stretches it; the next
    write that works closes it (:meth:`worked`). An open span counts up to its last
    failure, so a timer that fires as the store comes back is put off by it before the
    save that would end the turn.
    """

    def __init__(self) -> None:
        self._since: float | None = None
        self._last = 0.0
        #: The failures of the open span.
        self.failures = 0
        #: Closed spans not yet handed on to the list of outages (:meth:`take_closed`).
        self._closed: list[Outage] = []

    def failed(self, now: float) -> bool:
        """Note that a read or a write of the store failed at ``now``; return whether it
        is the first failure of a span (the one worth a line in the log)."""
        first = self._since is None
        if first:
            self._since, self.failures = now, 0
        self.failures += 1
        self._last = max(self._last, now)
        return first

    def worked(self) -> Outage | None:
        """Note that a write of the store worked: the span open, if any, is over; return
        it (None if none was open)."""
        if self._since is None:
            return None
        span = (self._since, self._last - self._since)
        self._closed.append(span)
        self._since = None
        return span

    def outages(self) -> list[Outage]:
        """Return the spans not yet handed on, the open one included (to its last
        failure)."""
        if self._since is None:
            return list(self._closed)
        return [*self._closed, (self._since, self._last - self._since)]

    def take_closed(self) -> list[Outage]:
        """Return the closed spans, handed on: they count from now on as outages kept
        with the others (:meth:`bot.alive.AliveNotes.note_outage`)."""
        closed, self._closed = self._closed, []
        return closed


#: How often the running bot looks at the clock at the least (its notes of being alive,
#: :data:`bot.restart.ALIVE_SECONDS`).
LOOK_SECONDS = 30.0
#: Two looks at the clock further apart than this: the process stood still in between
#: (for all of it but the :data:`LOOK_SECONDS` it may have run). A gateway connection out
#: for longer than this is a pause too.
STILL_SECONDS = 2 * LOOK_SECONDS


def machine_clock() -> float:
    """Seconds on the machine's own clock: it counts the time the machine slept and
    never jumps with the wall clock (Linux's boot time; elsewhere the monotonic clock)."""
    if hasattr(time, "CLOCK_BOOTTIME"):
        return time.clock_gettime(time.CLOCK_BOOTTIME)
    return time.monotonic()


class Pauses:
    """The times the bot ran but nobody could play, besides the store's trouble: its
    process stood still (the machine asleep, the process or its virtual machine frozen,
    the event loop blocked) or Discord's gateway was out of reach. Not idle time either.

    The running bot looks at ``ticks`` (a clock that counts the time the machine slept
    and never jumps with the wall clock) at least every :data:`LOOK_SECONDS` (its notes of
    being alive) and before it ends a turn or idle games; two looks more than
    :data:`STILL_SECONDS` apart find that it stood still in between. A gateway connection
    that dropped counts until it is back, and is kept as a pause if it was out longer
    than :data:`STILL_SECONDS` (a brief reconnect is not). Found pauses are kept here
    until handed on to the list of outages (:meth:`take`), as :class:`StorageTrouble`'s
    spans are.
    """

    def __init__(self, ticks: Callable[[], float] = machine_clock) -> None:
        self.ticks = ticks
        self._last: float | None = None
        self._found: list[Outage] = []
        #: When each gateway connection (a shard) out now dropped.
        self._out: dict[int, float] = {}

    def look(self, now: float) -> None:
        """Look at the clock at ``now`` (the wall clock): if the last look was more than
        :data:`STILL_SECONDS` ago, the process stood still since, for all of it but
        :data:`LOOK_SECONDS`: a pause, ending now."""
        tick = self.ticks()
        last, self._last = self._last, tick
        if last is not None and tick - last > STILL_SECONDS:
            still = tick - last - LOOK_SECONDS
            self._found.append((now - still, still))

    def dropped(self, connection: int, at: float) -> None:
        """Note that the gateway connection ``connection`` (a shard's id) dropped at
        ``at`` (a second drop before it is back changes nothing)."""
        self._out.setdefault(connection, at)

    def back(self, connection: int, now: float) -> float | None:
        """The gateway connection ``connection`` is back at ``now``: one out longer than
        :data:`STILL_SECONDS` was a pause. Return when it dropped (None: it had not)."""
        at = self._out.pop(connection, None)
        if at is not None and now - at > STILL_SECONDS:
            self._found.append((at, now - at))
        return at

    def stopping(self, now: float) -> None:
        """At a stop: the connections out are out until ``now`` (the next start counts
        the time from then)."""
        for connection in list(self._out):
            self.back(connection, now)

    def outages(self, now: float) -> list[Outage]:
        """Return the pauses not yet handed on, and each connection out until ``now``."""
        return [*self._found, *((at, now - at) for at in self._out.values())]

    def take(self) -> list[Outage]:
        """Return the pauses found, handed on: they count from now on as outages kept
        with the others (:meth:`bot.alive.AliveNotes.note_outage`); a connection still
        out is not, until it is back."""
        found, self._found = self._found, []
        return found
