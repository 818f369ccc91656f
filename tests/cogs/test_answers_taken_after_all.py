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


def _deferral_taken_then_lost(monkeypatch: Any) -> None:
    """Make the first deferral reach Discord and its answer be lost (the connection
    drops), so the bot does not know it went."""
    monkeypatch.setattr(answer_clock, "ANSWER_WITHIN", 0.0)
    real = discord.InteractionResponse.defer
    calls = 0

    async def taken_then_lost(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        result = await real(self, *args, **kwargs)
        if calls == 1:
            self._response_type = None
            raise aiohttp.ServerDisconnectedError()
        return result

    monkeypatch.setattr(discord.InteractionResponse, "defer", taken_then_lost)


async def test_play_again_whose_deferral_answer_was_lost_gets_a_board_of_its_own(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """Play again on an ended Tinker board: the click's deferral is taken, its answer
    lost, and the board's answer meets "answered already". The original is then the
    ended board clicked, not a board of the new game: the new game's board is posted as
    a follow-up, and the ended board stays as it was."""
    from tests.support import abandon, button
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", user="alice")
    old = await bot.tables.open_in_channel(fake.channel_id)
    await abandon(discord_driver, "tinker", "alice")
    await discord_driver.settle()
    ended = fake.get_message((await bot.tables.load(old.id)).row.board_message_id)
    _deferral_taken_then_lost(monkeypatch)
    await discord_driver.click(ended, button(ended, "table.again"), user="alice")
    await discord_driver.settle()
    new = await bot.tables.open_in_channel(fake.channel_id)
    assert new is not None and new.id != old.id
    assert new.row.board_message_id != int(ended["id"])
    shown = fake.get_message(new.row.board_message_id)
    assert any(cid.startswith(f"g1:{new.id}:") for cid in board_ids(shown))
    assert fake.get_message(ended["id"])["embeds"] == ended["embeds"]


async def test_a_deferral_whose_answer_was_lost_is_followed_up_with_the_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """A slow /tinker start's deferral is taken, but the connection drops under its
    answer, so the bot does not know it went; the board's answer meets "answered
    already" (40060). What Discord shows is the "thinking…", so the board follows it
    up: it is the game's board, not the message still thinking."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    _deferral_taken_then_lost(monkeypatch)
    started = await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    stored = fake.get_message(game.row.board_message_id)
    assert not stored["flags"] & payloads.MESSAGE_FLAG_LOADING and board_ids(stored)
    assert int(stored["id"]) == started.record.original_message_id
    assert [m["id"] for m in fake.channel_messages() if board_ids(m)] == [stored["id"]]
