"""Benchmark: our click on SQLite and PostgreSQL, one process and two, beside a bare bot.

``python -m bench.side_by_side [--games 1000] [--clicks 300] [--seconds 2] [--images off]
[--rounds 1]``, from the repository root. One run, four rows, each measured as
``bench.clicks`` measures (the fake Discord in its own process, interactions fed to
discord.py's parser, move clicks, every game warmed up once first):

* **bare**: ``bench.bare``'s minimal discord.py bot answering every click with the same
  prebuilt board (no database, engine or rendering);
* **SQLite, one process**: our bot over a database file;
* **PostgreSQL, one process**: our bot over a fresh database on a throwaway server on
  loopback (``tests/db/pg_server.py``, as the tests use);
* **PostgreSQL, two processes**: two bot processes over **one** database and one fake,
  each serving half the boards. They start their measured phases together (each waits
  for the other's warm-up), so "one at a time" means one click in flight per process.
  Their clicks, CPU and latencies are added up; clicks per second is the sum of both.

Printed: each row's click median and p99 one at a time, CPU per click, clicks per second
and per CPU-second with every board clicking at once, and the two ratios to the bare bot
that the project's targets are set on (median at most 1.6x, clicks per CPU-second at
least 0.6x). PostgreSQL rows are left out, saying so, where PostgreSQL is not installed.

The bare bot's own figures move by up to a factor of two between runs on a shared
machine, so a single ratio says little: ``--rounds N`` measures everything N times, the
bare bot again in each round, and ends with each ratio's range and median over the rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp

from bench.bare import run_bare
from bench.clicks import (
    Backend,
    Bench,
    FakeHandle,
    SizeResult,
    backend_for,
    logged_in_bot,
    ms,
    postgres_server,
    run_size,
    running_fake,
)
from bench.common import ROOT, add_collector_option, apply_collector, machine, percentile, table
from tests.fake_discord import payloads


class WorkerSnowflakes(payloads.SnowflakeFactory):
    """Snowflakes that carry a worker number (bits 17 to 21, as Discord's ids do), so two
    processes making interactions at the same millisecond never make the same id."""

    def __init__(self, worker_id: int) -> None:
        super().__init__()
        self.worker_id = worker_id

    def next(self) -> int:
        """Return a new snowflake of this worker's."""
        return (super().next() & ~(0x1F << 17)) | (self.worker_id << 17)


#: The figures a worker process sends back (the rest of SizeResult stays behind).
SENT = ("games", "alone", "loaded", "load_clicks", "load_seconds", "alone_cpu", "load_cpu",
        "deferred", "refusals", "errors", "restarts", "updates", "backend")


async def worker(spec: dict[str, Any]) -> None:
    """One of the two processes: serve ``spec["games"]`` boards, measure, print the figures.

    Prints ``{"ready": true}`` after the warm-up and waits for a line on stdin before the
    measured phases, so both processes measure at the same time.
    """
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-side-"))
        session = await stack.enter_async_context(aiohttp.ClientSession())
        fake = FakeHandle(spec["api_base"], spec["origin"])
        world = await fake.call(session, "GET", "/bench/world")
        channels = await fake.call(session, "POST", "/bench/channels",
                                   {"count": spec["games"]})
        backend = Backend("postgresql", Path(tmp) / "unused.db", spec["url"])
        bot, probe = await logged_in_bot(stack, fake.api_base, world["token"], backend,
                                         images=spec["images"])
        bench = Bench(bot, probe, world, channels, spec["seed"])
        bench.snowflakes = WorkerSnowflakes(spec["worker"])
        bench.fetch = lambda message_id: fake.call(session, "GET",
                                                   f"/bench/message/{message_id}")
        for channel_id in bench.channels:
            await bench.start_game(channel_id)
        await bench.alone(max(200, spec["games"]))
        bench.result = result = SizeResult(spec["games"], backend="postgresql")
        print(json.dumps({"ready": True}), flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        await bench.alone(spec["clicks"])
        await bench.loaded(spec["seconds"])
        print(json.dumps({name: getattr(result, name) for name in SENT}), flush=True)


async def run_two(server: Any, games: int, clicks: int, seconds: float, seed: int,
                  images: bool, collector_choice: str = "bot") -> SizeResult:
    """Measure two bot processes over one PostgreSQL database; return their sum."""
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-side-"))
        backend = await stack.enter_async_context(backend_for("postgresql", tmp, server))
        fake = await stack.enter_async_context(running_fake(False))
        processes = []
        for index in range(2):
            spec = {"api_base": fake.api_base, "origin": fake.origin, "url": backend.url,
                    "games": games // 2, "clicks": clicks // 2, "seconds": seconds,
                    "seed": seed + index, "images": images, "worker": index + 1}
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.side_by_side", "--worker", json.dumps(spec),
                "--gc", collector_choice,
                cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            )
            stack.push_async_callback(_stop, process)
            processes.append(process)
        for process in processes:
            await _line(process)  # ready
        for process in processes:
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            await process.stdin.drain()
        parts = [await _line(process) for process in processes]
    total = SizeResult(games, backend="postgresql")
    for part in parts:
        total.alone += part["alone"]
        total.loaded += part["loaded"]
        for name in ("load_clicks", "alone_cpu", "load_cpu", "deferred", "refusals", "errors",
                     "restarts", "updates"):
            setattr(total, name, getattr(total, name) + part[name])
    total.load_seconds = max(part["load_seconds"] for part in parts)
    return total


async def _line(process: asyncio.subprocess.Process) -> dict[str, Any]:
    """Return the next JSON line a worker prints (fail if it exits instead)."""
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), 600)
    if not line:
        raise RuntimeError(f"a worker process exited early (code {await process.wait()})")
    return dict(json.loads(line))


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError):
            process.terminate()
    await process.wait()


def ratios(r: SizeResult, bare: SizeResult) -> tuple[float, float]:
    """Return (click median ÷ the bare one, clicks per CPU-second ÷ the bare one)."""
    median = statistics.median(r.alone) / statistics.median(bare.alone)
    per_cpu = (r.load_clicks / r.load_cpu) / (bare.load_clicks / bare.load_cpu)
    return median, per_cpu


def _verdicts(median: float, per_cpu: float) -> list[str]:
    return [f"{median:.2f}x" + ("" if median <= 1.6 else " (no)"),
            f"{per_cpu:.2f}x" + ("" if per_cpu >= 0.6 else " (no)")]


def row(name: str, processes: int, r: SizeResult, bare: SizeResult) -> list[object]:
    """Return one configuration's row, with its ratios to the bare bot."""
    median = statistics.median(r.alone)
    per_cpu = r.load_clicks / r.load_cpu
    return [name, processes, len(r.alone), ms(median), ms(percentile(r.alone, 0.99)),
            ms(r.alone_cpu / len(r.alone)), r.load_clicks,
            f"{r.load_clicks / r.load_seconds:.0f}", f"{per_cpu:.0f}", r.deferred,
            *_verdicts(*ratios(r, bare))]


HEADERS = ["bot", "processes", "clicks one at a time", "click median ms", "click p99 ms",
           "CPU ms per click, one at a time", "clicks at once", "clicks/s",
           "clicks per CPU-second", "deferred (after 2 s)", "median ÷ bare (target ≤ 1.6x)",
           "clicks per CPU-second ÷ bare (target ≥ 0.6x)"]


def one_round(args: argparse.Namespace, server: Any, seed: int
              ) -> tuple[SizeResult, list[tuple[str, int, SizeResult]]]:
    """Measure the bare bot and each of our configurations once; return them."""
    images = args.images == "on"
    sqlite = asyncio.run(run_size(args.games, args.clicks, args.seconds, seed, None,
                                  False, kind="move", images=images))
    assert sqlite.bodies, "our bot sent no board"
    bare = asyncio.run(run_bare(args.games, args.clicks, args.seconds, seed,
                                sqlite.bodies, images))
    ours = [("ours, SQLite", 1, sqlite)]
    if server is not None:
        one = asyncio.run(run_size(args.games, args.clicks, args.seconds, seed, None, False,
                                   kind="move", backend="postgresql", server=server,
                                   images=images))
        two = asyncio.run(run_two(server, args.games, args.clicks, args.seconds, seed,
                                  images, args.gc))
        ours += [("ours, PostgreSQL", 1, one), ("ours, PostgreSQL", 2, two)]
    return bare, ours


def summary(rounds: list[tuple[SizeResult, list[tuple[str, int, SizeResult]]]]) -> str:
    """Return the table of each configuration's ratios over every round (their medians)."""
    lines = []
    for index, (name, processes, _) in enumerate(rounds[0][1]):
        pairs = [ratios(ours[index][2], bare) for bare, ours in rounds]
        medians = sorted(p[0] for p in pairs)
        per_cpu = sorted(p[1] for p in pairs)
        lines.append([name, processes, len(pairs),
                      f"{medians[0]:.2f}x to {medians[-1]:.2f}x",
                      f"{per_cpu[0]:.2f}x to {per_cpu[-1]:.2f}x",
                      *_verdicts(statistics.median(medians), statistics.median(per_cpu))])
    return table(["bot", "processes", "rounds", "median ÷ bare, each round",
                  "per CPU-second ÷ bare, each round", "median ÷ bare, median of rounds"
                  " (target ≤ 1.6x)", "per CPU-second ÷ bare, median of rounds"
                  " (target ≥ 0.6x)"], lines)


def main(argv: list[str] | None = None) -> int:
    """Run the four configurations (``--rounds`` times) and print them side by side."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="boards clicked, one per channel (default 1000; two processes"
                             " serve half each)")
    parser.add_argument("--clicks", type=int, default=300,
                        help="clicks measured one at a time (default 300)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds of every board clicking at once (default 2)")
    parser.add_argument("--images", choices=("on", "off"), default="off",
                        help="boards with their picture (default off)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="measure everything this many times (the bare bot in each"
                             " round too) and summarise the ratios (default 1)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    add_collector_option(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    collector = apply_collector(args.gc)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    if args.worker:
        asyncio.run(worker(json.loads(args.worker)))
        return 0
    print(f"Side by side: {args.games} boards, move clicks, fake Discord in its own process,"
          f" boards {'with' if args.images == 'on' else 'without'} their picture.")
    print(f"{machine()}; {collector}; load average before: {os.getloadavg()[0]:.2f}\n")
    rounds = []
    with postgres_server() as server:
        if server is None:
            print("PostgreSQL is not installed (no pg_ctl): its rows are left out.\n")
        for number in range(args.rounds):
            bare, ours = one_round(args, server, args.seed + number)
            rounds.append((bare, ours))
            if args.rounds > 1:
                print(f"Round {number + 1} of {args.rounds} (load average"
                      f" {os.getloadavg()[0]:.2f}):\n")
            rows = [row("bare discord.py bot", 1, bare, bare)]
            rows += [row(name, processes, r, bare) for name, processes, r in ours]
            print(table(HEADERS, rows) + "\n", flush=True)
    if args.rounds > 1:
        print("Every round:\n")
        print(summary(rounds))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
