"""Benchmark: three bots side by side, the bare one, the floor and ours, and the speed targets.

``python -m bench.floor [--rounds 3] [--images both|on|off] [--games 500] [--clicks 300]
[--players 10] [--quick]``, from the repository root.

Each round measures, with boards without their picture and with it (``--images``):

* **bare**: ``bench.bare``'s minimal discord.py bot, answering the clicks with the boards
  our bot answered with in the same round, in the same order, one per click in turn
  (same embeds and components, and with pictures a Tinker picture drawn once and
  attached anew to every answer);
* **floor**: the bare bot plus the durable save every click of a game must make: before
  answering, the click's game is saved through the same store and path ours uses
  (:class:`db.store.Store` over a file made by our migrations: its writing thread, group
  commit, file checks; an UPDATE of the game's row, an INSERT in its action log and the
  COMMIT, never on the event loop). Nothing less can answer a move and keep it: it has
  no engine, no rendering, no locks and no reads;
* **ours**: the Tinker bot (``bench.clicks``), move clicks.

All three are measured the same way, each with a fresh fake Discord in its own process
(its CPU is Discord's and is not counted), after a warm-up that clicks every board once:

* one click at a time: the click median and p99 (from feeding the interaction to
  discord.py until the answer leaves it) and the CPU per click;
* a burst: ``--players`` channels clicking at once (each player clicks its share of the
  boards in turn) until every board has been clicked once (``--burst-rounds`` full
  rounds); clicks per second and clicks per CPU-second; then the same burst again for
  the event loop's lateness (a task that sleeps 5 ms again and again notes how late it
  wakes, and how much of that its own thread spent working: the part a busy machine
  cannot cause), apart, as that task costs the loop's thread CPU of its own;
* the picture bytes each answer uploads.

CPU is read from per-thread clocks: every thread of this process (event loop, database
threads, executors) and the picture worker process, less the benchmark's own work on
the event loop's thread (making the clicks, waiting for handlers; timed where it runs).
Once per run, the pictures' own CPU (``bench.pictures``: every board of a few games of
each kind, drawn from scratch, each round), and in a fresh process the deadline look at
100,000 open games (``bench.deadlines``) and the idle sweep's longest event-loop block
(``bench.sweep``).

Printed: each round's table, then every figure's range over the rounds (min to max,
median), the ratios to the floor and to the bare bot, and each target met or not.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import logging
import multiprocessing
import os
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from bench import deadlines, pictures, sweep
from bench.bare import BareBot, Board, run_bare
from bench.clicks import Bench, FakeHandle, Measure, run_size
from bench.common import add_collector_option, apply_collector, machine, percentile, table
from bench.cpu import CpuClock
from bench.picture_loop import ticker
from bot.games import registry
from db.rows import GameRow, NewGame
from db.store import Store

# ----------------------------------------------------------------- the floor bot


class FloorBot(BareBot):
    """The bare bot that first saves the clicked game as our store saves a move.

    Each channel's game is created at its first click (the warm-up's); every click
    after is one :meth:`Store.save_game` of that game (a new version and state, one
    action-log entry) before the answer, as a move of ours is saved before its board.
    """

    def __init__(self, boards: Sequence[Board], picture: bytes, path: Path) -> None:
        super().__init__(boards, picture)
        self.path = path
        self.store: Store | None = None
        self.rows: dict[int, GameRow] = {}
        self.saves = 0
        engine = registry.engine("tinker")
        self.states = tuple(discord.utils._to_json(engine.dump(engine.new(seed, 1, {})))
                            for seed in (1, 2))

    async def setup_hook(self) -> None:
        """Open the store (its migrations make the file) before the first click."""
        self.store = await Store.open(self.path, time.time)

    async def close(self) -> None:
        """Close the store, then the client."""
        if self.store is not None:
            await self.store.close()
            self.store = None
        await super().close()

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Save the clicked game, then answer with the board."""
        if interaction.type is not discord.InteractionType.component:
            return
        await self.save(interaction)
        await super().on_interaction(interaction)

    async def save(self, interaction: discord.Interaction[Any]) -> None:
        """Store the click's move: the game's next version and its action-log entry."""
        assert self.store is not None and interaction.channel_id is not None
        row = self.rows.get(interaction.channel_id)
        if row is None:
            row = await self.store.create_game(NewGame(
                guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                kind="tinker", status="active", starter_id=interaction.user.id,
                seats=[{"user_id": interaction.user.id, "name": interaction.user.name}],
                options={}, only_starter=False, state=None, events=[]))
            self.rows[interaction.channel_id] = row
        expected = row.version
        row.version += 1
        row.state, row.raw_state = None, self.states[row.version % 2]
        data: dict[str, Any] = dict(interaction.data or {})
        custom_id = str(data.get("custom_id", ""))
        await self.store.save_game(row, expected, action={"id": custom_id},
                                   actor_id=interaction.user.id)
        self.saves += 1

    async def stored(self) -> tuple[int, int]:
        """Return how many games and action-log entries the file holds."""
        assert self.store is not None
        counts = await self.store.count_rows()
        return counts["games"], counts["actions"]


# ----------------------------------------------------------------- measuring one bot


@dataclass
class Figures:
    """One bot's figures in one round."""

    bot: str
    alone: list[float] = field(default_factory=list)
    alone_cpu: float = 0.0
    alone_loop_cpu: float = 0.0
    burst_clicks: int = 0
    burst_seconds: float = 0.0
    burst_cpu: float = 0.0
    burst_worker_cpu: float = 0.0
    late: list[float] = field(default_factory=list)
    busy: list[float] = field(default_factory=list)
    pictures: list[int] = field(default_factory=list)
    harness_cpu: float = 0.0
    errors: int = 0
    stored: tuple[int, int] = (0, 0)

    @property
    def median(self) -> float:
        """Click median one at a time, ms."""
        return statistics.median(self.alone) * 1000

    @property
    def p99(self) -> float:
        """Click p99 one at a time, ms."""
        return percentile(self.alone, 0.99) * 1000

    @property
    def per_click(self) -> float:
        """CPU ms per click one at a time."""
        return self.alone_cpu / len(self.alone) * 1000

    @property
    def rate(self) -> float:
        """Clicks per second in the burst."""
        return self.burst_clicks / self.burst_seconds

    @property
    def per_cpu(self) -> float:
        """Clicks per CPU-second in the burst."""
        return self.burst_clicks / self.burst_cpu

    @property
    def late_p50(self) -> float:
        """The event loop's lateness in the burst, median, ms."""
        return statistics.median(self.late) if self.late else 0.0

    @property
    def late_p99(self) -> float:
        """The event loop's lateness in the burst, p99, ms."""
        return percentile(self.late, 0.99) if self.late else 0.0

    @property
    def busy_p50(self) -> float:
        """How much of the loop's lateness was its own thread's work, median, ms."""
        return statistics.median(self.busy) if self.busy else 0.0

    @property
    def busy_p99(self) -> float:
        """How much of the loop's lateness was its own thread's work, p99, ms."""
        return percentile(self.busy, 0.99) if self.busy else 0.0

    @property
    def picture_kb(self) -> float:
        """The median picture uploaded with an answer, KB (0 without pictures)."""
        return statistics.median(self.pictures) / 1024 if self.pictures else 0.0


async def burst(bench: Bench, players: int, rounds: int) -> int:
    """Let ``players`` channels click at once until every board was clicked ``rounds``
    times; return how many clicks were answered."""
    channels = list(bench.channels)
    answered = 0

    async def player(mine: Sequence[int]) -> None:
        nonlocal answered
        for _ in range(rounds):
            for channel_id in mine:
                click = await bench.click(channel_id)
                answered += bool(click.sent)

    await asyncio.gather(*(player(channels[index::players]) for index in range(players)))
    await bench.handlers_done(edits=True)
    return answered


def measurer(figures: Figures, clicks: int, players: int, rounds: int,
             profile: cProfile.Profile | None = None) -> Measure:
    """Return the measured phases that fill ``figures`` (the burst under ``profile``,
    if given: its figures are then the profiler's as much as the bot's)."""

    async def measure(bench: Bench, fake: FakeHandle) -> None:
        leave_out = [fake.process.pid] if fake.process is not None else []
        clock = CpuClock(leave_out)
        bench.harness_cpu = 0.0
        clock.start()
        await bench.alone(clicks)
        spent = clock.spent()
        figures.alone = list(bench.result.alone)
        figures.alone_cpu = spent.total - bench.harness_cpu
        figures.alone_loop_cpu = spent.loop - bench.harness_cpu
        figures.harness_cpu = bench.harness_cpu / max(1, len(figures.alone))
        bench.probe.picture_bytes.clear()
        bench.harness_cpu = 0.0
        errors = bench.result.errors
        clock.start()
        began = time.perf_counter()
        if profile is not None:
            profile.enable()
        figures.burst_clicks = await burst(bench, players, rounds)
        if profile is not None:
            profile.disable()
        figures.burst_seconds = time.perf_counter() - began
        spent = clock.spent()
        figures.burst_cpu = spent.total - bench.harness_cpu
        figures.burst_worker_cpu = spent.processes
        figures.pictures = list(bench.probe.picture_bytes)
        # The lateness probe costs the loop's thread CPU too: it gets a burst of its own.
        stop = asyncio.Event()
        watch = asyncio.create_task(ticker(stop, figures.late, figures.busy))
        await burst(bench, players, rounds)
        stop.set()
        await watch
        figures.errors = bench.result.errors - errors
        if isinstance(bench.bot, FloorBot):
            figures.stored = await bench.bot.stored()

    return measure


@dataclass
class Settings:
    """What one run measures."""

    games: int
    clicks: int
    players: int
    burst_rounds: int
    seed: int
    #: Where to save the profile of our bot's burst (``-on``/``-off`` added), if anywhere.
    profile: str | None = None


def three_bots(settings: Settings, images: bool, seed: int) -> list[Figures]:
    """Measure ours, the floor and the bare bot once; return their figures in that order."""
    ours, floor, bare = Figures("ours"), Figures("floor"), Figures("bare")
    profile = cProfile.Profile(time.thread_time) if settings.profile else None
    games, clicks = settings.games, settings.clicks
    ours_run = asyncio.run(run_size(
        games, clicks, 0, seed, None, False, kind="move", images=images,
        measure=measurer(ours, clicks, settings.players, settings.burst_rounds, profile)))
    if profile is not None and settings.profile:
        profile.dump_stats(f"{settings.profile}-{'on' if images else 'off'}")
    assert ours_run.bodies, "our bot sent no board"
    bodies = ours_run.bodies
    with tempfile.TemporaryDirectory(prefix="bench-floor-") as folder:
        path = Path(folder) / "floor.db"

        def make(boards: Sequence[Board], picture: bytes) -> BareBot:
            return FloorBot(boards, picture, path)

        asyncio.run(run_bare(games, clicks, 0, seed, bodies, images, make=make,
                             measure=measurer(floor, clicks, settings.players,
                                              settings.burst_rounds)))
    asyncio.run(run_bare(games, clicks, 0, seed, bodies, images,
                         measure=measurer(bare, clicks, settings.players,
                                          settings.burst_rounds)))
    return [bare, floor, ours]


# ----------------------------------------------------------------- printing


def f2(value: float) -> str:
    """Two decimals."""
    return f"{value:.2f}"


ROUND_HEADERS = ["bot", "click median ms", "click p99 ms", "CPU ms per click, one at a time",
                 "of it, event loop thread", "burst clicks", "burst clicks/s",
                 "burst clicks per CPU-second", "picture worker CPU ms per burst click",
                 "loop late p50 / p99 ms", "of it the loop's own work, p50 / p99 ms",
                 "picture median KB",
                 "benchmark's own CPU left out, ms per click"]


def round_row(f: Figures) -> list[object]:
    """One bot's row of a round's table."""
    clicks = max(1, f.burst_clicks)
    return [f.bot, f2(f.median), f2(f.p99), f2(f.per_click),
            f2(f.alone_loop_cpu / len(f.alone) * 1000), f.burst_clicks, f"{f.rate:.0f}",
            f"{f.per_cpu:.0f}", f2(f.burst_worker_cpu / clicks * 1000),
            f"{f.late_p50:.2f} / {f.late_p99:.1f}", f"{f.busy_p50:.2f} / {f.busy_p99:.1f}",
            f"{f.picture_kb:.1f}",
            f"{f.harness_cpu * 1000:.3f}"]


def span(values: Sequence[float], digits: int = 2) -> str:
    """``min–max (median)`` of ``values``."""
    return (f"{min(values):.{digits}f}–{max(values):.{digits}f}"
            f" (median {statistics.median(values):.{digits}f})")


def summary_rows(rounds: list[list[Figures]]) -> list[list[object]]:
    """Each bot's figures as ranges over the rounds."""
    rows: list[list[object]] = []
    for index, name in enumerate(f.bot for f in rounds[0]):
        mine = [r[index] for r in rounds]
        rows.append([name, span([f.median for f in mine]), span([f.p99 for f in mine]),
                     span([f.per_click for f in mine]), span([f.rate for f in mine], 0),
                     span([f.per_cpu for f in mine], 0),
                     span([f.late_p50 for f in mine]), span([f.late_p99 for f in mine], 1),
                     span([f.busy_p50 for f in mine]), span([f.busy_p99 for f in mine], 1),
                     span([f.picture_kb for f in mine], 1)])
    return rows


SUMMARY_HEADERS = ["bot", "click median ms", "click p99 ms", "CPU ms per click, one at a time",
                   "burst clicks/s", "burst clicks per CPU-second", "loop late p50 ms",
                   "loop late p99 ms", "of it the loop's own work, p50 ms", "p99 ms",
                   "picture median KB"]


@dataclass
class Target:
    """One target: what, the figure in each round (or once), and the bound."""

    name: str
    values: list[float]
    bound: float
    at_most: bool
    unit: str = "x"

    def met(self) -> bool:
        """Whether every round's figure is within the bound."""
        check: Callable[[float], bool] = ((lambda v: v <= self.bound) if self.at_most
                                          else (lambda v: v >= self.bound))
        return all(check(v) for v in self.values)

    def row(self) -> list[object]:
        """The target's row."""
        sign = "≤" if self.at_most else "≥"
        each = " / ".join(f"{v:.2f}" for v in self.values)
        return [self.name, f"{sign} {self.bound:g}{self.unit}", each,
                "yes" if self.met() else "**no**"]


def bot(figures: list[Figures], name: str) -> Figures:
    """The figures of the bot called ``name``."""
    return next(f for f in figures if f.bot == name)


def click_targets(off: list[list[Figures]], on: list[list[Figures]],
                  players: int) -> list[Target]:
    """The targets read from the three bots' rounds."""
    found = []
    if off:
        found += [
            Target("pictures off: our click median ÷ the floor's",
                   [bot(r, "ours").median / bot(r, "floor").median for r in off], 1.5, True),
            Target("pictures off: floor's CPU per click ÷ ours, one at a time",
                   [bot(r, "floor").per_click / bot(r, "ours").per_click for r in off],
                   0.75, False),
        ]
    if on:
        found += [
            Target("pictures on: our burst clicks per CPU-second ÷ the bare bot's",
                   [bot(r, "ours").per_cpu / bot(r, "bare").per_cpu for r in on], 0.35, False),
            Target(f"pictures on: our clicks/s, {players} channels clicking",
                   [bot(r, "ours").rate for r in on], 150, False, " clicks/s"),
            Target(f"pictures on: our loop lateness p50, {players} channels clicking",
                   [bot(r, "ours").late_p50 for r in on], 2, True, " ms"),
            Target(f"pictures on: our loop lateness p99, {players} channels clicking",
                   [bot(r, "ours").late_p99 for r in on], 20, True, " ms"),
            Target("pictures on: of that lateness, the loop's own work, p50",
                   [bot(r, "ours").busy_p50 for r in on], 2, True, " ms"),
            Target("pictures on: of that lateness, the loop's own work, p99",
                   [bot(r, "ours").busy_p99 for r in on], 20, True, " ms"),
            Target("pictures on: our median picture per click",
                   [bot(r, "ours").picture_kb for r in on], 18.9, True, " KB"),
        ]
    return found


def picture_figures(games: int, rounds: int) -> dict[str, tuple[int, pictures.Drawn]]:
    """Draw every board of ``games`` games of each kind ``rounds`` times; return each
    kind's number of boards and figures (run in a fresh process, as the picture worker
    is one that holds nothing but its caches)."""
    clock = pictures.install_clock()
    boards = {kind: [b for seed in range(games)
                     for b in pictures.views(kind, seed, False, seats)]
              for kind, seats in pictures.SEATS.items()}
    pictures.warm(boards)
    return {kind: (len(found), pictures.draw_rounds(kind, found, rounds, clock))
            for kind, found in boards.items()}


def picture_targets(games: int, rounds: int) -> tuple[list[Target], list[list[object]]]:
    """The picture CPU targets (see :func:`picture_figures`) and a table of each kind's
    figures."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        figures = pool.submit(picture_figures, games, rounds).result()
    found, rows = [], []
    for kind, (count, drawn) in figures.items():
        found.append(Target(f"picture CPU, {kind} (median per round)", drawn.cpu, 4, True,
                            " ms"))
        rows.append([kind, count, span(drawn.cpu), span(drawn.encode),
                     f"{statistics.median(drawn.sizes) / 1024:.1f}",
                     f"{max(drawn.sizes) / 1024:.1f}", f"{max(drawn.heights)}"])
    return found, rows


Look = tuple[str, float, float, float]
"""A deadline look: what, its median and p99 wall ms, its CPU ms."""

Swept = tuple[str, int, float, float, float]
"""An idle sweep: which, games ended, seconds, longest loop block ms and its loop CPU ms."""


def storage_figures(games: int, runs: int) -> tuple[list[Look], list[Swept]]:
    """Time the deadline looks and the idle sweeps at ``games`` open games (run in a
    fresh process, so the heap the bots left behind does not lengthen the sweep's
    collections)."""
    looks = asyncio.run(deadlines.looks(games, runs))
    swept = [(label, ended, took, watch.longest_ms, watch.longest_cpu_ms)
             for label, ended, took, watch, _idle in asyncio.run(sweep.sweeps(games))]
    return looks, swept


def storage_targets(games: int, runs: int) -> tuple[list[Target], list[list[object]]]:
    """The deadline look and idle sweep targets at ``games`` open games, and their table."""
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        looks, swept = pool.submit(storage_figures, games, runs).result()
    found = [Target(f"deadline look: {label}, median", [median], 1, True, " ms")
             for label, median, _, _ in looks]
    for label, _, _, longest, cpu in swept:
        found += [Target(f"idle sweep, {label}: longest loop block", [longest], 50, True, " ms"),
                  Target(f"idle sweep, {label}: the loop's own CPU in that block", [cpu], 50,
                         True, " ms")]
    rows: list[list[object]] = [[label, f"{median:.3f}", f"{p99:.3f}", f"{cpu:.3f}"]
                                for label, median, p99, cpu in looks]
    rows += [[f"sweep: {label} ({ended:,} ended, {took:.1f} s)", "", "",
              f"longest block {longest:.1f} (loop thread CPU in it {cpu:.1f})"]
             for label, ended, took, longest, cpu in swept]
    return found, rows


# ----------------------------------------------------------------- the run


def parse(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the three bots (default 3)")
    parser.add_argument("--images", choices=("both", "on", "off"), default="both",
                        help="boards with their picture, without, or both each round"
                             " (default both)")
    parser.add_argument("--games", type=int, default=500,
                        help="boards, one per channel (default 500)")
    parser.add_argument("--clicks", type=int, default=300,
                        help="clicks one at a time per bot and round (default 300)")
    parser.add_argument("--players", type=int, default=10,
                        help="channels clicking at once in the burst (default 10)")
    parser.add_argument("--burst-rounds", type=int, default=1,
                        help="full rounds of every board in the burst (default 1)")
    parser.add_argument("--picture-games", type=int, default=2,
                        help="games per kind whose boards are drawn (default 2)")
    parser.add_argument("--open-games", type=int, default=100_000,
                        help="open games for the deadline look and the sweep"
                             " (default 100,000)")
    parser.add_argument("--quick", action="store_true",
                        help="a short smoke run: 1 round, 40 boards, 40 clicks, 1 picture"
                             " game per kind, 10,000 open games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", metavar="FILE",
                        help="profile our bot's burst (by the loop thread's CPU clock) and"
                             " save it to FILE-on and FILE-off, for python -m pstats; the"
                             " profiler slows ours, so its figures are not comparable then")
    add_collector_option(parser)
    args = parser.parse_args(argv)
    if args.quick:
        args.rounds, args.games, args.clicks = 1, 40, 40
        args.picture_games, args.open_games = 1, 10_000
    return args


def main(argv: list[str] | None = None) -> int:
    """Measure the three bots round after round; print the tables and the targets."""
    args = parse(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    collector = apply_collector(args.gc)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    settings = Settings(args.games, args.clicks, args.players, args.burst_rounds, args.seed,
                        args.profile)
    modes = {"both": (False, True), "on": (True,), "off": (False,)}[args.images]
    print(f"Three bots side by side: {args.games} boards, {args.clicks} clicks one at a time,"
          f" a burst of {args.players} channels clicking through every board"
          f" {args.burst_rounds} time(s); fake Discord in its own process.")
    print(f"{machine()}; {collector}; load average before: {os.getloadavg()[0]:.2f}\n")
    done: dict[bool, list[list[Figures]]] = {False: [], True: []}
    for number in range(args.rounds):
        for images in modes:
            figures = three_bots(settings, images, args.seed + number)
            done[images].append(figures)
            print(f"Round {number + 1} of {args.rounds}, pictures {'on' if images else 'off'}"
                  f" (load average {os.getloadavg()[0]:.2f}):\n")
            print(table(ROUND_HEADERS, [round_row(f) for f in figures]) + "\n")
            games, actions = bot(figures, "floor").stored
            print(f"The floor's file: {games} games, {actions} action-log entries.\n",
                  flush=True)
    for images in modes:
        print(f"Every round, pictures {'on' if images else 'off'}:\n")
        print(table(SUMMARY_HEADERS, summary_rows(done[images])) + "\n")
    targets = click_targets(done[False], done[True], args.players)
    drawn_targets, drawn = picture_targets(args.picture_games, max(3, args.rounds))
    print(f"Pictures drawn from scratch ({args.picture_games} games per kind, every board,"
          f" {max(3, args.rounds)} rounds; CPU per picture, the rounds' medians):\n")
    print(table(["game", "boards", "CPU ms", "encode ms", "median KB", "max KB",
                 "max height px"], drawn) + "\n")
    stored_targets, stored = storage_targets(args.open_games, 500)
    print(f"Deadline looks and idle sweeps at {args.open_games:,} open games:\n")
    print(table(["look", "median ms", "p99 ms", "CPU ms per look"], stored) + "\n")
    targets += drawn_targets + stored_targets
    print("Targets (each round's figure):\n")
    print(table(["target", "bound", "figure", "met?"], [t.row() for t in targets]))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}; {time.strftime('%Y-%m-%d %H:%M')}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
