"""Who is at a seated table (C6): asks to hand a seat on, coming back by any button of
the table, and a lone person whose turn timer runs out."""

from __future__ import annotations

import pytest

from bot.table.loaded import Actor
from tests.fake_discord import payloads
from tests.support import Clock, button, host_board, make_bot, press

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")

COGS = ("cogs.steam",)


async def _table(driver, fake, names: tuple[str, ...], **options):
    """Open a Steam table for ``names`` (the first hosts and moves first) and start it."""
    bot = await driver.login(make_bot(options.pop("tmp_path"), cogs=COGS))
    board = (await driver.slash("steam", "new", {"first": "me (the host)", **options},
                                user=names[0])).message
    for name in names[1:]:
        if name not in fake.users:
            fake.add_user(name)
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    return bot, board


async def _alone_with_a_computer(driver, fake, tmp_path, clock):
    """Alice and a computer player at a started table with a 2-minute turn timer, Alice
    first; return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)",
                                                 "turn_timer": "2 min"},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


async def test_c6_an_ask_to_hand_a_seat_on_is_void_once_its_player_moves(
        discord_driver, fake_discord, tmp_path):
    """Alice asks to hand Bob's seat to a computer (1 of 2 needed); Bob then plays: his
    seat is not handed on by Alice's old ask and one more."""
    bot, board = await _table(discord_driver, fake_discord, ("alice", "bob", "carol", "dave"),
                              tmp_path=tmp_path)
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    bob = fake_discord.user("bob")
    first = await discord_driver.slash("steam", "away", {"player": bob}, user="alice")
    assert "1 of 2 needed" in first.content, first.content
    again = await discord_driver.slash("steam", "away", {"player": bob}, user="alice")
    assert again.ephemeral and "You have asked to hand Bob's seat to a computer already (1 "\
        "of 2 needed)" in again.content, again.content
    names = ("alice", "bob", "carol", "dave")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    while True:  # play until Bob has moved himself and his turn is over
        game = await bot.tables.load(game.id)
        seat = game.to_act()
        if seat is not None and seat > 1:
            break
        who = fake_discord.user(names[seat])
        await bot.tables.act(game.id, game.row.version, Actor(who.id, who.name),
                             game.engine.computer_action(game.state, seat))
    later = await discord_driver.slash("steam", "away", {"player": bob}, user="carol")
    assert "1 of 2 needed" in later.content, later.content
    assert not (await bot.tables.load(game.id)).seats[1].away


async def test_c6_turning_a_page_of_the_details_brings_an_away_player_back(
        discord_driver, fake_discord, tmp_path):
    """A page button of "Rules & details" is a button of the table: an away player who
    turns a page plays their own seat again."""
    bot, board = await _table(discord_driver, fake_discord, ("alice", "bob"),
                              tmp_path=tmp_path)
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    board = fake_discord.get_message(game.row.board_message_id)
    details = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                               user="alice")
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).seats[1].away
    page = next(c["custom_id"] for c in payloads.iter_components(details.message["components"])
                if ":table.rules." in c.get("custom_id", "") and not c.get("disabled"))
    turned = await discord_driver.click(details.message, page, user="bob")
    await discord_driver.settle()
    assert turned.response_type == 7 and "back" in turned.content
    assert not (await bot.tables.load(game.id)).seats[1].away


async def test_c6_a_lone_person_whose_timer_runs_out_is_waited_for(
        discord_driver, fake_discord, tmp_path):
    """One person with a computer player: an away seat is played only while another
    person plays, so when the turn timer runs out twice the table says it waits for
    them (not that a computer plays their seat), and their seat stays theirs."""
    clock = Clock()
    bot, game = await _alone_with_a_computer(discord_driver, fake_discord, tmp_path, clock)
    assert game.to_act() == 0
    for _ in range(2):
        clock.advance(121)
        await bot.deadlines.run_due()
        await discord_driver.settle()
    game = await bot.tables.load(game.id)
    reminders = [m.content for m in fake_discord.mention_log if "still your turn" in m.content]
    assert reminders and all("the table waits for you" in text for text in reminders)
    assert not any("a computer plays" in text for text in reminders)
    assert not game.seats[0].away and game.data.timer is None
    assert game.row.events[-1] == ("Alice's turn timer ran out twice: with no one else "
                                   "playing, the table waits for them.")


async def test_c6_a_table_that_waits_for_away_people_may_be_ended_by_anyone_seated(
        discord_driver, fake_discord, tmp_path):
    """Bob's seat was handed to a computer; Alice, the last person playing for herself,
    resigns, and the table waits for Bob. Alice may end it, so that it does not hold
    the channel (C3) for the idle sweep's two days."""
    bot, board = await _table(discord_driver, fake_discord, ("alice", "bob"),
                              tmp_path=tmp_path)
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                               user="alice")
    await discord_driver.settle()
    board = fake_discord.get_message((await bot.tables.load(game.id)).row.board_message_id)
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="alice")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="alice")
    await discord_driver.settle()
    waiting = await bot.tables.load(game.id)
    assert waiting.row.is_open and "the table waits for Bob" in waiting.row.events[-1]
    asked = await discord_driver.slash("steam", "abandon", user="alice")
    assert asked.content.startswith("Abandon this Steam to Solar game? It ends now")
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None


async def _resign(driver, fake, bot, game_id, user):
    """``user`` resigns from the table, confirming the question."""
    now = await bot.tables.load(game_id)
    shown = fake.get_message(now.row.board_message_id)
    ask = await driver.click(shown, button(shown, "ask.resign"), user=user)
    await driver.click(ask.message, ask.custom_ids[0], user=user)
    await driver.settle()


async def test_c6_a_table_waiting_for_two_away_people_is_ended_by_one_who_resigned(
        discord_driver, fake_discord, tmp_path):
    """Bob and Carol were handed to computers; Alice resigns and the table waits for
    them. Alice's abandon ends it at once, as its question says."""
    bot, board = await _table(discord_driver, fake_discord, ("alice", "bob", "carol"),
                              tmp_path=tmp_path)
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for absent, askers in (("bob", ("alice", "carol")), ("carol", ("alice",))):
        for asker in askers:
            await discord_driver.slash("steam", "away", {"player": fake_discord.user(absent)},
                                       user=asker)
    await discord_driver.settle()
    await _resign(discord_driver, fake_discord, bot, game.id, "alice")
    waiting = await bot.tables.load(game.id)
    assert waiting.row.is_open and waiting.seats[1].away and waiting.seats[2].away
    asked = await discord_driver.slash("steam", "abandon", user="alice")
    assert asked.content.startswith("Abandon this Steam to Solar game? It ends now")
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"


async def test_c6_abandon_asks_made_enough_by_a_resignation_end_the_table_when_asked_again(
        discord_driver, fake_discord, tmp_path):
    """Carol and Dave asked to abandon (2 of 3 needed); Alice resigns, so their asks
    are a majority: asked again, the table ends (not refused as asked already)."""
    bot, board = await _table(discord_driver, fake_discord,
                              ("alice", "bob", "carol", "dave"), tmp_path=tmp_path)
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for user in ("carol", "dave"):
        asked = await discord_driver.slash("steam", "abandon", user=user)
        await discord_driver.click(asked.message, asked.custom_ids[0], user=user)
    assert (await bot.tables.load(game.id)).row.is_open  # 2 of 3 needed of 4 playing
    await _resign(discord_driver, fake_discord, bot, game.id, "alice")
    again = await discord_driver.slash("steam", "abandon", user="carol")
    await discord_driver.click(again.message, again.custom_ids[0], user="carol")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"


async def test_c6_a_lone_reminded_person_opening_the_rules_is_not_told_of_a_computer(
        discord_driver, fake_discord, tmp_path):
    """At a table of one person and computers the timer's reminder says the table waits
    for her: opening "Rules & details" says nothing of a computer taking her seat."""
    clock = Clock()
    bot, game = await _alone_with_a_computer(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(121)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).data.timer.strikes == 1
    board = fake_discord.get_message(game.row.board_message_id)
    shown = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    assert shown.ephemeral and "computer" not in (shown.content or "")


async def test_c6_an_away_ask_made_enough_by_a_resignation_hands_the_seat_on_when_asked_again(
        discord_driver, fake_discord, tmp_path):
    """Alice asked to hand Bob's seat on (1 of 2); Carol resigns, so Alice's ask is a
    majority: asked again, Bob's seat is handed on."""
    bot, board = await _table(discord_driver, fake_discord, ("alice", "bob", "carol"),
                              tmp_path=tmp_path)
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    bob = fake_discord.user("bob")
    first = await discord_driver.slash("steam", "away", {"player": bob}, user="alice")
    assert "1 of 2 needed" in first.content
    await _resign(discord_driver, fake_discord, bot, game.id, "carol")
    again = await discord_driver.slash("steam", "away", {"player": bob}, user="alice")
    assert "handed Bob's seat to a computer" in again.content, again.content
    assert (await bot.tables.load(game.id)).seats[1].away



async def test_c6_resigning_before_ending_a_waiting_table_still_loses_it(
        discord_driver, fake_discord, tmp_path):
    """Alice and Bob play with a computer; Bob's turn timer hands his seat to it. Alice,
    losing, resigns (the table now waits for Bob) and ends it: each of them loses it,
    in the ratings too, as when she ends it without resigning or the idle sweep does. A
    person alone against computers cannot take a game they are losing off their record
    by resigning first; the question says what the end counts as."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)",
                                                         "turn_timer": "2 min"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    while (game := await bot.tables.load(game.id)).to_act() == 0:
        shown = fake_discord.get_message(game.row.board_message_id)
        await press(discord_driver, shown, game.engine.computer_action(game.state, 0), "alice")
        await discord_driver.settle()
    for _ in range(2):  # Bob's timer: the reminder, then a computer plays his seat
        clock.advance(121)
        await bot.deadlines.run_due()
        await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.seats[1].away and game.to_act() == 0
    await _resign(discord_driver, fake_discord, bot, game.id, "alice")
    assert (await bot.tables.load(game.id)).row.is_open  # it waits for Bob
    asked = await discord_driver.slash("steam", "abandon", user="alice")
    assert "counts as a loss scoring 0" in asked.content
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"
    people = {fake_discord.user(name).id for name in ("alice", "bob")}
    results = await bot.store.query("SELECT user_id, outcome FROM results")
    assert {(int(user), outcome) for user, outcome in results} == {(u, "loss") for u in people}
    rated = await bot.store.query("SELECT user_id FROM ratings")
    assert people <= {int(user) for (user,) in rated}
