"""A game's thread and Play again pressed just after the game ended, through the offline
fake (game threads on).

The end of a game lowers its thread's archive time to an hour (its wind-up); a new game
started in the thread keeps it a week. Thread edits are tightly rate-limited, so the
wind-up's edit may land after the new game has started: the new game's thread must still
archive after a week, not an hour. An ended game with no new one still winds its thread
up to an hour (and with no extra thread edit); a wind-up made late, once a new game is
open in the thread, leaves the thread alone.
"""

from __future__ import annotations

import asyncio

from bot.boards.threads import ENDED_ARCHIVE_MINUTES, OPEN_ARCHIVE_MINUTES
from tests.support import button, make_bot


def _archive(fake, thread_id: int) -> int:
    return fake.channels[thread_id]["thread_metadata"]["auto_archive_duration"]


def _edits(fake, thread_id: int) -> list[dict]:
    """The thread edits Discord took (a rate-limited try is not one)."""
    return [r.json for r in fake.requests
            if r.method == "PATCH" and r.path == f"/channels/{thread_id}" and r.status == 200]


def _ended(fake, message_id) -> bool:
    board = fake.get_message(message_id)
    return bool(board and board.get("embeds")) and not any(
        ":add" in c.get("custom_id", "")
        for row in board.get("components") or [] for c in row.get("components", []))


async def _one_move_from_the_end(driver, fake, tmp_path):
    """Start a toy game in its own thread and play it to one move from its end; return
    the bot, the thread's id and the board."""
    bot = await driver.login(make_bot(tmp_path, GAME_THREADS="on"))
    await driver.slash("toy", "start", user="alice")
    (thread,) = fake.threads_under()
    thread_id = int(thread["id"])
    board = next(m for m in fake.channel_messages(thread_id) if m.get("components"))
    for _ in range(4):
        board = (await driver.click(board, button(board, "add2"), user="alice")).message
    return bot, thread_id, board


async def test_play_again_while_the_thread_winds_up_keeps_it_a_week(discord_driver,
                                                                     fake_discord, tmp_path):
    """The wind-up's edit waits on a rate limit while Play again starts a new game in the
    thread: the thread ends up archiving after a week, the new game open in it."""
    bot, thread_id, board = await _one_move_from_the_end(discord_driver, fake_discord,
                                                         tmp_path)
    fake_discord.fail_next("PATCH", rf"/channels/{thread_id}$", 429, retry_after=0.6)
    last = asyncio.ensure_future(
        discord_driver.click(board, button(board, "add2"), user="alice"))
    await fake_discord.wait_until(lambda: _ended(fake_discord, board["id"]))
    ended = fake_discord.get_message(board["id"])
    again = await discord_driver.click(ended, button(ended, "table.again"), user="bob")
    assert again.response_type == 4 and not again.ephemeral, again.content
    await last
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and game.row.is_open and game.data.thread
    assert _archive(fake_discord, thread_id) == OPEN_ARCHIVE_MINUTES
    assert _edits(fake_discord, thread_id)[-1] == {"archived": False,
                                                   "auto_archive_duration":
                                                   OPEN_ARCHIVE_MINUTES}


async def test_an_ended_game_with_no_new_one_still_winds_up(discord_driver, fake_discord,
                                                            tmp_path):
    """The same end with its edit rate-limited, and no Play again: the thread archives
    after an hour, set by one edit."""
    bot, thread_id, board = await _one_move_from_the_end(discord_driver, fake_discord,
                                                         tmp_path)
    fake_discord.fail_next("PATCH", rf"/channels/{thread_id}$", 429, retry_after=0.6)
    await discord_driver.click(board, button(board, "add2"), user="alice")
    await discord_driver.settle()
    await fake_discord.wait_until(lambda: _edits(fake_discord, thread_id) != [])
    assert await bot.tables.open_in_channel(thread_id) is None
    assert _archive(fake_discord, thread_id) == ENDED_ARCHIVE_MINUTES
    assert _edits(fake_discord, thread_id) == [{"auto_archive_duration":
                                                ENDED_ARCHIVE_MINUTES}]


async def test_a_late_wind_up_leaves_a_thread_with_a_new_game_alone(discord_driver,
                                                                   fake_discord, tmp_path):
    """A wind-up of the ended game made only once Play again's game is open in the
    thread (say, after a slow look-up) makes no edit: the thread stays a week."""
    bot, thread_id, board = await _one_move_from_the_end(discord_driver, fake_discord,
                                                         tmp_path)
    old = await bot.tables.open_in_channel(thread_id)
    assert old is not None
    ended = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    await discord_driver.settle()
    again = await discord_driver.click(ended, button(ended, "table.again"), user="bob")
    assert not again.ephemeral, again.content
    await discord_driver.settle()
    assert _archive(fake_discord, thread_id) == OPEN_ARCHIVE_MINUTES
    edits = len(_edits(fake_discord, thread_id))
    threads = bot.boards.threads
    threads._wound.pop(old.id)  # as if this were its first wind-up, made late
    await threads.wind_up(await bot.tables.load(old.id))
    assert len(_edits(fake_discord, thread_id)) == edits
    assert _archive(fake_discord, thread_id) == OPEN_ARCHIVE_MINUTES


async def test_a_wind_up_between_the_look_and_the_store_gives_the_week_back(
        discord_driver, fake_discord, tmp_path):
    """Play again's start looks at the thread (a week: nothing to do), then the ended
    game's wind-up lowers it to an hour before the new game is stored, so the wind-up's
    second look sees no game: once stored, the new game gives the thread its week back."""
    bot, thread_id, board = await _one_move_from_the_end(discord_driver, fake_discord,
                                                         tmp_path)
    threads = bot.boards.threads
    real_wind_up, real_place = threads.wind_up, threads.place
    ended_games = []

    async def held_wind_up(game):
        ended_games.append(game)

    async def place_then_wind_up(*args, **kwargs):
        place = await real_place(*args, **kwargs)
        (game,) = ended_games
        await real_wind_up(game)  # lowers the thread: the new game is not stored yet
        assert _archive(fake_discord, thread_id) == ENDED_ARCHIVE_MINUTES
        return place

    threads.wind_up = held_wind_up
    ended = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    await discord_driver.settle()
    threads.wind_up, threads.place = real_wind_up, place_then_wind_up
    again = await discord_driver.click(ended, button(ended, "table.again"), user="bob")
    assert not again.ephemeral, again.content
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(thread_id) is not None
    assert _archive(fake_discord, thread_id) == OPEN_ARCHIVE_MINUTES
    assert _edits(fake_discord, thread_id)[-2:] == [
        {"auto_archive_duration": ENDED_ARCHIVE_MINUTES},
        {"archived": False, "auto_archive_duration": OPEN_ARCHIVE_MINUTES}]


async def test_play_again_in_a_thread_archived_since_the_end_keeps_it_a_week(
        discord_driver, fake_discord, tmp_path):
    """A game ended in its own thread, which Discord archived an hour later; the next
    evening Play again on its last board starts a new game there: the thread is
    unarchived with its week back (Discord edits an archived thread only so), not left
    to be archived an hour after its last message, mid-game."""
    bot, thread_id, board = await _one_move_from_the_end(discord_driver, fake_discord,
                                                         tmp_path)
    ended = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    await discord_driver.settle()
    assert _archive(fake_discord, thread_id) == ENDED_ARCHIVE_MINUTES
    fake_discord.channels[thread_id]["thread_metadata"]["archived"] = True
    again = await discord_driver.click(ended, button(ended, "table.again"), user="bob")
    assert not again.ephemeral, again.content
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(thread_id) is not None
    metadata = fake_discord.channels[thread_id]["thread_metadata"]
    assert metadata["auto_archive_duration"] == OPEN_ARCHIVE_MINUTES
    assert not metadata["archived"]
