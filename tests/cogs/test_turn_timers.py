"""Stored deadlines that change a board or a channel without a click (rulings C4, C6).

A turn timer's reminder, a vote window that closes without a move, an idle table ended
by the sweep: each changes what the board or the channel shows, so each is shown, and a
player coming back leaves another player's running timer as it was.
"""

from __future__ import annotations

import asyncio
import re
import time

import pytest

from bot.table.data import GIVEN_BACK
from bot.table.service import Actor
from tests.support import (
    Clock,
    board_ids,
    button,
    host_board,
    make_bot,
    pings_sent,
    press,
    seated_steam,
)

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")

COGS = ("cogs.steam",)
#: The turn timer the tables here start with, and its length in seconds.
TIMER, SECONDS = "2 min", 120


async def _steam(driver, fake, tmp_path, clock, *, people=("bob",), **options):
    """Start a Steam to Solar table as Alice with ``people``; return the bot and game."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)", **options},
                                user="alice")).message
    for name in people:
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


def _timer_ends(message: dict) -> list[int]:
    """The turn timer's end as the board shows it (``<t:…:R>``)."""
    return [int(t) for t in re.findall(r"turn timer <t:(\d+):R>", str(message["embeds"]))]


def _reminders(fake) -> list[dict]:
    return [m for m in fake.channel_messages() if "still your turn" in (m.get("content") or "")]


async def test_c6_the_board_shows_the_timer_started_again_by_its_reminder(
        discord_driver, fake_discord, tmp_path):
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    board = fake_discord.get_message(game.row.board_message_id)
    assert _timer_ends(board) == [int(clock.now + SECONDS)]
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1  # the reminder: the timer runs again
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.data.timer is not None and game.data.timer.strikes == 1
    board = fake_discord.get_message(game.row.board_message_id)
    assert _timer_ends(board) == [int(game.data.timer.at)] == [int(clock.now + SECONDS)]


async def test_c6_a_reminded_players_new_time_that_cannot_be_stored_is_told(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """C6: the reminded player opens "Rules & details" while the database refuses the
    save of her turn's new time: she gets the page and is told her time did not start
    again (so a computer plays at the time set), not left to think it did."""
    from db.errors import StorageError

    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    clock.advance(SECONDS + 1)
    await bot.deadlines.run_due()  # the reminder
    await discord_driver.settle()
    ends = (await bot.tables.load(game.id)).data.timer.at

    async def locked(*args, **kwargs):
        raise StorageError("database is locked")

    monkeypatch.setattr(bot.store, "save_game", locked)
    board = fake_discord.get_message(game.row.board_message_id)
    shown = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    monkeypatch.undo()
    assert shown.ephemeral and shown.content.startswith("Your turn's time could not be started")
    assert shown.embeds  # the page itself
    assert (await bot.tables.load(game.id)).data.timer.at == ends


async def test_c6_a_reminded_player_who_opens_the_rules_gets_a_whole_turn_again(
        discord_driver, fake_discord, tmp_path):
    """C6: after the reminder the seat goes to a computer only "until the person clicks":
    the reminded player who opens "Rules & details" is here, so her turn runs whole
    again from that click (still reminded once: the next expiry hands the seat on)."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    clock.advance(SECONDS + 1)
    await bot.deadlines.run_due()  # the reminder
    await discord_driver.settle()
    clock.advance(100)
    board = fake_discord.get_message(game.row.board_message_id)
    shown = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    end = int(clock.now + SECONDS)
    assert shown.ephemeral and shown.content.startswith("Your turn's time starts again")
    assert f"<t:{end}:R>" in shown.content
    await discord_driver.settle()
    assert _timer_ends(fake_discord.get_message(game.row.board_message_id)) == [end]
    clock.advance(21)  # the reminded turn's old end
    await bot.deadlines.run_due()
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert not now.seats[0].away and now.data.timer.strikes == GIVEN_BACK
    assert len(_reminders(fake_discord)) == 1
    # Once a turn: opening the rules again does not put the computer off again.
    clock.advance(60)
    again = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    assert not (again.content or "").startswith("Your turn's time")
    assert (await bot.tables.load(game.id)).data.timer.at == end
    clock.advance(SECONDS - 60)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).seats[0].away
    # Bob, who is not to act, opening the rules changes nothing.
    bob = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert not (bob.content or "").startswith("Your turn's time")


async def test_c6_a_player_coming_back_leaves_anothers_timer_running(
        discord_driver, fake_discord, tmp_path):
    clock = Clock()
    fake_discord.add_user("carol")
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock,
                             people=("bob", "carol"), turn_timer=TIMER)
    for voter in ("alice", "carol"):
        await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                   user=voter)
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.to_act() == 0 and game.row.seats[1].get("away")
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1  # Alice is reminded
    reminded = (await bot.tables.load(game.id)).data.timer
    assert reminded is not None and reminded.strikes == 1
    clock.advance(60)  # Bob opens "Rules & details": he is back; it is still Alice's turn
    board = fake_discord.get_message(game.row.board_message_id)
    await discord_driver.click(board, button(board, "table.rules"), user="bob")
    await discord_driver.settle()
    back = await bot.tables.load(game.id)
    assert not back.row.seats[1].get("away") and back.data.timer == reminded
    clock.advance(SECONDS - 60)  # Alice's timer runs out the second time
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.seats[0].get("away")


async def test_c6_a_table_without_notices_is_still_reminded_once_without_a_ping(
        discord_driver, fake_discord, tmp_path):
    clock = Clock()
    bot, _game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER,
                             notices="off")
    clock.advance(SECONDS + 1)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert len(_reminders(fake_discord)) == 1
    assert pings_sent(fake_discord) == []  # the table chose no mentions


async def test_an_idle_table_ended_by_the_sweep_takes_its_turn_notice_away(
        discord_driver, fake_discord, tmp_path):
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(46)  # the notice's grace time: Alice is told it is her turn
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    notices = [m for m in fake_discord.channel_messages()
               if "your turn" in (m.get("content") or "")]
    assert len(notices) == 1
    clock.advance(49 * 3600)  # idle past the seated tables' limit
    assert await bot.sweep_once() == 1
    await discord_driver.settle()
    assert (await bot.store.get_game(game.id)).status == "expired"
    assert not [m for m in fake_discord.channel_messages()
                if "your turn" in (m.get("content") or "")]


async def test_c4_a_window_closing_on_a_give_up_vote_alone_stops_its_countdown(
        discord_driver, fake_discord, tmp_path):
    """Giving up needs a majority (C4): a window that closes with only that vote
    decides nothing, and the board no longer counts down to it."""
    clock = Clock()
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), clock=clock))
    board = (await discord_driver.slash("tinker", "start", {"players": "vote"},
                                        user="alice")).message
    voters = (("alice",), ("bob", "alice"), ("carol", "alice"))  # three active players
    for step in range(60):
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        board = fake_discord.get_message(board["id"])
        if step >= len(voters) and any(c.endswith(":give_up") for c in board_ids(board)):
            break
        action = game.engine.computer_action(game.state, 0)
        if action == "give_up":
            action = next(c.split(":", 3)[-1] for c in board_ids(board)
                          if c.split(":", 3)[-1] not in ("give_up", "table.rules"))
        for name in voters[min(step, len(voters) - 1)]:
            await press(discord_driver, fake_discord.get_message(board["id"]), action, name)
            await discord_driver.settle()
    board = fake_discord.get_message(board["id"])
    chip = next(c.split(":", 3)[-1] for c in board_ids(board) if ":chip:" in c)
    await press(discord_driver, board, chip, "alice")  # opens the window
    await press(discord_driver, fake_discord.get_message(board["id"]), "give_up", "alice")
    await discord_driver.settle()
    version = (await bot.tables.open_in_channel(fake_discord.channel_id)).row.version
    clock.advance(31)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == version and game.data.poll.closes is None
    shown = fake_discord.get_message(board["id"])
    vote = [f["value"] for f in shown["embeds"][0].get("fields", []) if "vot" in f["name"].lower()]
    assert vote and ":R>" not in vote[0], vote


async def _stopped_while_posting(driver, fake, bot, clock, advance: float) -> None:
    """Let ``advance`` seconds pass so a notice is due, hold its post back (a 3 s rate
    limit) and shut the bot down cleanly while it waits."""
    fake.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=3.0)
    after = len(fake.requests)
    clock.advance(advance)
    bot.deadlines.wake(None)  # the loop looks now
    await fake.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    await driver.close_client(bot)  # a clean shutdown (SIGTERM)


async def test_c6_a_turn_notice_being_posted_at_shutdown_is_posted(
        discord_driver, fake_discord, tmp_path):
    """The game was saved as notified before the post: stopping waits for the post (a
    restart would not send it again), so the notice is sent exactly once."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    assert game.data.notice_due is not None
    await _stopped_while_posting(discord_driver, fake_discord, bot, clock, 46)
    assert pings_sent(fake_discord) == [fake_discord.user("alice").id]
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    clock.advance(600)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [fake_discord.user("alice").id]


async def test_c6_a_timer_reminder_being_posted_at_shutdown_is_posted(
        discord_driver, fake_discord, tmp_path):
    clock = Clock()
    bot, _game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    await _stopped_while_posting(discord_driver, fake_discord, bot, clock, SECONDS + 1)
    assert len(_reminders(fake_discord)) == 1


#: The turn timer of the table below ("2 min").
TIMER_SECONDS = 120


async def test_c6_a_resignation_out_of_turn_leaves_the_waiting_players_timer(
        discord_driver, fake_discord, tmp_path):
    """Another player resigning out of turn does not restart the turn of the player
    being waited for: reminded once already, their seat goes to a computer when the
    timer runs out again, with no second reminder (C6)."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, _ = await seated_steam(driver, fake, tmp_path, clock=clock, turn_timer="2 min")
    alice = fake.user("alice").id
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.person_to_act() == alice  # Alice has walked away from her phone
    clock.advance(46)
    await bot.deadlines.run_due()  # the turn notice (ping 1)
    clock.advance(TIMER_SECONDS - 46 + 1)
    await bot.deadlines.run_due()  # the timer's one reminder (ping 2)
    await driver.settle()
    assert (await bot.tables.load(game.id)).data.timer.strikes == 1
    assert pings_sent(fake) == [alice, alice]
    # Carol gives up, out of turn, while Alice is still away.
    clock.advance(10)
    board = fake.get_message(game.row.board_message_id)
    ask = await driver.click(board, button(board, "ask.resign"), user="carol")
    done = await driver.click(ask.message, ask.custom_ids[0], user="carol")
    assert done.response_type == 7
    await driver.settle()
    assert (await bot.tables.load(game.id)).person_to_act() == alice
    # Alice's time runs out again: she was reminded once already, so the seat goes to a
    # computer (C6) without a further ping.
    clock.advance(TIMER_SECONDS + 1)
    await bot.deadlines.run_due()
    await driver.settle()
    reminders = [m for m in fake.mention_log if f"<@{alice}>, it is still your turn" in m.content
                 and m.method == "POST"]
    assert len(reminders) == 1, [m.content for m in reminders]
    assert pings_sent(fake) == [alice, alice]
    assert (await bot.tables.load(game.id)).seats[0].away


async def _later(driver, bot, clock, seconds: float) -> None:
    """Let ``seconds`` pass, then run the deadlines due and let what they do settle."""
    clock.advance(seconds)
    await bot.deadlines.run_due()
    await driver.settle()


async def test_c6_a_reminder_discord_refused_is_posted_again_before_the_seat_goes(
        discord_driver, fake_discord, tmp_path):
    """C6: reminded once, then a computer takes the seat. Discord refuses the reminder
    for a while (a rate limit longer than the client waits): it is not counted as given;
    it is posted a minute later, and only when the timer runs out after that does a
    computer take Alice's seat."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=60.0)
    await _later(discord_driver, bot, clock, SECONDS + 1)
    assert _reminders(fake_discord) == []
    game = await bot.tables.load(game.id)
    assert game.data.timer.strikes == 0 and game.data.notice_due.reminder
    await _later(discord_driver, bot, clock, 61)  # the reminder again: posted this time
    assert len(_reminders(fake_discord)) == 1
    game = await bot.tables.load(game.id)
    assert game.data.timer.strikes == 1 and game.data.notice_due is None
    # reminded now: a whole turn from now, as the board says
    assert game.data.timer.at == pytest.approx(clock.now + SECONDS, abs=0.01)
    board = fake_discord.get_message(game.row.board_message_id)
    assert _timer_ends(board) == [int(game.data.timer.at)]
    await _later(discord_driver, bot, clock, SECONDS)
    assert (await bot.tables.load(game.id)).seats[0].away  # (its reminder deleted now)


async def test_c6_a_reminder_refused_until_the_timer_ends_is_given_then(
        discord_driver, fake_discord, tmp_path):
    """A reminder Discord keeps refusing is never counted as given: when the timer runs
    out meanwhile, Alice is reminded (again), not replaced."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=60.0,
                           times=20)
    await _later(discord_driver, bot, clock, SECONDS + 1)
    await _later(discord_driver, bot, clock, SECONDS + 1)
    game = await bot.tables.load(game.id)
    assert not game.seats[0].away and game.data.timer.strikes == 0


async def test_a_turn_notice_discord_refused_is_posted_again(
        discord_driver, fake_discord, tmp_path):
    """Without a timer, the notice sent once the grace time is over is refused for a
    while: it goes a minute later, while it is still Alice's turn."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock)
    assert game.data.notice_due is not None
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=60.0)
    await _later(discord_driver, bot, clock, 46)
    await _later(discord_driver, bot, clock, 61)
    notices = [m for m in fake_discord.channel_messages()
               if "your turn" in (m.get("content") or "")]
    assert len(notices) == 1
    assert (await bot.tables.load(game.id)).data.notice_due is None


async def test_c6_a_reminder_refused_after_a_step_of_the_turn_is_not_kept(
        discord_driver, fake_discord, tmp_path):
    """Discord refuses the reminder only after Alice took a step of her turn (it is still
    hers, its timer started again): the refusal stores nothing, so this turn's timer has
    run out once when it next runs out, and she is reminded, not replaced."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    alice = fake_discord.user("alice").id
    clock.advance(SECONDS + 1)
    play = await bot.tables.fire_deadline(game.id)  # the timer ran out: the reminder
    assert play is not None and play.reminder and play.notice is not None
    game = await bot.tables.load(game.id)
    step = game.engine.legal_actions(game.state, game.seat_of(alice))[0].id
    clock.advance(5)
    await bot.tables.act(game.id, game.row.version, Actor(alice, "Alice"), step)
    game = await bot.tables.load(game.id)
    assert game.person_to_act() == alice and game.data.timer.strikes == 0  # not out yet
    await bot.tables.notice_refused(game.id, play.game.row.version, alice, play.notice[1],
                                    reminder=True)
    game = await bot.tables.load(game.id)
    assert game.data.notice_due is None and game.data.timer.strikes == 0
    clock.advance(SECONDS)
    await bot.tables.fire_deadline(game.id)
    game = await bot.tables.load(game.id)
    assert not game.seats[0].away and game.data.timer.strikes == 1


async def test_c6_a_reminder_cut_off_by_a_stop_is_posted_after_the_start(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """C6: a reminder counts as given once it is posted. One held back by a rate limit
    longer than a stop's wait is cut off; it waits in the table's data, so after the
    start it is posted (with a whole turn from then) before the seat can go to a
    computer. Scaled down: a 3 s rate limit against a 0.5 s stop wait."""
    from bot import client
    from bot.table import deadlines

    monkeypatch.setattr(deadlines, "STOP_WAIT_SECONDS", 0.5)
    monkeypatch.setattr(client, "STOP_WAIT_SECONDS", 0.5)
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=3.0)
    after = len(fake_discord.requests)
    clock.advance(SECONDS + 1)
    bot.deadlines.wake(None)
    await fake_discord.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    await discord_driver.close_client(bot)  # a deploy's stop
    assert _reminders(fake_discord) == []
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    waiting = (await bot.tables.load(game.id)).data.notice_due
    assert waiting is not None and waiting.reminder
    restarted = len(fake_discord.requests)
    clock.advance(SECONDS + 1)  # the reminder's and the timer's ends both passed
    bot.deadlines.wake(None)
    await fake_discord.wait_for_request("POST", r"/channels/\d+/messages$", after=restarted)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert len(_reminders(fake_discord)) == 1 and not now.seats[0].away
    assert now.data.notice_due is None  # posted: it waits no more
    assert now.data.timer.strikes == 1 and now.data.timer.at == clock.now + SECONDS
    clock.advance(SECONDS + 1)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).seats[0].away  # reminded once: handed on
    posted = [r for r in fake_discord.requests[restarted:]
              if r.method == "POST" and "still your turn" in str(r.json)]
    assert len(posted) == 1


async def test_c6_a_posted_reminder_waits_no_more(discord_driver, fake_discord, tmp_path):
    """C6: once the reminder is out, nothing of it waits to be posted again."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    clock.advance(SECONDS + 1)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert len(_reminders(fake_discord)) == 1 and now.data.notice_due is None
    assert now.row.deadline == now.data.timer.at


async def test_c6_a_reminder_refused_for_good_is_not_tried_again(
        discord_driver, fake_discord, tmp_path):
    """C6: a reminder Discord refuses for good (the bot may not post there now) waits no
    more: it does not come back every minute, putting the computer off each time."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 403)
    clock.advance(SECONDS + 1)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert _reminders(fake_discord) == [] and now.data.notice_due is None
    assert now.data.timer.strikes == 1 and now.row.deadline == now.data.timer.at


#: How long the rate limit holds the turn notice back (up to 30 s in service).
HOLD = 3.0


async def test_c4_a_held_turn_notice_does_not_hold_another_channels_vote_window(
        discord_driver, fake_discord, tmp_path):
    """C4/C6: a turn notice that Discord's rate limit holds back (up to 30 s) is posted on
    its own: a vote window in another channel due meanwhile closes on time."""
    fake = fake_discord
    fake.add_user("bob")
    other = fake.add_channel("steam-room")
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("tests.toy", "cogs.steam"),
                                              clock=clock))
    # A Steam table in the other channel: Alice's turn notice waits its 45 s grace.
    lobby = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice", channel=other)).message
    lobby = (await discord_driver.click(lobby, button(lobby, "lobby.join"), user="bob")).message
    await host_board(discord_driver, lobby, "lobby.start")
    await discord_driver.settle()
    table = await bot.tables.open_in_channel(other)
    assert table.data.notice_due is not None
    # A vote game here whose window closes 1 s after that notice is due.
    clock.advance(16)
    board = (await discord_driver.slash("toy", "start", {"players": "vote"}, user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    await discord_driver.click(board, button(board, "add1"), user="bob")  # a vote: 1 of 2
    vote = await bot.tables.open_in_channel(fake.channel_id)
    closes = vote.data.poll.closes
    assert closes == table.data.notice_due.at + 1, (closes, table.data.notice_due.at)
    version = vote.row.version

    fake.fail_next("POST", rf"/channels/{other}/messages$", 429, retry_after=HOLD)
    after = len(fake.requests)
    clock.advance(table.data.notice_due.at - clock() + 0.5)  # only the notice is due
    bot.deadlines.wake()
    await fake.wait_for_request("POST", rf"/channels/{other}/messages$", after=after)
    clock.advance(1)  # the window closes now
    bot.deadlines.wake()
    started = time.monotonic()
    while time.monotonic() - started < HOLD + 2:
        if (await bot.tables.load(vote.id)).row.version != version:
            break
        await asyncio.sleep(0.05)
    took = time.monotonic() - started
    assert took < HOLD - 1, f"the vote window waited {took:.2f} s for another table's notice"


async def test_c6_a_reminded_player_who_takes_a_step_is_not_reminded_again(
        discord_driver, fake_discord, tmp_path):
    """C6, reminded once a turn: Alice (2 min timer) is reminded, then takes two cards,
    the first step of her turn, and stalls before placing them. The step is a click: her
    time starts again, but the reminder stays given, so the timer's next end hands her
    seat to a computer, with no second reminder (three pings in one turn before)."""
    clock = Clock()
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, clock, turn_timer=TIMER)
    alice = fake_discord.user("alice").id
    await _later(discord_driver, bot, clock, 50)  # the turn notice
    await _later(discord_driver, bot, clock, SECONDS - 49)  # the reminder
    assert len(_reminders(fake_discord)) == 1
    game = await bot.tables.load(game.id)
    take = next(a.id for a in game.engine.legal_actions(game.state, 0)
                if a.id.startswith("t2:"))
    await press(discord_driver, fake_discord.get_message(game.row.board_message_id), take,
                "alice")
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.person_to_act() == alice and game.data.timer is not None
    assert game.data.timer.at == clock() + SECONDS  # her time starts again
    await _later(discord_driver, bot, clock, SECONDS + 1)
    game = await bot.tables.load(game.id)
    posted = [m for m in fake_discord.mention_log
              if m.method == "POST" and "still your turn" in m.content]
    assert len(posted) == 1
    assert game.seats[0].away


async def test_c6_a_notice_due_just_before_the_reminder_is_left_to_the_reminder(
        discord_driver, fake_discord, tmp_path):
    """C6, one ping at a time: a server's notices wait 115 s, the table's timer is 2 min.
    A slow player is pinged once, by the reminder at 120 s, not by the notice five
    seconds before it too. With the usual 45 s wait both come, 75 s apart."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock,
                                              TURN_NOTICE_GRACE_SECONDS=115))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)",
                                                         "turn_timer": TIMER},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    alice = fake_discord.user("alice").id
    await _later(discord_driver, bot, clock, 116)
    assert pings_sent(fake_discord) == []
    await _later(discord_driver, bot, clock, 5)
    assert pings_sent(fake_discord) == [alice]
    assert len(_reminders(fake_discord)) == 1


async def test_c6_a_slow_reminder_is_not_posted_again_by_its_retry(discord_driver,
                                                                  fake_discord, tmp_path):
    """Discord holds the reminder's post while its retry comes due (a minute on the
    bot's clock): the retry finds the first post out, by its nonce, and neither takes it
    back nor posts (and pings) a second reminder."""
    clock = Clock()
    driver, fake = discord_driver, fake_discord
    bot, _game = await _steam(driver, fake, tmp_path, clock, turn_timer=TIMER)
    alice = fake.user("alice").id
    clock.advance(46)
    await bot.deadlines.run_due()  # the turn notice, after its grace time
    await driver.settle()
    assert pings_sent(fake) == [alice]
    fake.hold_next("POST", r"/channels/\d+/messages$", 2.0)
    after = len(fake.requests)
    clock.advance(SECONDS - 46 + 1)
    assert await bot.deadlines.run_due() == 1  # the reminder, its post held back
    await fake.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    clock.advance(61)  # its retry comes due while the post is on its way
    await bot.deadlines.run_due()
    await asyncio.sleep(2.5)
    await driver.settle()
    assert pings_sent(fake) == [alice, alice]
    assert len(_reminders(fake)) == 1
