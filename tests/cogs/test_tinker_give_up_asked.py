"""Giving up a Tinker challenge asks first wherever a click moves at once (C1, C4)."""

from __future__ import annotations

from typing import Any

from bot.boards.render import TALLY
from bot.table import polls
from bot.table.data import Poll, TableData
from tests.support import board_ids, drop_first_answer, make_bot

COGS = ("cogs.tinker",)


async def _to_a_challenge(driver: Any, board: Any, user: str = "alice") -> Any:
    """Click the first live move until the board offers giving up; return that board."""
    for _ in range(12):
        ids = board_ids(board)
        if any(c.endswith(":give_up") or c.endswith(":ask.give_up") for c in ids):
            return board
        live = [c["custom_id"] for row in board["components"] for c in row["components"]
                if "custom_id" in c and not c.get("disabled")
                and ":table." not in c["custom_id"]]
        board = (await driver.click(board, live[0], user=user)).message
    raise AssertionError("no challenge reached")


async def test_c4_lone_voter_is_asked_before_giving_up(
    discord_driver: Any, fake_discord: Any, tmp_path: Any
) -> None:
    """C1, C4: alone in a vote game, a click moves at once, so Give up asks first (as in
    fast and "only me" games); nothing happens until the player confirms."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    board = await _to_a_challenge(discord_driver, board)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    give_up = next(c for c in board_ids(board) if c.endswith("give_up"))
    assert give_up.endswith(":ask.give_up")
    result = await discord_driver.click(board, give_up, user="alice")
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version, after.row.events[-3:]
    assert result.ephemeral


def test_c4_give_up_asks_only_where_a_vote_would_move_at_once() -> None:
    """C4: with no or one active player a vote is a majority by itself (asked first);
    with two or more, giving up is a ballot needing a majority (not asked); fast and
    "only me" games always ask."""
    assert polls.moves_at_once(TableData(), 3)
    assert polls.moves_at_once(TableData(recent_players=1), 3)
    assert not polls.moves_at_once(TableData(recent_players=2), 3)
    assert not polls.moves_at_once(TableData(poll=Poll(3, active=2)), 3)
    assert polls.moves_at_once(TableData(recent_players=2, poll=Poll(3, active=1)), 3)
    assert polls.moves_at_once(TableData(mode="fast", recent_players=3), 3)
    assert polls.moves_at_once(TableData(mode="solo", recent_players=3), 3)


async def test_c4_a_confirmed_give_up_that_became_a_vote_shows_on_the_board(
    discord_driver: Any, fake_discord: Any, tmp_path: Any
) -> None:
    """C4: Alice is asked to confirm giving up; Bob votes meanwhile, so her "Yes" is a
    vote. The board's tally counts it at once, its vote line says the countdown running
    for Bob's move ends without giving up, and her private question says it."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    board = await _to_a_challenge(discord_driver, board)
    give_up = next(c for c in board_ids(board) if c.endswith("give_up"))
    asked = await discord_driver.click(board, give_up, user="alice")
    assert asked.ephemeral and asked.custom_ids
    chip = next(c for c in board_ids(board) if ":chip:" in c)
    await discord_driver.click(fake_discord.get_message(board["id"]), chip, user="bob")
    await discord_driver.settle()
    yes = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.poll is not None and game.data.poll.tally.get("give_up") == 1
    shown = fake_discord.get_message(board["id"])
    labels = [c.get("label") for row in shown["components"] for c in row["components"]]
    assert f"Give up{TALLY}1" in labels, labels
    field = next(f for f in shown["embeds"][0]["fields"] if "voting" in f["name"])
    assert field["value"].startswith("2 votes"), field["value"]
    assert field["value"].endswith(":R> without giving up"), field["value"]
    assert yes.content.startswith("Your vote: Give up"), yes.content
    # her first vote that waits for others (she played alone before): how voting works
    assert "2 make a majority" in yes.content and "needs a majority" in yes.content, yes.content
    assert not yes.custom_ids, "the private question still offers its button"


async def test_c4_a_counted_vote_whose_answer_is_lost_is_acknowledged(
    discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any
) -> None:
    """Alice confirms giving up after Bob voted, so her "Yes" is a ballot (C4). The
    connection drops under its answer: the vote counts, so the click is acknowledged,
    never left to read "This interaction failed"."""
    driver = discord_driver
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("tinker", "start", user="alice")).message
    board = await _to_a_challenge(driver, board)
    asked = await driver.click(board, next(c for c in board_ids(board)
                                           if c.endswith("give_up")), user="alice")
    chip = next(c for c in board_ids(board) if ":chip:" in c)
    await driver.click(fake_discord.get_message(board["id"]), chip, user="bob")
    await driver.settle()
    drop_first_answer(monkeypatch, "edit_message")
    yes = await driver.click(asked.message, asked.custom_ids[0], user="alice")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.data.poll is not None
    assert game.data.poll.tally.get("give_up") == 1
    assert yes.response_type == 6
