"""CPU clocks for the benchmarks: each thread of this process, and its helper processes.

:class:`CpuClock` reads the CPU clock of every Python thread of this process
(``time.pthread_getcpuclockid``: the event loop's thread, the database threads, the
executors) and the CPU time of this process's descendant processes (a picture worker
and the process that forks it), except the ones it is told to leave out (the fake
Discord, whose work is Discord's, not the bot's). A descendant's time comes from
``/proc/<pid>/stat`` (clock ticks: 10 ms each, so only long phases read it well).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field

_TICK = os.sysconf("SC_CLK_TCK")


def thread_seconds() -> dict[int, float]:
    """Return the CPU seconds of each live Python thread of this process, by its ident."""
    seconds = {}
    for thread in threading.enumerate():
        if thread.ident is None:
            continue
        try:
            seconds[thread.ident] = time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
        except (OSError, ProcessLookupError):  # the thread ended meanwhile
            continue
    return seconds


def _stat(pid: int) -> tuple[int, float] | None:
    """Return (parent pid, CPU seconds) of process ``pid``, or None if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            text = stat.read()
    except OSError:
        return None
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def descendant_seconds(leave_out: Iterable[int] = ()) -> dict[int, float]:
    """Return the CPU seconds of each descendant process of this one, by pid, without
    the processes in ``leave_out`` and their own descendants."""
    stats = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            found = _stat(int(name))
            if found is not None:
                stats[int(name)] = found
    skipped = set(leave_out)
    mine = {os.getpid()}
    grown = True
    while grown:
        grown = False
        for pid, (parent, _) in stats.items():
            if parent in mine and pid not in mine and pid not in skipped:
                mine.add(pid)
                grown = True
    return {pid: stats[pid][1] for pid in mine if pid != os.getpid()}


@dataclass
class CpuSpent:
    """CPU seconds spent between two readings of a :class:`CpuClock`."""

    loop: float = 0.0
    """The thread the clock was started on (the event loop's)."""
    threads: float = 0.0
    """Every other thread of this process."""
    processes: float = 0.0
    """The descendant processes counted (picture workers)."""

    @property
    def total(self) -> float:
        """All of it."""
        return self.loop + self.threads + self.processes


@dataclass
class CpuClock:
    """Started on the event loop's thread; :meth:`spent` says what every counted thread
    and process used since."""

    leave_out: list[int] = field(default_factory=list)
    _loop: int = 0
    _threads: dict[int, float] = field(default_factory=dict)
    _processes: dict[int, float] = field(default_factory=dict)

    def start(self) -> None:
        """Read every clock now."""
        self._loop = threading.get_ident()
        self._threads = thread_seconds()
        self._processes = descendant_seconds(self.leave_out)

    def spent(self) -> CpuSpent:
        """Return the CPU used since :meth:`start` (a thread or process new since counts
        from zero; one that ended meanwhile is lost)."""
        threads = thread_seconds()
        processes = descendant_seconds(self.leave_out)
        spent = CpuSpent()
        for ident, now in threads.items():
            used = now - self._threads.get(ident, 0.0)
            if ident == self._loop:
                spent.loop += used
            else:
                spent.threads += used
        spent.processes = sum(now - self._processes.get(pid, 0.0)
                              for pid, now in processes.items())
        return spent
