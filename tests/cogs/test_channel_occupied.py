"""Starting a game in a channel that has one (C3) is refused privately, in words that
fit how the open game stands for the asker: a lobby they can join, host, sit at or
find full; a channel game anyone plays along in; a game only to finish or abandon."""

from __future__ import annotations

import re

from bot.table import seating
from tests.support import abandon, button, make_bot, seated_steam

COGS = ("cogs.help", "cogs.tinker", "cogs.tinrealm", "cogs.steam")
#: The link to the board, and the command that posts it again if a moderator deleted it.
LINK = r"\(https://discord\.com/channels/\d+/\d+/\d+, or /\w+ board shows it if it is gone\)"


def _told(result, pattern: str) -> None:
    """The answer is private and reads ``pattern`` (a regular expression; LINK for a
    link to the board)."""
    assert result.ephemeral and re.fullmatch(pattern, result.content), result.content


async def test_a_lobby_is_told_as_the_asker_stands_at_it(discord_driver, fake_discord,
                                                         tmp_path):
    """Beside Alice's open table: a newcomer is told to press Join (by /steam new, by
    /tinker start, by /help's start button); Bob, seated, that the host starts it;
    Alice that she starts or closes it from her controls; once every seat is taken, a
    newcomer to play elsewhere."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    for name in ("carol", "dan", "erin", "fay"):
        fake_discord.add_user(name)
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    join = (f"A Steam to Solar table is open in this channel {LINK}: press \\*\\*Join\\*\\* "
            "on it to play, or start a game in another channel or a thread\\.")
    _told(await discord_driver.slash("steam", "new", user="dan"), join)
    _told(await discord_driver.slash("tinker", "start", user="dan"), join)
    helped = await discord_driver.slash("help", user="dan")
    _told(await discord_driver.click(helped.message, "st1:steam", user="dan"), join)
    _told(await discord_driver.slash("steam", "new", user="bob"),
          f"You are seated at the Steam to Solar table open in this channel {LINK}: its "
          "host starts it\\.")
    _told(await discord_driver.slash("tinrealm", "start", user="alice"),
          f"Your Steam to Solar table is open in this channel {LINK}: start it, or close "
          "it, from its \\*\\*Host controls\\*\\*\\.")
    for name in ("carol", "dan", "erin"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    _told(await discord_driver.slash("steam", "new", user="fay"),
          f"A Steam to Solar table is open in this channel {LINK}, and every seat is "
          "taken: start a game in another channel or a thread\\.")


async def test_a_game_anyone_plays_is_pointed_to(discord_driver, fake_discord, tmp_path):
    """Beside a Tinker game the channel plays together, Bob is told he can play along
    (and finish it; only Alice or a moderator may abandon it), Alice to finish or abandon
    it; beside one only Alice plays, Bob to play elsewhere."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    going = "This channel already has a game of Tinker, Sailor, Soldier, Spy going " + LINK
    finish = going + ("\\. Finish or abandon it first, or start one in another channel or a "
                      "thread\\.")
    _told(await discord_driver.slash("tinrealm", "start", user="bob"),
          going + ": anyone here can play along on its board\\. To start another here, "
          "finish it first, or start one in another channel or a thread\\.")
    _told(await discord_driver.slash("tinrealm", "start", user="alice"), finish)
    await abandon(discord_driver, "tinker", "alice")
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    _told(await discord_driver.slash("steam", "new", user="bob"),
          going + ", which only Alice plays: start one in another channel or a thread\\.")
    _told(await discord_driver.slash("tinker", "start", user="alice"), finish)


async def test_a_running_table_is_to_be_finished_first(discord_driver, fake_discord,
                                                       tmp_path):
    """Beside a running Steam table, one playing there is told to finish or abandon it
    first; one not seated, or who resigned, to play elsewhere."""
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path)
    going = f"This channel already has a game of Steam to Solar going {LINK}"
    finish = going + ("\\. Finish or abandon it first, or start one in another channel or a "
                      "thread\\.")
    watched = going + (", played by the people seated at it: start one in another channel "
                       "or a thread\\.")
    for who in ("bob", "alice"):
        _told(await discord_driver.slash("steam", "new", user=who), finish)
    fake_discord.add_user("dan")
    _told(await discord_driver.slash("steam", "new", user="dan"), watched)
    board = fake_discord.get_message(game.row.board_message_id)
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="carol")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="carol")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.is_open and 2 in seating.resigned_seats(game.view())
    _told(await discord_driver.slash("steam", "new", user="carol"), watched)


async def test_a_game_whose_board_a_moderator_deleted_is_found_again(
        discord_driver, fake_discord, tmp_path):
    """A moderator deleted the board of the channel's Tinker game (the bot is not told):
    Bob, refused a new game, is told the command that posts the board again beside the
    link, and it does."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.delete_message(fake_discord.channel_id, game.row.board_message_id)
    told = await discord_driver.slash("tinrealm", "start", user="bob")
    assert told.ephemeral and "or /tinker board shows it if it is gone)" in told.content
    again = await discord_driver.slash("tinker", "board", user="bob")
    assert not again.ephemeral and again.message is not None
    shown = await bot.tables.load(game.id)
    assert shown.row.board_message_id == int(again.message["id"])
