"""A turn timer does not run while the bot is down (ruling C6 with restarts): a player
reminded just before a stop, or whose turn began just before a crash, keeps the running
time they had left when the bot is back, and the board shows the timer's new end."""

from __future__ import annotations

import pytest

from bot.table import downtime
from bot.table.data import TurnTimer
from tests.cogs.test_turn_timers import _reminders, _timer_ends
from tests.support import Clock, make_bot, pings_sent, seated_steam

COGS = ("cogs.steam",)
#: The turn timer the tables here start with, and its length in seconds.
TIMER, SECONDS = "10 min", 600
HOUR = 3600.0


async def _steam(driver, fake, tmp_path, clock):
    """Start a three-seat Steam to Solar table with a turn timer; return bot and game."""
    return await seated_steam(driver, fake, tmp_path, clock=clock, turn_timer=TIMER)


async def _nothing() -> None:
    return None


async def _down(driver, bot, tmp_path, clock, seconds, *, crash_after=None):
    """Stop the bot (or let it die ``crash_after`` s after its last note of being alive),
    keep it down ``seconds``, start it again and run the deadlines due; return the bot."""
    if crash_after is not None:
        await bot.store.set_meta(bot.alive.alive_keys[0], repr(clock() - crash_after))
        bot.alive.note_alive = _nothing  # type: ignore[method-assign]
        bot.alive_marker.cancel()
    await driver.close_client(bot)
    clock.advance(seconds)
    bot = await driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await bot.deadlines.run_due()
    await driver.settle()
    return bot


async def test_c6_a_reminded_player_keeps_their_time_over_a_restart(
        discord_driver, fake_discord, tmp_path):
    """Reminded, then 30 s later an hour's stop: 570 s of running time are left."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1  # the reminder
    clock.advance(30)
    bot = await _down(discord_driver, bot, tmp_path, clock, HOUR)
    game = await bot.tables.load(game.id)
    assert not game.row.seats[0].get("away"), game.row.events[-1:]
    timer = game.data.timer
    assert timer is not None and timer.strikes == 1
    assert timer.at == pytest.approx(clock() + SECONDS - 30, abs=0.01)
    board = fake_discord.get_message(game.row.board_message_id)
    assert _timer_ends(board) == [int(timer.at)]
    clock.advance(SECONDS - 31)
    assert await bot.deadlines.run_due() == 0  # one second of her time is left
    clock.advance(2)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.seats[0].get("away")


async def test_c6_no_reminder_at_once_after_a_crash(discord_driver, fake_discord, tmp_path):
    """A turn 100 s old, a crash 30 s after the bot's last note of being alive, an hour
    down: the time since that note is not known to have run, so 530 s are left."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(100)
    bot = await _down(discord_driver, bot, tmp_path, clock, HOUR, crash_after=30)
    assert _reminders(fake_discord) == []
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and timer.strikes == 0
    assert timer.at == pytest.approx(clock() + SECONDS - 70, abs=0.01)
    clock.advance(SECONDS - 70 + 1)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert len(_reminders(fake_discord)) == 1


async def test_c6_an_outage_is_not_counted_twice(discord_driver, fake_discord, tmp_path):
    """Two stops during one run of the timer: each is left out once, no more."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    started = clock()
    clock.advance(200)
    bot = await _down(discord_driver, bot, tmp_path, clock, HOUR)
    clock.advance(100)
    bot = await _down(discord_driver, bot, tmp_path, clock, 2 * HOUR)
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and (timer.seat, timer.strikes) == (0, 0)
    assert timer.at == pytest.approx(started + SECONDS + 3 * HOUR, abs=0.01)


async def test_c6_a_timer_that_ran_out_before_the_stop_still_reminds(
        discord_driver, fake_discord, tmp_path):
    """The whole 10 minutes ran before an outage: the reminder comes at the start."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(SECONDS + 5)
    bot = await _down(discord_driver, bot, tmp_path, clock, HOUR)
    assert len(_reminders(fake_discord)) == 1
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and timer.strikes == 1


def test_a_timer_stored_without_its_start_is_read_and_written_as_before():
    """A timer saved by an older release has no ``since``: read as None, written back
    without it; a timer that has one keeps it."""
    old = TurnTimer.from_json({"seat": 1, "at": 500.0, "strikes": 1})
    assert old.since is None and old.to_json() == {"seat": 1, "at": 500.0, "strikes": 1}
    new = TurnTimer(0, 700.0, 0, since=100.0)
    assert TurnTimer.from_json(new.to_json()) == new


def test_down_between_counts_only_the_outages_inside_the_span():
    outages = [(100.0, 50.0), (120.0, 60.0), (400.0, 100.0)]  # the first two overlap
    assert downtime.down_between(outages, 0, 1000) == 80 + 100
    assert downtime.down_between(outages, 150, 450) == 30 + 50
    assert downtime.down_between(outages, 200, 400) == 0
    assert downtime.down_between([], 0, 1000) == 0


async def test_c6_a_timer_running_over_a_stop_shows_its_new_end_at_once(
        discord_driver, fake_discord, tmp_path):
    """A 1 h timer 60 s into its run, then 10 minutes down: as soon as the bot is back,
    the timer ends 10 minutes later than before and the board says so (not only once
    the old end has passed); the next restart with no outage moves nothing."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="1 h")
    before = game.data.timer.at
    clock.advance(60)
    await discord_driver.close_client(bot)
    clock.advance(600)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await bot.restart._timers  # the start's put-off
    await discord_driver.settle()
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer.at == pytest.approx(before + 600, abs=0.01) and timer.strikes == 0
    board = fake_discord.get_message(game.row.board_message_id)
    assert _timer_ends(board) == [int(timer.at)]
    await discord_driver.close_client(bot)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    assert bot.restart._timers is None  # no outage: nothing to put off
    assert (await bot.tables.load(game.id)).data.timer.at == pytest.approx(timer.at, abs=0.01)


async def test_c6_a_notice_grace_time_does_not_run_while_the_bot_is_down(
        discord_driver, fake_discord, tmp_path):
    """A turn 10 s old, then ten minutes down: the player still has 35 s of the 45 s grace
    time before she is pinged, and is pinged once they have run (no turn timer here)."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock)
    alice = fake_discord.user("alice").id
    clock.advance(10)
    bot = await _down(discord_driver, bot, tmp_path, clock, 600)
    assert pings_sent(fake_discord) == []
    due = (await bot.tables.load(game.id)).data.notice_due
    assert due is not None and due.at == pytest.approx(clock() + 35, abs=0.01)
    clock.advance(34)
    assert await bot.deadlines.run_due() == 0
    clock.advance(2)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice]


async def test_c6_a_notice_held_into_the_turns_last_quarter_leaves_the_ping_to_the_reminder(
        discord_driver, fake_discord, tmp_path):
    """A 2-minute turn whose notice is due at 45 s: the bot stops at 40 s and is back at
    95 s (under a minute: not an outage), in the turn's last quarter. The notice is not
    posted; the timer's reminder, at its end, pings Alice once, as when her notice would
    have come that late anyway."""
    clock = Clock()
    bot, _game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min")
    alice = fake_discord.user("alice").id
    clock.advance(40)
    await discord_driver.close_client(bot)
    clock.advance(55)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert pings_sent(fake_discord) == []
    clock.advance(26)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice]
    assert len(_reminders(fake_discord)) == 1
