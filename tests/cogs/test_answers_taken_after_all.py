"""Discord takes an interaction's answer, then fails its reply (a 500): discord.py sends
the answer again and Discord says it was answered already (40060). The answer showed, so
the bot carries on from it: a "thinking…" is followed up, a board is not posted twice."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from bot.boards import answer_clock
from tests.fake_discord import payloads
from tests.support import board_ids, make_bot

CALLBACK = r"/interactions/\d+/[^/]+/callback"


async def test_a_deferral_taken_after_all_is_followed_up_with_the_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """A slow /tinker start is deferred ("thinking…"); the deferral is taken but answered
    500. The board then takes the "thinking…"'s place, as for any deferred start: one
    board, no message left thinking."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    monkeypatch.setattr(answer_clock, "ANSWER_WITHIN", 0.0)
    fake.fail_after_next("POST", CALLBACK)
    started = await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    original = fake.get_message(started.record.original_message_id)
    assert not original["flags"] & payloads.MESSAGE_FLAG_LOADING
    assert game.row.board_message_id == int(original["id"])
    assert [m["id"] for m in fake.channel_messages() if board_ids(m)] == [original["id"]]


async def test_a_board_answer_taken_after_all_is_the_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any) -> None:
    """/tinker start's board answer is taken but answered 500: that message is the
    game's board; no second board is posted beside it."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    fake.fail_after_next("POST", CALLBACK)
    await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    boards = [m for m in fake.channel_messages() if board_ids(m)]
    assert [int(m["id"]) for m in boards] == [game.row.board_message_id]


async def test_a_deferral_whose_answer_was_lost_is_followed_up_with_the_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """A slow /tinker start's deferral is taken, but the connection drops under its
    answer, so the bot does not know it went; the board's answer meets "answered
    already" (40060). What Discord shows is the "thinking…", so the board follows it
    up: it is the game's board, not the message still thinking."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    monkeypatch.setattr(answer_clock, "ANSWER_WITHIN", 0.0)
    real = discord.InteractionResponse.defer
    calls = 0

    async def taken_then_lost(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        result = await real(self, *args, **kwargs)
        if calls == 1:  # Discord took the deferral; its answer never came back
            self._response_type = None
            raise aiohttp.ServerDisconnectedError()
        return result

    monkeypatch.setattr(discord.InteractionResponse, "defer", taken_then_lost)
    started = await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    stored = fake.get_message(game.row.board_message_id)
    assert not stored["flags"] & payloads.MESSAGE_FLAG_LOADING and board_ids(stored)
    assert int(stored["id"]) == started.record.original_message_id
    assert [m["id"] for m in fake.channel_messages() if board_ids(m)] == [stored["id"]]
