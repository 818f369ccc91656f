"""Benchmark: what one vote costs at the table with 3 voters on a decision, and with
1,000.

``python -m bench.voters [--voters 3 1000] [--votes 200] [--backend sqlite|postgresql|both]``,
from the repository root. For each count, a channel game (the toy race, by vote) over a
fresh store (an SQLite file, or a database on a throwaway PostgreSQL server on loopback)
gets
that many distinct members voting on one decision, split so that no move has a
majority; then ``--votes`` more votes are timed, each a member changing their vote
(``Tables.act``, as a click does, without Discord), the decision staying open. Printed
per count: the median and p90 of one vote, the size of the table data written per vote,
and the ratio of the medians to the smallest count's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.clicks import postgres_server
from bench.common import percentile, table
from bot.table.service import Actor, Tables
from db.base import GameStore
from db.connect import open_store
from db.rows import to_json
from tests.support import Clock
from tests.toy import ToyEngine

CHANNEL = 700


#: Gives a fresh store's target: an SQLite path or a PostgreSQL URL.
Target = Callable[[], Awaitable[str | Path]]


async def cost(voters: int, votes: int, target: Target) -> tuple[float, float, int]:
    """Return (median ms, p90 ms, table data bytes) of a vote with ``voters`` voting."""
    clock = Clock()
    store: GameStore = await open_store(await target(), clock)
    seeds = iter(range(1, 1000))
    tables = Tables(store, clock=clock, engines=lambda kind: ToyEngine(),
                    seeds=lambda: next(seeds))
    try:
        starter, early, later = (Actor(9_997 + n, f"Early {n}") for n in range(3))
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=starter)
        await tables.act(game.id, 0, starter, "add1")  # alone: a move at once
        await tables.act(game.id, 1, early, "add1")  # 1 of 2: a vote
        await tables.act(game.id, 1, later, "add1")  # 2 of 3: the move
        # Those three stay active without voting again, and the members split half
        # and half on two moves; each timed vote moves a member from the larger side
        # to the other, so no move ever has a majority and the decision stays open.
        sides: dict[str, list[Actor]] = {"add1": [], "add2": []}
        for n in range(voters):
            member = Actor(10_000 + n, f"Member {n}")
            side = "add1" if n % 2 else "add2"
            await tables.act(game.id, 2, member, side)
            sides[side].append(member)
        times = []
        for _ in range(votes):
            larger = max(sides, key=lambda side: len(sides[side]))
            other = "add1" if larger == "add2" else "add2"
            member = sides[larger].pop(0)
            started = time.perf_counter()
            await tables.act(game.id, 2, member, other)
            times.append((time.perf_counter() - started) * 1000)
            sides[other].append(member)
        row = await store.get_game(game.id)
        assert row is not None and row.version == 2, "the vote must stay open"
        return statistics.median(times), percentile(times, 0.9), len(to_json(row.extra))
    finally:
        await store.close()


async def measure(counts: list[int], votes: int, backends: list[str], folder: Path,
                  server: Any) -> list[tuple[object, ...]]:
    """Measure each count on each backend (``server``: the PostgreSQL server, if one is
    wanted); return the table's rows, with the ratio to each backend's first count."""
    rows: list[tuple[object, ...]] = []
    made = iter(range(1, 1_000_000))

    async def sqlite_file() -> str | Path:
        return folder / f"voters-{next(made)}.db"

    async def pg_database() -> str | Path:
        return str(await server.new_database())

    for backend in backends:
        target = pg_database if backend == "postgresql" else sqlite_file
        figures = [(n, *await cost(n, votes, target)) for n in counts]
        base = figures[0][1]
        rows += [(backend, f"{n:,}", f"{median:.2f}", f"{p90:.2f}", f"{size / 1024:.1f} KiB",
                  f"{median / base:.1f}x") for n, median, p90, size in figures]
    return rows


def main() -> None:
    """Parse the arguments, start PostgreSQL if it is wanted, measure, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voters", type=int, nargs="+", default=[3, 1000])
    parser.add_argument("--votes", type=int, default=200)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="sqlite",
                        help="the database (postgresql starts a throwaway server on loopback)")
    options = parser.parse_args()
    backends = ["sqlite", "postgresql"] if options.backend == "both" else [options.backend]
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-voters-")))
        server = stack.enter_context(postgres_server()) if "postgresql" in backends else None
        if "postgresql" in backends and server is None:
            raise SystemExit("PostgreSQL is not installed here (see tests/db/pg_server.py)")
        rows = asyncio.run(measure(options.voters, options.votes, backends, folder, server))
    print(table(("database", "voters on the decision", "one vote median ms", "p90 ms",
                 "table data written per vote", "median vs the first"), rows))


if __name__ == "__main__":
    main()
