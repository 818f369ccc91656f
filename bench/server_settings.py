"""Bench: what a server's settings cost a click, read through the table's server book.

Opens an SQLite store with ``--servers`` servers that chose settings, then asks for the
settings of a random server ``--lookups`` times (as every board render does) and prints
how many store reads that took, and the median and 99th percentile time of a lookup
once a server is known against a read from the store.

    .venv/bin/python -m bench.server_settings [--servers 1000] [--lookups 100000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from bench.common import percentile, table
from bot.table.settings import ServerBook, ServerSettings
from db.store import Store


class Counted:
    """Counts the server-settings reads that reach the store."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reads = 0

    async def server_settings(self, guild_id: int) -> dict[str, object]:
        """Read one server's settings from the store, counting it."""
        self.reads += 1
        return await self.store.server_settings(guild_id)


async def run(servers: int, lookups: int) -> None:
    """Fill the store, then time cached lookups against store reads."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "bench.db", time.time)
        try:
            for guild in range(1, servers + 1):
                await store.set_server_settings(guild, {"vote_window_seconds": 45.0,
                                                        "threads": guild % 2 == 0})
            counted = Counted(store)
            book = ServerBook(counted, ServerSettings())  # type: ignore[arg-type]
            draw = random.Random(7)
            cached: list[float] = []
            read: list[float] = []
            for _ in range(lookups):
                guild = draw.randint(1, servers)
                before, started = counted.reads, time.perf_counter()
                await book.get(guild)
                spent = (time.perf_counter() - started) * 1e6
                (read if counted.reads > before else cached).append(spent)
            print(table(
                ["lookups", "servers", "store reads", "cached p50 µs", "cached p99 µs",
                 "read p50 µs", "read p99 µs"],
                [[lookups, servers, counted.reads,
                  f"{percentile(cached, 0.5):.1f}", f"{percentile(cached, 0.99):.1f}",
                  f"{percentile(read, 0.5):.0f}", f"{percentile(read, 0.99):.0f}"]],
            ))
        finally:
            await store.close()


def main() -> None:
    """Parse the options and run the bench."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--servers", type=int, default=1000)
    parser.add_argument("--lookups", type=int, default=100_000)
    options = parser.parse_args()
    asyncio.run(run(options.servers, options.lookups))


if __name__ == "__main__":
    main()
