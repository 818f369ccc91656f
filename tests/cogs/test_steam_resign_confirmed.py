"""S10: any seat may resign at any time. A resignation asked for out of turn and confirmed
after the player to act has moved is carried out, not refused as an out-of-date board."""

from __future__ import annotations

from tests.support import Clock, button, host_board, make_bot, press

COGS = ("cogs.steam",)


async def test_s10_a_resignation_confirmed_after_another_move_is_carried_out(
        discord_driver, fake_discord, tmp_path):
    """Bob asks to resign during Alice's turn; Alice takes a step; Bob's "Yes" resigns him."""
    driver, fake = discord_driver, fake_discord
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=Clock()))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.to_act() == 0
    current = fake.get_message(game.row.board_message_id)
    ask = await driver.click(current, button(current, "ask.resign"), user="bob")
    assert ask.ephemeral and ask.custom_ids
    await press(driver, current, game.engine.computer_action(game.state, 0), "alice")
    await driver.settle()
    moved = await bot.tables.load(game.id)
    assert moved.row.version > game.row.version
    done = await driver.click(ask.message, ask.custom_ids[0], user="bob")
    await driver.settle()
    after = await bot.tables.load(game.id)
    assert after.view()["players"][1]["resigned"], done.content
    assert "out of date" not in (done.content or "")


async def test_s10_a_resignation_confirmed_after_the_seat_went_to_a_computer_resigns(
        discord_driver, fake_discord, tmp_path):
    """Alice, to act, asks to resign and thinks it over; meanwhile Bob and Carol hand her
    seat to a computer (after a minute's wait), which plays her turn. Her "Yes, I am
    sure" then resigns her: it is not taken as a click that brings her back."""
    from bot.table.seating import resigned_seats
    from tests.support import seated_steam
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock)
    assert game.to_act() == 0
    board = fake_discord.get_message(game.row.board_message_id)
    asked = await discord_driver.click(board, button(board, "ask.resign"), user="alice")
    assert asked.ephemeral and asked.custom_ids
    clock.advance(61)
    for who in ("bob", "carol"):
        await discord_driver.slash("steam", "away", {"player": fake_discord.user("alice")},
                                   user=who)
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).seats[0].away
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    after = await bot.tables.load(game.id)
    assert 0 in resigned_seats(after.view()), after.row.events[-3:]
