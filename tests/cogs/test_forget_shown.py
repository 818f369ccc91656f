"""/forget-me reaches what Discord shows, not only the store: the ended boards of the
member's finished games are drawn again ("a former player" in their seat, the picture
and its alt text too), and the thread the bot opened for a game they started, named
after them, is renamed (an archived one is archived again)."""

from __future__ import annotations

import json

import pytest

from bot.table.service import Actor
from tests.support import make_bot

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.records")


@pytest.mark.parametrize("archived", [False, True], ids=["open", "archived"])
async def test_forget_me_redraws_the_boards_and_renames_the_thread(
        discord_driver, fake_discord, tmp_path, archived):
    """Zephyrine plays Tinker in a thread of its own to its end, then forgets herself:
    the board, its picture's alt text and the thread's name no longer name her."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="Zephyrine")
    (thread,) = fake_discord.threads_under()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    while game.row.is_open:
        game = (await bot.tables.act(game.id, game.row.version, Actor(zeph.id, "Zephyrine"),
                                     game.engine.computer_action(game.state, 0))).game
    await bot.boards.messages.refresh(game)
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    assert "Zephyrine" in json.dumps(board) and "Zephyrine" in thread["name"]
    thread["thread_metadata"]["archived"] = archived  # an hour after the game, it is
    prompt = await discord_driver.slash("forget-me", user="Zephyrine")
    await discord_driver.click(prompt.message, prompt.custom_ids[0], user="Zephyrine")
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    assert "Zephyrine" not in json.dumps(board)
    assert "a former player" in json.dumps(board["embeds"])
    assert thread["name"].startswith("Tinker · a former player · ")
    assert thread["thread_metadata"]["archived"] is archived
