"""Benchmark: board clicks on the real bot, in-process, against the offline fake Discord.

By default the fake Discord runs as a separate process (``python -m bench.fake_server``,
on loopback), so its HTTP server, JSON and limit checks use the machine's other core and
are not charged to the bot; ``--same-process`` runs it in the bot's event loop instead,
as earlier versions of this benchmark did, for comparison.

For each size (default 100 and 1,000 games at once, one per channel) and each kind
of click, a fresh bot with the Tinker cog runs over a fresh database (a file in a
temporary directory, or with ``--backend postgresql`` a fresh database on a throwaway
PostgreSQL server on loopback), with a fresh fake; the games are started with
``/tinker start`` (the channel votes, ruling C1) and then played by random clicks on
their boards' moves (a finished game is started again, outside the timings; "Rules &
details" and buttons that ask to confirm first are not clicked: they are answered with
other messages than the board, which the bare baseline of ``bench.bare`` could not
match). Two kinds of click (``--kinds``):

* **move**: the clicking member is the only active player, so the vote is a majority
  and the move happens at once; the answer is the edited board (UPDATE_MESSAGE);
* **vote**: the starter made the game's first decision alone, so the clicking member is
  one of two active players and the click is recorded as a vote without a move (C4); the
  answer is a private acknowledgement and the bot edits the board by itself soon after
  (``BoardMessages.update_soon``). Its CPU counts that edit: one at a time, every vote's edit is
  waited for; all at once, edits of one board within a second are made as one. Each
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

Run from the repository root:
``python -m bench.clicks [--games 10,100,1000] [--kinds move,vote] [--backend sqlite]
[--images on] [--profile]``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import contextvars
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
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import aiosqlite
import discord
from discord.webhook.async_ import AsyncWebhookAdapter

from bench.common import ROOT, add_collector_option, apply_collector, machine, percentile, table
from bench.fake_server import BenchFake, bench_token
from bot.boards.layout import ASK_PREFIX
from bot.client import TableBot
from bot.config import load_settings
from tests.fake_discord import payloads
from tests.fake_discord.process import stop_process

USER = "bob"
"""The member who clicks (games are started by alice)."""

STARTER = "alice"

#: Action ids that are not moves: the table's own buttons and those that ask to confirm.
NOT_MOVES = ("table.", ASK_PREFIX)


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


Measure = Callable[["Bench", FakeHandle], Awaitable[None]]
"""A benchmark's own measured phases over a warmed-up bench and its fake."""


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


CURRENT_CLICK: contextvars.ContextVar[Click | None] = contextvars.ContextVar(
    "bench_click", default=None)
"""The click whose handler runs in this task (set by the probe's handler wrapper)."""


def body_of(params: Any) -> dict[str, Any]:
    """Return the JSON body of discord.py's request parameters, also when multipart."""
    if params.payload is not None:
        return dict(params.payload)
    for part in params.multipart or ():
        if part.get("name") == "payload_json":
            return dict(json.loads(part["value"]))
    return {}


def file_size(file: discord.File) -> int:
    """Return the size in bytes of an attachment discord.py is about to upload."""
    buffer = getattr(file.fp, "getbuffer", None)
    return len(buffer()) if buffer is not None else 0


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
    ballot: bool = False


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
        #: The size in bytes of each picture uploaded with a click's answer.
        self.picture_bytes: list[int] = []
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

    def install(self, bot: discord.Client) -> None:
        """Wrap discord.py's callback adapter, the bot's click handler and edit_message.

        For a :class:`TableBot` the click handler is marked too, and each click notes
        whether the table recorded it as a vote without a move (``Click.ballot``).
        """
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

        sizes = self.picture_bytes

        def create_response(adapter: Any, interaction_id: int, token: str, **kwargs: Any) -> Any:
            payload = body_of(kwargs["params"])
            sizes.extend(file_size(file) for file in kwargs["params"].files or ())
            coro = create(adapter, interaction_id, token, **kwargs)
            return answered(int(interaction_id), payload, coro)

        self._patch(AsyncWebhookAdapter, "create_interaction_response", create_response)
        edit_message = discord.InteractionResponse.edit_message

        async def marked_edit(response: Any, **kwargs: Any) -> Any:
            click = pending.get(response._parent.id)
            if click is not None and not click.answer:
                click.answer = time.perf_counter()
            return await edit_message(response, **kwargs)

        self._patch(discord.InteractionResponse, "edit_message", marked_edit)
        if isinstance(bot, TableBot):
            self._install_table(bot)

    def _install_table(self, bot: TableBot) -> None:
        """Mark when the bot's click handler starts and whether the click was a vote."""
        pending = self.pending
        handle_click = bot.boards.handle_click
        act = bot.tables.act

        async def marked_click(interaction: discord.Interaction[Any], *args: Any) -> None:
            click = pending.get(interaction.id)
            if click is not None:
                click.handler = time.perf_counter()
                CURRENT_CLICK.set(click)
            await handle_click(interaction, *args)

        async def marked_act(*args: Any, **kwargs: Any) -> Any:
            play = await act(*args, **kwargs)
            click = CURRENT_CLICK.get()
            if click is not None:
                click.ballot = play.ballot is not None
            return play

        bot.boards.handle_click = marked_click  # type: ignore[method-assign]
        bot.tables.act = marked_act  # type: ignore[method-assign]

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
    #: Clicks acknowledged late (deferred after 2 s) and answered by an edit.
    deferred: int = 0
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
    kind: str = "move"
    votes: int = 0
    setup_requests: int = 0
    #: The bodies of the board updates the bot answered with after the warm-up, in
    #: order (the last :data:`BODIES_KEPT`): the boards a bare bot answers with in turn.
    bodies: list[dict[str, Any]] = field(default_factory=list)
    backend: str = "sqlite"

    @property
    def clicks(self) -> int:
        """Clicks measured in both phases."""
        return len(self.alone) + len(self.loaded)


#: How many of the bot's answer bodies a measurement keeps (the newest).
BODIES_KEPT = 4000


class Bench:
    """One bot over one database, with ``games`` boards in as many channels."""

    def __init__(self, bot: discord.Client, probe: Probe, world: dict[str, Any],
                 channels: list[dict[str, Any]], seed: int, kind: str = "move",
                 window: int | None = None) -> None:
        self.bot = bot
        self.kind = kind
        self.window = window
        self.probe = probe
        self.random = random.Random(seed)
        self.guild_id = int(world["guild_id"])
        self.application_id = int(world["application_id"])
        self.members = world["members"]
        self.channels = {int(c["id"]): c for c in channels}
        self.boards: dict[int, dict[str, Any]] = {}
        self.snowflakes = payloads.SnowflakeFactory()
        self.serial = 0
        self.result = SizeResult(len(channels), kind=kind)
        self.last_update: tuple[int, dict[str, Any]] | None = None
        #: The bodies of the board updates answered, in order (the newest kept).
        self.bodies: collections.deque[dict[str, Any]] = collections.deque(maxlen=BODIES_KEPT)
        #: Reads a message as the fake holds it now (for clicks answered late), if given.
        self.fetch: Callable[[int], Awaitable[dict[str, Any]]] | None = None
        #: CPU seconds of the event loop's thread spent by the benchmark itself (making
        #: clicks, waiting for handlers), to leave out of the bot's figures.
        self.harness_cpu = 0.0

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
        options = ([{"name": "vote_seconds", "type": 4, "value": self.window}]
                   if self.window else [])
        data = payloads.slash_data(self.snowflakes.next(), "tinker", options, path=("start",))
        click = await self.feed(self._payload(2, channel_id, STARTER, data))
        self.result.setup_requests += 1
        answer = click.answered_future.result()
        assert click.kind == 4 and answer is not None, (click, answer)
        self.boards[channel_id] = answer["resource"]["message"]
        if self.kind == "vote":
            await self.decide(channel_id)

    async def decide(self, channel_id: int) -> None:
        """Let the starter make one decision alone, so the starter counts as active (C4).

        Afterwards the clicking member's votes are one of two active players': recorded
        as votes, never a majority, until the window closes.
        """
        for _ in range(50):
            payload = self.next_click(channel_id, STARTER)
            if payload is None:
                break
            click = await self.feed(payload)
            self.result.setup_requests += 1
            answer = click.answered_future.result()
            if click.kind == 7 and answer is not None:
                self.boards[channel_id] = answer["resource"]["message"]
                return
        raise RuntimeError(f"the starter could not move in channel {channel_id}")

    def next_click(self, channel_id: int, user: str = USER) -> dict[str, Any] | None:
        """Return a click on a random enabled move of the channel's board, or None.

        Moves only: "Rules & details", "Play again" and buttons that first ask to confirm
        are answered with other messages than the board, so they are not clicked (a
        board with nothing else, a finished game's, is started again).
        """
        started = time.thread_time()
        try:
            board = self.boards[channel_id]
            live = [c for c in payloads.iter_components(board.get("components") or [])
                    if c.get("type") in (2, 3) and not c.get("disabled")
                    and not c["custom_id"].split(":")[-1].startswith(NOT_MOVES)]
            if not live:
                return None
            chosen = self.random.choice(live)
            values = None
            if chosen["type"] == 3:
                values = [self.random.choice(chosen["options"])["value"]]
            data = payloads.component_data(chosen["custom_id"], chosen["type"], values)
            return self._payload(3, channel_id, user, data, board)
        finally:
            self.harness_cpu += time.thread_time() - started

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
        if click.ballot:
            self.result.votes += 1
        if answer is None:
            self.result.errors += 1
        elif click.kind == 7:
            self.result.updates += 1
            self.boards[channel_id] = answer["resource"]["message"]
            self.last_update = (channel_id, click.body or {})
            self.bodies.append(click.body or {})
        elif click.kind == 6:  # a slow click, deferred: the bot edits the board after
            self.result.deferred += 1
            await self.edited_later(channel_id)
        elif not click.ballot:
            self.result.refusals += 1
        if alone and click.handler and click.answer and click.sent:
            self.result.stages.append((click.handler - click.fed, click.answer - click.handler,
                                       click.sent - click.answer, click.answered - click.sent))
        return click

    async def edited_later(self, channel_id: int, patience: float = 10.0) -> None:
        """Wait until the board of a deferred click is edited; then click that board."""
        board = self.boards[channel_id]
        if self.fetch is None:
            return
        give_up = time.perf_counter() + patience
        pause = 0.25  # a few reads only: they cost this process CPU too
        while time.perf_counter() < give_up:
            await asyncio.sleep(pause)
            current = await self.fetch(int(board["id"]))
            if current.get("edited_timestamp") != board.get("edited_timestamp"):
                self.boards[channel_id] = current
                return
            pause = min(pause * 2, 1.0)

    async def handlers_done(self, edits: bool = False) -> None:
        """Wait until the bot's click handlers (answers still in flight) are finished.

        With ``edits``, also until the board edits the clicks asked for (votes) are made.
        """
        me = asyncio.current_task()
        names = HANDLER_TASKS + (EDIT_TASKS if edits else ())
        while True:
            started = time.thread_time()
            busy = [t for t in asyncio.all_tasks() if t is not me and not t.done()
                    and t.get_name().startswith(names)]
            self.harness_cpu += time.thread_time() - started
            if not busy:
                return
            await asyncio.wait(busy)

    async def alone(self, clicks: int) -> None:
        """Click ``clicks`` times, one click in flight, each on the next game in turn."""
        channels = list(self.channels)
        cpu = time.process_time()
        for index in range(clicks):
            click = await self.click(channels[index % len(channels)], alone=True)
            await self.handlers_done(edits=True)
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
        self.result.load_seconds = time.perf_counter() - began
        await self.handlers_done(edits=True)  # the board edits the votes asked for
        if profile is not None:
            profile.disable()
        self.result.load_cpu = time.process_time() - cpu
        self.result.load_clicks = len(latencies)


HANDLER_TASKS = ("discord-ui-", "discord.py: on_interaction")
"""Names of the tasks discord.py runs click handlers in (DynamicItems, on_interaction)."""

EDIT_TASKS = ("board-update-",)
"""Names of the tasks the bot edits boards in by itself (after votes, closed windows)."""


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


async def floor_postgres(url: str, row_bytes: int, times: int) -> list[float]:
    """Time ``times`` bare asyncpg updates of a ``row_bytes`` row (autocommit) on ``url``."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_floor (id INTEGER PRIMARY KEY,"
                           " body TEXT)")
        await conn.execute("INSERT INTO bench_floor VALUES (1, '') ON CONFLICT DO NOTHING")
        spent = []
        for index in range(times):
            body = str(index % 10) * row_bytes
            began = time.perf_counter()
            await conn.execute("UPDATE bench_floor SET body = $1 WHERE id = 1", body)
            spent.append(time.perf_counter() - began)
        return spent
    finally:
        await conn.close()


def json_body(body: dict[str, Any]) -> dict[str, Any]:
    """Return a callback body without its uploaded files (for a plain JSON re-send)."""
    data = dict(body.get("data") or {})
    data.pop("attachments", None)
    data["embeds"] = [{k: v for k, v in embed.items() if k != "image"}
                      for embed in data.get("embeds") or []]
    return {**body, "data": data}


async def bare_posts(bench: Bench, api_base: str, times: int) -> list[float]:
    """Time ``times`` raw aiohttp callback POSTs of the last board update, until answered.

    Each re-sends the body of the last UPDATE_MESSAGE the bot sent (as JSON, without the
    picture), on a new interaction on the same board, so the board is unchanged.
    """
    if bench.last_update is None:
        return []
    channel_id, body = bench.last_update
    text = json.dumps(json_body(body))
    board = bench.boards[channel_id]
    spent = []
    async with aiohttp.ClientSession() as session:
        for _ in range(times):
            payload = bench._payload(3, channel_id, USER, {"custom_id": "x"}, board)
            url = f"{api_base}/interactions/{payload['id']}/{payload['token']}/callback"
            began = time.perf_counter()
            async with session.post(url, data=text,
                                    headers={"Content-Type": "application/json"},
                                    params={"with_response": "1"}) as response:
                await response.read()
                response.raise_for_status()
            spent.append(time.perf_counter() - began)
    return spent


ROW_SIZE = ("SELECT avg(length(seats::text) + length(options::text) + length(state::text)"
            " + length(events::text) + 80) FROM games")
"""The mean stored size of a game row (``::text`` is dropped for SQLite)."""
ROW_SIZE_SQLITE = ROW_SIZE.replace("::text", "")


@contextlib.contextmanager
def postgres_server() -> Iterator[Any]:
    """Start a throwaway PostgreSQL server on loopback (as the tests do); stop it on exit.

    Yields the server (``tests.db.pg_server.PgServer``), or None when PostgreSQL is not
    installed.
    """
    from tests.db.pg_server import PgServer, find_bin

    bindir = find_bin()
    if bindir is None:
        yield None
        return
    server = PgServer(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@dataclass
class Backend:
    """Where the bot stores its games: an SQLite file, or a PostgreSQL database."""

    name: str
    path: Path
    url: str | None = None

    def env(self) -> dict[str, str]:
        """Return the settings that select this backend."""
        env = {"DATABASE_PATH": str(self.path)}
        if self.url:
            env["DATABASE_URL"] = self.url
        return env

    async def floor(self, times: int) -> list[float]:
        """Time one bare update of a stored game's size, ``times`` times."""
        if self.url is None:
            import sqlite3

            with sqlite3.connect(self.path) as conn:
                size = int(conn.execute(ROW_SIZE_SQLITE).fetchone()[0])
            return await floor(self.path, size, times)
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            size = int(await conn.fetchval(ROW_SIZE))
        finally:
            await conn.close()
        return await floor_postgres(self.url, size, times)


async def logged_in_bot(
    stack: contextlib.AsyncExitStack, api_base: str, token: str, backend: Backend, *,
    clock: Callable[[], float] | None = None, images: bool = True,
) -> tuple[TableBot, Probe]:
    """Log a Tinker bot over ``backend`` in to the fake at ``api_base``, with its probe.

    Everything is undone when ``stack`` closes.
    """
    previous = discord.http.Route.BASE
    discord.http.Route.BASE = api_base
    stack.callback(setattr, discord.http.Route, "BASE", previous)
    settings = load_settings({"DISCORD_TOKEN": token, **backend.env(),
                              "BOARD_IMAGES": "on" if images else "off",
                              "COMPUTER_DELAY_SECONDS": "0", "LOG_LEVEL": "WARNING",
                              # one member opens every game of the benchmark
                              "MAX_OPEN_GAMES": "0"})
    bot = TableBot(settings, cogs=("cogs.tinker",), **({"clock": clock} if clock else {}))
    probe = Probe()
    bot.http.http_trace = probe.trace()
    await bot.login(token)
    stack.push_async_callback(bot.close)
    probe.install(bot)
    stack.callback(probe.close)
    return bot, probe


@contextlib.asynccontextmanager
async def backend_for(name: str, tmp: str, server: Any) -> AsyncIterator[Backend]:
    """Yield a fresh database of backend ``name`` (a new PostgreSQL database on ``server``)."""
    path = Path(tmp) / "bot.db"
    if name == "sqlite":
        yield Backend(name, path)
        return
    import asyncpg

    url = await server.new_database()
    try:
        yield Backend(name, path, url)
    finally:
        admin = await asyncpg.connect(server.admin_url)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
        finally:
            await admin.close()


async def run_size(games: int, alone: int, seconds: float, seed: int,
                   profile: cProfile.Profile | None, same_process: bool, *,
                   kind: str = "move", backend: str = "sqlite", server: Any = None,
                   images: bool = True, measure: Measure | None = None) -> SizeResult:
    """Measure one size and kind of click with a fresh fake, bot and database.

    With ``measure``, that replaces the measured phases: it is given the warmed-up
    bench and the fake, and the result holds only what it measured (and the last board).
    """
    async with contextlib.AsyncExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory(prefix="bench-clicks-"))
        store = await stack.enter_async_context(backend_for(backend, tmp, server))
        fake = await stack.enter_async_context(running_fake(same_process))
        session = await stack.enter_async_context(aiohttp.ClientSession())
        world = await fake.call(session, "GET", "/bench/world")
        channels = await fake.call(session, "POST", "/bench/channels", {"count": games})
        bot, probe = await logged_in_bot(stack, fake.api_base, world["token"], store,
                                         images=images)
        # Vote games get the longest window, so none closes during the measurement.
        bench = Bench(bot, probe, world, channels, seed, kind,
                      window=600 if kind == "vote" else None)
        bench.fetch = lambda message_id: fake.call(session, "GET", f"/bench/message/{message_id}")
        for channel_id in bench.channels:
            await bench.start_game(channel_id)
        # Warm-up: every game is clicked once, so the measured clicks meet the bot in its
        # steady state (each game's last saved row kept in memory, see db.rows.KeptRows).
        await bench.alone(max(200, games))
        bench.result = result = SizeResult(games, kind=kind, backend=backend)
        bench.bodies.clear()
        if measure is not None:
            await measure(bench, fake)
            result.bodies = list(bench.bodies)
            return result
        before = await fake.call(session, "GET", "/bench/stats")
        await bench.alone(alone)
        middle = await fake.call(session, "GET", "/bench/stats")
        await bench.loaded(seconds, profile)
        after = await fake.call(session, "GET", "/bench/stats")
        if not same_process:
            result.fake_alone_cpu = middle["cpu_seconds"] - before["cpu_seconds"]
            result.fake_load_cpu = after["cpu_seconds"] - middle["cpu_seconds"]
        # Restarted games' /tinker start answers (and first moves) are requests too.
        result.requests = after["requests"] - before["requests"] - result.setup_requests
        result.limit_violations = after["limit_violations"]
        result.bodies = list(bench.bodies)
        result.post = await bare_posts(bench, fake.api_base, 300)
        result.floor = await store.floor(1000)
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


def median_ms(values: Sequence[float]) -> str:
    """Format the median of ``values`` (seconds) in ms, or a dash when there are none."""
    return ms(statistics.median(values)) if values else "—"


def report(results: list[SizeResult], same_process: bool) -> str:
    """Return the figures as Markdown tables."""
    rows = []
    for r in results:
        median = statistics.median(r.alone)
        floor_median = statistics.median(r.floor)
        fake_cpu = "—" if r.fake_alone_cpu is None else ms(r.fake_alone_cpu / len(r.alone))
        rows.append([
            r.games, r.kind, r.backend, len(r.alone), ms(median),
            ms(percentile(r.alone, 0.99)), ms(statistics.median(r.alone_answered)),
            ms(floor_median), f"{median / floor_median:.1f}x",
            ms(r.alone_cpu / len(r.alone)), fake_cpu,
        ])
    alone = table(["games", "click", "database", "clicks", "click median ms", "click p99 ms",
                   "answered median ms", "floor median ms", "click / floor",
                   "bot process CPU ms per click", "fake CPU ms per click"], rows)
    rows = []
    for r in results:
        if not r.stages:
            continue
        parts = [statistics.median(s[i] for s in r.stages) for i in range(4)]
        rows.append([r.games, r.kind, r.backend, *(ms(p) for p in parts), median_ms(r.post)])
    stages = table(["games", "click", "database", "discord.py intake ms",
                    "bot (tables + render) ms", "discord.py answer until the socket ms",
                    "round trip to the fake ms", "bare aiohttp POST and answer ms"], rows)
    rows = []
    for r in results:
        fake_cpu = "—" if r.fake_load_cpu is None else ms(r.fake_load_cpu / r.load_clicks)
        rows.append([
            r.games, r.kind, r.backend, r.load_clicks, f"{r.load_clicks / r.load_seconds:.0f}",
            f"{r.load_clicks / r.load_cpu:.0f}", ms(r.load_cpu / r.load_clicks), fake_cpu,
            ms(statistics.median(r.loaded)), ms(percentile(r.loaded, 0.99)),
            f"{r.requests / r.clicks:.3f}", f"{r.votes / r.clicks:.2f}", r.deferred,
            r.refusals, r.errors, r.restarts, r.limit_violations,
        ])
    loaded = table(["games", "click", "database", "clicks", "clicks/s",
                    "clicks per bot CPU-second", "bot process CPU ms per click",
                    "fake CPU ms per click", "median ms under load", "p99 ms under load",
                    "requests/click", "votes/click", "deferred (answered after 2 s)", "refused",
                    "errors", "games restarted",
                    "limit violations"], rows)
    where = "in the bot's event loop" if same_process else "in its own process"
    text = (f"Fake Discord {where}.\n\nOne click at a time:\n\n{alone}\n\n"
            f"Where one click's time goes (medians; a vote's answer is not an edit, so it"
            f" has no stages):\n\n{stages}\n\nEvery game clicking at once:\n\n{loaded}")
    side = side_by_side(results)
    return text + (f"\n\nMove and vote clicks side by side:\n\n{side}" if side else "")


def side_by_side(results: list[SizeResult]) -> str:
    """Return a table comparing move and vote clicks of the same size and database."""
    rows = []
    for move in results:
        if move.kind != "move":
            continue
        vote = next((r for r in results if r.kind == "vote" and r.games == move.games
                     and r.backend == move.backend), None)
        if vote is None:
            continue
        move_cpu, vote_cpu = move.alone_cpu / len(move.alone), vote.alone_cpu / len(vote.alone)
        move_load = move.load_cpu / move.load_clicks
        vote_load = vote.load_cpu / vote.load_clicks
        rows.append([
            move.games, move.backend,
            f"{ms(statistics.median(move.alone))} / {ms(statistics.median(vote.alone))}",
            f"{statistics.median(vote.alone) / statistics.median(move.alone):.2f}",
            f"{ms(percentile(move.alone, 0.99))} / {ms(percentile(vote.alone, 0.99))}",
            f"{ms(move_cpu)} / {ms(vote_cpu)}", f"{vote_cpu / move_cpu:.2f}",
            f"{ms(move_load)} / {ms(vote_load)}", f"{vote_load / move_load:.2f}",
        ])
    if not rows:
        return ""
    return table(["games", "database", "median ms move / vote", "vote ÷ move",
                  "p99 ms move / vote", "CPU ms per click, one at a time, move / vote",
                  "vote ÷ move", "CPU ms per click under load, move / vote", "vote ÷ move"],
                 rows)


def main(argv: list[str] | None = None) -> int:
    """Run the click benchmark and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="100,1000",
                        help="comma-separated numbers of games at once (default 100,1000)")
    parser.add_argument("--clicks", type=int, default=300,
                        help="clicks measured one at a time per size and kind (default 300)")
    parser.add_argument("--seconds", type=float, default=2.0,
                        help="seconds of every game clicking at once per size and kind"
                             " (default 2)")
    parser.add_argument("--kinds", default="move,vote",
                        help="which clicks: move (a vote that is a majority alone: the move"
                             " happens), vote (recorded without a move), or both (default)")
    parser.add_argument("--backend", default="sqlite",
                        choices=("sqlite", "postgresql", "both"),
                        help="the database (postgresql starts a throwaway server on"
                             " loopback; default sqlite)")
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="boards with their picture (BOARD_IMAGES; default on)")
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
    add_collector_option(parser)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    collector = apply_collector(args.gc)
    logging.getLogger("discord.client").setLevel(logging.ERROR)  # no voice warnings
    sizes = [int(part) for part in args.games.split(",") if part]
    kinds = [part for part in args.kinds.split(",") if part]
    if set(kinds) - {"move", "vote"}:
        parser.error("--kinds takes move, vote or move,vote")
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    if args.no_orjson:
        use_stdlib_json()
    json_library = "orjson" if discord.utils.HAS_ORJSON else "json"
    print("Clicks on the Tinker board, bot in-process, fake Discord on loopback "
          f"({'same process' if args.same_process else 'separate process'}), boards "
          f"{'with' if args.images == 'on' else 'without'} their picture.")
    print(f"{machine()}; discord.py {discord.__version__} with {json_library}; {collector}; "
          f"load average before: {os.getloadavg()[0]:.2f}\n")
    results = []
    with contextlib.ExitStack() as stack:
        server = None
        if "postgresql" in backends:
            server = stack.enter_context(postgres_server())
            if server is None:
                print("PostgreSQL is not installed (no pg_ctl): its runs are skipped.\n")
                backends.remove("postgresql")
        for backend in backends:
            for games in sizes:
                for kind in kinds:
                    profile = cProfile.Profile(time.thread_time) if args.profile else None
                    results.append(asyncio.run(run_size(
                        games, args.clicks, args.seconds, args.seed, profile,
                        args.same_process, kind=kind, backend=backend, server=server,
                        images=args.images == "on")))
                    if profile is not None:
                        print_profile(profile, results[-1], args.profile_out)
    print(report(results, args.same_process))
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


def print_profile(profile: cProfile.Profile, result: SizeResult, out: str | None) -> None:
    """Print where the profiled all-at-once phase spent its time; save it to ``out``."""
    spent = shares(profile)
    total = sum(spent.values())
    clicks = result.load_clicks
    rows = [[part, f"{100 * own / total:.1f}%", ms(own / clicks)]
            for part, own in sorted(spent.items(), key=lambda item: -item[1])]
    print(f"Profile of this process, {result.games} games, {result.kind} clicks, all at once"
          f" ({clicks} clicks):\n")
    print(table(["part", "share of the time", "profiled ms per click"], rows) + "\n")
    if out:
        profile.dump_stats(out)


if __name__ == "__main__":
    raise SystemExit(main())
