"""A board edit never leaves an older board on show.

After a vote the bot edits the board itself (the tally). When that edit is held back
(Discord's rate limit) while the next click makes the move and is answered with the new
board, the late edit lands on top of the newer board: the bot then shows the newest
board again, and knows which one the message shows. So too when a click's own answer is
held back while the game is abandoned and its board says so.
"""

from __future__ import annotations

import asyncio
import re

from tests.cogs.test_votes_cog import _vote_game
from tests.support import Clock, abandon, board_ids, button, make_bot

EDIT = r"/channels/\d+/messages/\d+$"
CALLBACK = r"/interactions/\d+/.+/callback"


def _landed(fake, method: str, path: str, start: int, end: int) -> bool:
    """Whether Discord took a ``method`` request on ``path`` among requests start..end."""
    pattern = re.compile(path)
    return any(r.method == method and pattern.search(r.path) and 200 <= r.status < 300
               for r in fake.requests[start:end])


def _versions(message: dict) -> set[str]:
    return {custom_id.split(":")[2] for custom_id in board_ids(message)}


async def test_a_late_vote_edit_does_not_bring_back_the_older_board(
        discord_driver, fake_discord, tmp_path) -> None:
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, Clock())
    before = game.row.version
    # The edit the bot makes after Carol's vote waits a second for the rate limit.
    first = len(fake_discord.requests)
    fake_discord.fail_next("PATCH", EDIT, 429, retry_after=1.0)
    carol = asyncio.create_task(discord_driver.click(board, button(board, "add2"),
                                                     user="carol"))
    await fake_discord.wait_for_request("PATCH", EDIT, after=first)  # held back
    move = await discord_driver.click(board, button(board, "add2"), user="bob")
    answered = len(fake_discord.requests)
    assert not _landed(fake_discord, "PATCH", EDIT, first, answered)  # the race is on
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


async def test_a_late_click_answer_does_not_bring_back_an_abandoned_game(
        discord_driver, fake_discord, tmp_path) -> None:
    """Bob's move is saved but its answer waits half a second on Discord (a rate limit);
    Alice abandons the game meanwhile and its board says so. Bob's answer then lands
    with the running game: the bot shows the ended board again, with no moves on it."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    first = len(fake_discord.requests)
    fake_discord.fail_next("POST", CALLBACK, 429, retry_after=1.0)
    click = asyncio.ensure_future(
        discord_driver.click(board, button(board, "add1"), user="bob"))
    held = await fake_discord.wait_for_request("POST", CALLBACK, after=first)
    done = await abandon(discord_driver, "toy", "alice")
    assert "abandoned" in done.followups[0]["content"]
    # Bob's answer, held back after his move was saved, has not landed yet
    assert not _landed(fake_discord, "POST", re.escape(held.path) + "$", first,
                       len(fake_discord.requests))
    await click
    await discord_driver.settle()
    assert (await bot.store.get_game(1)).status == "abandoned"
    shown = fake_discord.get_message(board["id"])
    assert board_ids(shown) == [], board_ids(shown)



async def test_a_held_back_tally_edit_does_not_bring_back_an_abandoned_game(
        discord_driver, fake_discord, tmp_path) -> None:
    """Carol's vote is saved and its tally's edit waits for the board's edit interval;
    Alice abandons the game meanwhile and its board says so. The held-back edit is not
    made: the board stays ended, with no moves on it."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, BOARD_EDIT_SECONDS=0.6))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    await discord_driver.click(board, button(board, "add1"), user="bob")  # edited at once
    first = len(fake_discord.requests)
    vote = asyncio.ensure_future(discord_driver.click(
        fake_discord.get_message(board["id"]), button(board, "add2"), user="carol"))
    # Carol's vote is saved and answered; its tally's edit waits
    await fake_discord.wait_for_request("POST", CALLBACK, after=first)
    done = await abandon(discord_driver, "toy", "alice")
    assert "abandoned" in done.followups[0]["content"]
    await vote
    await asyncio.sleep(0.8)
    await discord_driver.settle()
    assert (await bot.store.get_game(1)).status == "abandoned"
    assert board_ids(fake_discord.get_message(board["id"])) == []
