"""Discord takes an interaction's answer, then fails its reply (a 500): discord.py sends
the answer again and Discord says it was answered already (40060). The answer showed, so
the bot carries on from it: a "thinking…" is followed up, a board is not posted twice."""

from __future__ import annotations

from typing import Any

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
