"""Benchmark: many voting windows closing at once while other games are being clicked.

``python -m bench.votes [--windows 1000] [--games 20] [--seconds 3]``, from the
repository root. The real bot (``TableBot`` with the Tinker cog) runs in this process
over a fresh SQLite file (or ``--backend postgresql``), logged in to the benchmark fake
Discord in its own process, exactly as in ``bench/clicks.py``; the bot's clock is this
benchmark's, so it can jump.

1. ``--windows`` games are started with ``/tinker start`` and a 600-second window; in
   each, the starter makes the first decision alone and another member then votes
   (through ``Tables.act``, without Discord), so every one of them has an open window
   stored in ``games.deadline``;
2. ``--games`` other games are started and clicked without pause, one click in flight
   per game (the clicking member decides alone: each click is a move), while a probe
   task sleeps 1 ms over and over and notes how late it wakes (the event loop's longest
   blocks). First for ``--seconds`` with nothing else going on;
3. then the clock jumps past every window at once and the bot's own deadline loop
   (``bot/table/deadlines.py``) is woken: it closes every window (the plurality's move, saved),
   and the boards are edited. The clicks and the probe go on until every board is edited.

Printed: how long closing every window took and windows closed per second (until the
loop had fired them all, and until every board edit was made), the clicks' p50 and p99
and the probe's longest and p99 lateness, before and during the closing, and the
requests the fake received.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bench.clicks import (
    EDIT_TASKS,
    Bench,
    backend_for,
    logged_in_bot,
    ms,
    postgres_server,
    running_fake,
)
from bench.common import machine, percentile, table
from bot.client import TableBot
from bot.table import polls
from bot.table.service import Actor

WINDOW = 600
"""The voting window of the closing games, in seconds (the longest allowed)."""


class JumpClock:
    """The bot's clock: the wall clock plus an offset the benchmark can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        """Return the current (possibly jumped) time in seconds since the epoch."""
        return time.time() + self.offset


@dataclass
class Phase:
    """What was seen during one phase: clicks' latencies and the probe's lateness."""

    clicks: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)

    def row(self, name: str) -> list[object]:
        """Return this phase's table row."""
        if not self.clicks:
            return [name, 0, "—", "—", ms(max(self.lags, default=0.0)), "—"]
        return [name, len(self.clicks), ms(statistics.median(self.clicks)),
                ms(percentile(self.clicks, 0.99)), ms(max(self.lags, default=0.0)),
                ms(percentile(self.lags, 0.99)) if self.lags else "—"]


@dataclass
class Outcome:
    """The figures of one run."""

    windows: int
    games: int
    backend: str
    opened_seconds: float = 0.0
    fired_seconds: float = 0.0
    edited_seconds: float = 0.0
    fired: int = 0
    still_open: int = 0
    before: Phase = field(default_factory=Phase)
    during: Phase = field(default_factory=Phase)
    requests: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0


def playable(game: Any) -> str:
    """Return a legal action of seat 0 that needs no confirmation (a plain move)."""
    for action in game.engine.legal_actions(game.state, 0):
        if action.id not in polls.CONFIRMED_MOVES and not action.id.startswith("ask."):
            return str(action.id)
    raise RuntimeError(f"game {game.id} has no plain move")


async def open_window(bot: TableBot, channel_id: int, starter: Actor, voter: Actor) -> None:
    """Make the channel's game wait on a vote: the starter decides alone, then one vote."""
    game = await bot.tables.open_in_channel(channel_id)
    assert game is not None
    await bot.tables.act(game.id, game.row.version, starter, playable(game))
    game = await bot.tables.load(game.id)
    play = await bot.tables.act(game.id, game.row.version, voter, playable(game))
    if play.ballot is None or play.ballot.closes is None:
        raise RuntimeError(f"game {game.id}: the vote did not open a window")


async def edits_done() -> None:
    """Wait until the bot has made every board edit it asked itself for."""
    me = asyncio.current_task()
    while True:
        busy = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                and t.get_name().startswith(EDIT_TASKS)]
        if not busy:
            return
        await asyncio.wait(busy)


async def run(windows: int, games: int, seconds: float, seed: int, backend: str,
              server: Any, images: bool, timeout: float) -> Outcome:
    """Measure one run with a fresh fake, bot and database; return its figures."""
    outcome = Outcome(windows, games, backend)
    clock = JumpClock()
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-votes-"))
        store = await stack.enter_async_context(backend_for(backend, tmp, server))
        fake = await stack.enter_async_context(running_fake(False))
        session = await stack.enter_async_context(aiohttp.ClientSession())
        world = await fake.call(session, "GET", "/bench/world")
        channels = await fake.call(session, "POST", "/bench/channels",
                                   {"count": windows + games})
        bot, probe = await logged_in_bot(stack, fake.api_base, world["token"], store,
                                         clock=clock, images=images)
        members = world["members"]
        starter = Actor(int(members["alice"]["id"]), "Alice")
        voter = Actor(int(members["bob"]["id"]), "Bob")

        began = time.perf_counter()
        voting = Bench(bot, probe, world, channels[:windows], seed, "move", window=WINDOW)
        for channel_id in voting.channels:
            await voting.start_game(channel_id)
            await open_window(bot, channel_id, starter, voter)
        outcome.opened_seconds = time.perf_counter() - began
        await edits_done()

        clicking = Bench(bot, probe, world, channels[windows:], seed + 1)
        for channel_id in clicking.channels:
            await clicking.start_game(channel_id)

        phase = outcome.before
        stop = asyncio.Event()

        async def lag_probe() -> None:
            while not stop.is_set():
                began = time.perf_counter()
                await asyncio.sleep(0.001)
                phase.lags.append(time.perf_counter() - began - 0.001)

        async def player(channel_id: int) -> None:
            while not stop.is_set():
                click = await clicking.click(channel_id)
                if click.sent:
                    phase.clicks.append(click.sent - click.fed)

        tasks = [asyncio.create_task(lag_probe())]
        tasks += [asyncio.create_task(player(c)) for c in clicking.channels]
        await asyncio.sleep(seconds)

        before = await fake.call(session, "GET", "/bench/stats")
        phase = outcome.during
        fired_before = bot.deadlines.fired
        cpu = time.process_time()
        began = time.perf_counter()
        clock.offset += WINDOW + 1
        bot.deadlines.wake()
        deadline = began + timeout
        while bot.deadlines.fired - fired_before < windows and time.perf_counter() < deadline:
            await asyncio.sleep(0.005)
        outcome.fired_seconds = time.perf_counter() - began
        outcome.fired = bot.deadlines.fired - fired_before
        await asyncio.wait_for(edits_done(), max(deadline - time.perf_counter(), 0.1))
        outcome.edited_seconds = time.perf_counter() - began
        outcome.cpu = time.process_time() - cpu
        stop.set()
        await asyncio.gather(*tasks)
        after = await fake.call(session, "GET", "/bench/stats")
        outcome.requests = {kind: after["kinds"].get(kind, 0) - before["kinds"].get(kind, 0)
                            for kind in after["kinds"]}
        outcome.still_open = len(await bot.store.due_games(clock(), windows + games + 1))
        return outcome


def report(outcome: Outcome) -> str:
    """Return the figures as Markdown tables."""
    closing = table(
        ["windows", "clicking games", "database", "windows opened in s", "closed", "left open",
         "all fired in s", "windows closed/s", "all boards edited in s", "closed and edited/s",
         "bot CPU s during the closing", "requests during the closing"],
        [[outcome.windows, outcome.games, outcome.backend, f"{outcome.opened_seconds:.1f}",
          outcome.fired, outcome.still_open, f"{outcome.fired_seconds:.2f}",
          f"{outcome.fired / outcome.fired_seconds:.0f}", f"{outcome.edited_seconds:.2f}",
          f"{outcome.fired / outcome.edited_seconds:.0f}", f"{outcome.cpu:.2f}",
          ", ".join(f"{k} {v}" for k, v in sorted(outcome.requests.items()) if v)]],
    )
    clicks = table(
        ["phase", "clicks", "click p50 ms", "click p99 ms", "longest loop block ms",
         "loop lateness p99 ms"],
        [outcome.before.row("clicks alone"), outcome.during.row("while the windows close")],
    )
    return f"{closing}\n\nClicks on the other games, and the event loop:\n\n{clicks}"


def main(argv: list[str] | None = None) -> int:
    """Run the vote-window benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--windows", type=int, default=1000,
                        help="vote games whose windows close at once (default 1000)")
    parser.add_argument("--games", type=int, default=20,
                        help="other games clicked meanwhile, one click in flight each"
                             " (default 20)")
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="seconds of clicks before the windows close (default 3)")
    parser.add_argument("--timeout", type=float, default=90.0,
                        help="give up waiting for the windows to close after this (default 90)")
    parser.add_argument("--backend", default="sqlite", choices=("sqlite", "postgresql"))
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="boards with their picture (BOARD_IMAGES; default on)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    print(f"{args.windows} voting windows closing at once, {args.games} other games clicked "
          f"meanwhile; boards {'with' if args.images == 'on' else 'without'} their picture.")
    print(f"{machine()}; discord.py {discord.__version__}; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    with contextlib.ExitStack() as stack:
        server = None
        if args.backend == "postgresql":
            server = stack.enter_context(postgres_server())
            if server is None:
                print("PostgreSQL is not installed (no pg_ctl): nothing to measure.")
                return 0
        outcome = asyncio.run(run(args.windows, args.games, args.seconds, args.seed,
                                  args.backend, server, args.images == "on", args.timeout))
    print(report(outcome))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
