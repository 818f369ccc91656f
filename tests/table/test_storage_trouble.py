"""The time the store was out of reach while the bot ran is neither turn time (C6) nor
idle time: every click was refused then."""

from __future__ import annotations

import asyncio

from bot.alive import OUTAGES
from bot.table import downtime
from bot.table.downtime import StorageTrouble, down_between
from db.errors import StorageError
from tests.support import Clock, make_bot, seated_steam, set_read_only

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


async def _out_of_reach(bot, clock, notes: int) -> None:
    """The database refuses writes for ``notes`` alive notes, one every 30 s, each
    failing; then it is back."""
    await set_read_only(bot.store, True)
    for _ in range(notes):
        clock.advance(30)
        await bot.alive_marker()
    await set_read_only(bot.store, False)


async def _reminded_then_out_of_reach(driver, fake, tmp_path, clock):
    """A seated Steam table with a 10 min timer: Alice is reminded, then the database
    refuses writes for 20 minutes (the deadline loop and the alive note keep failing),
    then it is back, 6 s before the loop's next try. Return the bot and the game."""
    bot, game = await seated_steam(driver, fake, tmp_path, clock=clock, turn_timer="10 min")
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1  # the reminder
    await driver.settle()
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
    return bot, game


async def test_c6_a_database_outage_does_not_end_a_reminded_players_turn(
        discord_driver, fake_discord, tmp_path):
    """C6: Alice was reminded; then the database refuses writes for 20 minutes (her move
    is refused, the deadline loop keeps failing on her timer). When it is back her timer
    is put off by the outage: her seat does not go to a computer at once."""
    clock = Clock()
    bot, game = await _reminded_then_out_of_reach(discord_driver, fake_discord, tmp_path,
                                                  clock)
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
    await _out_of_reach(bot, clock, 122)  # 61 minutes
    clock.advance(30)
    assert await bot.sweep_once() == 0
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is not None
    clock.advance(3600)  # an hour of running time later it is idle
    await bot.alive_marker()
    assert await bot.sweep_once() == 1


async def test_a_span_handed_on_is_counted_while_it_is_being_stored(
        discord_driver, fake_discord, tmp_path):
    """C6: the alive note that closes a span of trouble counts it at once, while it is
    being stored with the outages: a deadline handled meanwhile (the loop retries every
    5 s) puts the reminded player's timer off; her seat does not go to a computer."""
    clock = Clock()
    bot, _game = await _reminded_then_out_of_reach(discord_driver, fake_discord, tmp_path,
                                                   clock)

    storing, go_on = asyncio.Event(), asyncio.Event()
    original = bot.alive.note_outage

    async def slow_note_outage(*args):
        storing.set()
        await go_on.wait()  # its reads and writes take a moment
        return await original(*args)

    bot.alive.note_outage = slow_note_outage
    marker = asyncio.create_task(bot.alive_marker())
    await storing.wait()
    await bot.deadlines.run_due()  # the retry of Alice's deadline lands meanwhile
    await discord_driver.settle()
    go_on.set()
    await marker
    now = await bot.tables.load(_game.id)
    assert not now.seats[0].away, "the outage was not counted: Alice's seat was handed on"


async def test_a_failed_read_of_the_kept_outages_does_not_forget_them(
        discord_driver, fake_discord, tmp_path):
    """The bot was down 10 hours before its start. Later the database is out of reach
    for a minute; when it is back, the read of the kept outages fails once as the alive
    note stores the new span: the kept list is not written over with the new span
    alone, so the 10-hour outage is not forgotten."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    await discord_driver.close_client(bot)
    clock.advance(10 * 3600)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    long = [o for o in bot.outages if o[1] >= 10 * 3600 - 1]
    assert long, bot.outages
    await set_read_only(bot.store, True)
    for _ in range(3):
        clock.advance(30)
        await bot.alive_marker()
    await set_read_only(bot.store, False)
    clock.advance(30)

    real_get_meta = bot.store.get_meta
    failed = []

    async def flaky_get_meta(key):
        if key.startswith(OUTAGES) and not failed:
            failed.append(key)
            raise StorageError("connection reset")
        return await real_get_meta(key)

    bot.store.get_meta = flaky_get_meta
    await bot.alive_marker()
    bot.store.get_meta = real_get_meta
    assert failed
    stored = downtime.loads(await bot.store.get_meta(OUTAGES))
    assert any(o in stored for o in long), stored
    assert any(o in bot.outages for o in long), bot.outages


async def test_a_stop_right_after_the_database_is_back_keeps_its_outage(
        discord_driver, fake_discord, tmp_path):
    """The database was out of reach for 20 minutes; it is back, and the bot is stopped
    before its next alive note: the stop keeps the span with the outages, so the next
    start still counts those 20 minutes as no idle or turn time."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    await _out_of_reach(bot, clock, 40)  # 20 minutes
    clock.advance(5)
    await discord_driver.close_client(bot)
    clock.advance(5)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    assert any(length >= 19 * 60 for _, length in bot.outages), bot.outages


async def test_the_outages_held_in_memory_are_those_stored(discord_driver, fake_discord,
                                                           tmp_path):
    """A 30 s hiccup every two hours for 100 days: the bot holds in memory what it stores
    (the newest, back to as far as an idle cutoff reaches), not every outage it saw."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, BOARD_IMAGES="off"))
    trouble = bot.tables.core.trouble
    for _ in range(1200):
        clock.advance(7200)
        trouble.failed(clock())
        trouble.failed(clock() + 30)
        trouble.worked()
        clock.advance(30)
        await bot.restart.note_alive()
    assert 0 < len(bot.outages) <= downtime.MAX_KEPT
    assert clock() - bot.outages[0][0] < 2 * bot.alive.keep_seconds
    assert bot.outages[-1][0] == clock() - 30  # the newest is kept
    assert bot.tables.turns.outages == bot.outages


async def test_an_outage_logs_one_warning_however_many_clicks_it_refuses(
        discord_driver, fake_discord, tmp_path, caplog):
    """The database refuses writes while ten clicks come: each clicker is told, the log
    has one warning for the outage (not one a click), and one line when a save works
    again, with how many reads and saves were refused."""
    import logging

    from tests.support import board_ids
    caplog.set_level(logging.DEBUG, logger="bot.table.core")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    await discord_driver.settle()
    await set_read_only(bot.store, True)
    caplog.clear()
    for _ in range(10):
        refused = await discord_driver.click(board, board_ids(board)[0], user="alice")
        assert refused.ephemeral and "storage" in refused.content
    warnings = [r for r in caplog.records
                if r.name == "bot.table.core" and r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "until a save works again" in warnings[0].getMessage()
    await set_read_only(bot.store, False)
    moved = await discord_driver.click(board, board_ids(board)[0], user="alice")
    assert moved.response_type == 7
    back = [r.getMessage() for r in caplog.records
            if r.name == "bot.table.core" and r.levelno == logging.INFO]
    assert len(back) == 1 and "10 reads and saves were refused" in back[0]


async def test_an_outage_the_alive_note_finds_first_and_ends_is_two_lines(
        discord_driver, fake_discord, tmp_path, caplog):
    """The note of being alive is the first write to fail, in a quiet minute; clicks are
    refused after it; the next note is the first write to work again. The log says once
    that reads and saves are refused, and once that the store works again, with how long
    it was out."""
    import logging

    from tests.support import board_ids
    caplog.set_level(logging.DEBUG)
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    await discord_driver.settle()
    await set_read_only(bot.store, True)
    caplog.clear()
    clock.advance(30)
    await bot.alive_marker()
    for _ in range(3):
        assert (await discord_driver.click(board, board_ids(board)[0], user="alice")).ephemeral
    await set_read_only(bot.store, False)
    clock.advance(600)
    await bot.alive_marker()
    lines = [r.getMessage() for r in caplog.records
             if r.name == "bot.table.core" and r.levelno >= logging.INFO]
    assert len(lines) == 2, lines
    assert "noting that the bot is alive" in lines[0] and "until a save works" in lines[0]
    assert lines[1].startswith("storage works again after 600 s; 4 reads and saves")
