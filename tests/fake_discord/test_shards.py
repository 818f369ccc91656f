"""The fake gateway with shards: several guilds, IDENTIFY with ``shard``, events routed to
the shard that owns each guild, and GET /gateway/bot recommending a shard count."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator

import aiohttp
import discord
from discord import app_commands

from tests.fake_discord import FakeDiscord, payloads
from tests.fake_discord.gateway import CLOSE_INVALID_SHARD, OP_HELLO, OP_IDENTIFY


class ShardedBot(discord.AutoShardedClient):
    """An auto-sharded client whose /ping names the shard that answered."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Answer with the shard id.")
        async def ping(interaction: discord.Interaction) -> None:
            guild = interaction.guild
            shard = guild.shard_id if guild is not None else None
            await interaction.response.send_message(f"pong from shard {shard}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5-second pause between shards: the fake has no IDENTIFY rate limit."""


@contextlib.asynccontextmanager
async def running(client: discord.Client, fake: FakeDiscord) -> AsyncIterator[None]:
    """Log ``client`` in, connect it in a task until it is ready, close it on exit."""
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=False), name="sharded-client")
    try:
        await asyncio.wait_for(client.wait_until_ready(), 15)
        yield
    finally:
        await client.close()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


async def test_guild_ids_land_on_the_requested_shard(fake_discord: FakeDiscord) -> None:
    """add_guild(shard=, shard_count=) picks ids with (id >> 22) % count == shard."""
    for shard in (0, 1, 2, 1):
        guild = fake_discord.add_guild(shard=shard, shard_count=3)
        assert guild.shard(3) == shard == payloads.shard_of(guild.id, 3)
        assert fake_discord.guild_of_channel(guild.channel_id) is guild
    assert fake_discord.snowflakes.next() > max(fake_discord.guilds)


async def test_gateway_bot_recommends_shards(fake_discord: FakeDiscord) -> None:
    """GET /gateway/bot has url, shards and session_start_limit, as the spec requires."""
    fake_discord.recommended_shards = 4
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            fake_discord.api_base + "/gateway/bot",
            headers={"Authorization": f"Bot {fake_discord.token}"},
        ) as response,
    ):
        data = await response.json()
    assert data["url"] == fake_discord.gateway_url
    assert data["shards"] == 4
    assert set(data["session_start_limit"]) == {
        "total",
        "remaining",
        "reset_after",
        "max_concurrency",
    }


async def test_auto_sharded_client_connects_both_shards_and_routes_interactions(
    fake_discord: FakeDiscord,
) -> None:
    """With 2 recommended shards each session gets its own guilds, and an interaction in a
    guild of shard 1 reaches only shard 1's connection, which answers it."""
    fake_discord.recommended_shards = 2
    first = fake_discord.add_guild("Shard Zero", shard=0, shard_count=2)
    second = fake_discord.add_guild("Shard One", shard=1, shard_count=2)
    client = ShardedBot()
    async with running(client, fake_discord):
        sessions = await fake_discord.gateway.wait_for_sessions(2)
        assert sorted(s.shard for s in sessions) == [(0, 2), (1, 2)]
        assert fake_discord.session_starts == 2
        zero = fake_discord.gateway.session_for_shard(0)
        one = fake_discord.gateway.session_for_shard(1)
        assert zero is not None and one is not None
        created_zero = {g["id"] for g in zero.received("GUILD_CREATE")}
        created_one = {g["id"] for g in one.received("GUILD_CREATE")}
        assert str(first.id) in created_zero and str(second.id) in created_one
        assert not created_zero & created_one
        assert created_zero | created_one == {str(g) for g in fake_discord.guilds}
        assert one.received("READY")[0]["shard"] == [1, 2]
        guild = client.get_guild(second.id)
        assert guild is not None and guild.shard_id == 1

        payload = fake_discord.slash_payload("ping", channel_id=second.channel_id)
        assert await fake_discord.dispatch_interaction(payload) == 1
        await fake_discord.wait_for_request("POST", rf"/interactions/{payload['id']}/")
        assert [d["id"] for d in one.received("INTERACTION_CREATE")] == [payload["id"]]
        assert zero.received("INTERACTION_CREATE") == []
        record = fake_discord.interactions[int(payload["id"])]
        reply = fake_discord.get_message(record.original_message_id or 0)
        assert reply is not None
        assert reply["content"] == "pong from shard 1"
        assert reply["guild_id"] == str(second.id)
        assert reply in fake_discord.channel_messages(second.channel_id)


async def test_guild_joined_later_is_announced_to_its_shard(fake_discord: FakeDiscord) -> None:
    """announce_guild sends GUILD_CREATE only to the owning shard; the client caches it."""
    fake_discord.recommended_shards = 2
    client = ShardedBot()
    async with running(client, fake_discord):
        await fake_discord.gateway.wait_for_sessions(2)
        late = fake_discord.add_guild("Late", shard=0, shard_count=2)
        assert await fake_discord.announce_guild(late.id) == 1
        async with asyncio.timeout(5):
            while client.get_guild(late.id) is None:
                await asyncio.sleep(0.01)
        cached = client.get_guild(late.id)
        assert cached is not None and cached.shard_id == 0
        one = fake_discord.gateway.session_for_shard(1)
        assert one is not None
        assert str(late.id) not in {g["id"] for g in one.received("GUILD_CREATE")}


async def test_identify_with_an_impossible_shard_is_closed_with_4010(
    fake_discord: FakeDiscord,
) -> None:
    """shard [2, 2] does not exist: Discord closes the socket with 4010 Invalid shard."""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(fake_discord.gateway_url) as ws,
    ):
        hello = json.loads((await ws.receive()).data)
        assert hello["op"] == OP_HELLO
        identify = {"token": fake_discord.token, "shard": [2, 2], "intents": 0, "properties": {}}
        await ws.send_str(json.dumps({"op": OP_IDENTIFY, "d": identify}))
        closing = await ws.receive()
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        assert ws.close_code == CLOSE_INVALID_SHARD
    assert fake_discord.gateway.connected == []


class _ClosingSocket:
    """A websocket whose client is gone while it does not read as closed yet."""

    closed = False

    async def send_str(self, text: str) -> None:
        raise aiohttp.ClientConnectionResetError("Cannot write to closing transport")


async def test_an_event_sent_to_a_closing_socket_stays_in_the_session_for_a_resume() -> None:
    from tests.fake_discord.gateway import GatewaySession

    session = GatewaySession("s1", _ClosingSocket())  # type: ignore[arg-type]
    await session.dispatch("INTERACTION_CREATE", {"id": "7"})  # lost on the wire, no error
    assert session.seq == 1 and session.received("INTERACTION_CREATE") == [{"id": "7"}]
