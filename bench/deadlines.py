"""Bench: the deadline look (the earliest deadline, the games now due) at 100,000 open games.

Fills an SQLite database with ``--games`` open games, each with a deadline in the next
day, then times :meth:`Store.next_deadline` and :meth:`Store.due_games` (100 due games)
through the store, ``--runs`` times each, and prints the median and the 99th percentile,
wall time and the CPU time of the whole process per look.

    .venv/bin/python -m bench.deadlines [--games 100000] [--runs 500]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bench.common import percentile, table
from db.store import Store

NOW = 1_800_000_000.0


def fill(path: Path, count: int) -> None:
    """Insert ``count`` open games with deadlines spread over the next day."""
    draw = random.Random(7)
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, state,"
            " created_at, updated_at, deadline)"
            " VALUES (1, ?, 'toy', 'active', 1, '[]', '{}', ?, ?, ?)",
            ((c, NOW, NOW, NOW + draw.uniform(0, 86400)) for c in range(count)),
        )


async def timed(look: Callable[[], Awaitable[Any]], runs: int) -> tuple[float, float, float]:
    """Return the median and p99 wall ms of ``look``, and its mean process CPU ms."""
    walls = []
    cpu = time.process_time()
    for _ in range(runs):
        started = time.perf_counter()
        await look()
        walls.append((time.perf_counter() - started) * 1000)
    cpu_ms = (time.process_time() - cpu) * 1000 / runs
    return percentile(walls, 0.5), percentile(walls, 0.99), cpu_ms


async def looks(games: int, runs: int) -> list[tuple[str, float, float, float]]:
    """Fill, time both looks; return (look, median ms, p99 ms, CPU ms per look) each."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deadlines.db"
        await (await Store.open(path, lambda: NOW)).close()
        fill(path, games)
        store = await Store.open(path, lambda: NOW)
        try:
            soon = NOW + 86400 * 100 / games  # about 100 games are due by then
            rows = []
            for label, look in (("next_deadline()", store.next_deadline),
                                ("due_games(now, 100)", lambda: store.due_games(soon, 100))):
                rows.append((f"{label}, {games:,} open", *await timed(look, runs)))
        finally:
            await store.close()
    return rows


async def main(games: int, runs: int) -> None:
    """Fill, time both looks, print the table."""
    rows = [(label, f"{median:.3f}", f"{p99:.3f}", f"{cpu:.3f}")
            for label, median, p99, cpu in await looks(games, runs)]
    print(table(("look", "median ms", "p99 ms", "CPU ms per look"), rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=500)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.runs))
