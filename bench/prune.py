"""Drill: pruning finished games with Steam-sized action logs, while clicks go on.

Fills an SQLite database with ``--games`` finished games, each with a 4 KB state and an
action log of ``--actions`` entries, then prunes them all as the sweeper does
(``prune_finished`` until it returns less than 500) while another task saves a small
write every 5 ms, as clicks would. Prints the longest event-loop block (with the CPU the
loop's thread and the whole process used in it, and an idle loop's longest block in
another process meanwhile, see :class:`bench.loop_watch.Control`), the longest pruning
transaction (on the writing thread) and the longest wait of a concurrent write.

    .venv/bin/python -m bench.prune [--games 2000] [--actions 300]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import db.store
from bench.common import table
from bench.loop_watch import Control, LoopWatch
from db.store import Store

NOW = 1_800_000_000.0


def fill(path: Path, games: int, actions: int) -> None:
    """Insert ``games`` finished games with ``actions`` logged actions each."""
    state = json.dumps({"pad": "x" * 4000})
    action = json.dumps({"id": "play", "card": "the Sun", "train": 3, "note": "x" * 40})
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, starter_id, seats,"
            " state, version, created_at, updated_at)"
            " VALUES (?, 1, ?, 'steam', 'over', 1, '[]', ?, ?, ?, ?)",
            ((g, g, state, actions, NOW, NOW) for g in range(1, games + 1)),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, seq, actor_id, action, at) VALUES (?, ?, 1, ?, ?)",
            ((g, s, action, NOW) for g in range(1, games + 1) for s in range(1, actions + 1)),
        )


async def main(games: int, actions: int) -> None:
    """Fill, prune while writing, print the table."""
    steps: list[float] = []
    real = db.store.prune_sqlite

    def timed_step(conn: sqlite3.Connection, before: float, limit: int) -> Any:
        started = time.perf_counter()
        try:
            return real(conn, before, limit)
        finally:
            steps.append((time.perf_counter() - started) * 1000)

    db.store.prune_sqlite = timed_step  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "prune.db"
        await (await Store.open(path, lambda: NOW)).close()
        fill(path, games, actions)
        store = await Store.open(path, lambda: NOW)
        waits: list[float] = []
        done = False

        async def clicks() -> None:
            while not done:
                started = time.perf_counter()
                await store.set_meta("click", str(started))
                waits.append((time.perf_counter() - started) * 1000)
                await asyncio.sleep(0.005)

        try:
            clicking = asyncio.create_task(clicks())
            started = time.perf_counter()
            pruned = 0
            with Control() as control:
                async with LoopWatch() as watch:
                    while (step := await store.prune_finished(NOW + 1)) == 500:
                        pruned += step
                    pruned += step
            took = time.perf_counter() - started
            done = True
            await clicking
            left = (await store.count_rows())["actions"]
        finally:
            await store.close()
    print(table(
        ("games pruned (actions each)", "took s",
         "longest loop block ms (loop thread CPU; process CPU in it)",
         "an idle loop's longest block meanwhile ms",
         "longest pruning transaction ms", "longest concurrent write ms", "actions left"),
        [(f"{pruned:,} ({actions})", f"{took:.1f}", watch.detail(), f"{control.longest_ms:.1f}",
          f"{max(steps):.1f}", f"{max(waits):.1f}", f"{left:,}")]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=300)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.actions))
