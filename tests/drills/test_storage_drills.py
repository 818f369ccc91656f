"""Storage drills: two processes creating a database at once, the database
file deleted or replaced while the bot runs, and the idle sweep over 100,000 games.

Each prints its figures (run with ``-s`` to see them); none asserts on time.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from db.errors import StorageError
from db.migrate import LATEST
from db.rows import NewGame
from db.store import Store
from tests.support import Clock

ROOT = Path(__file__).resolve().parents[2]

_OPEN = (
    "import asyncio, sys\n"
    "from db.store import Store\n"
    "async def main():\n"
    "    store = await Store.open(sys.argv[1], lambda: 1.0)\n"
    "    await store.close()\n"
    "asyncio.run(main())\n"
)


def test_two_processes_creating_the_database_at_once(tmp_path):
    """Twenty rounds of two processes opening the same new file: every open succeeds."""
    failures = []
    for round_ in range(20):
        path = tmp_path / f"race{round_}.db"
        procs = [subprocess.Popen([sys.executable, "-c", _OPEN, str(path)], cwd=ROOT,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                 for _ in range(2)]
        for proc in procs:
            _, err = proc.communicate(timeout=60)
            if proc.returncode:
                failures.append(err.strip().splitlines()[-1])
        with sqlite3.connect(path) as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == LATEST
    print(f"\nmigration race: 20 rounds x 2 processes, {len(failures)} failed opens")
    assert failures == []


@pytest.mark.error_logs_expected
@pytest.mark.parametrize("how", ["deleted", "replaced"])
async def test_database_file_deleted_or_replaced_while_running(tmp_path, caplog, how):
    """Writes after the file went away are refused (StorageError), logged CRITICAL once."""
    path = tmp_path / "bot.db"
    store = await Store.open(path, Clock())
    try:
        game = await store.create_game(NewGame(
            guild_id=1, channel_id=1, kind="toy", status="active", starter_id=1,
            seats=[{"user_id": 1, "name": "A"}], options={}, only_starter=False,
            state={"count": 0}, events=[]))
        os.rename(path, tmp_path / "moved.db")
        if how == "replaced":
            path.write_bytes(b"")
        started = time.perf_counter()
        refused = 0
        for attempt in range(3):
            game.version = attempt + 1
            with pytest.raises(StorageError, match=how if how == "replaced" else "deleted"):
                await store.save_game(game, attempt)
            refused += 1
        with pytest.raises(StorageError):
            await store.set_meta("k", "v")
        took = (time.perf_counter() - started) / 4 * 1000
        critical = [r for r in caplog.records if r.levelno == logging.CRITICAL]
        print(f"\nfile {how}: {refused + 1} writes refused, {len(critical)} CRITICAL log line,"
              f" {took:.2f} ms per refused write")
        assert len(critical) == 1
    finally:
        await store.close()


def _bulk_games(path: Path, count: int, updated_at: float) -> None:
    """Insert ``count`` open games straight through sqlite3 (one transaction)."""
    state = json.dumps({"count": 0, "pad": "x" * 700})
    seats = json.dumps([{"user_id": 1, "name": "A"}])
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, state,"
            " created_at, updated_at) VALUES (1, ?, 'toy', 'active', 1, ?, ?, ?, ?)",
            ((channel, seats, state, updated_at, updated_at) for channel in range(count)),
        )


async def _sweep(store: Store, cutoffs: dict[str, float]) -> list[int]:
    """Walk every idle batch as the table does; return the ids found, in order."""
    found: list[int] = []
    after = 0
    while batch := await store.idle_games(cutoffs, after_id=after):
        found += batch
        after = batch[-1]
    return found


async def test_idle_sweep_over_100000_games(tmp_path):
    """With 100,000 open games the sweep's batches find none when none is idle and each
    game once when all are (how long it holds the event loop is ``bench/sweep.py``'s)."""
    clock = Clock()
    path = tmp_path / "many.db"
    await (await Store.open(path, clock)).close()  # create the schema
    _bulk_games(path, 100_000, clock.now)
    store = await Store.open(path, clock)
    try:
        none_due = {g: clock.now - 3600 for g in ("lobby", "solo", "multi")}
        all_due = {g: clock.now + 3600 for g in ("lobby", "solo", "multi")}
        assert await _sweep(store, none_due) == []
        found = await _sweep(store, all_due)
        assert len(found) == len(set(found)) == 100_000 and found == sorted(found)
    finally:
        await store.close()
