"""/forget-me and a game's table data: a forgotten member's id is null wherever it stood
(db/forget.py), and the table data still loads, without them; an ended game keeps no
turn timer or waiting turn notice for anyone."""

from __future__ import annotations

import logging

import pytest

from bot.table.data import TableData
from tests.support import button, host_board, make_bot, resign

pytestmark = pytest.mark.sqlite_only  # the table data read back through the SQLite file

COGS = ("cogs.records", "cogs.steam")


async def test_a_finished_steam_game_still_loads_after_forget_me(
        discord_driver, fake_discord, tmp_path, caplog):
    """Alice starts a table with a computer (her turn: a turn notice waits), resigns and
    uses /forget-me: the finished game loads whole, with no notice waiting."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    board = fake_discord.get_message(game.row.board_message_id)
    await resign(discord_driver, board, "alice")
    ended = await bot.tables.load(game.id)
    assert not ended.row.is_open
    assert ended.data.notice_due is None and ended.data.timer is None
    asked = await discord_driver.slash("forget-me", user="alice")
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    loaded = await bot.tables.load(game.id)
    damaged = [r.getMessage() for r in caplog.records
               if r.levelno >= logging.WARNING and "unreadable" in r.getMessage()]
    assert not damaged and not loaded.broken, (damaged, loaded.broken)
    assert "a former player" in str(loaded.row.seats)


def test_table_data_with_forgotten_ids_loads_without_them():
    """Every list of member ids, a waiting notice and a stored ballot of a forgotten
    member (null) are read without them."""
    data = TableData.from_json({
        "recent": [[101, None], [None]], "voted": [None, 102], "abandon_votes": [None],
        "away_votes": {"103": [None, 104]},
        "notice_due": {"user": None, "at": 5.0, "text": "your turn"},
        "poll": {"version": 3, "ballots": [{"user": None, "action": "a"},
                                           {"user": 105, "action": "b"}]},
    })
    assert data.recent == [[101], []] and data.voted == [102] and data.abandon_votes == []
    assert data.away_votes == {"103": [104]} and data.notice_due is None
    assert data.poll is not None and [b.user for b in data.poll.ballots] == [105]
