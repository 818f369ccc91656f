"""Benchmark: how late the event loop runs while board pictures are drawn.

A ticker wakes every 5 ms and notes how late it woke; meanwhile a stream of board
pictures is drawn, either in a thread (``asyncio.to_thread(draw_picture, ...)``, which
holds the GIL while Pillow and Python code run) or through
:class:`bot.pictures.drawing.PictureDrawer` (one worker process). Prints the ticker's
median, p99 and largest lateness for each way, and the pictures drawn per second.

Run from the repository root: ``python -m bench.picture_loop [--pictures 300]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bench.common import machine, percentile, table
from bench.pictures import SEATS, views
from bot.pictures import draw_picture
from bot.pictures.cache import PictureCache
from bot.pictures.drawing import PictureDrawer

TICK = 0.005
"""The ticker's period in seconds."""


async def ticker(stop: asyncio.Event, late: list[float],
                 busy: list[float] | None = None) -> None:
    """Wake every :data:`TICK` until ``stop`` is set; add how late each wake-up was (ms).

    With ``busy``, also add for each wake-up how much of its lateness the loop's own
    thread spent working (its CPU time since the last wake-up beyond the tick, ms): the
    lateness the machine's other processes cannot have caused.
    """
    loop = asyncio.get_running_loop()
    cpu = time.thread_time()
    while not stop.is_set():
        wanted = loop.time() + TICK
        await asyncio.sleep(TICK)
        lateness = max(0.0, loop.time() - wanted)
        late.append(lateness * 1000)
        if busy is not None:
            now = time.thread_time()
            busy.append(min(lateness, max(0.0, now - cpu - TICK)) * 1000)
            cpu = now


async def _run(draw: Callable[[str, Any, str], Awaitable[bytes]],
               boards: list[tuple[str, Any, str]]) -> tuple[list[float], float]:
    stop = asyncio.Event()
    late: list[float] = []
    watch = asyncio.create_task(ticker(stop, late))
    start = time.perf_counter()
    for kind, view, status in boards:
        await draw(kind, view, status)
    spent = time.perf_counter() - start
    stop.set()
    await watch
    return late, len(boards) / spent


async def main_async(count: int) -> None:
    """Draw ``count`` boards each way and print the ticker's lateness."""
    boards = []
    for kind in SEATS:
        boards += [(kind, v, s) for v, s in views(kind, 1, False, SEATS[kind])]
    boards = boards[:: max(1, len(boards) // count)][:count]

    async def in_thread(kind: str, view: Any, status: str) -> bytes:
        return await asyncio.to_thread(draw_picture, kind, view, status)

    drawer = PictureDrawer(PictureCache(1))
    await drawer.draw("tinker", {"warm": True}, "active")
    rows = []
    for name, draw in (("thread", in_thread), ("worker process", drawer.draw)):
        late, rate = await _run(draw, boards)
        rows.append([name, len(boards), f"{statistics.median(late):.2f}",
                     f"{percentile(late, 0.99):.2f}", f"{max(late):.2f}", f"{rate:.0f}"])
    await drawer.close()
    print(machine())
    print(f"{len(boards)} pictures drawn one after another; a ticker every {TICK * 1000:.0f} ms\n")
    print(table(["drawing in", "pictures", "late median ms", "late p99 ms", "late max ms",
                 "pictures/s"], rows))


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description="Event loop lateness while drawing.")
    parser.add_argument("--pictures", type=int, default=300, help="pictures each way")
    asyncio.run(main_async(parser.parse_args().pictures))


if __name__ == "__main__":
    main()
