"""A seated Steam to Solar table whose stored state is damaged cannot go on: every player
at it is told to end it with /steam abandon, and any of them may (not only the host), at
once, so the channel is free again; someone not seated is told who may."""

from __future__ import annotations

from tests.support import abandon, button, host_board, make_bot

COGS = ("cogs.steam",)


async def _damaged_table(driver, fake, tmp_path):
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    fake.add_user("carol")
    board = (await driver.slash("steam", "new", {"first": "me (the host)"},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="carol")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    await bot.store.connection.execute(
        "UPDATE games SET state = ?, updated_at = updated_at + 1 WHERE id = ?",
        ("{half", game.id))
    bot.store.kept.drop()
    return bot, game


async def test_a_seated_player_ends_a_damaged_table(discord_driver, fake_discord, tmp_path):
    """Bob, seated but not the host, is told to use /steam abandon, and it ends the game."""
    bot, game = await _damaged_table(discord_driver, fake_discord, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    clicked = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert clicked.ephemeral and "/steam abandon" in clicked.content
    ended = await abandon(discord_driver, "steam", "bob")
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None, ended.content
    after = await bot.tables.load(game.id)
    assert after.row.status == "abandoned"


async def test_someone_not_seated_is_told_who_may_end_it(discord_driver, fake_discord,
                                                         tmp_path):
    """Dave, not seated, is refused privately, naming who may end the damaged table."""
    bot, _game = await _damaged_table(discord_driver, fake_discord, tmp_path)
    fake_discord.add_user("dave")
    refused = await abandon(discord_driver, "steam", "dave")
    assert refused.ephemeral
    assert "people seated at this table" in refused.content
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is not None


async def test_damaged_running_table_shows_its_seats_not_the_lobby(
        discord_driver, fake_discord, tmp_path):
    """Reposted with /steam board, a damaged running table is not drawn as a lobby: its
    board has no buttons, so it says neither "table closed" nor how to join or start; it
    shows the title, that it cannot be shown, the seats, and how to end it."""
    bot, game = await _damaged_table(discord_driver, fake_discord, tmp_path)
    await discord_driver.slash("steam", "board", user="bob")
    await discord_driver.settle()
    damaged = await bot.tables.load(game.id)
    assert damaged.broken and damaged.row.status == "active"
    embed = fake_discord.get_message(damaged.row.board_message_id)["embeds"][0]
    fields = embed.get("fields") or []
    text = "\n".join([str(embed.get("title")), str(embed.get("description")),
                      *(f"{f['name']}\n{f['value']}" for f in fields)])
    assert embed.get("title") == "Steam to Solar", text
    assert "This game cannot be shown." in text
    seats = "\n".join(f["value"] for f in fields)
    for name in (damaged.seat_name(0), damaged.seat_name(1)):
        assert name in seats, text
    assert seats.startswith("1. "), text
    assert "/steam abandon" in embed["footer"]["text"]
    for lobby_words in ("Join", "table closed", "table open", "Host controls",
                        "computer players"):
        assert lobby_words not in text, text
