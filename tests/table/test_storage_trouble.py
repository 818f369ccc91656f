"""The time the store was out of reach while the bot ran is neither turn time (C6) nor
idle time: every click was refused then."""

from __future__ import annotations

import pytest

from bot.table.downtime import StorageTrouble, down_between
from tests.support import Clock, make_bot, seated_steam, set_read_only

pytestmark = pytest.mark.error_logs_expected

#: The table's turn timer ("10 min"), in seconds.
SECONDS = 600


def test_a_span_runs_from_the_first_failure_to_the_last_until_a_write_works():
    """Failures stretch one open span; a write that works closes it; closed spans are
    handed on once."""
    trouble = StorageTrouble()
    trouble.worked()  # nothing open: nothing closed
    assert trouble.outages() == []
    for now in (100.0, 130.0, 160.0):
        trouble.failed(now)
    assert trouble.outages() == [(100.0, 60.0)]  # open: counted to its last failure
    trouble.worked()
    trouble.failed(500.0)
    assert trouble.outages() == [(100.0, 60.0), (500.0, 0.0)]
    assert trouble.take_closed() == [(100.0, 60.0)]
    assert trouble.take_closed() == [] and trouble.outages() == [(500.0, 0.0)]
    assert down_between(trouble.outages(), 0.0, 1000.0) == 0.0


async def test_c6_a_database_outage_does_not_end_a_reminded_players_turn(
        discord_driver, fake_discord, tmp_path):
    """C6: Alice was reminded; then the database refuses writes for 20 minutes (her move
    is refused, the deadline loop keeps failing on her timer). When it is back her timer
    is put off by the outage: her seat does not go to a computer at once."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="10 min")
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1  # the reminder
    await discord_driver.settle()
    reminded = (await bot.tables.load(game.id)).data.timer
    assert reminded is not None and reminded.strikes == 1
    clock.advance(30)
    await set_read_only(bot.store, True)
    for _ in range(40):  # 20 minutes: the deadline loop keeps trying, and failing
        clock.advance(30)
        await bot.deadlines.run_due()
        await bot.alive_marker()
    await set_read_only(bot.store, False)
    clock.advance(6)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert not now.seats[0].away and now.data.timer is not None
    assert now.data.timer.at >= clock.now + SECONDS - 31 - 6 - 30  # the turn's rest
    await bot.alive_marker()  # the outage is kept with the others
    assert any(length >= 19 * 60 for _, length in bot.outages), bot.outages


async def test_a_database_outage_is_not_idle_time_for_a_lobby(
        discord_driver, fake_discord, tmp_path):
    """A lobby (idle after an hour) whose store was out of reach for an hour and a
    minute is not ended by the first sweep once it is back: the alive note failed every
    30 s meanwhile, and that time is not idle time."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    await discord_driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")
    clock.advance(60)
    await set_read_only(bot.store, True)
    for _ in range(122):  # 61 minutes, a failed alive note every 30 s
        clock.advance(30)
        await bot.alive_marker()
    await set_read_only(bot.store, False)
    clock.advance(30)
    assert await bot.sweep_once() == 0
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is not None
    clock.advance(3600)  # an hour of running time later it is idle
    await bot.alive_marker()
    assert await bot.sweep_once() == 1
