"""Benchmark: board clicks on the real bot, in-process, against the offline fake Discord.

By default the fake Discord runs as a separate process (``python -m bench.fake_server``,
on loopback), so its HTTP server, JSON and limit checks use the machine's other core and
are not charged to the bot; ``--same-process`` runs it in the bot's event loop instead,
as earlier versions of this benchmark did, for comparison.

For each size (default 10, 100 and 1,000 games at once, one per channel) a fresh bot
with the Tinker cog runs over a fresh database file in a temporary directory, with a
fresh fake; the games are started with ``/tinker start`` and then played by random
clicks on their boards (a finished game is started again, outside the timings). Each
interaction is built in this process from the board as the fake last answered it
(Discord returns the edited message with the callback's answer, ``with_response=1``)
and fed to discord.py's real parser (``parse_interaction_create``), as the gateway would.

What is measured, in this (the bot's) process, with ``time.perf_counter``:

* **click latency**: from feeding the INTERACTION_CREATE payload to discord.py until
  aiohttp hands the interaction callback's body to the socket (aiohttp's
  ``on_request_chunk_sent`` trace signal on discord.py's own session, fired immediately
  before the socket write): the reply leaving discord.py. Median and p99 of clicks made
  one at a time, each on the next game in turn;
* **answered**: until discord.py has the fake's answer to that request (the callback
  adapter returned): adds the loopback round trip and the fake's own work;
* clicks per second with every game clicking at once (closed loop: each game's player
  clicks again as soon as its answer arrived), and the latency under that load, which
  is mostly queueing (Little's law: in flight / throughput);
* CPU per click of this process (the bot, discord.py, and the benchmark's players) and,
  with the fake in its own process, of the fake;
* HTTP requests per click, as counted by the fake (every request it received during the
  clicks, less the ``/tinker start`` answers of restarted games);
* the floor: one bare aiosqlite ``UPDATE`` of a row the size of a stored game and its
  ``COMMIT``, on the same database file with the store's pragmas;
* a bare aiohttp POST of a board-sized callback body to the fake, until its answer is
  read (compare with discord.py's answer stage plus the round trip).

With ``--profile``, the all-at-once phase runs under cProfile, timed by the event loop
thread's CPU time (``time.thread_time``, so waits while the scheduler runs another
process are not charged to whatever was running) and shared out by part of the program
(the profiler's own overhead inflates every part, about 2.5x); ``--profile-out FILE``
also saves the raw profile (``python -m pstats FILE``).

Run from the repository root: ``python -m bench.clicks [--games 10,100,1000] [--profile]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import json
import logging
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bench.common import ROOT, machine, percentile, table
from bench.fake_server import BenchFake, bench_token
from bot.client import TableBot
from bot.config import load_settings
from tests.fake_discord import payloads
from tests.fake_discord.process import stop_process

USER = "bob"
"""The member who clicks (games are started by alice)."""

STARTER = "alice"


# ----------------------------------------------------------------- the fake, either way


@dataclass
class FakeHandle:
    """A running benchmark fake: its address, and how to ask it for its counts."""

    api_base: str
    origin: str
    process: asyncio.subprocess.Process | None = None
    local: BenchFake | None = None

    async def call(self, session: aiohttp.ClientSession, method: str, path: str,
                   body: Any = None) -> Any:
        """Call one of the fake's ``/bench/`` routes and return its JSON answer."""
        async with session.request(method, self.origin + path, json=body) as response:
            response.raise_for_status()
            return await response.json()


@contextlib.asynccontextmanager
async def running_fake(same_process: bool) -> AsyncIterator[FakeHandle]:
    """Start the benchmark fake in its own process (or in this loop); stop it on exit."""
    if same_process:
        fake = BenchFake()
        await fake.start()
        try:
            yield FakeHandle(fake.api_base, fake.api_base.split("/api/")[0], local=fake)
        finally:
            await fake.stop()
        return
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.fake_server", cwd=ROOT,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 30)
        if not line:
            raise RuntimeError("the fake Discord process exited before it was listening")
        where = json.loads(line)
        yield FakeHandle(where["api_base"], where["api_base"].split("/api/")[0], process)
    finally:
        await stop_process(process)


# ----------------------------------------------------------------- probes in discord.py


@dataclass
class Click:
    """One fed interaction and the moments of its way through this process."""

    fed: float
    answered_future: asyncio.Future[dict[str, Any] | None]
    handler: float = 0.0
    answer: float = 0.0
    sent: float = 0.0
    answered: float = 0.0
    kind: int = 0
    body: dict[str, Any] | None = None


class Probe:
    """Notes when each fed interaction's callback leaves discord.py and is answered.

    Three hooks, all in this process: an aiohttp ``TraceConfig`` on discord.py's HTTP
    session (the callback body handed to the socket), a wrapper around discord.py's
    ``AsyncWebhookAdapter.create_interaction_response`` (the answer, and the board it
    carries), and marks when the bot's click handler starts and when it calls
    ``InteractionResponse.edit_message`` (for the stages of a click).
    """

    def __init__(self) -> None:
        self.pending: dict[int, Click] = {}
        self._undo: list[tuple[Any, str, Any]] = []

    def feed(self, interaction_id: int) -> Click:
        """Start following an interaction about to be fed; return its record."""
        click = Click(time.perf_counter(), asyncio.get_running_loop().create_future())
        self.pending[interaction_id] = click
        return click

    def trace(self) -> aiohttp.TraceConfig:
        """Return the trace config to give discord.py's HTTP client before it logs in."""
        config = aiohttp.TraceConfig()
        pending = self.pending

        async def chunk_sent(session: Any, context: Any, params: Any) -> None:
            path = params.url.raw_path
            if path.endswith("/callback"):
                click = pending.get(int(path.rsplit("/", 3)[-3]))
                if click is not None and not click.sent:
                    click.sent = time.perf_counter()

        config.on_request_chunk_sent.append(chunk_sent)
        config.freeze()
        return config

    def install(self, bot: TableBot) -> None:
        """Wrap discord.py's callback adapter, the bot's click handler and edit_message."""
        pending = self.pending
        create = AsyncWebhookAdapter.create_interaction_response

        async def answered(interaction_id: int, body: dict[str, Any],
                           coro: Awaitable[dict[str, Any]]) -> dict[str, Any]:
            click = pending.get(interaction_id)
            if click is not None and not click.kind:
                click.kind, click.body = int(body.get("type", 0)), body
            try:
                data = await coro
            except BaseException:
                if click is not None and not click.answered_future.done():
                    click.answered_future.set_result(None)
                raise
            if click is not None and not click.answered_future.done():
                click.answered = time.perf_counter()
                click.answered_future.set_result(data)
            return data

        def create_response(adapter: Any, interaction_id: int, token: str, **kwargs: Any) -> Any:
            payload = kwargs["params"].payload or {}
            coro = create(adapter, interaction_id, token, **kwargs)
            return answered(int(interaction_id), payload, coro)

        self._patch(AsyncWebhookAdapter, "create_interaction_response", create_response)
        handle_click = bot.boards.handle_click

        async def marked_click(interaction: discord.Interaction[Any], *args: Any) -> None:
            click = pending.get(interaction.id)
            if click is not None:
                click.handler = time.perf_counter()
            await handle_click(interaction, *args)

        bot.boards.handle_click = marked_click  # type: ignore[method-assign]
        edit_message = discord.InteractionResponse.edit_message

        async def marked_edit(response: Any, **kwargs: Any) -> Any:
            click = pending.get(response._parent.id)
            if click is not None and not click.answer:
                click.answer = time.perf_counter()
            return await edit_message(response, **kwargs)

        self._patch(discord.InteractionResponse, "edit_message", marked_edit)

    def _patch(self, owner: Any, name: str, value: Any) -> None:
        self._undo.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def close(self) -> None:
        """Undo the patches on discord.py."""
        while self._undo:
            owner, name, value = self._undo.pop()
            setattr(owner, name, value)


# ----------------------------------------------------------------- the benchmark


@dataclass
class SizeResult:
    """The figures of one size."""

    games: int
    alone: list[float] = field(default_factory=list)
    alone_answered: list[float] = field(default_factory=list)
    loaded: list[float] = field(default_factory=list)
    load_clicks: int = 0
    load_seconds: float = 0.0
    requests: int = 0
    updates: int = 0
    refusals: int = 0
    restarts: int = 0
    errors: int = 0
    floor: list[float] = field(default_factory=list)
    post: list[float] = field(default_factory=list)
    stages: list[tuple[float, float, float, float]] = field(default_factory=list)
    alone_cpu: float = 0.0
    load_cpu: float = 0.0
    fake_alone_cpu: float | None = None
    fake_load_cpu: float | None = None
    limit_violations: int = 0

    @property
    def clicks(self) -> int:
        """Clicks measured in both phases."""
        return len(self.alone) + len(self.loaded)


class Bench:
    """One bot over one database, with ``games`` boards in as many channels."""

    def __init__(self, bot: TableBot, probe: Probe, world: dict[str, Any],
                 channels: list[dict[str, Any]], seed: int) -> None:
        self.bot = bot
        self.probe = probe
        self.random = random.Random(seed)
        self.guild_id = int(world["guild_id"])
        self.application_id = int(world["application_id"])
        self.members = world["members"]
        self.channels = {int(c["id"]): c for c in channels}
        self.boards: dict[int, dict[str, Any]] = {}
        self.snowflakes = payloads.SnowflakeFactory()
        self.serial = 0
        self.result = SizeResult(len(channels))
        self.last_update: tuple[int, dict[str, Any]] | None = None

    def _payload(self, kind: int, channel_id: int, user: str, data: dict[str, Any],
                 message: dict[str, Any] | None = None) -> dict[str, Any]:
        """Return an INTERACTION_CREATE payload the fake accepts without registering it."""
        self.serial += 1
        interaction_id = self.snowflakes.next()
        member = self.members[user]
        token = bench_token(kind, channel_id, int(message["id"]) if message else None,
                            int(member["id"]), self.serial)
        return payloads.interaction(
            interaction_id=interaction_id, application_id=self.application_id,
            interaction_type=kind, data=data, guild_id=self.guild_id,
            channel=self.channels[channel_id], member_data=member["member"],
            app_permissions=payloads.MODERATOR_PERMISSIONS, message_data=message, token=token,
        )

    async def feed(self, payload: dict[str, Any]) -> Click:
        """Feed an interaction to the bot; return its record once its answer is back."""
        click = self.probe.feed(int(payload["id"]))
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        try:
            await asyncio.wait_for(asyncio.shield(click.answered_future), 60)
        finally:
            self.probe.pending.pop(int(payload["id"]), None)
        return click

    async def start_game(self, channel_id: int) -> None:
        """Start a Tinker game in ``channel_id`` with the slash command; remember its board."""
        data = payloads.slash_data(self.snowflakes.next(), "tinker", (), path=("start",))
        click = await self.feed(self._payload(2, channel_id, STARTER, data))
        answer = click.answered_future.result()
        assert click.kind == 4 and answer is not None, (click, answer)
        self.boards[channel_id] = answer["resource"]["message"]

    def next_click(self, channel_id: int) -> dict[str, Any] | None:
        """Return a click on a random enabled component of the channel's board, or None."""
        board = self.boards[channel_id]
        live = [c for c in payloads.iter_components(board.get("components") or [])
                if c.get("type") in (2, 3) and not c.get("disabled")]
        if not live:
            return None
        chosen = self.random.choice(live)
        values = None
        if chosen["type"] == 3:
            values = [self.random.choice(chosen["options"])["value"]]
        data = payloads.component_data(chosen["custom_id"], chosen["type"], values)
        return self._payload(3, channel_id, USER, data, board)

    async def click(self, channel_id: int, *, alone: bool = False) -> Click:
        """Click once on the channel's board (restarting a finished game); return its record.

        ``alone`` (one click in flight) also notes where the click's time went.
        """
        payload = self.next_click(channel_id)
        if payload is None:
            await self.start_game(channel_id)
            self.result.restarts += 1
            payload = self.next_click(channel_id)
            assert payload is not None
        click = await self.feed(payload)
        answer = click.answered_future.result()
        if answer is None:
            self.result.errors += 1
        elif click.kind == 7:
            self.result.updates += 1
            self.boards[channel_id] = answer["resource"]["message"]
            self.last_update = (channel_id, click.body or {})
        else:
            self.result.refusals += 1
        if alone and click.handler and click.answer and click.sent:
            self.result.stages.append((click.handler - click.fed, click.answer - click.handler,
                                       click.sent - click.answer, click.answered - click.sent))
        return click

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
        channels = list(self.channels)
        cpu = time.process_time()
        for index in range(clicks):
            click = await self.click(channels[index % len(channels)], alone=True)
            await self.handlers_done()
            if click.sent:
                self.result.alone.append(click.sent - click.fed)
                self.result.alone_answered.append(click.answered - click.fed)
        self.result.alone_cpu = time.process_time() - cpu

    async def loaded(self, seconds: float, profile: cProfile.Profile | None = None) -> None:
        """Let every game click at once, each again as soon as its answer arrived.

        With ``profile``, the phase runs under it (and is slower for it).
        """
        stop = time.perf_counter() + seconds
        latencies = self.result.loaded

        async def player(channel_id: int) -> None:
            while time.perf_counter() < stop:
                click = await self.click(channel_id)
                if click.sent:
                    latencies.append(click.sent - click.fed)

        began, cpu = time.perf_counter(), time.process_time()
        if profile is not None:
            profile.enable()
        await asyncio.gather(*(player(c) for c in self.channels))
        await self.handlers_done()
        if profile is not None:
            profile.disable()
        self.result.load_seconds = time.perf_counter() - began
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
    ("json", ("/json/", "orjson")),
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


async def bare_posts(bench: Bench, api_base: str, times: int) -> list[float]:
    """Time ``times`` raw aiohttp callback POSTs of the last board update, until answered.

    Each re-sends the body of the last UPDATE_MESSAGE the bot sent, on a new interaction
    on the same board, so the board is unchanged.
    """
    assert bench.last_update is not None, "no UPDATE_MESSAGE was sent"
    channel_id, body = bench.last_update
    board = bench.boards[channel_id]
    spent = []
    async with aiohttp.ClientSession() as session:
        for _ in range(times):
            payload = bench._payload(3, channel_id, USER, {"custom_id": "x"}, board)
            url = f"{api_base}/interactions/{payload['id']}/{payload['token']}/callback"
            began = time.perf_counter()
            async with session.post(url, data=json.dumps(body),
                                    headers={"Content-Type": "application/json"},
                                    params={"with_response": "1"}) as response:
                await response.read()
                response.raise_for_status()
            spent.append(time.perf_counter() - began)
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


async def logged_in_bot(
    stack: contextlib.AsyncExitStack, api_base: str, token: str, path: Path
) -> tuple[TableBot, Probe]:
    """Log a Tinker bot over ``path`` in to the fake at ``api_base``, with its probe.

    Everything is undone when ``stack`` closes.
    """
    previous = discord.http.Route.BASE
    discord.http.Route.BASE = api_base
    stack.callback(setattr, discord.http.Route, "BASE", previous)
    settings = load_settings({"DISCORD_TOKEN": token, "DATABASE_PATH": str(path),
                              "COMPUTER_DELAY_SECONDS": "0", "LOG_LEVEL": "WARNING"})
    bot = TableBot(settings, cogs=("cogs.tinker",))
    probe = Probe()
    bot.http.http_trace = probe.trace()
    await bot.login(token)
    stack.push_async_callback(bot.close)
    probe.install(bot)
    stack.callback(probe.close)
    return bot, probe


async def run_size(games: int, alone: int, seconds: float, seed: int,
                   profile: cProfile.Profile | None, same_process: bool) -> SizeResult:
    """Measure one size with a fresh fake, bot and database; return its figures."""
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-clicks-"))
        path = Path(tmp) / "bot.db"
        fake = await stack.enter_async_context(running_fake(same_process))
        session = await stack.enter_async_context(aiohttp.ClientSession())
        world = await fake.call(session, "GET", "/bench/world")
        channels = await fake.call(session, "POST", "/bench/channels", {"count": games})
        bot, probe = await logged_in_bot(stack, fake.api_base, world["token"], path)
        bench = Bench(bot, probe, world, channels, seed)
        for channel_id in bench.channels:
            await bench.start_game(channel_id)
        await bench.alone(min(200, 10 * games))  # warm-up
        bench.result = result = SizeResult(games)
        before = await fake.call(session, "GET", "/bench/stats")
        await bench.alone(alone)
        middle = await fake.call(session, "GET", "/bench/stats")
        await bench.loaded(seconds, profile)
        after = await fake.call(session, "GET", "/bench/stats")
        if not same_process:
            result.fake_alone_cpu = middle["cpu_seconds"] - before["cpu_seconds"]
            result.fake_load_cpu = after["cpu_seconds"] - middle["cpu_seconds"]
        # Restarted games' /tinker start answers are requests too; count them out.
        result.requests = after["requests"] - before["requests"] - result.restarts
        result.limit_violations = after["limit_violations"]
        result.post = await bare_posts(bench, fake.api_base, 300)
        result.floor = await floor(path, row_size(path), 1000)
        return result


def use_stdlib_json() -> None:
    """Make discord.py use the standard ``json`` module even when orjson is installed."""
    import json as stdlib

    def to_json(obj: Any) -> str:
        return stdlib.dumps(obj, separators=(",", ":"), ensure_ascii=True)

    discord.utils._to_json = to_json  # type: ignore[attr-defined]
    discord.utils._from_json = stdlib.loads  # type: ignore[attr-defined]
    discord.utils.HAS_ORJSON = False  # type: ignore[attr-defined]


def ms(seconds: float) -> str:
    """Format seconds as milliseconds with two decimals."""
    return f"{seconds * 1000:.2f}"


def report(results: list[SizeResult], same_process: bool) -> str:
    """Return the figures as Markdown tables."""
    rows = []
    for r in results:
        median = statistics.median(r.alone)
        floor_median = statistics.median(r.floor)
        fake_cpu = "—" if r.fake_alone_cpu is None else ms(r.fake_alone_cpu / len(r.alone))
        rows.append([
            r.games, len(r.alone), ms(median), ms(percentile(r.alone, 0.99)),
            ms(statistics.median(r.alone_answered)), ms(floor_median),
            f"{median / floor_median:.1f}x", ms(r.alone_cpu / len(r.alone)), fake_cpu,
        ])
    alone = table(["games", "clicks", "click median ms", "click p99 ms", "answered median ms",
                   "floor median ms", "click / floor", "bot process CPU ms per click",
                   "fake CPU ms per click"], rows)
    rows = []
    for r in results:
        parts = [statistics.median(s[i] for s in r.stages) for i in range(4)]
        rows.append([r.games, *(ms(p) for p in parts), ms(statistics.median(r.post))])
    stages = table(["games", "discord.py intake ms", "bot (tables + render) ms",
                    "discord.py answer until the socket ms", "round trip to the fake ms",
                    "bare aiohttp POST and answer ms"], rows)
    rows = []
    for r in results:
        fake_cpu = "—" if r.fake_load_cpu is None else ms(r.fake_load_cpu / r.load_clicks)
        rows.append([
            r.games, r.load_clicks, f"{r.load_clicks / r.load_seconds:.0f}",
            f"{r.load_clicks / r.load_cpu:.0f}", ms(r.load_cpu / r.load_clicks), fake_cpu,
            ms(statistics.median(r.loaded)), ms(percentile(r.loaded, 0.99)),
            f"{r.requests / r.clicks:.3f}", r.refusals, r.errors, r.restarts,
            r.limit_violations,
        ])
    loaded = table(["games", "clicks", "clicks/s", "clicks per bot CPU-second",
                    "bot process CPU ms per click", "fake CPU ms per click",
                    "median ms under load", "p99 ms under load", "requests/click", "refused",
                    "errors", "games restarted", "limit violations"], rows)
    where = "in the bot's event loop" if same_process else "in its own process"
    return (f"Fake Discord {where}.\n\nOne click at a time:\n\n{alone}\n\n"
            f"Where one click's time goes (medians):\n\n{stages}\n\n"
            f"Every game clicking at once:\n\n{loaded}")


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
    parser.add_argument("--same-process", action="store_true",
                        help="run the fake Discord in the bot's event loop (for comparison)")
    parser.add_argument("--no-orjson", action="store_true",
                        help="make discord.py use the standard json module even if orjson is"
                             " installed (for comparison)")
    parser.add_argument("--profile", action="store_true",
                        help="profile the all-at-once phase and print where its time went")
    parser.add_argument("--profile-out", metavar="FILE",
                        help="with --profile, also save the last size's raw profile here")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    sizes = [int(part) for part in args.games.split(",") if part]
    if args.no_orjson:
        use_stdlib_json()
    json_library = "orjson" if discord.utils.HAS_ORJSON else "json"
    print("Clicks on the Tinker board, bot in-process, fake Discord on loopback "
          f"({'same process' if args.same_process else 'separate process'}).")
    print(f"{machine()}; discord.py {discord.__version__} with {json_library}; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    results = []
    for games in sizes:
        profile = cProfile.Profile(time.thread_time) if args.profile else None
        results.append(asyncio.run(run_size(games, args.clicks, args.seconds, args.seed,
                                            profile, args.same_process)))
        if profile is not None:
            spent = shares(profile)
            total = sum(spent.values())
            clicks = results[-1].load_clicks
            rows = [[part, f"{100 * own / total:.1f}%", ms(own / clicks)]
                    for part, own in sorted(spent.items(), key=lambda item: -item[1])]
            print(f"Profile of this process, {games} games clicking at once ({clicks} clicks):\n")
            print(table(["part", "share of the time", "profiled ms per click"], rows) + "\n")
            if args.profile_out:
                profile.dump_stats(args.profile_out)
    print(report(results, args.same_process))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
