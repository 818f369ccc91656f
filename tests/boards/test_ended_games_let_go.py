"""What the board side notes of a game goes when the game ends, even when the ended
board cannot be shown: its board deleted by a moderator, the channel shut to the bot,
its thread archived by Discord before the idle sweep ended it. A bot running for months
holds nothing of such games."""

from __future__ import annotations

import asyncio

from bot.table.loaded import Actor
from tests.support import Clock, make_bot

GAMES = 40


def _held(bot) -> dict[str, int]:
    messages = bot.boards.messages
    return {"shown": len(messages.shown), "shown_at": len(messages.shown_at),
            "locked_out": len(messages.locked_out)}


async def _idle_games(driver, fake, tmp_path, clock, **settings) -> tuple[object, list]:
    """Start GAMES toy games, one a channel; return the bot and (channel, board) pairs."""
    bot = await driver.login(make_bot(tmp_path, clock=clock, **settings))
    boards = []
    for i in range(GAMES):
        channel = fake.add_channel(f"c{i}")
        boards.append((channel, (await driver.slash("toy", "start", user="alice",
                                                    channel=channel)).message))
    assert _held(bot)["shown"] == GAMES
    return bot, boards


async def _swept(driver, bot, clock) -> dict[str, int]:
    clock.advance(7 * 86400 + 1)
    assert await bot.sweep_once() == GAMES
    await driver.settle()
    return _held(bot)


async def test_games_swept_with_their_boards_deleted_are_let_go(discord_driver, fake_discord,
                                                                tmp_path):
    """A deleted board is not posted again for an ended game, and the game is let go."""
    clock = Clock()
    bot, boards = await _idle_games(discord_driver, fake_discord, tmp_path, clock)
    for channel, board in boards:
        fake_discord.delete_message(channel, board["id"])
    assert await _swept(discord_driver, bot, clock) == {"shown": 0, "shown_at": 0,
                                                         "locked_out": 0}


async def test_games_swept_in_channels_shut_to_the_bot_are_let_go(discord_driver,
                                                                  fake_discord, tmp_path):
    """Every edit refused (403 Missing Access): nothing is held, not even the lock-out."""
    clock = Clock()
    bot, _boards = await _idle_games(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    assert await _swept(discord_driver, bot, clock) == {"shown": 0, "shown_at": 0,
                                                         "locked_out": 0}


async def test_games_swept_in_archived_threads_are_let_go(discord_driver, fake_discord,
                                                          tmp_path):
    """Tinker games in threads Discord archived after a week: the ended board's edit is
    refused (50083), and the games are let go all the same."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, cogs=("cogs.tinker",),
                                              BOARD_IMAGES="off"))
    for i in range(GAMES // 4):
        await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                                   user="alice", channel=fake_discord.add_channel(f"t{i}"))
    threads = [c for c in fake_discord.channels.values() if "thread_metadata" in c]
    assert len(threads) == GAMES // 4
    for thread in threads:
        thread["thread_metadata"]["archived"] = True
    assert _held(bot)["shown"] == GAMES // 4
    clock.advance(7 * 86400 + 1)
    assert await bot.sweep_once() == GAMES // 4
    await discord_driver.settle()
    assert _held(bot) == {"shown": 0, "shown_at": 0, "locked_out": 0}


async def test_an_ended_game_whose_edits_fail_for_a_while_is_let_go_once_given_up(
        discord_driver, fake_discord, tmp_path):
    """Discord holds every edit of an ended game's board back for longer than the bot
    waits (a long rate limit): the bot's own edits are given up after their tries, and
    the game is let go."""
    bot = await discord_driver.login(make_bot(tmp_path))
    await discord_driver.slash("toy", "start", user="alice")
    messages = bot.boards.messages
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert _held(bot)["shown"] == 1
    refused = messages.updates._refused

    def soon(*args: object) -> float | None:  # the pauses between tries, shortened
        return None if refused(*args) is None else 0.01  # type: ignore[arg-type]

    messages.updates._refused = soon
    fake_discord.fail_next("PATCH", r"^/channels/\d+/messages/\d+$", 429, retry_after=60,
                           times=10_000)
    ended = await bot.tables.abandon(fake_discord.channel_id,
                                     Actor(fake_discord.user("alice").id, "Alice", False))
    assert not ended.row.is_open
    messages.update_soon(game.id, ended)
    await asyncio.wait_for(messages.updates._updaters[game.id], 20)  # the tries, then given up
    assert _held(bot) == {"shown": 0, "shown_at": 0, "locked_out": 0}
