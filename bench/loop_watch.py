"""What the storage drills measure while they run: the event loop's longest block and
the process's resident memory.

A task sleeps 1 ms again and again and records the longest gap between two of its
wake-ups beyond that millisecond (how long something kept the loop busy, in wall time),
the most CPU time the loop's thread spent within one gap (the work itself, without the
time the machine's other processes or this process's other threads held the core or
the GIL), and samples the resident set size (``/proc/self/statm``) at each wake-up.

On a shared machine a loop with nothing to do is kept waiting too, by the other
processes: :class:`Control` runs such an idle loop in a separate process while a drill
runs, so that each figure can be read against what the machine alone causes.

    .venv/bin/python -m bench.loop_watch      # an idle loop's longest block, until ^C
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
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
        #: The CPU time the whole process (every thread) used within the longest gap, in
        #: ms: near the gap, this process's own threads held the loop; far below it, the
        #: machine's other processes had the cores.
        self.longest_process_ms = 0.0
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

    def detail(self) -> str:
        """Return "longest block (loop-thread CPU; whole-process CPU in it)" in ms."""
        return (f"{self.longest_ms:.1f} ({self.longest_cpu_ms:.1f}; "
                f"process {self.longest_process_ms:.1f})")

    async def _watch(self) -> None:
        last, last_cpu, last_all = time.perf_counter(), time.thread_time(), time.process_time()
        while not self._stop:
            await asyncio.sleep(self.tick)
            now, cpu, every = time.perf_counter(), time.thread_time(), time.process_time()
            gap = (now - last - self.tick) * 1000
            if gap > self.longest_ms:
                self.longest_ms = gap
                self.longest_process_ms = (every - last_all) * 1000
            self.longest_cpu_ms = max(self.longest_cpu_ms, (cpu - last_cpu) * 1000)
            self.peak_mb = max(self.peak_mb, rss_mb())
            last, last_cpu, last_all = (time.perf_counter(), time.thread_time(),
                                        time.process_time())

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


class Control:
    """``with Control() as control:`` runs an idle event loop in another process for the
    block's duration; ``control.longest_ms`` is the longest that loop was kept waiting
    (the machine's share of any block measured meanwhile)."""

    def __init__(self) -> None:
        self.longest_ms = 0.0
        self._process: subprocess.Popen[str] | None = None

    def __enter__(self) -> Control:
        self._process = subprocess.Popen(
            [sys.executable, "-m", "bench.loop_watch"], stdout=subprocess.PIPE, text=True)
        assert self._process.stdout is not None
        self._process.stdout.readline()  # "watching": its loop runs
        return self

    def __exit__(self, *_exc: object) -> None:
        assert self._process is not None
        self._process.terminate()
        out, _ = self._process.communicate(timeout=10)
        figures = [float(line) for line in out.split() if line.replace(".", "", 1).isdigit()]
        self.longest_ms = max(figures, default=0.0)


async def _idle() -> None:
    """Print the longest block of an idle loop each time it grows, until terminated."""
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    watch = LoopWatch()
    async with watch:
        print("watching", flush=True)
        shown = -1.0
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.05)
            if watch.longest_ms > shown:
                shown = watch.longest_ms
                print(f"{shown:.1f}", flush=True)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_idle())
