"""Drill: ``migrate --to`` (SQLite into PostgreSQL) of a large file, and its peak memory.

Builds an SQLite database of about ``--megabytes`` MB (finished games with a 3 KB state
and 20 logged actions each, and their results), starts a throwaway PostgreSQL server
(``tests/db/pg_server.py``), and copies the file into a new database in a process of
its own, which prints its peak resident memory (VmHWM) when done.

    .venv/bin/python -m bench.moving [--megabytes 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.common import ROOT, table
from db.store import Store
from tests.db.pg_server import PgServer, find_bin

_COPY = (
    "import asyncio, sys\n"
    "from bench.common import peak_rss_mb\n"
    "from db.moving import copy_sqlite_to_postgres\n"
    "rows = asyncio.run(copy_sqlite_to_postgres(sys.argv[1], sys.argv[2]))\n"
    "print(sum(rows.values()), round(peak_rss_mb(), 1))\n"
)

#: Bytes one game adds to the file, about (its row, its log, its result, the indexes).
_GAME_BYTES = 6_000


def fill(path: Path, megabytes: int) -> int:
    """Fill ``path`` to about ``megabytes`` MB; return how many games it holds."""
    games = megabytes * 1_000_000 // _GAME_BYTES
    state = json.dumps({"pad": "x" * 3000})
    action = json.dumps({"id": "play", "card": "the Sun", "note": "x" * 60})
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, starter_id, seats,"
            " state, version, created_at, updated_at)"
            " VALUES (?, 1, ?, 'steam', 'over', 1, '[{\"user_id\":1,\"name\":\"A\"}]', ?, 20,"
            " 1.0, 2.0)",
            ((g, g, state) for g in range(1, games + 1)),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, seq, actor_id, action, at) VALUES (?, ?, 1, ?, 1.5)",
            ((g, s, action) for g in range(1, games + 1) for s in range(1, 21)),
        )
        conn.executemany(
            "INSERT INTO results (game_id, guild_id, user_id, kind, outcome, score, detail, at)"
            " VALUES (?, 1, 1, 'steam', 'win', 30, '{}', 2.0)",
            ((g,) for g in range(1, games + 1)),
        )
    return games


async def _schema(path: Path) -> None:
    await (await Store.open(path, lambda: 0.0)).close()


def main(megabytes: int) -> None:
    """Fill, copy in a child process, print the table."""
    bindir = find_bin()
    if bindir is None:
        raise SystemExit("PostgreSQL is not installed (pg_ctl not found)")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.db"
        asyncio.run(_schema(path))
        games = fill(path, megabytes)
        size = path.stat().st_size / 1e6
        server = PgServer(bindir)
        server.start()
        try:
            url = asyncio.run(server.new_database(migrated=False))
            started = time.perf_counter()
            done = subprocess.run([sys.executable, "-c", _COPY, str(path), url], cwd=ROOT,
                                  capture_output=True, text=True, timeout=1200)
            if done.returncode:
                raise SystemExit(f"the copy failed:\n{done.stderr}")
            took = time.perf_counter() - started
        finally:
            server.stop()
    rows, peak = done.stdout.split()
    print(table(("SQLite file MB", "games", "rows copied", "took s", "peak RSS MB"),
                [(f"{size:.0f}", f"{games:,}", f"{int(rows):,}", f"{took:.1f}", peak)]))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=int, default=200)
    main(parser.parse_args().megabytes)
