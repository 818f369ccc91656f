"""Benchmark: board clicks on the real bot, in-process, against the offline fake Discord.

For each size (default 10, 100 and 1,000 games at once, one per channel) a fresh bot
with the Tinker cog runs over a fresh database file in a temporary directory; the games
are started with ``/tinker start`` and then played by random clicks on their boards
(a finished game is started again, outside the timings). Figures:

* latency of one click, alone (one click in flight, each on the next game in turn):
  from feeding the INTERACTION_CREATE payload to discord.py until the interaction
  callback request reaches the fake (median, p99);
* clicks per second with every game clicking at once (closed loop: each game's player
  clicks again as soon as its answer arrived), and the latency under that load, which
  is mostly queueing (Little's law: in flight / throughput);
* HTTP requests per click (all requests the fake received during the clicks);
* the floor: one bare aiosqlite ``UPDATE`` of a row the size of a stored game and its
  ``COMMIT``, on the same database file with the store's pragmas;
* the fake's own share: one bare HTTP POST of a board-sized callback body to the fake,
  from sending it until it reaches the fake's handler.

With ``--profile``, the all-at-once phase runs under cProfile and the time is shared
out by part of the program (the bot, discord.py, the fake, aiohttp's two sides...).

Run from the repository root: ``python -m bench.clicks [--games 10,100,1000] [--profile]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import logging
import os
import pstats
import random
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
import discord

from bench.common import machine, percentile, table
from bot.client import TableBot
from bot.config import load_settings
from tests.fake_discord import FakeDiscord
from tests.fake_discord.payloads import iter_components

USER = "bob"


class TimedFake(FakeDiscord):
    """The fake Discord, resolving a future when an interaction's callback arrives."""

    def __init__(self) -> None:
        super().__init__()
        self.arrivals: dict[int, asyncio.Future[float]] = {}
        self.response_deadline = None  # queueing at 1,000 games in flight is measured, not refused

    def expect(self, interaction_id: int) -> asyncio.Future[float]:
        """Return a future set to the monotonic time the interaction's callback arrives."""
        future = asyncio.get_running_loop().create_future()
        self.arrivals[interaction_id] = future
        return future

    async def _callback(self, call: Any) -> Any:
        try:
            return await super()._callback(call)
        finally:
            future = self.arrivals.pop(call.id("interaction"), None)
            if future is not None and not future.done():
                future.set_result(call.record.time)


@dataclass
class SizeResult:
    """The figures of one size."""

    games: int
    alone: list[float] = field(default_factory=list)
    loaded: list[float] = field(default_factory=list)
    load_clicks: int = 0
    load_seconds: float = 0.0
    requests: int = 0
    updates: int = 0
    refusals: int = 0
    restarts: int = 0
    floor: list[float] = field(default_factory=list)
    post: list[float] = field(default_factory=list)
    stages: list[tuple[float, float, float]] = field(default_factory=list)
    alone_cpu: float = 0.0
    load_cpu: float = 0.0

    @property
    def clicks(self) -> int:
        """Clicks measured in both phases."""
        return len(self.alone) + len(self.loaded)


class Bench:
    """One bot over one database, with ``games`` boards in as many channels."""

    def __init__(self, fake: TimedFake, bot: TableBot, games: int, seed: int) -> None:
        self.fake = fake
        self.bot = bot
        self.random = random.Random(seed)
        self.channels = [fake.add_channel(f"table-{i}") for i in range(games)]
        self.boards: dict[int, int] = {}
        self.result = SizeResult(games)
        self.marks: dict[int, dict[str, float]] = {}
        self._mark_stages()

    def _mark_stages(self) -> None:
        """Note when each click reaches the bot's handler and when it starts its answer."""
        handle_click = self.bot.boards.handle_click
        marks = self.marks

        async def marked_click(interaction: discord.Interaction[Any], *args: Any) -> None:
            marks.setdefault(interaction.id, {})["handler"] = time.monotonic()
            await handle_click(interaction, *args)

        self.bot.boards.handle_click = marked_click  # type: ignore[method-assign]
        edit_message = discord.InteractionResponse.edit_message

        async def marked_edit(response: Any, **kwargs: Any) -> Any:
            marks.setdefault(response._parent.id, {})["answer"] = time.monotonic()
            return await edit_message(response, **kwargs)

        discord.InteractionResponse.edit_message = marked_edit  # type: ignore[method-assign]
        self._edit_message = edit_message

    def close(self) -> None:
        """Undo the stage marks on discord.py."""
        discord.InteractionResponse.edit_message = self._edit_message  # type: ignore[method-assign]

    async def feed(self, payload: dict[str, Any]) -> tuple[float, float]:
        """Feed an interaction to the bot; return (fed at, callback arrived at)."""
        arrival = self.fake.expect(int(payload["id"]))
        fed = time.monotonic()
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        return fed, await asyncio.wait_for(arrival, 60)

    async def start_game(self, channel_id: int) -> None:
        """Start a Tinker game in ``channel_id`` with the slash command; remember its board."""
        payload = self.fake.slash_payload("tinker", path=("start",), user="alice",
                                          channel_id=channel_id)
        await self.feed(payload)
        record = self.fake.interactions[int(payload["id"])]
        assert record.response_type == 4 and record.original_message_id is not None, record
        self.boards[channel_id] = record.original_message_id

    def next_click(self, channel_id: int) -> dict[str, Any] | None:
        """Return a click on a random enabled component of the channel's board, or None."""
        board = self.fake.get_message(self.boards[channel_id])
        assert board is not None
        live = [c for c in iter_components(board.get("components") or [])
                if c.get("type") in (2, 3) and not c.get("disabled")]
        if not live:
            return None
        chosen = self.random.choice(live)
        values = None
        if chosen["type"] == 3:
            values = [self.random.choice(chosen["options"])["value"]]
        return self.fake.component_payload(board, chosen["custom_id"], values=values, user=USER)

    async def click(self, channel_id: int, *, alone: bool = False) -> float:
        """Click once on the channel's board (restarting a finished game); return the latency.

        ``alone`` (one click in flight) also notes where the click's time went.
        """
        payload = self.next_click(channel_id)
        if payload is None:
            await self.start_game(channel_id)
            self.result.restarts += 1
            payload = self.next_click(channel_id)
            assert payload is not None
        fed, arrived = await self.feed(payload)
        kind = self.fake.interactions[int(payload["id"])].response_type
        if kind == 7:
            self.result.updates += 1
        else:
            self.result.refusals += 1
        marks = self.marks.pop(int(payload["id"]), {})
        if alone and "handler" in marks and "answer" in marks:
            self.result.stages.append(
                (marks["handler"] - fed, marks["answer"] - marks["handler"],
                 arrived - marks["answer"])
            )
        return arrived - fed

    async def handlers_done(self) -> None:
        """Wait until the bot's click handlers (answers still in flight) are finished."""
        me = asyncio.current_task()
        while True:
            busy = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                    and t.get_name().startswith("discord-ui-")]
            if not busy:
                return
            await asyncio.wait(busy)

    async def alone(self, clicks: int) -> None:
        """Click ``clicks`` times, one click in flight, each on the next game in turn."""
        cpu = time.process_time()
        for index in range(clicks):
            latency = await self.click(self.channels[index % len(self.channels)], alone=True)
            await self.handlers_done()
            self.result.alone.append(latency)
        self.result.alone_cpu = time.process_time() - cpu

    async def loaded(self, seconds: float, profile: cProfile.Profile | None = None) -> None:
        """Let every game click at once, each again as soon as its answer arrived.

        With ``profile``, the phase runs under it (and is slower for it).
        """
        stop = time.monotonic() + seconds
        latencies = self.result.loaded

        async def player(channel_id: int) -> None:
            while time.monotonic() < stop:
                latencies.append(await self.click(channel_id))

        began, cpu = time.monotonic(), time.process_time()
        if profile is not None:
            profile.enable()
        await asyncio.gather(*(player(c) for c in self.channels))
        await self.handlers_done()
        if profile is not None:
            profile.disable()
        self.result.load_seconds = time.monotonic() - began
        self.result.load_cpu = time.process_time() - cpu
        self.result.load_clicks = len(latencies)


SHARES = (
    ("the bot (bot/, cogs/, db/)", ("/bot/", "/cogs/", "/db/")),
    ("the fake Discord (tests/fake_discord)", ("/fake_discord/",)),
    ("the benchmark's own players", ("/bench/",)),
    ("discord.py", ("/discord/",)),
    ("aiohttp server (the fake's side)", ("/aiohttp/web",)),
    ("aiohttp client (discord.py's side)", ("/aiohttp/client", "/aiohttp/connector")),
    ("aiohttp shared, yarl, multidict", ("/aiohttp/", "/yarl/", "/multidict/")),
    ("aiosqlite (event loop side)", ("/aiosqlite/",)),
    ("json", ("/json/",)),
    ("asyncio, selectors, sockets", ("/asyncio/", "selectors", "socket", "epoll")),
)
"""Where the profile's time is counted, by the first matching piece of the code's path."""


def shares(profile: cProfile.Profile) -> dict[str, float]:
    """Return the profiled time (own time of each function) by part of the program."""
    totals: dict[str, float] = {}
    for (filename, _line, name), (_, _, own, _, _) in pstats.Stats(profile).stats.items():
        where = filename if filename != "~" else name
        part = next((label for label, keys in SHARES if any(k in where for k in keys)),
                    "everything else")
        totals[part] = totals.get(part, 0.0) + own
    return totals


async def floor(path: Path, row_bytes: int, times: int) -> list[float]:
    """Time ``times`` bare aiosqlite updates of a ``row_bytes`` row, each with its commit."""
    async with aiosqlite.connect(path) as conn:
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute("PRAGMA synchronous = NORMAL")
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY,"
                           " body TEXT)")
        await conn.execute("INSERT OR REPLACE INTO bench_floor VALUES (1, '')")
        await conn.commit()
        spent = []
        for index in range(times):
            body = str(index % 10) * row_bytes
            began = time.perf_counter()
            await conn.execute("UPDATE bench_floor SET body = ? WHERE id = 1", (body,))
            await conn.commit()
            spent.append(time.perf_counter() - began)
        return spent


async def bare_posts(fake: TimedFake, body: dict[str, Any], times: int) -> list[float]:
    """Time ``times`` raw HTTP callback POSTs to the fake, from sending to arrival."""
    spent = []
    async with aiohttp.ClientSession() as session:
        for _ in range(times):
            payload = fake.slash_payload("tinker", path=("rules",), user="alice")
            url = f"{fake.api_base}/interactions/{payload['id']}/{payload['token']}/callback"
            arrival = fake.expect(int(payload["id"]))
            began = time.monotonic()
            async with session.post(url, json=body) as response:
                await response.read()
            spent.append(await arrival - began)
    return spent


def row_size(path: Path) -> int:
    """Return the mean stored size (bytes) of a game row in the database at ``path``."""
    import sqlite3

    with sqlite3.connect(path) as conn:
        size = conn.execute(
            "SELECT avg(length(seats) + length(options) + length(state) + length(events) + 80)"
            " FROM games"
        ).fetchone()[0]
    return int(size)


async def run_size(
    games: int, alone: int, seconds: float, seed: int, profile: cProfile.Profile | None
) -> SizeResult:
    """Measure one size in a fresh temporary directory and return its figures."""
    with tempfile.TemporaryDirectory(prefix="bench-clicks-") as tmp:
        path = Path(tmp) / "bot.db"
        fake = TimedFake()
        await fake.start()
        previous = discord.http.Route.BASE
        discord.http.Route.BASE = fake.api_base
        settings = load_settings({"DISCORD_TOKEN": fake.token, "DATABASE_PATH": str(path),
                                  "COMPUTER_DELAY_SECONDS": "0", "LOG_LEVEL": "WARNING"})
        bot = TableBot(settings, cogs=("cogs.tinker",))
        with contextlib.ExitStack() as stack:
            await bot.login(fake.token)
            bench = Bench(fake, bot, games, seed)
            stack.callback(bench.close)
            for channel_id in bench.channels:
                await bench.start_game(channel_id)
            await bench.alone(min(200, 10 * games))  # warm-up
            bench.result = SizeResult(games)
            first = len(fake.requests)
            await bench.alone(alone)
            await bench.loaded(seconds, profile)
            requests = fake.requests[first:]
            bench.result.requests = sum(1 for r in requests if "/callback" in r.path)
            extra = [f"{r.method} {r.path}" for r in requests if "/callback" not in r.path]
            # Restarted games' /tinker start answers are callbacks too; count them out.
            bench.result.requests += len(extra) - bench.result.restarts
            body = next(r.json for r in reversed(requests) if r.json and r.json.get("type") == 7)
            bench.result.post = await bare_posts(fake, body, 300)
            bench.result.floor = await floor(path, row_size(path), 1000)
        await bot.close()
        discord.http.Route.BASE = previous
        await fake.stop()
        return bench.result


def ms(seconds: float) -> str:
    """Format seconds as milliseconds with two decimals."""
    return f"{seconds * 1000:.2f}"


def report(results: list[SizeResult]) -> str:
    """Return the figures as Markdown tables."""
    rows = []
    for r in results:
        median = statistics.median(r.alone)
        floor_median = statistics.median(r.floor)
        rows.append([
            r.games, len(r.alone), ms(median), ms(percentile(r.alone, 0.99)),
            ms(floor_median), f"{median / floor_median:.1f}x",
            ms(r.alone_cpu / len(r.alone)),
        ])
    alone = table(["games", "clicks", "click median ms", "click p99 ms", "floor median ms",
                   "click / floor", "CPU ms per click"], rows)
    rows = []
    for r in results:
        intake, handler, send = (statistics.median(s[i] for s in r.stages) for i in range(3))
        rows.append([r.games, ms(intake), ms(handler), ms(send),
                     ms(statistics.median(r.post))])
    stages = table(["games", "discord.py intake ms", "bot (tables + render) ms",
                    "discord.py answer until the fake ms", "bare POST to the fake ms"], rows)
    rows = []
    for r in results:
        rows.append([
            r.games, r.load_clicks, f"{r.load_clicks / r.load_seconds:.0f}",
            f"{r.load_clicks / r.load_cpu:.0f}",
            ms(statistics.median(r.loaded)), ms(percentile(r.loaded, 0.99)),
            f"{r.requests / r.clicks:.3f}", r.refusals, r.restarts,
        ])
    loaded = table(["games", "clicks", "clicks/s", "clicks per CPU-second",
                    "median ms under load", "p99 ms under load", "requests/click", "refused",
                    "games restarted"], rows)
    return (f"One click at a time:\n\n{alone}\n\nWhere one click's time goes (medians):"
            f"\n\n{stages}\n\nEvery game clicking at once:\n\n{loaded}")


def main(argv: list[str] | None = None) -> int:
    """Run the click benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="10,100,1000",
                        help="comma-separated numbers of games at once (default 10,100,1000)")
    parser.add_argument("--clicks", type=int, default=1000,
                        help="clicks measured one at a time per size (default 1000)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="seconds of every game clicking at once per size (default 5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true",
                        help="profile the all-at-once phase and print where its time went")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sizes = [int(part) for part in args.games.split(",") if part]
    print("Clicks on the Tinker board, bot in-process, fake Discord on loopback.")
    print(f"{machine()}; load average before: {os.getloadavg()[0]:.2f}\n")
    results = []
    for games in sizes:
        profile = cProfile.Profile() if args.profile else None
        results.append(asyncio.run(run_size(games, args.clicks, args.seconds, args.seed, profile)))
        if profile is not None:
            spent = shares(profile)
            total = sum(spent.values())
            clicks = results[-1].load_clicks
            rows = [[part, f"{100 * own / total:.1f}%", ms(own / clicks)]
                    for part, own in sorted(spent.items(), key=lambda item: -item[1])]
            print(f"Profile of {games} games clicking at once ({clicks} clicks):\n")
            print(table(["part", "share of the time", "profiled ms per click"], rows) + "\n")
    print(report(results))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
