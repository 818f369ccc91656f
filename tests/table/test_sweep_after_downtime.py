"""The idle sweep after a restart: the time the bot was down is not idle time (the first
sweep runs at once at the start), yet a game idle past its age anyway still ends."""

import pytest

from bot.alive import OUTAGES
from bot.table import downtime
from bot.table.downtime import idle_cutoffs
from tests.support import Clock, make_bot, shard_down

HOUR = 3600.0


async def _lobby_then_downtime(driver, tmp_path, clock, idle_before, down, *, crash=False):
    """Open a lobby, leave it ``idle_before`` seconds, stop the bot (or let it die with
    no note of the stop) for ``down`` seconds, start it again; return (bot, lobby)."""
    bot = await driver.login(make_bot(tmp_path, clock=clock))
    await driver.slash("toy", "new", user="alice")
    lobby = await bot.tables.open_in_channel(driver.fake.channel_id)
    clock.advance(idle_before)
    if crash:  # the last note of being alive came 30 s before the process died
        await bot.store.set_meta(bot.alive.alive_keys[0], repr(clock() - 30))
        bot.alive.note_alive = _nothing  # type: ignore[method-assign]
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
    assert idle_cutoffs(now, {"lobby": HOUR}, [(-400.0, 500.0)]) == wanted
    assert idle_cutoffs(now, {"lobby": HOUR}, []) == {"lobby": now - HOUR}


@pytest.mark.parametrize(("now", "wanted"), [
    # both outages after the cutoff: it moves back by both
    (3000.0, 3000.0 - HOUR - 500.0 - 100.0),
    # only the later outage is after the cutoff
    (4500.0, 4500.0 - HOUR - 100.0),
    # none is
    (HOUR + 5000.0, 5000.0),
])
def test_cutoffs_leave_out_every_outage_after_them(now, wanted):
    """Down from -400 to 100 and from 1000 to 1100: each outage after a cutoff moves it
    back by its length, however many starts came since."""
    outages = [(-400.0, 500.0), (1000.0, 100.0)]
    assert idle_cutoffs(now, {"lobby": HOUR}, outages) == {"lobby": wanted}
    # overlapping notes of one outage (a start that died before noting it was alive)
    # count once
    assert idle_cutoffs(now, {"lobby": HOUR}, [*outages, (-400.0, 450.0)]) == {
        "lobby": wanted}


async def test_a_second_restart_keeps_the_first_outage(discord_driver, fake_discord,
                                                       tmp_path, backend):
    """30 minutes waiting, 40 minutes down, a minute up, a minute down (a deploy right
    after the outage): the lobby ran idle 31 minutes (LOBBY_IDLE_HOURS=1), so it is
    kept; once it has run idle an hour it ends."""
    clock = Clock()
    bot, lobby = await _lobby_then_downtime(discord_driver, tmp_path, clock, 30 * 60, 40 * 60)
    assert await bot.sweep_once() == 0
    clock.advance(60)
    await discord_driver.close_client(bot)
    clock.advance(60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    assert await bot.sweep_once() == 0, "the 40-minute outage before was counted as idle"
    assert (await bot.tables.load(lobby.id)).row.is_open
    clock.advance(29 * 60 + 1)  # 60 minutes and a second of running idle time
    assert await bot.sweep_once() == 1
    assert not (await bot.tables.load(lobby.id)).row.is_open


async def test_damaged_outages_count_as_none(discord_driver, fake_discord, tmp_path):
    """A damaged list of outages does not stop the bot: it counts as none, and the
    outage before this start is kept in a good list again."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    await bot.store.set_meta(OUTAGES, '[[1, "x"]')
    await discord_driver.close_client(bot)
    clock.advance(600)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    assert bot.outages == [(clock() - 600, 600.0)]
    assert downtime.loads(await bot.store.get_meta(OUTAGES)) == bot.outages
    for damaged in ('{"a": 1}', "[[1, 2, 3]]", "[[1, NaN]]", "[[true, 1]]"):
        with pytest.raises(ValueError):
            downtime.loads(damaged)


def test_outages_no_cutoff_reaches_are_left_out():
    """An outage that ended more than the kept running time before now is left out; the
    running time between outages counts, not the time they lasted."""
    day = 86400.0
    outages = [(0.0, day), (3 * day, 10 * day), (14 * day, 100.0)]
    # since the first outage's end the bot ran 2 days + 1 day + (now - 14 days - 100 s)
    assert downtime.kept(outages, 14 * day + 100.0, 3 * day + 1) == outages
    assert downtime.kept(outages, 14 * day + 100.0 + 2, 3 * day + 1) == outages[1:]
    many = [(float(i * 10), 1.0) for i in range(downtime.MAX_KEPT + 5)]
    assert downtime.kept(many, many[-1][0] + 1) == many[5:]


async def _nothing() -> None:
    """Stands in for a method that a dead process never runs."""


async def test_downtime_of_a_restart_that_changes_the_shards_is_not_idle_time(
        discord_driver, fake_discord, tmp_path):
    """One process, then two shards (docs/deploy.md's steps): the new shard set has no
    note of its own, so it reads when the bot as a whole was last alive, and its
    outages; 30 minutes waiting and 40 down leave a lobby open (LOBBY_IDLE_HOURS=1)."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    await bot.store.set_meta(OUTAGES, downtime.dumps([(clock() - 7200, 1800.0)]))
    await discord_driver.slash("toy", "new", user="alice")
    lobby = await bot.tables.open_in_channel(discord_driver.fake.channel_id)
    clock.advance(30 * 60)
    await discord_driver.close_client(bot)
    clock.advance(40 * 60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    assert bot.alive.alive_keys[0] != "alive"
    assert bot.outages == [(clock() - 7200 - 70 * 60, 1800.0), (clock() - 40 * 60, 2400.0)]
    assert await bot.sweep_once() == 0, "the lobby was ended for the time the bot was down"
    assert (await bot.tables.load(lobby.id)).row.is_open


async def test_a_shard_set_reads_its_own_note_first(discord_driver, fake_discord, tmp_path):
    """A process of a sharded bot that died an hour before the others counts its own
    outage, from its shards' last note of being served, not the others' newer one."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    own_key = bot.alive.alive_keys[0]
    await _notes(discord_driver, bot, {key: repr(clock() - HOUR) for key in bot.alive.alive_keys})
    await bot.store.set_meta("alive", repr(clock()))  # another process is alive now
    await discord_driver.close_client(bot)
    clock.advance(60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    assert bot.alive.alive_keys[0] == own_key
    assert bot.outages[-1] == (clock() - HOUR - 60, HOUR + 60)


async def test_a_shard_layout_used_before_does_not_read_its_old_notes(
        discord_driver, fake_discord, tmp_path):
    """Two shards, then a week unsharded, then two shards again after 90 s down: the two
    shards' own note of a week ago is older than the layout's change, so the outage is
    the 90 s since the bot was last alive, not the week it ran unsharded."""
    clock = Clock()
    old = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    await discord_driver.close_client(old)  # leaves alive:0-1/2
    clock.advance(60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    clock.advance(7 * 86400)
    await discord_driver.close_client(bot)
    clock.advance(90)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    assert bot.outages[-1] == (clock() - 90, 90.0)
    assert downtime.down_between(bot.outages, clock() - 7 * 86400, clock() - 90) == 0


async def test_every_process_outage_is_kept_across_a_change_of_shards(
        discord_driver, fake_discord, tmp_path):
    """Shard 0's process is down two hours while shard 1's runs; later the shards are
    changed: the new shard set's outages still hold those two hours (each process keeps
    its own list of outages, and a start reads every list)."""
    clock = Clock()
    b, down = await shard_down(discord_driver, tmp_path, clock, 0, 2 * HOUR)
    a = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=0))
    assert a.outages[-1] == (down, 2 * HOUR)
    await discord_driver.close_client(b)  # then shard 1's process alone is restarted
    clock.advance(60)
    b = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=1))
    # the whole bot's list: shard 1's games are given shard 0's outage too (the safe side)
    assert downtime.down_between(b.outages, down, down + 2 * HOUR) == 2 * HOUR
    await discord_driver.close_client(a)
    await discord_driver.close_client(b)
    clock.advance(60)
    new = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=4))
    assert downtime.down_between(new.outages, down, down + 2 * HOUR) == 2 * HOUR
    assert new.outages[-1][0] + new.outages[-1][1] == clock()


async def test_the_same_count_split_another_way_reads_each_shards_note(
        discord_driver, fake_discord, tmp_path):
    """Two shards in two processes, then one process serving both for a week, then two
    again after 90 s down: each shard's note is its own whichever process served it, so
    the week is no outage."""
    clock = Clock()
    a = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=0))
    b = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=1))
    await discord_driver.close_client(a)
    await discord_driver.close_client(b)
    clock.advance(60)
    await _serve(discord_driver, await discord_driver.login(
        make_bot(tmp_path, clock=clock, SHARD_COUNT=2)), clock, 7 * 86400)
    clock.advance(90)
    a = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=0))
    assert downtime.down_between(a.outages, clock() - 7 * 86400, clock() - 90) == 0
    assert a.outages[-1] == (clock() - 90, 90.0)


async def test_a_layout_noted_with_a_time_to_come_is_noted_again(
        discord_driver, fake_discord, tmp_path):
    """A shard layout noted with a time later than now (damaged, or a clock that ran
    ahead) would hide every outage and redraw: it is noted again as no change known."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    await bot.store.set_meta("shard_layout", f"2 shards@{clock() + 10 * 365 * 86400!r}")
    await discord_driver.close_client(bot)
    clock.advance(3600)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    assert bot.outages[-1] == (clock() - 3600, 3600.0)
    assert await bot.store.get_meta("shard_layout") == "2 shards@"


async def test_the_first_start_after_an_upgrade_reads_the_notes_of_the_shards_as_one(
        discord_driver, fake_discord, tmp_path):
    """An older release noted one time per process (``alive:0-1/2``), not per shard. The
    first start after upgrading a bot whose shard count changed a month before reads that
    note: a minute down, not a month since the change."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))  # unsharded once
    await discord_driver.close_client(bot)
    clock.advance(60)
    await _serve(discord_driver, await discord_driver.login(
        make_bot(tmp_path, clock=clock, SHARD_COUNT=2)), clock, 30 * 86400)
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    await _notes(discord_driver, bot,  # as the older release left them
                 {**{key: "" for key in bot.alive.alive_keys}, "alive:0-1/2": repr(clock())})
    await discord_driver.close_client(bot)
    clock.advance(60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock, SHARD_COUNT=2))
    assert bot.outages[-1] == (clock() - 60, 60.0), bot.outages[-1]


async def _serve(driver, bot, clock: Clock, seconds: float) -> None:
    """Let ``bot`` serve for ``seconds`` (its last alive note at their end), then stop."""
    clock.advance(seconds)
    await bot.alive.note_alive()
    await driver.close_client(bot)


async def _notes(driver, bot, notes: dict[str, str]) -> None:
    """Stop ``bot`` noting that it is alive (it is about to die), then store ``notes``
    (meta key to value) as what it left."""
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    bot.alive_marker.cancel()
    await driver.settle()
    for key, value in notes.items():
        await bot.store.set_meta(key, value)

