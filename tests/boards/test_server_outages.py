"""A server Discord reports unavailable mid-game (an outage at Discord's, GUILD_DELETE
with ``unavailable``): nobody there can click, so its games wait as a removed server's
do, and go on with the time they had once Discord has the server again."""

from __future__ import annotations

import pytest

from bot.boards.gone import SERVER_GRACE_SECONDS
from bot.client import TableBot
from tests.boards.test_deleted_channels import (
    _idle_from_the_return,
    _lobby_idle_50_minutes,
    connected,
    gateway_event,
)
from tests.fake_discord import Driver, FakeDiscord
from tests.support import Clock, make_bot, seated_steam


async def _out(driver: Driver, fake: FakeDiscord, bot: TableBot) -> None:
    """Discord reports the fake's server unavailable, as in an outage."""
    await gateway_event(driver, fake, bot, "GUILD_DELETE",
                        {"id": str(fake.guild_id), "unavailable": True}, "guild_unavailable")
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.unavailable


async def _back(driver: Driver, fake: FakeDiscord, bot: TableBot) -> None:
    """Discord has the fake's server again."""
    payload = fake.guild_payload(fake.guild_id)
    payload["unavailable"] = False
    await gateway_event(driver, fake, bot, "GUILD_CREATE", payload, "guild_available")


async def test_a_turn_timer_waits_while_its_server_is_unavailable(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Alice's two-minute turn timer is running when Discord loses the server for six
    minutes: no reminder, no seat handed to a computer meanwhile, and once the server is
    back she has the time she had left; then the timer runs as before."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min")
    assert game.data.timer is not None
    left = game.data.timer.at - clock()
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await _out(discord_driver, fake_discord, bot)
        posted = len(fake_discord.channel_messages())
        for _ in range(3):
            clock.advance(121)
            await bot.deadlines.run_due()
            await discord_driver.settle()
        waited = await bot.tables.load(game.id)
        assert waited.row.version == game.row.version
        assert not any(seat.away for seat in waited.seats)
        assert waited.data.timer is not None and waited.data.timer.strikes == 0
        assert len(fake_discord.channel_messages()) == posted
        await _back(discord_driver, fake_discord, bot)
        back = await bot.tables.load(game.id)
        assert back.data.timer is not None
        assert back.data.timer.at - clock() == pytest.approx(left, abs=1.0)
        assert fake_discord.guild_id not in bot.tables.unavailable
        clock.advance(left + 1)
        await bot.deadlines.run_due()
        await discord_driver.settle()
        reminded = await bot.tables.load(game.id)
        assert reminded.data.timer is not None and reminded.data.timer.strikes == 1


async def test_an_unavailable_server_is_never_called_off_nor_its_lobby_idle(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A lobby has waited 50 minutes of its idle hour when Discord loses the server for
    longer than a removal's grace: the sweeps leave it (it is an outage, not a removal),
    and once the server is back its idle time counts from the return."""
    clock = Clock()
    bot, lobby = await _lobby_idle_50_minutes(discord_driver, fake_discord, tmp_path, clock)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await _out(discord_driver, fake_discord, bot)
        clock.advance(SERVER_GRACE_SECONDS + 60)
        assert await bot.sweep_once() == 0
        assert (await bot.store.get_game(lobby.id)).status == "lobby"
        await _back(discord_driver, fake_discord, bot)
        await _idle_from_the_return(bot, lobby, clock)


async def test_a_server_unavailable_when_a_start_looks_waits_until_it_is_back(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The bot starts while Discord reports a table's server unavailable: the start's
    look notes the outage, so the table's timer waits rather than reminding a player
    who cannot click, and goes on once the server is there."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min")
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        guild = bot.get_guild(fake_discord.guild_id)
        assert guild is not None
        guild.unavailable = True  # as READY leaves a server Discord has not sent
        await bot.boards.messages.gone.missed_while_down(bot, None, None)
        assert fake_discord.guild_id in bot.tables.unavailable
        clock.advance(5 * 60)
        await bot.deadlines.run_due()
        await discord_driver.settle()
        waited = await bot.tables.load(game.id)
        assert waited.data.timer is not None and waited.data.timer.strikes == 0
        await _back(discord_driver, fake_discord, bot)
        assert fake_discord.guild_id not in bot.tables.unavailable
        back = await bot.tables.load(game.id)
        assert back.data.timer is not None and back.data.timer.at > clock()
