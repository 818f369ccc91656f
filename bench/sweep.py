"""Drill: the idle sweep over 100,000 open games, the store's side, none and all due.

Fills an SQLite database with ``--games`` open games (a 2 KB state each), then sweeps
it as the table does: :func:`db.sweep.idle_batches` gives a batch of ids; each game of
the batch is read, marked expired and saved, the batch's games at once (their saves
share transactions); nothing of a batch is kept once it is done. Prints the longest
event-loop block (with the CPU the loop's thread and the whole process used in it, and
the longest block of an idle loop in another process meanwhile: what the machine's other
work alone causes) and how much the process's resident memory grew, for a sweep that
finds no game due and one that ends every game. The games of a batch are ended
:data:`db.sweep.AT_ONCE` at a time, as the table's sweeper does.

    .venv/bin/python -m bench.sweep [--games 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.common import table
from bench.loop_watch import Control, LoopWatch
from db.store import Store
from db.sweep import groups, idle_batches

NOW = 1_800_000_000.0


def fill(path: Path, count: int) -> None:
    """Insert ``count`` open one-seat games straight through sqlite3, idle since NOW."""
    state = json.dumps({"count": 0, "pad": "x" * 2000})
    seats = json.dumps([{"user_id": 1, "name": "A"}])
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, state,"
            " created_at, updated_at) VALUES (1, ?, 'toy', 'active', 1, ?, ?, ?, ?)",
            ((channel, seats, state, NOW, NOW) for channel in range(count)),
        )


async def end_one(store: Store, game_id: int) -> bool:
    """Read one game, end it as expired and save it; return whether it was ended."""
    game = store.kept_game(game_id) or await store.get_game(game_id)
    if game is None or not game.is_open:
        return False
    expected = game.version
    game.status, game.version, game.deadline = "expired", game.version + 1, None
    game.events = [*game.events, "The game was idle too long and ended."][-5:]
    await store.save_game(game, expected, action={"end": "expired"})
    return True


async def sweep(store: Store, cutoffs: dict[str, float]) -> int:
    """End every game idle past ``cutoffs``, a batch at a time; return how many."""
    ended = 0
    async for ids in idle_batches(store, cutoffs):
        for group in groups(ids):
            ended += sum(await asyncio.gather(*(end_one(store, i) for i in group)))
    return ended


async def sweeps(games: int) -> list[tuple[str, int, float, LoopWatch, float]]:
    """Fill, sweep twice; return (label, games ended, seconds, the loop's watch, an idle
    loop's longest block in another process meanwhile in ms) each."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "sweep.db"
        await (await Store.open(path, lambda: NOW)).close()
        fill(path, games)
        store = await Store.open(path, lambda: NOW + 7200)
        rows = []
        try:
            for label, cutoff in (("none due", NOW - 3600), ("all due", NOW + 3600)):
                cutoffs = dict.fromkeys(("lobby", "solo", "multi"), cutoff)
                started = time.perf_counter()
                with Control() as control:
                    async with LoopWatch() as watch:
                        ended = await sweep(store, cutoffs)
                rows.append((f"{games:,} open, {label}", ended,
                             time.perf_counter() - started, watch, control.longest_ms))
        finally:
            await store.close()
    return rows


async def main(games: int) -> None:
    """Fill, sweep twice, print the table."""
    rows = [(label, f"{ended:,}", f"{took:.1f}", watch.detail(), f"{idle:.1f}",
             f"{watch.grew_mb:+.1f}")
            for label, ended, took, watch, idle in await sweeps(games)]
    print(table(("sweep", "games ended", "took s",
                 "longest loop block ms (loop thread CPU; process CPU in it)",
                 "an idle loop's longest block meanwhile ms",
                 "RSS growth MB"), rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    asyncio.run(main(parser.parse_args().games))
