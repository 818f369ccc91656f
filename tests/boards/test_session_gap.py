"""What Discord said while the bot's gateway session was lost (a network cut long enough
that the session cannot be resumed: discord.py identifies again and gets a new READY) is
never sent again: the new READY looks for it as a start does, over every game open now.
A channel deleted in the gap calls its game off; a server that removed the bot in the
gap is noted as left from the moment the connection dropped, so its turn timers wait."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.boards.gone import CHANNEL_GONE
from tests.boards.test_deleted_channels import connected, delete_channel
from tests.boards.test_gone_while_down import remove_bot
from tests.support import Clock, make_bot, seated_steam


async def _lose_session(fake, bot) -> None:
    """Drop the bot's socket with its session forgotten (no resume): it identifies again."""
    starts = fake.session_starts
    for session in list(fake.gateway.sessions.values()):
        fake.gateway.sessions.pop(session.session_id)
        if session.ws is not None:
            await session.ws.close(code=1011, message=b"gone")
    await fake.wait_until(lambda: fake.session_starts > starts, timeout=30)


async def _ready(bot) -> None:
    """Wait for the new READY (bounded)."""
    for _ in range(200):
        if bot.is_ready():
            break
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("sharded", [False, True])
async def test_a_channel_deleted_while_the_session_was_lost_ends_its_game(
        discord_driver, fake_discord, tmp_path, monkeypatch, sharded):
    """Bob's game is in a channel deleted while the session was lost: the new READY (of
    its shard, for a sharded bot) finds it gone and calls the game off, so Bob (limit
    one game) may start another."""
    shards = {"SHARD_COUNT": 1, "SHARD_IDS": 0} if sharded else {}
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",),
                                              MAX_OPEN_GAMES=1, **shards))
    doomed, kept = fake_discord.add_channel("doomed"), fake_discord.add_channel("kept")
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="bob",
                               channel=doomed)
    game = await bot.tables.open_in_channel(doomed)
    assert game is not None
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        lost = asyncio.create_task(_lose_session(fake_discord, bot))
        await asyncio.sleep(0)
        delete_channel(fake_discord, doomed)
        fake_discord.guilds[fake_discord.guild_id].channel_ids.remove(doomed)
        await lost
        await _ready(bot)
        for _ in range(100):
            row = await bot.store.get_game(game.id)
            if row is not None and row.status != "active":
                break
            await asyncio.sleep(0.05)
        await discord_driver.settle()
        assert row is not None and row.status == "abandoned" and row.events[-1] == CHANNEL_GONE
        again = await discord_driver.slash("tinker", "start", {"players": "only me"},
                                           user="bob", channel=kept)
        assert again.response_type == 4 and not again.ephemeral, again.content


@pytest.mark.parametrize("sharded", [False, True])
async def test_a_server_that_removed_the_bot_while_the_session_was_lost_waits(
        discord_driver, fake_discord, tmp_path, monkeypatch, sharded):
    """The bot was removed from the server while its session was lost: the new READY
    notes the removal, so Alice's turn timer waits (nobody there can click) instead of
    reminding her and handing her seat to a computer. A sharded client, which keeps the
    servers it had over a new session, asks Discord for the list of its servers."""
    clock = Clock()
    shards = {"SHARD_COUNT": "1", "SHARD_IDS": "0"} if sharded else {}
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min", settings=shards)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        lost = asyncio.create_task(_lose_session(fake_discord, bot))
        await asyncio.sleep(0)
        guild_id = fake_discord.guild_id
        remove_bot(fake_discord, guild_id)
        await lost
        await _ready(bot)
        for _ in range(100):
            if guild_id in bot.tables.removed:
                break
            await asyncio.sleep(0.05)
        await discord_driver.settle()
        assert guild_id in bot.tables.removed and bot.in_server(guild_id) is False
        clock.advance(121)
        await bot.deadlines.run_due()
        await discord_driver.settle()
        waited = await bot.tables.load(game.id)
        assert waited.data.timer is not None and waited.data.timer.strikes == 0


async def test_a_drop_before_the_first_ready_is_not_taken_for_a_later_one(tmp_path):
    """discord.py dispatches a disconnect before the first READY when its first identify
    is refused: that drop lost nothing. A session lost an hour later is looked for from
    its own drop, not from the first one (a removal noted hours early would be called off
    without its grace)."""
    clock = Clock()
    bot = make_bot(tmp_path, clock=clock)
    looks: list[dict[str, float]] = []
    bot.restart = SimpleNamespace(resume_computers=lambda: None,
                                  look_for_missed=lambda _shards, **kw: looks.append(kw))
    await bot.on_disconnect()
    await bot.on_ready()
    clock.advance(3600)
    await bot.on_disconnect()
    dropped = clock()
    clock.advance(30)
    await bot.on_ready()
    assert looks == [{}, {"lost_at": dropped}]
    await bot.on_disconnect()
    await bot.on_resumed()  # resumed: Discord sends what it said meanwhile
    clock.advance(30)
    await bot.on_ready()
    assert looks[-1] == {"lost_at": clock()}
