"""What the storage drills measure while they run: the event loop's longest block and
the process's resident memory.

A task sleeps 1 ms again and again and records the longest gap between two of its
wake-ups beyond that millisecond (how long something kept the loop busy, in wall time),
the most CPU time the loop's thread spent within one gap (the work itself, without the
time the machine's other processes or this process's other threads held the core or
the GIL), and samples the resident set size (``/proc/self/statm``) at each wake-up.
"""

from __future__ import annotations

import asyncio
import os
import time
from types import TracebackType

_PAGE = os.sysconf("SC_PAGE_SIZE")


def rss_mb() -> float:
    """Return this process's resident set size now, in MB."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * _PAGE / 1e6


class LoopWatch:
    """``async with LoopWatch() as watch:`` measures the block inside it."""

    def __init__(self, tick: float = 0.001) -> None:
        self.tick = tick
        #: The longest time the loop did not run the watch beyond its tick, in ms.
        self.longest_ms = 0.0
        #: The most CPU time the loop's thread used within one such gap, in ms.
        self.longest_cpu_ms = 0.0
        #: Resident memory when the watch started, and the most seen since, in MB.
        self.start_mb = 0.0
        self.peak_mb = 0.0
        self._task: asyncio.Task[None] | None = None
        self._stop = False

    @property
    def grew_mb(self) -> float:
        """How much the resident memory grew above its start, at most, in MB."""
        return self.peak_mb - self.start_mb

    def summary(self) -> str:
        """Return "longest block (its loop-thread CPU)" in ms, as the drills print it."""
        return f"{self.longest_ms:.1f} ({self.longest_cpu_ms:.1f})"

    async def _watch(self) -> None:
        last, last_cpu = time.perf_counter(), time.thread_time()
        while not self._stop:
            await asyncio.sleep(self.tick)
            now, cpu = time.perf_counter(), time.thread_time()
            self.longest_ms = max(self.longest_ms, (now - last - self.tick) * 1000)
            self.longest_cpu_ms = max(self.longest_cpu_ms, (cpu - last_cpu) * 1000)
            self.peak_mb = max(self.peak_mb, rss_mb())
            last, last_cpu = time.perf_counter(), time.thread_time()

    async def __aenter__(self) -> LoopWatch:
        self.start_mb = self.peak_mb = rss_mb()
        self._task = asyncio.create_task(self._watch())
        await asyncio.sleep(self.tick * 2)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        self._stop = True
        if self._task is not None:
            await self._task
        self.peak_mb = max(self.peak_mb, rss_mb())
