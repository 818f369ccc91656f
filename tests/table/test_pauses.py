"""A process that stood still while it was up (the machine asleep, the process or its
virtual machine frozen), or whose gateway connection was out, could not be played: that
time is neither idle time nor turn time (C6), as the time the bot was down is not."""

from __future__ import annotations

from bot.alive import OUTAGES
from bot.table import downtime
from bot.table.downtime import STILL_SECONDS, Pauses
from tests.support import Clock, make_bot, seated_steam

HOUR = 3600.0
#: The table's turn timer ("10 min"), in seconds.
SECONDS = 600


class Ticks:
    """The machine's own clock, moved by hand (it runs on with the wall clock only
    where a test says so)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _still(bot, clock: Clock, ticks: Ticks, seconds: float) -> None:
    """The bot's process stands still for ``seconds``: both clocks run on, nothing else
    happens."""
    clock.advance(seconds)
    ticks.now += seconds


def _watched(bot) -> Ticks:
    """Give the bot's pauses a clock moved by hand, and take its first look."""
    ticks = Ticks()
    bot.tables.core.pauses.ticks = ticks
    bot.tables.core.pauses.look(0.0)
    return ticks


def _reminders(fake) -> list[dict]:
    return [m for m in fake.channel_messages() if "still your turn" in (m.get("content") or "")]


async def _lobby_half_an_hour_old(driver, tmp_path, clock: Clock):
    """Alice's lobby, waiting for players for 30 minutes; return the bot (its pauses
    watched by a clock moved by hand), that clock and the lobby."""
    bot = await driver.login(make_bot(tmp_path, clock=clock))
    ticks = _watched(bot)
    await driver.slash("toy", "new", user="alice")
    lobby = await bot.tables.open_in_channel(driver.fake.channel_id)
    clock.advance(30 * 60)
    return bot, ticks, lobby


def test_a_look_after_the_process_stood_still_finds_a_pause():
    """Looks at most STILL_SECONDS apart find nothing; a later one finds the span since
    the last look but the LOOK_SECONDS the process may have run, ending at the wall
    clock's now; found pauses are handed on once."""
    ticks = Ticks()
    pauses = Pauses(ticks)
    pauses.look(1000.0)  # the first look: nothing to compare with
    ticks.now += STILL_SECONDS
    pauses.look(1000.0 + STILL_SECONDS)
    assert pauses.outages(2000.0) == []
    ticks.now += 600
    pauses.look(5000.0)  # the wall clock stepped too: the machine's clock is the measure
    assert pauses.outages(5000.0) == [(5000.0 - 570, 570.0)]
    assert pauses.take() == [(4430.0, 570.0)]
    assert pauses.take() == [] and pauses.outages(6000.0) == []


def test_a_connection_out_counts_until_it_is_back_and_then_if_long():
    """A drop counts up to now while it lasts (a deadline meanwhile waits); back within
    STILL_SECONDS it is forgotten, back later it is a pause; a stop ends those out."""
    pauses = Pauses(Ticks())
    pauses.dropped(0, 100.0)
    pauses.dropped(0, 120.0)  # (still out: the first drop counts)
    assert pauses.outages(150.0) == [(100.0, 50.0)]
    assert pauses.back(0, 100.0 + STILL_SECONDS) == 100.0
    assert pauses.outages(1000.0) == [] and pauses.back(0, 1000.0) is None
    pauses.dropped(1, 1000.0)
    pauses.dropped(2, 1500.0)
    assert pauses.back(1, 2000.0) == 1000.0
    assert pauses.take() == [(1000.0, 1000.0)]
    assert pauses.outages(2500.0) == [(1500.0, 1000.0)]  # out still: not handed on
    assert pauses.take() == []
    pauses.stopping(3000.0)
    assert pauses.take() == [(1500.0, 1500.0)] and pauses.outages(4000.0) == []


async def test_a_lobby_is_not_ended_for_the_time_the_bot_stood_still(
        discord_driver, fake_discord, tmp_path):
    """30 minutes waiting for players, then the machine sleeps 40 minutes
    (LOBBY_IDLE_HOURS=1): the sweep as it wakes keeps the lobby, as it would after a
    40-minute stop; 61 minutes of running idle end it."""
    clock = Clock()
    bot, ticks, lobby = await _lobby_half_an_hour_old(discord_driver, tmp_path, clock)
    ticks.now += 30
    await bot.alive_marker()
    _still(bot, clock, ticks, 40 * 60)
    assert await bot.sweep_once() == 0, "the lobby was ended as the machine woke"
    assert (await bot.tables.load(lobby.id)).row.is_open
    clock.advance(31 * 60)
    ticks.now += 30
    await bot.alive_marker()  # (the pause is kept with the outages, and stored)
    # all of it but the 30 s the process may have run after its last look
    assert downtime.down_between(bot.outages, 0.0, clock()) == 40 * 60 - 30
    assert downtime.loads(await bot.store.get_meta(OUTAGES))[-1][1] == 40 * 60 - 30
    assert await bot.sweep_once() == 1
    assert not (await bot.tables.load(lobby.id)).row.is_open


async def test_c6_a_turn_timer_does_not_run_while_the_bot_stood_still(
        discord_driver, fake_discord, tmp_path):
    """A minute into Alice's 10-minute turn the process is frozen for an hour: as it
    runs again her timer is put off by the hour but the 30 s it may have run (its board
    shows the new end), not ended with a reminder; the time left then runs out as
    usual."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="10 min")
    ticks = _watched(bot)
    clock.advance(60)
    _still(bot, clock, ticks, HOUR)
    assert await bot.deadlines.run_due() == 1  # looked at, and put off
    await discord_driver.settle()
    assert _reminders(fake_discord) == [], "reminded at once after the freeze"
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and timer.strikes == 0
    assert timer.at == clock() + SECONDS - 90  # (it may have run 30 s after the last look)
    clock.advance(SECONDS - 90)
    ticks.now += 30  # (its looks go on meanwhile)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert len(_reminders(fake_discord)) == 1


async def test_a_lobby_is_not_ended_for_the_time_discord_was_out_of_reach(
        discord_driver, fake_discord, tmp_path):
    """The gateway connection drops for 40 minutes while the bot and its database run
    (the host's network, an outage at Discord's): no click could come, so the lobby
    waiting 30 minutes before is kept, by the sweeps while it is out and after; a drop of
    30 s counts for nothing."""
    clock = Clock()
    bot, ticks, lobby = await _lobby_half_an_hour_old(discord_driver, tmp_path, clock)
    await bot.on_disconnect()
    clock.advance(30)
    await bot.on_resumed()  # a brief drop: nothing
    assert bot.tables.core.unplayed() == []
    await bot.on_disconnect()
    for minute in range(1, 41):  # the alive notes go on; a sweep every 10 minutes
        for _ in range(2):
            clock.advance(30)
            ticks.now += 30
            await bot.alive_marker()
        if minute % 10 == 0:
            assert await bot.sweep_once() == 0, "ended while Discord was out"
    await bot.on_resumed()
    assert await bot.sweep_once() == 0, "the lobby ended for the time Discord was out"
    assert (await bot.tables.load(lobby.id)).row.is_open
    clock.advance(31 * 60)
    assert await bot.sweep_once() == 1


async def test_c6_a_turn_timer_does_not_run_out_while_discord_is_out_of_reach(
        discord_driver, fake_discord, tmp_path):
    """The gateway drops a minute into Alice's 10-minute turn and stays out for half an
    hour: her timer, due meanwhile, is put off (no reminder, no seat handed on)."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="10 min")
    clock.advance(60)
    await bot.on_disconnect()
    for _ in range(30):
        clock.advance(60)
        await bot.deadlines.run_due()
        await discord_driver.settle()
    assert _reminders(fake_discord) == [], "reminded while nobody could click"
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and timer.strikes == 0 and timer.at > clock()


async def test_a_stop_while_discord_is_out_of_reach_counts_the_drop(
        discord_driver, fake_discord, tmp_path):
    """An admin stops the bot 40 minutes into a gateway drop and starts it 5 minutes
    later: the drop and the stop are both left out of the lobby's idle time."""
    clock = Clock()
    bot, _ticks, lobby = await _lobby_half_an_hour_old(discord_driver, tmp_path, clock)
    await bot.on_disconnect()
    clock.advance(40 * 60)
    await discord_driver.close_client(bot)
    clock.advance(5 * 60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    assert await bot.sweep_once() == 0, "the lobby ended for the drop before the stop"
    assert (await bot.tables.load(lobby.id)).row.is_open


async def test_a_new_session_after_a_long_drop_counts_it_too(
        discord_driver, fake_discord, tmp_path):
    """Discord replaced the gateway session after a 40-minute drop (a later READY, not
    a resume): the drop is a pause as well."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    await bot.on_ready()  # the session's first READY
    await discord_driver.settle()
    await bot.on_disconnect()
    dropped = clock()
    clock.advance(40 * 60)
    await bot.on_ready()
    await discord_driver.settle()
    assert bot.tables.core.pauses.outages(clock()) == [(dropped, 40 * 60)]
