"""The heartbeat's "connected": READY received is not enough, the gateway connection
must be up now. discord.py keeps its ready flag while it reconnects a connection that
dropped (only ``close()`` clears it), so a bot that lost the gateway, and keeps failing
to reconnect, must still be reported not connected: per shard for a sharded bot."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import yarl
from discord.gateway import DiscordWebSocket

from bot.client import TableBot
from bot.health import Heartbeat, gateway_state, judge, take_pulse
from tests.fake_discord import Driver, FakeDiscord
from tests.support import make_bot

WAIT = 15.0


async def until(condition: Callable[[], bool], what: str) -> None:
    """Wait (up to WAIT seconds) until ``condition()`` holds."""
    async with asyncio.timeout(WAIT):
        while not condition():
            await asyncio.sleep(0.01)
    assert condition(), what


@contextlib.asynccontextmanager
async def connected(driver: Driver, fake: FakeDiscord, bot: TableBot,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Connect the logged-in ``bot`` to the fake gateway until it is ready, and close it
    on exit."""
    monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
    task = asyncio.create_task(bot.connect(), name="gateway-connection")
    try:
        await asyncio.wait_for(bot.wait_until_ready(), WAIT)
        yield
    finally:
        await driver.close_client(bot)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


def hold_reconnects(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Make every new gateway connection wait until the returned event is set (the
    network is down: discord.py keeps trying, its ready flag still set)."""
    original = DiscordWebSocket.from_client
    network_back = asyncio.Event()

    async def from_client(cls: Any, *args: Any, **kwargs: Any) -> DiscordWebSocket:
        await network_back.wait()
        return await original(*args, **kwargs)

    monkeypatch.setattr(DiscordWebSocket, "from_client", classmethod(from_client))
    return network_back


def is_connected(client: discord.Client) -> bool:
    """What the heartbeat would say about the gateway now."""
    return gateway_state(client)[0]


async def test_a_freshly_ready_bot_is_connected_and_a_dropped_one_is_not(
        discord_driver: Driver, fake_discord: FakeDiscord, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Connected once READY (with a latency); the connection dropped and not back: not
    connected, the check fails, though discord.py still says ready; back: connected."""
    bot = await discord_driver.login(make_bot(tmp_path))
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await until(lambda: is_connected(bot), "the ready bot is reported connected")
        beat = await take_pulse(bot)
        assert beat.connected and beat.latency_ms is not None and judge(beat, beat.time) == []

        network_back = hold_reconnects(monkeypatch)
        [session] = fake_discord.gateway.connected
        assert session.ws is not None
        await session.ws.close(code=1001, message=b"dropped")
        await until(lambda: not is_connected(bot), "the dropped bot is reported down")
        assert bot.is_ready() and not bot.is_closed()  # what discord.py itself still says
        beat = await take_pulse(bot)
        assert (beat.connected, beat.latency_ms) == (False, None)
        assert "the bot is not connected to Discord" in judge(beat, beat.time)

        network_back.set()
        await until(lambda: is_connected(bot), "the reconnected bot is reported connected")


async def test_one_shard_down_means_not_connected(
        discord_driver: Driver, fake_discord: FakeDiscord, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A process running two shards: both up, connected; one dropped, not connected."""
    bot = await discord_driver.login(make_bot(tmp_path, SHARD_COUNT=2))
    assert isinstance(bot, discord.AutoShardedClient)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await fake_discord.gateway.wait_for_sessions(2, timeout=WAIT)
        await until(lambda: is_connected(bot), "both shards up: connected")

        hold_reconnects(monkeypatch)
        session = fake_discord.gateway.session_for_shard(1)
        assert session is not None and session.ws is not None
        await session.ws.close(code=1001, message=b"dropped")
        await until(lambda: not is_connected(bot), "shard 1 down: not connected")
        shards = bot.shards
        assert not shards[0].is_closed() and math.isfinite(shards[0].latency)
        assert bot.is_ready()


async def test_the_state_a_drop_leaves_in_discord_py_is_not_connected() -> None:
    """What ``DiscordWebSocket.poll_event`` leaves when the socket closes (the keep-alive
    stopped and dropped: latency infinite), kept by ``Client.connect`` while it retries;
    and a ready client with no websocket at all."""
    client = discord.Client(intents=discord.Intents.none())
    client._ready = asyncio.Event()
    client._ready.set()  # READY was received once
    socket = SimpleNamespace(closed=False)  # the socket as if still open: the latency alone
    ws = DiscordWebSocket(socket=socket, loop=asyncio.get_running_loop())  # type: ignore[arg-type]
    ws._keep_alive = None
    client.ws = ws
    assert ws.open and not math.isfinite(ws.latency)
    assert gateway_state(client) == (False, None)
    socket.closed = True  # closed, though a latency is still known
    ws._keep_alive = SimpleNamespace(latency=0.05)  # type: ignore[assignment]
    assert not ws.open and math.isfinite(ws.latency)
    assert gateway_state(client) == (False, 50.0)
    assert judge(Heartbeat(0.0, False, True), 1.0) == ["the bot is not connected to Discord"]
    client.ws = None  # type: ignore[assignment]
    assert gateway_state(client) == (False, None)
