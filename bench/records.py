"""Benchmark: player-record queries over 100,000 stored results.

Fills a fresh database (in a temporary folder, every migration applied) with
``--results`` results (default 100,000) spread over ``--players`` players (default 2,000)
of one server (the worst case: every result is in the server asked about), in the three
games, over a year; a tenth of the solo games' results are daily deals. Then times each
query ``--repeat`` times (default 50) and prints the median in milliseconds: a player's
/stats (all games, and one game), counting a player's results for /forget-me, a daily
leaderboard, and each game's all-time and this-month leaderboard asked by a player
outside the top 10, then the Steam to Solar rating leaderboard and a member's ratings
(every player rated). Last, SQLite's plan of the leaderboard query.

Run from the repository root: ``.venv/bin/python bench/records.py [--results N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.table.daily import daily_key
from db.records import (
    _BEST_ORDER,
    _BOARD_SQL,
    _SINCE,
    count_results,
    leaderboard,
    player_ratings,
    player_stats,
    rating_board,
)
from db.store import Store

GUILD = 1
KINDS = ("tinker", "tinrealm", "steam")
NOW = 1_800_000_000.0
YEAR = 365 * 86400.0


def fake_results(count: int, players: int, guild_id: int, seed: int) -> list[tuple[Any, ...]]:
    """Return ``count`` plausible result rows for ``players`` players of one server."""
    chooser = random.Random(seed)
    rows = []
    for _ in range(count):
        kind = chooser.choice(KINDS)
        at = NOW - chooser.random() * YEAR
        won = chooser.random() < 0.4
        if kind == "tinker":
            cleared, chips = (13 if won else chooser.randrange(13)), chooser.randrange(37)
            score, detail = cleared * 100 + chips, f'{{"locations_cleared":{cleared},' \
                f'"chips_left":{chips}}}'
        else:
            score, detail = chooser.randrange(20, 120), "{}"
        daily = daily_key(at) if kind != "steam" and chooser.random() < 0.1 else None
        rows.append((guild_id, 10_000 + chooser.randrange(players), kind,
                     "win" if won else "loss", score, detail, at, daily))
    return rows


async def fill(store: Store, rows: list[tuple[Any, ...]]) -> None:
    """Insert ``rows`` into the results table in one transaction."""
    conn = store.connection
    await conn.execute("BEGIN")
    await conn.executemany(
        "INSERT INTO results (guild_id, user_id, kind, outcome, score, detail, at, daily)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    await conn.execute("COMMIT")


async def fill_ratings(store: Store, players: int) -> None:
    """Give every player a Steam to Solar rating (one row each, as finished games leave)."""
    conn = store.connection
    await conn.execute("BEGIN")
    await conn.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES (?, 'steam', ?, ?, ?, ?, ?)",
        [(GUILD, 10_000 + n, 15.0 + (n * 7919) % 200 / 10, 1.0 + n % 80 / 10, n % 40, NOW)
         for n in range(players)],
    )
    await conn.execute("COMMIT")


async def timed(repeat: int, query: Callable[[], Awaitable[object]]) -> float:
    """Return the median time of ``query`` in milliseconds over ``repeat`` runs."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await query()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


async def run(results: int, players: int, repeat: int) -> None:
    """Fill a database and print the time of each records query."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db", lambda: NOW)
        try:
            started = time.perf_counter()
            await fill(store, fake_results(results, players, GUILD, 1))
            await fill_ratings(store, players)
            print(f"filled {results:,} results of {players:,} players "
                  f"in {time.perf_counter() - started:.1f} s")
            await report(store, players, repeat)
        finally:
            await store.close()


async def report(store: Store, players: int, repeat: int) -> None:
    """Time each query against the filled store and print the figures."""
    user = 10_000 + players // 2
    month = NOW - 30 * 86400
    today = daily_key(NOW - 86400)
    board = await leaderboard(store, GUILD, "tinker", asker_id=user)
    print(f"tinker leaderboard: {board.players} players ranked; asker at place "
          f"{board.mine.place if board.mine else 'top 10'}")
    queries: list[tuple[str, Callable[[], Awaitable[object]]]] = [
        ("/stats, all games", lambda: player_stats(store, GUILD, user)),
        ("/stats, one game", lambda: player_stats(store, GUILD, user, "tinker")),
        ("/forget-me count", lambda: count_results(store, user)),
        ("/leaderboard daily (tinker)",
         lambda: leaderboard(store, GUILD, "tinker", asker_id=user, daily=today)),
    ]
    for kind in KINDS:
        queries.append((f"/leaderboard {kind}, all time",
                        lambda k=kind: leaderboard(store, GUILD, k, asker_id=user)))
        queries.append((f"/leaderboard {kind}, this month",
                        lambda k=kind: leaderboard(store, GUILD, k, asker_id=user, since=month)))
    queries.append(("/leaderboard steam, rating",
                    lambda: rating_board(store, GUILD, "steam", asker_id=user)))
    queries.append(("/stats's ratings", lambda: player_ratings(store, GUILD, user)))
    for name, query in queries:
        print(f"{name:<36} {await timed(repeat, query):7.2f} ms")
    plan_sql = "EXPLAIN QUERY PLAN " + _BOARD_SQL.format(order=_BEST_ORDER, period=_SINCE)
    async with store.connection.execute(
        plan_sql, {"guild": GUILD, "kind": "tinker", "since": 0.0, "size": 10, "asker": user}
    ) as cursor:
        print("plan of the leaderboard query:")
        for row in await cursor.fetchall():
            print("  ", row[-1])


def main() -> None:
    """Parse the arguments and run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(run(args.results, args.players, args.repeat))


if __name__ == "__main__":
    main()
