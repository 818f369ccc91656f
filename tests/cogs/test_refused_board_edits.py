"""A board edit Discord refuses for a while (a 503) after a move answered elsewhere is
made again: the board never stays on an older move until someone clicks it. A private
answer Discord refuses is logged as a warning, never as an error."""

from __future__ import annotations

import asyncio

from tests.support import abandon, board_ids, make_bot

#: The bot's edit of a channel message (a board).
EDIT = r"^/channels/\d+/messages/\d+$"
#: An interaction's first answer.
CALLBACK = r"/interactions/\d+/[^/]+/callback"


def _versions(message: dict) -> set[int]:
    return {int(custom_id.split(":")[2]) for custom_id in board_ids(message)}


async def _settled(bot, driver, game_id: int, version: int, seconds: float = 10) -> dict:
    """The game's board once it shows ``version`` (or as it is after ``seconds``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while True:
        await driver.settle()
        game = await bot.tables.load(game_id)
        board = driver.fake.get_message(game.row.board_message_id)
        if _versions(board) in ({version}, set()) or loop.time() > end:
            return board
        await asyncio.sleep(0.1)


async def test_an_abandoned_games_board_is_edited_again(discord_driver, fake_discord,
                                                        tmp_path):
    """Alice abandons her Tin Realm game; Discord refuses the board's edit once: the
    edit is made again, and the board offers no more moves."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinrealm",)))
    board = (await discord_driver.slash("tinrealm", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.fail_next("PATCH", EDIT, 503)
    await abandon(discord_driver, "tinrealm", "alice")
    shown = await _settled(bot, discord_driver, game.id, game.row.version + 1)
    assert shown["id"] == board["id"] and board_ids(shown) == []


async def test_a_move_whose_answer_was_lost_is_shown_despite_a_refused_edit(
        discord_driver, fake_discord, tmp_path):
    """A click's answer comes too late (10062) and the board's edit through the channel
    meets a 503: the move is saved, and the board is edited again to show it."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                        user="bob")).message
    fake_discord.fail_next("POST", CALLBACK, 404, code=10062)
    fake_discord.fail_next("PATCH", EDIT, 503)
    clicked = board_ids(board)[0]
    await discord_driver.click(board, clicked, user="bob")
    game_id = int(clicked.split(":")[1])
    assert (await bot.tables.load(game_id)).row.version == 1
    assert _versions(await _settled(bot, discord_driver, game_id, 1)) == {1}


async def test_a_rules_page_turn_discord_refuses_is_a_warning(discord_driver, fake_discord,
                                                              tmp_path, caplog):
    """A rules page turned too late for Discord (10062): the page stays, and the log has
    a warning, not discord.py's error with a traceback."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    rules = await discord_driver.slash("tinker", "rules", user="bob")
    page = next(c for c in rules.custom_ids if c.startswith("rp1:"))
    fake_discord.fail_next("POST", CALLBACK, 404, code=10062)
    await discord_driver.click(rules.message, page, user="bob")
    await discord_driver.settle()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    assert any("could not turn a page" in r.getMessage() for r in caplog.records)
