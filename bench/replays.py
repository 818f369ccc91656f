"""Benchmark: drawing the replay of the longest game of each kind, and the event loop meanwhile.

For each kind, many seeds are played to the end (the computer player on even seeds, a
random legal move on odd ones) and the game with the most moves is kept. Its replay is
drawn the way the bot draws one (:mod:`bot.boards.replay`): rebuilt in the drawing
process, its frames drawn there a chunk at a time, then animated there, while a 5 ms
ticker notes how late the event loop wakes (first with nothing drawn, for the
machine's own load). Prints, per kind: the moves, the wall time, the CPU time the
bot's own process spent meanwhile (all its threads), the GIF's size and frame size,
and the ticker's lateness.

Run from the repository root: ``python -m bench.replays [--seeds 40] [--seats 5]``.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import time
from typing import Any

from PIL import Image

from bench.common import machine, percentile, table
from bench.picture_loop import ticker as late_ticker
from bot.boards.replay import CHUNK
from bot.games.registry import engine
from bot.pictures.cache import PictureCache
from bot.pictures.drawing import PictureDrawer
from bot.pictures.replay import UPLOAD_LIMIT, animate, draw_frames
from bot.table.replay import ReplayRequest, frames


def play(kind: str, seed: int, seats: int) -> ReplayRequest:
    """Play one game of ``kind`` to its end; return its replay request."""
    game = engine(kind)
    options: dict[str, Any] = {}
    state = game.new(seed, seats, options)
    chooser = random.Random(seed)
    moves: list[tuple[int, str]] = []
    while not game.is_over(state):
        seat = game.to_act(state)
        assert seat is not None
        legal = [a.id for a in game.legal_actions(state, seat) if a.id != "resign"]
        action = (chooser.choice(legal) if seed % 2 and legal
                  else game.computer_action(state, seat))
        moves.append((seat, action))
        state = game.apply(state, seat, action).state
    return ReplayRequest(seed, kind, game.dump(state), seats, options, tuple(moves), "over")


def longest(kind: str, seeds: int, seats: int) -> ReplayRequest:
    """The game with the most moves among ``seeds`` seeds."""
    return max((play(kind, seed, seats) for seed in range(1, seeds + 1)),
               key=lambda r: len(r.moves))


async def draw(drawer: PictureDrawer, request: ReplayRequest) -> bytes:
    """Draw the replay as the bot does: rebuilt, drawn in chunks and animated in the worker."""
    shown = await drawer.run(frames, request)
    pngs: list[bytes] = []
    for start in range(0, len(shown), CHUNK):
        chunk = [(f.view, f.status) for f in shown[start:start + CHUNK]]
        pngs += await drawer.run(draw_frames, request.kind, chunk)
    return await drawer.run(animate, pngs)


async def idle(seconds: float) -> list[str]:
    """The ticker's lateness with nothing drawn: what the machine's load alone costs."""
    stop = asyncio.Event()
    late: list[float] = []
    ticker = asyncio.create_task(late_ticker(stop, late))
    await asyncio.sleep(seconds)
    stop.set()
    await ticker
    return ["nothing drawn", "-", f"{seconds:.2f}", "-", "-", "-", f"{percentile(late, 0.99):.1f}",
            f"{max(late):.1f}", "-"]


async def main_async(seeds: int, seats: int) -> None:
    """Find each kind's longest game, draw its replay, print the figures."""
    drawer = PictureDrawer(PictureCache(1))
    await drawer.draw("tinker", {"warm": True}, "active")
    rows = [await idle(3.0)]
    for kind, count in (("tinker", 1), ("tinrealm", 1), ("steam", 3), ("steam", seats)):
        request = longest(kind, seeds, count)
        stop = asyncio.Event()
        late: list[float] = []
        ticker = asyncio.create_task(late_ticker(stop, late))
        start, cpu = time.perf_counter(), time.process_time()
        gif = await draw(drawer, request)
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        stop.set()
        await ticker
        size = Image.open(io.BytesIO(gif)).size
        name = kind if count == 1 else f"{kind}, {count} seats"
        rows.append([name, len(request.moves), f"{spent:.2f}", f"{cpu * 1000:.0f}",
                     f"{len(gif) / 1e6:.2f}",
                     f"{size[0]}×{size[1]}", f"{percentile(late, 0.99):.1f}",
                     f"{max(late):.1f}", "yes" if len(gif) <= UPLOAD_LIMIT else "NO"])
    await drawer.close()
    print(machine())
    print(f"the longest of {seeds} games per kind; a ticker every 5 ms\n")
    print(table(["game", "moves", "draw s", "bot CPU ms", "MB", "frame px", "late p99 ms",
                 "late max ms", "fits 10 MiB"], rows))


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description="Replay draw time and size.")
    parser.add_argument("--seeds", type=int, default=40, help="games played per kind")
    parser.add_argument("--seats", type=int, default=5, help="seats of the larger Steam game")
    args = parser.parse_args()
    asyncio.run(main_async(args.seeds, args.seats))


if __name__ == "__main__":
    main()
