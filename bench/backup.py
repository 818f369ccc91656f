"""Benchmark: ``python -m bot backup`` on a database retention has pruned, side by side
with SQLite's online backup API (the way backups were made before).

Fills an SQLite database with ``--games`` finished games, each with a 4 KB state and
``--actions`` logged actions (:func:`bench.prune.fill`), prunes the first ``--pruned``
of them as the sweeper does (the space they took stays in the file, free), then copies
it both ways and prints each copy's time and size beside the live file's.

    .venv/bin/python -m bench.backup [--games 20000] [--actions 100] [--pruned 15000]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.common import table
from bench.prune import NOW, fill
from db.moving import backup_sqlite
from db.store import Store


def _api_copy(path: Path, dest: Path) -> None:
    """Copy ``path`` to ``dest`` with SQLite's online backup API (every page)."""
    src, dst = sqlite3.connect(path), sqlite3.connect(dest)
    try:
        src.backup(dst)
    finally:
        dst.close()
        src.close()


async def main(games: int, actions: int, pruned: int) -> None:
    """Fill, prune, copy both ways, print the table."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "live.db"
        await (await Store.open(path, lambda: NOW)).close()
        fill(path, games, actions)
        with sqlite3.connect(path) as conn:  # the first games ended long before the rest
            conn.execute("UPDATE games SET updated_at = ? WHERE id <= ?", (NOW - 1, pruned))
        store = await Store.open(path, lambda: NOW)
        try:
            while await store.prune_finished(NOW - 0.5) == 500:
                pass
        finally:
            await store.close()
        rows = []
        for way, copy in (("online backup API (before)", _api_copy),
                          ("python -m bot backup (VACUUM INTO)", None)):
            dest = Path(folder) / f"copy-{len(rows)}.db"
            started = time.perf_counter()
            if copy is None:
                await backup_sqlite(path, dest)
            else:
                copy(path, dest)
            took = time.perf_counter() - started
            rows.append((way, f"{took:.2f}", f"{path.stat().st_size / 1e6:.1f}",
                         f"{dest.stat().st_size / 1e6:.1f}"))
    print(f"{games:,} finished games of {actions} actions, the first {pruned:,} pruned")
    print(table(("copy", "took s", "live file MB", "copy MB"), rows))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20000)
    parser.add_argument("--actions", type=int, default=100)
    parser.add_argument("--pruned", type=int, default=15000)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.actions, options.pruned))
