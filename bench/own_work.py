"""Benchmark: where our bot's own work goes in a click, timed inside real clicks.

``python -m bench.own_work [--clicks 3000] [--games 500] [--images off|on]``, from the
repository root.

Runs ``bench.clicks``' Tinker bot (the fake Discord in its own process, move clicks one
at a time after the warm-up, as ``bench.floor`` measures ours) and times pieces of every
click with the event loop thread's own CPU clock, inside the clicks themselves: a piece
meets the caches, the allocator and the state it meets in service, which a piece timed
alone in a loop (``bench.click_parts``) does not. A piece that awaits is timed from its
start to its end, so the loop's own CPU while it waits (wake-ups, the answer of the
writing thread) counts in it; one click is in flight at a time, so nothing else does.

Printed: the loop thread's and the whole process's CPU per click, then the pieces, each
in µs per click, and ours' own work (everything but discord.py's answer and the save's
wait, which the floor pays too). Each timer costs about a microsecond of its own, counted
in the piece it times.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import inspect
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bench.clicks import Bench, FakeHandle, run_size
from bench.common import machine, table

#: The timed pieces: (label, module, owner class or "" for a module function, name).
TIMED = (
    ("click", "bot.boards.service", "Boards", "handle_click"),
    ("answer", "bot.boards.clicks", "", "edit_answer"),
    ("board", "bot.boards.service", "Boards", "_render"),
    ("act", "bot.table.service", "Tables", "act"),
    ("take", "db.rows", "KeptRows", "take"),
    ("wrap", "bot.table.core", "TableCore", "wrap"),
    ("policy", "bot.table.channel", "ChannelPolicy", "move"),
    ("apply", "bot.table.core", "TableCore", "apply"),
    ("save", "db.store", "Store", "save_game"),
    ("wait", "db.sqlite_access", "SqliteAccess", "_in_transaction"),
    ("engine", "bot.games.tinker.engine", "TinkerEngine", "apply"),
    ("dump", "bot.games.tinker.engine", "TinkerEngine", "dump"),
)


@dataclass
class Spent:
    """Each timed piece's CPU on the loop's thread (ns) and how often it ran."""

    ns: Counter[str] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)


def _timer(function: Callable[..., Any], label: str, spent: Spent) -> Callable[..., Any]:
    """Return ``function`` timed into ``spent`` under ``label`` (a coroutine function
    stays one)."""
    clock = time.thread_time_ns
    if inspect.iscoroutinefunction(function):
        @functools.wraps(function)
        async def timed_coroutine(*args: Any, **kwargs: Any) -> Any:
            began = clock()
            try:
                return await function(*args, **kwargs)
            finally:
                spent.ns[label] += clock() - began
                spent.calls[label] += 1

        return timed_coroutine

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = clock()
        try:
            return function(*args, **kwargs)
        finally:
            spent.ns[label] += clock() - began
            spent.calls[label] += 1

    return timed


@contextmanager
def timing(spent: Spent) -> Iterator[None]:
    """Time the pieces of :data:`TIMED` into ``spent`` while the block runs."""
    import importlib

    undo: list[tuple[Any, str, Any]] = []
    try:
        for label, module_name, owner_name, name in TIMED:
            module = importlib.import_module(module_name)
            owner = getattr(module, owner_name) if owner_name else module
            original = owner.__dict__[name] if owner_name else getattr(module, name)
            undo.append((owner, name, original))
            setattr(owner, name, _timer(original, label, spent))
        yield
    finally:
        for owner, name, original in reversed(undo):
            setattr(owner, name, original)


def pieces(spent: Spent, clicks: int) -> list[tuple[str, float]]:
    """Return the rows of the pieces table, µs per click: inclusive timings turned into
    the parts they hold (a piece less the pieces inside it)."""
    us = {label: spent.ns[label] / clicks / 1000 for label, *_ in TIMED}
    rows = [
        ("the board (Boards._render: the engine's view, the embed, the buttons)", us["board"]),
        ("the engine's move (engine.apply) and its state dumped", us["engine"] + us["dump"]),
        ("the save's own part (Store.save_game less its wait): the columns' JSON, the kept"
         " row", us["save"] - us["wait"]),
        ("the table's move besides the engine and the save (TableCore.apply: turn log,"
         " events, results)", us["apply"] - us["save"] - us["engine"] - us["dump"]),
        ("the channel's vote (ChannelPolicy.move less the move)", us["policy"] - us["apply"]),
        ("starting on the kept game (KeptRows.take, TableCore.wrap)", us["take"] + us["wrap"]),
        ("the rest of Tables.act (the game's lock, the checks)",
         us["act"] - us["policy"] - us["take"] - us["wrap"]),
        ("the rest of the click (routing, the answer clock, after the answer; the"
         " benchmark's mark on Tables.act)",
         us["click"] - us["act"] - us["board"] - us["answer"]),
    ]
    own = sum(value for _, value in rows)
    return [*rows, ("**ours' own work** (the rows above)", own),
            ("discord.py's answer (edit_message; the floor's too)", us["answer"]),
            ("the save's wait for the writing thread (the floor's too)", us["wait"])]


@dataclass
class OwnWork:
    """One measurement: CPU per click and the pieces."""

    clicks: int = 0
    loop_ms: float = 0.0
    process_ms: float = 0.0
    spent: Spent = field(default_factory=Spent)


def measurer(found: OwnWork, clicks: int) -> Callable[[Bench, FakeHandle], Any]:
    """Return the measured phase for ``run_size``: ``clicks`` clicks one at a time, the
    pieces counted from its start (the warm-up's are left out)."""

    async def measure(bench: Bench, fake: FakeHandle) -> None:
        found.spent.ns.clear()
        found.spent.calls.clear()
        loop, process = time.thread_time(), time.process_time()
        await bench.alone(clicks)
        found.loop_ms = (time.thread_time() - loop) / clicks * 1000
        found.process_ms = (time.process_time() - process) / clicks * 1000
        found.clicks = clicks

    return measure


def measure_own_work(games: int, clicks: int, images: bool, seed: int = 1) -> OwnWork:
    """Run the bot and time ``clicks`` one-at-a-time clicks; return what was found.

    The timers are in place before the bot is made, so the benchmark's own probes (which
    wrap a few of the same methods on the bot's objects) wrap the timed ones.
    """
    found = OwnWork()
    with timing(found.spent):
        asyncio.run(run_size(games, clicks, 0, seed, None, False, kind="move",
                             images=images, measure=measurer(found, clicks)))
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure and print the pieces of our bot's own work in a click."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=3000,
                        help="clicks one at a time (default 3000)")
    parser.add_argument("--games", type=int, default=500,
                        help="boards, one per channel (default 500)")
    parser.add_argument("--images", choices=("off", "on"), default="off",
                        help="boards without their picture (the default) or with it")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    found = measure_own_work(args.games, args.clicks, args.images == "on", args.seed)
    print(f"Our bot's own work in a click: {args.clicks} move clicks one at a time on"
          f" {args.games} boards, pictures {args.images}.\n{machine()}\n")
    print(f"CPU per click: the event loop's thread {found.loop_ms:.3f} ms, the whole process"
          f" {found.process_ms:.3f} ms (the benchmark's own work on the loop included).\n")
    print(table(["piece", "µs a click (the loop thread's clock)"],
                [[label, f"{value:.0f}"] for label, value in pieces(found.spent,
                                                                      found.clicks)]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
