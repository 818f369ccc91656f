"""The bot loses access to a game's channel mid-game (made private to a role without the
bot): Discord still brings clicks and takes their answers, but refuses every request the
bot makes through the channel (403 50001). Nobody is left with a board on which nothing
can be pressed, and the player is told once what an admin can do."""

from __future__ import annotations

import asyncio

from tests.support import board_ids, press, steam_against_computer


def _live_moves(message: dict) -> list[dict]:
    """The board's move buttons and menus that can be used."""
    return [c for row in message["components"] for c in row["components"]
            if ":table." not in c.get("custom_id", ":table.") and not c.get("disabled")]


def _rules(message: dict) -> str:
    """The custom id of the board's Rules & details button."""
    return next(c["custom_id"] for row in message["components"] for c in row["components"]
                if c.get("custom_id", "").endswith(":table.rules"))


async def test_rules_and_details_brings_back_a_board_the_bot_could_not_edit(
        discord_driver, fake_discord, tmp_path) -> None:
    """Alice against a computer, the bot shut out of the channel: after her turn the
    board shows the computer choosing and stays so (its edits refused). Rules & details,
    the one button left, answers with her turn's board and says once why it lagged."""
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    bot.boards.messages.edit_interval = 0.01
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    for _ in range(40):  # Alice plays her turn out (the answers to her clicks still go)
        game = await bot.tables.load(game.id)
        board = fake_discord.get_message(game.row.board_message_id)
        action = game.engine.computer_action(game.state, 0)
        await press(discord_driver, board, action, "alice")
        await discord_driver.settle()
        if game.engine.to_act(game.engine.apply(game.state, 0, action).state) != 0:
            break
    for _ in range(200):  # the computer's turn: it plays, its board edits are refused
        await asyncio.sleep(0.02)
        game = await bot.tables.load(game.id)
        if game.to_act() == 0 and bot.boards.messages.locked_out:
            break
    await discord_driver.settle()
    assert game.to_act() == 0 and game.id in bot.boards.messages.locked_out
    shown = fake_discord.get_message(game.row.board_message_id)
    assert not _live_moves(shown)  # still the computer's turn as shown
    said = await discord_driver.click(shown, _rules(shown), user="alice")
    shown = fake_discord.get_message(game.row.board_message_id)
    assert _live_moves(shown), "her turn's board, answered to her click"
    assert {c.split(":")[2] for c in board_ids(shown)} == {str(game.row.version)}
    private = [f.get("content") or "" for f in said.followups]
    assert any(p.startswith("The bot can no longer update this board") and
               "View Channel" in p for p in private), private
    again = await discord_driver.click(shown, _rules(shown), user="alice")
    assert not any((f.get("content") or "").startswith("The bot can no longer")
                   for f in again.followups), "told once"
