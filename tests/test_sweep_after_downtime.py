"""The idle sweep after a restart: the time the bot was down is not idle time (the first
sweep runs at once at the start), yet a game idle past its age anyway still ends."""

import pytest

from bot.table.service import idle_cutoffs
from tests.support import Clock, make_bot

HOUR = 3600.0


async def _lobby_then_downtime(driver, tmp_path, clock, idle_before, down, *, crash=False):
    """Open a lobby, leave it ``idle_before`` seconds, stop the bot (or let it die with
    no note of the stop) for ``down`` seconds, start it again; return (bot, lobby)."""
    bot = await driver.login(make_bot(tmp_path, clock=clock))
    await driver.slash("toy", "new", user="alice")
    lobby = await bot.tables.open_in_channel(driver.fake.channel_id)
    clock.advance(idle_before)
    if crash:  # the last note of being alive came 30 s before the process died
        await bot.store.set_meta(bot.alive_key, repr(clock() - 30))
        bot.note_alive = _nothing  # type: ignore[method-assign]
        bot.alive_marker.cancel()
    await driver.close_client(bot)
    clock.advance(down)
    bot = await driver.restart(make_bot(tmp_path, clock=clock))
    return bot, lobby


async def test_lobby_is_not_ended_for_the_time_the_bot_was_down(
        discord_driver, fake_discord, tmp_path, backend):
    """30 minutes waiting for players, 40 minutes down (LOBBY_IDLE_HOURS=1): kept."""
    clock = Clock()
    bot, lobby = await _lobby_then_downtime(discord_driver, tmp_path, clock, 30 * 60, 40 * 60)
    assert await bot.sweep_once() == 0, "the lobby was ended the moment the bot came back"
    assert (await bot.tables.load(lobby.id)).row.is_open
    clock.advance(31 * 60)  # 61 minutes idle while the bot ran: now it ends
    assert await bot.sweep_once() == 1
    assert not (await bot.tables.load(lobby.id)).row.is_open


async def test_downtime_after_a_crash_does_not_count_either(discord_driver, fake_discord,
                                                            tmp_path):
    """After a crash the downtime is known from the last note of being alive."""
    clock = Clock()
    bot, lobby = await _lobby_then_downtime(discord_driver, tmp_path, clock, 30 * 60, 40 * 60,
                                            crash=True)
    assert await bot.sweep_once() == 0
    assert (await bot.tables.load(lobby.id)).row.is_open


async def test_lobby_idle_past_its_age_before_the_stop_still_ends(
        discord_driver, fake_discord, tmp_path):
    """Idle 70 minutes before a 40-minute stop: ended at the first sweep."""
    clock = Clock()
    bot, lobby = await _lobby_then_downtime(discord_driver, tmp_path, clock, 70 * 60, 40 * 60)
    assert await bot.sweep_once() == 1
    assert not (await bot.tables.load(lobby.id)).row.is_open


@pytest.mark.parametrize(("now", "wanted"), [
    (1000.0, {"lobby": 1000.0 - HOUR - 500.0}),  # reaches back past the start: shifted
    (100.0 + HOUR, {"lobby": 100.0 - 500.0}),  # exactly at the start: shifted
    (200.0 + HOUR, {"lobby": 200.0}),  # after the start: as it is
])
def test_cutoffs_leave_out_the_downtime(now, wanted):
    """Started at 100 after 500 s down: a cutoff before the start moves back by 500 s."""
    assert idle_cutoffs(now, {"lobby": HOUR}, started=100.0, outage=500.0) == wanted
    assert idle_cutoffs(now, {"lobby": HOUR}, started=100.0, outage=0.0) == {
        "lobby": now - HOUR}


async def _nothing() -> None:
    """Stands in for a method that a dead process never runs."""
