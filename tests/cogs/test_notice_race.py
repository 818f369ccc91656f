"""A turn notice is not taken back by a click that raced the move passing the turn (C6):
the next player keeps the notice that says it is their turn."""

from __future__ import annotations

import asyncio

import pytest

from tests.support import Clock, button, choice, host_board, make_bot, press

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")


def _notices(fake):
    return [m for m in fake.channel_messages()
            if "it is your turn" in (m.get("content") or "")]


async def _table(driver, fake, tmp_path):
    for name in ("carol", "dave"):
        fake.add_user(name)
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=Clock(),
                                      TURN_NOTICE_GRACE_SECONDS=0))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    for name in ("bob", "carol", "dave"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot


async def test_c6_a_resignation_as_a_turn_passes_leaves_the_next_players_notice(
        discord_driver, fake_discord, tmp_path):
    """Alice ends her turn while Dave (not to act) confirms his resignation: Bob is to
    act next and should keep his turn notice (C6)."""
    driver, fake = discord_driver, fake_discord
    bot = await _table(driver, fake, tmp_path)
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    # Alice takes two cards: one placement left, whose click ends her turn.
    await press(driver, board, game.engine.computer_action(game.state, 0), "alice")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    last = game.engine.computer_action(game.state, 0)
    ask = await driver.click(board, button(board, "ask.resign"), user="dave")
    kind, cid, value = choice(board, last)
    alice = (fake.component_payload(board, cid, user="alice") if kind == "button" else
             fake.component_payload(board, cid, values=[value], user="alice"))
    dave = fake.component_payload(ask.message, ask.custom_ids[0], user="dave")
    # Discord holds Bob's notice back a moment (a rate limit), as it does at busy times.
    fake.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=0.5)
    moved, resigned = await asyncio.gather(driver.feed(alice), driver.feed(dave))
    await driver.settle()
    assert moved.response_type == 7 and resigned.response_type == 7
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.to_act() == 1  # Bob's turn, a person playing his own seat
    bob = fake.user("bob").id
    posted = [m for m in fake.mention_log if m.method == "POST" and bob in m.pinged]
    assert posted, "Bob's notice was never posted"
    assert [fake.pings(m) for m in _notices(fake)] == [{bob}], (
        "Bob's turn notice was posted, then deleted while it is still his turn")


async def test_c6_an_away_player_back_as_a_turn_passes_leaves_the_next_players_notice(
        discord_driver, fake_discord, tmp_path):
    """Dave (away) opens "Rules & details" while Alice ends her turn: Bob is to act next
    and should keep his turn notice (C6)."""
    driver, fake = discord_driver, fake_discord
    bot = await _table(driver, fake, tmp_path)
    for voter in ("bob", "carol"):
        await driver.slash("steam", "away", {"player": fake.user("dave")}, user=voter)
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.seats[3].away
    board = fake.get_message(game.row.board_message_id)
    await press(driver, board, game.engine.computer_action(game.state, 0), "alice")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    kind, cid, value = choice(board, game.engine.computer_action(game.state, 0))
    alice = (fake.component_payload(board, cid, user="alice") if kind == "button" else
             fake.component_payload(board, cid, values=[value], user="alice"))
    dave = fake.component_payload(board, button(board, "table.rules"), user="dave")
    fake.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=0.5)
    await asyncio.gather(driver.feed(alice), driver.feed(dave))
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.to_act() == 1 and not game.seats[3].away
    bob = fake.user("bob").id
    assert [fake.pings(m) for m in _notices(fake)] == [{bob}]
