"""Board edits the bot makes by itself (a computer's move, a vote's tally) that Discord
refuses for a while: the board is brought up to date again, and never stays behind."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import pytest

from bot.boards.updates import EDIT_TRIES
from bot.client import TableBot
from bot.table.loaded import Actor
from tests.fake_discord import Driver, FakeDiscord
from tests.support import board_ids, button, make_bot, press, steam_against_computer


def _edits(fake: FakeDiscord, message_id: int | str) -> list[Any]:
    """The edits of a board message made through its channel (not a click's answer)."""
    return [r for r in fake.requests
            if r.method == "PATCH" and r.path.endswith(f"/messages/{message_id}")
            and r.path.startswith("/channels/")]


async def _toy(driver: Driver, fake: FakeDiscord, tmp_path: Any,
               **settings: Any) -> tuple[TableBot, dict[str, Any], int]:
    """Alice's Race to Ten in #games: the bot, the board message and the game's id."""
    bot = await driver.login(make_bot(tmp_path, **settings))
    board = (await driver.slash("toy", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None
    return bot, board, game.id


async def test_a_long_rate_limit_on_a_computer_moves_edit_is_waited_out(
        discord_driver, fake_discord, tmp_path):
    """Alice plays Steam to Solar against a computer. The edits showing the computer's
    move meet a rate limit longer than discord.py waits: the bot edits the board again
    once the wait Discord asked for is over, so Alice's board shows her turn, her moves
    enabled, rather than the computer "choosing" for ever."""
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    # discord.py gives up at once on a rate limit longer than this (30 s at least in
    # production): one of 3 s stands for a long one here.
    bot.http.max_ratelimit_timeout = 1.0
    path = rf"/channels/\d+/messages/{game.row.board_message_id}$"
    for _ in range(50):  # Alice plays until her move hands the turn to the computer
        game = await bot.tables.load(game.id)
        assert game.to_act() == 0
        board = fake_discord.get_message(game.row.board_message_id)
        action = game.engine.computer_action(game.state, 0)
        if game.engine.to_act(game.engine.apply(game.state, 0, action).state) == 0:
            await press(discord_driver, board, action, "alice")
            continue
        # The computer's move is shown by edits through the channel: refused for 3 s.
        fake_discord.fail_next("PATCH", path, 429, retry_after=3.0, times=100)
        first = len(fake_discord.requests)
        clicking = asyncio.create_task(press(discord_driver, board, action, "alice"))
        refused = await fake_discord.wait_for_request("PATCH", path, after=first)
        async with asyncio.timeout(10):
            while (await bot.tables.load(game.id)).to_act() != 0:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)  # the edits of the computer's move are refused meanwhile
        fake_discord.faults.clear()  # the rate limit is over
        await clicking
        break
    game = await bot.tables.load(game.id)
    assert game.to_act() == 0, "the computer has moved; it is Alice's turn again"
    shown = fake_discord.get_message(game.row.board_message_id)
    moves = [c for row in shown["components"] for c in row["components"]
             if ":table." not in c.get("custom_id", ":table.")]
    assert moves and not all(c.get("disabled") for c in moves), "the computer still choosing"
    assert all(f":{game.row.version}:" in cid for cid in board_ids(shown))
    assert bot.boards.messages.shown[game.id] == game.row.version
    assert refused.status == 429
    edited = [r for r in _edits(fake_discord, game.row.board_message_id) if r.status == 200]
    assert edited[-1].time - refused.time >= 3.0  # not before Discord said


async def test_server_errors_on_the_bots_own_edit_are_waited_out_longer_each_time(
        discord_driver, fake_discord, tmp_path):
    """Discord answers the bot's own edit of a board with server errors twice: the edit
    is made again after two edit intervals, then four, and the board is up to date."""
    bot, board, game_id = await _toy(discord_driver, fake_discord, tmp_path,
                                     BOARD_EDIT_SECONDS=0.1)
    fake_discord.fail_next("PATCH", rf"/channels/\d+/messages/{board['id']}$", 503, times=2)
    bot.boards.messages.update_soon(game_id)
    await discord_driver.settle()
    edits = _edits(fake_discord, board["id"])
    assert [r.status for r in edits] == [503, 503, 200]
    pauses = [later.time - earlier.time for earlier, later in itertools.pairwise(edits)]
    assert pauses[0] >= 0.2 and pauses[1] >= 0.4, pauses
    assert bot.boards.messages.shown[game_id] == 0


async def test_a_refused_edit_is_given_up_after_a_few_tries(discord_driver, fake_discord,
                                                            tmp_path, caplog):
    """An edit Discord keeps refusing (403) is tried a few times, then left, with a
    warning and no error; a refusal that trying again cannot change (400, or the bot shut
    out of the channel) is not tried again at all."""
    bot, board, game_id = await _toy(discord_driver, fake_discord, tmp_path)
    path = rf"/channels/\d+/messages/{board['id']}$"
    fake_discord.fail_next("PATCH", path, 403, times=EDIT_TRIES + 5)
    with caplog.at_level(logging.WARNING, logger="bot.boards.updates"):
        bot.boards.messages.update_soon(game_id)
        await discord_driver.settle()
    assert [r.status for r in _edits(fake_discord, board["id"])] == [403] * EDIT_TRIES
    assert any("gave up" in r.getMessage() for r in caplog.records)
    fake_discord.faults.clear()
    fake_discord.fail_next("PATCH", path, 400, code=50035, times=5)
    bot.boards.messages.update_soon(game_id)
    await discord_driver.settle()
    assert [r.status for r in _edits(fake_discord, board["id"])][EDIT_TRIES:] == [400]
    fake_discord.faults.clear()
    fake_discord.fail_next("PATCH", path, 403, code=50001, times=5)
    bot.boards.messages.update_soon(game_id)
    await discord_driver.settle()
    assert [r.status for r in _edits(fake_discord, board["id"])][EDIT_TRIES + 1:] == [403]
    assert game_id in bot.boards.messages.locked_out


async def test_a_refused_edit_is_made_again_but_not_over_a_newer_board(
        discord_driver, fake_discord, tmp_path):
    """The bot's own edit of a board is refused (a server error): it is made again. When
    it is refused again and Alice's click is answered with a newer board meanwhile, the
    older edit is not made again over it."""
    bot, board, game_id = await _toy(discord_driver, fake_discord, tmp_path,
                                     BOARD_EDIT_SECONDS=0.5)
    path = rf"/channels/\d+/messages/{board['id']}$"
    fake_discord.fail_next("PATCH", path, 503)
    bot.boards.messages.update_soon(game_id)
    await discord_driver.settle()
    assert [r.status for r in _edits(fake_discord, board["id"])] == [503, 200]
    fake_discord.fail_next("PATCH", path, 503)
    bot.boards.messages.update_soon(game_id)
    await fake_discord.wait_for_request("PATCH", path, after=len(fake_discord.requests))
    moved = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert moved.response_type == 7
    assert [r.status for r in _edits(fake_discord, board["id"])] == [503, 200, 503]
    game = await bot.tables.load(game_id)
    assert all(f":{game.row.version}:" in cid for cid in board_ids(moved.message))
    assert bot.boards.messages.shown[game_id] == game.row.version


@pytest.mark.parametrize("stopping", [False, True])
async def test_edits_beyond_the_most_at_once_wait_their_turn(discord_driver, fake_discord,
                                                             tmp_path, stopping):
    """Many boards to edit at once (after a long stop, every vote window came due): the
    bot edits a few at a time, the others wait with only their ids held, and every board
    ends up showing its game as stored; a clean stop makes the waiting edits too."""
    bot = await discord_driver.login(make_bot(tmp_path, MAX_OPEN_GAMES=0))
    messages = bot.boards.messages
    messages.updates.max_updating = 2
    games = []
    for n in range(6):
        channel = fake_discord.add_channel(f"table-{n}")
        await discord_driver.slash("toy", "start", user="alice", channel=channel)
        game = await bot.tables.open_in_channel(channel)
        assert game is not None
        games.append(game)
    await discord_driver.settle()
    moved = []
    alice = fake_discord.user("alice")
    for game in games:  # moved without a click to answer: the board is edited later
        play = await bot.tables.act(game.id, game.row.version,
                                    Actor(alice.id, "Alice"), "add2")
        moved.append(play.game)
    for game in moved:
        messages.update_soon(game.id, game)
    assert len(messages.updates._updaters) == 2 and len(messages.updates._waiting) == 4
    assert all(g.id not in messages.updates._latest for g in moved[2:])
    if stopping:
        await messages.stop_updates()
    await discord_driver.settle()
    await fake_discord.wait_until(lambda: not messages.updates._updaters)
    for game in moved:
        board = fake_discord.get_message(game.row.board_message_id)
        assert any(f":{game.row.version}:" in i for i in board_ids(board)), game.id
    assert not messages.updates._waiting
