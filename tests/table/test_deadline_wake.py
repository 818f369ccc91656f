"""A stored deadline wakes the deadline loop for it, however the save and the loop's look
interleave.

A vote opens a window (ruling C4): its deadline is stored with the save, and the loop
that sleeps until the next stored deadline must wake for it. It is told only once the
save is committed (a look before the commit would not find it), and a wake that comes
while the loop is looking is kept for its next wait (it might have looked too early).
With a disk that takes 50 ms to commit, the loop must never sleep past the window.
"""

from __future__ import annotations

import asyncio
import time

import pytest

import db.sqlite_batch
from tests.support import Clock, button, make_bot

#: Rounds of a window opened and decided.
ROUNDS = 8


async def _sleeping_until(bot: object) -> float | None:
    """The time the deadline loop sleeps until, once it sleeps again."""
    for _ in range(200):
        await asyncio.sleep(0.01)
        until = bot.deadlines._sleeping_until  # type: ignore[attr-defined]
        if until is not None:
            return float(until)
    return None


async def test_c4_a_vote_window_wakes_the_loop_with_a_slow_disk(
        discord_driver, fake_discord, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    stored = db.sqlite_batch.run_batch

    def slow(conn, works, check):  # type: ignore[no-untyped-def]
        time.sleep(0.05)  # a slow disk: every commit takes 50 ms
        return stored(conn, works, check)

    monkeypatch.setattr(db.sqlite_batch, "run_batch", slow)
    clock = Clock()
    fake_discord.add_user("bob")
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, VOTE_WINDOW_SECONDS=10))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    for _ in range(ROUNDS):
        clock.advance(1)
        bot.deadlines.wake(None)  # the loop looks: nothing is stored, it sleeps 30 s
        await asyncio.sleep(0.05)
        board = fake_discord.get_message(board["id"])
        await discord_driver.click(board, button(board, "add1"), user="bob")  # a window opens
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        assert game is not None and game.data.poll is not None
        closes = game.data.poll.closes
        assert closes == clock.now + 10
        assert await _sleeping_until(bot) == closes
        board = fake_discord.get_message(board["id"])
        await discord_driver.click(board, button(board, "add1"), user="alice")  # decided
        await discord_driver.settle()
