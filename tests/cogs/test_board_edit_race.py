"""A board edit the bot makes by itself never leaves an older board on show.

After a vote the bot edits the board itself (the tally). When that edit is held back
(Discord's rate limit) while the next click makes the move and is answered with the new
board, the late edit lands on top of the newer board: the bot then shows the newest
board again, and knows which one the message shows.
"""

from __future__ import annotations

import asyncio

from tests.cogs.test_votes_cog import _vote_game
from tests.support import Clock, board_ids, button


def _versions(message: dict) -> set[str]:
    return {custom_id.split(":")[2] for custom_id in board_ids(message)}


async def test_a_late_vote_edit_does_not_bring_back_the_older_board(
        discord_driver, fake_discord, tmp_path) -> None:
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, Clock())
    before = game.row.version
    # The edit the bot makes after Carol's vote waits half a second for the rate limit.
    fake_discord.fail_next("PATCH", r"/channels/\d+/messages/\d+$", 429, retry_after=0.5)
    carol = asyncio.create_task(discord_driver.click(board, button(board, "add2"),
                                                     user="carol"))
    await asyncio.sleep(0.2)  # Carol is answered; the board's edit is held back
    move = await discord_driver.click(board, button(board, "add2"), user="bob")
    game = await bot.tables.load(game.id)
    assert game.row.version == before + 1  # Bob's vote made the majority: the move
    assert move.response_type == 7 and _versions(move.message) == {str(game.row.version)}
    await carol
    await discord_driver.settle()
    shown = fake_discord.get_message(game.row.board_message_id)
    assert _versions(shown) == {str(game.row.version)}
    assert not any("vot" in field["name"].lower()
                   for field in shown["embeds"][0].get("fields", []))
    assert bot.boards.messages.shown[game.id] == game.row.version
