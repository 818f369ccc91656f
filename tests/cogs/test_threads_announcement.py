"""A game's thread in an announcement channel, and the starter's word when Discord opens
no thread, through the offline fake.

discord.py gives an announcement channel as a text channel, but Discord opens only
announcement threads (type 10) there, never public threads (type 11). When a thread
cannot be opened, the starter is told why, and "just now" (try again) only when trying
again may help.
"""

from __future__ import annotations

import pytest

from bot.boards.threads import NO_THREADS_HERE, NOT_OPENED, THREAD_LIMIT
from tests.fake_discord import payloads
from tests.support import board_ids, button, make_bot

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.server")


def _announcements(fake) -> int:
    """Add an announcement channel to the fake guild; return its id."""
    channel_id = fake.add_channel("announcements")
    fake.channels[channel_id]["type"] = 5
    return channel_id


async def test_thread_yes_in_an_announcement_channel_opens_an_announcement_thread(
        discord_driver, fake_discord, tmp_path):
    """The game gets an announcement thread under the announcement channel, with its
    board, and is played there."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    news = _announcements(fake_discord)
    result = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice",
                                        channel=news)
    await discord_driver.settle()
    (thread,) = fake_discord.threads_under(news)
    assert thread["type"] == 10 and thread["name"].startswith("Tinker · Alice · ")
    thread_id = int(thread["id"])
    assert not result.ephemeral and f"<#{thread_id}>" in result.content
    assert result.followups == []  # no note: the thread was opened
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and game.data.thread
    assert await bot.tables.open_in_channel(news) is None
    (board,) = [m for m in fake_discord.channel_messages(thread_id) if m.get("components")]
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")  # a move
    moved = await discord_driver.click(board, button(board, action), user="bob")
    assert moved.response_type == 7, moved.content


@pytest.mark.parametrize(("status", "code", "note"), [
    (400, 50024, NO_THREADS_HERE),
    (400, 160006, THREAD_LIMIT),
    (503, None, NOT_OPENED),
])
async def test_the_note_says_why_no_thread_was_opened(discord_driver, fake_discord, tmp_path,
                                                      status, code, note):
    """Discord refuses the thread: the game is played in the channel and the starter is
    told the reason; only a failure that may pass says "just now"."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.fail_next("POST", r"/channels/\d+/threads", status, code=code)
    result = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    await discord_driver.settle()
    assert not result.ephemeral and board_ids(result.message)
    (sent,) = result.followups
    assert sent["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL and sent["content"] == note
    assert ("just now" in note) == (status >= 500)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and not game.data.thread
