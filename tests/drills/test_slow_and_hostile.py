"""Drills: a write-locked database, a flaky transport, hostile names and custom tables.

Each drill prints its figure (run with ``-s`` to see them).
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time

import aiohttp
import discord
import pytest

from bot.boards import answer_clock
from bot.boards.clicks import HEALED
from bot.table.lobby import free_computer_name
from bot.table.seats import Seat
from bot.text.names import safe_name
from tests.drills.checks import checked_games
from tests.support import board_ids, button, host_does, make_bot

COGS = ("cogs.tinker",)


def _hold_write_lock(path, seconds: float, ready: threading.Event) -> None:
    """Keep the database write-locked from another connection for ``seconds``."""
    conn = sqlite3.connect(path, timeout=10)
    conn.execute("BEGIN IMMEDIATE")
    ready.set()
    time.sleep(seconds)
    conn.execute("ROLLBACK")
    conn.close()


async def test_locked_database_never_fails_a_click_that_happened(discord_driver, fake_discord,
                                                                tmp_path):
    """A database write-locked for 5 s: every click is answered in time, and every move that
    was saved shows on its board; none is shown as failed yet applied."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    boards = []
    for index in range(8):
        channel = fake_discord.add_channel(f"slow-{index}")
        result = await discord_driver.slash("tinker", "start", {"players": "fast"},
                                            user="alice", channel=channel)
        boards.append(result.message)
    ready = threading.Event()
    locker = threading.Thread(target=_hold_write_lock, args=(tmp_path / "bot.db", 5.0, ready))
    locker.start()
    ready.wait()
    payloads = [fake_discord.component_payload(b, board_ids(b)[0], user="bob") for b in boards]
    records = [fake_discord.register_interaction(p) for p in payloads]
    started = time.monotonic()
    for payload in payloads:
        discord_driver.client._connection.parse_interaction_create(payload)
    await discord_driver.settle()
    await asyncio.to_thread(locker.join)
    answered = [r.response_type for r in records]
    games = checked_games(tmp_path / "bot.db")
    applied = sum(1 for _, version, _ in games.values() if version == 1)
    versions = {gid: version for gid, (_, version, _) in games.items()}
    print(f"\nlocked database 5 s: {len(records)} clicks, answers {sorted(answered)}, "
          f"{applied} applied, settled in {time.monotonic() - started:.1f} s")
    assert all(t in (4, 6, 7) for t in answered), answered  # nobody saw a failed click
    for record, board in zip(records, boards, strict=True):
        game_id = int(board_ids(board)[0].split(":")[1])
        version = versions.get(game_id, 0)
        shown = board_ids(fake_discord.get_message(board["id"]))
        if version == 0:  # refused privately (at once or after a deferral): nothing applied
            assert "nothing was changed" in str(fake_discord.ephemeral.get(record.id))
        else:  # moved (at once or after a deferral): the board shows it
            assert version == 1 and all(":1:" in cid for cid in shown)


async def test_connection_reset_after_a_click_is_handled(discord_driver, fake_discord, tmp_path,
                                                        monkeypatch):
    """A reset connection while answering a click is handled like an HTTP error: the move
    stays, the board is edited through the channel, nothing is logged as an error."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                        user="alice")).message
    real = discord.InteractionResponse.edit_message

    async def reset(self, **kwargs):
        raise aiohttp.ClientConnectionError("Connection reset by peer")

    monkeypatch.setattr(discord.InteractionResponse, "edit_message", reset)
    await discord_driver.click(board, board_ids(board)[0], user="bob")
    monkeypatch.setattr(discord.InteractionResponse, "edit_message", real)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == 1
    assert all(":1:" in cid for cid in board_ids(fake_discord.get_message(board["id"])))


@pytest.mark.parametrize("stale", [False, True], ids=["move", "board-left-behind"])
async def test_slow_board_picture_never_fails_a_click_that_happened(
    discord_driver, fake_discord, tmp_path, monkeypatch, stale
):
    """A board picture that takes longer than Discord waits (a busy process): the answer
    clock runs until the answer leaves, so the click is deferred in time and its board
    edited afterwards. The same for a board left behind (its last answer lost), which a
    stale click brings up to date."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                        user="alice")).message
    click = fake_discord.component_payload(board, board_ids(board)[0], user="bob")
    if stale:  # a move whose answer was lost: the board still shows the version before
        await discord_driver.click(board, board_ids(board)[0], user="alice")
        bot.boards.messages.shown.clear()
        # Bob clicks now: Discord's 3 s run from his click, not from the payload's making
        fake_discord.interactions[int(click["id"])].created = time.monotonic()
    real = bot.boards.drawer.draw

    async def slow_picture(kind, view, status="active", **named):
        await asyncio.sleep(0.5)  # a busy drawing process
        return await real(kind, view, status, **named)

    monkeypatch.setattr(answer_clock, "ANSWER_WITHIN", 0.1)
    fake_discord.response_deadline = 0.3
    monkeypatch.setattr(bot.boards.drawer, "draw", slow_picture)
    result = await discord_driver.feed(click)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert result.response_type == 6  # acknowledged in time: nobody sees a failed click
    assert game.row.version == 1  # applied once (or, stale, not at all)
    shown = fake_discord.get_message(board["id"])
    assert all(":1:" in cid for cid in board_ids(shown))
    assert fake_discord.message_attachments(shown)  # the board kept its picture
    # answered with the board; a stale click is also told privately that it did nothing
    said = [(f["content"], bool(f.get("flags", 0) & 64)) for f in result.followups]
    assert said == ([(HEALED, True)] if stale else [])


def test_names_are_made_safe_to_show():
    """Markdown, mentions and blank names (U+3000 only) never reach a board as they are."""
    assert safe_name("\u3000", "ideographic") == "ideographic"
    assert safe_name("\u3000\u3000") == "a player"
    assert safe_name("**bold** [link](https://x)").startswith("\\*\\*bold\\*\\* \\[link")
    assert "@\u200beveryone" in safe_name("@everyone")
    assert "\n" not in safe_name("two\nlines")


def test_people_named_like_every_computer_leave_a_name_free():
    """Four people named like the four computer players: adding one still finds a name."""
    seats = [Seat.person(i + 1, n) for i, n in enumerate(
        ("Ada (computer)", "Brass (computer)", "Cog (computer)", "Dynamo (computer)"))]
    assert free_computer_name(seats) == "Computer 5 (computer)"


async def test_blank_named_host_can_open_and_start_a_table(discord_driver, fake_discord,
                                                           tmp_path):
    """A host whose name is only U+3000 opens, fills and starts a table."""
    fake_discord.add_user("\u3000")
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="\u3000")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="\u3000")).message
    assert "1. " in board["embeds"][0]["fields"][0]["value"]
    started = await host_does(discord_driver, board, "lobby.start", "\u3000")
    assert started.response_type == 7, started.content



async def test_board_goes_as_text_where_files_are_not_allowed(discord_driver, fake_discord,
                                                             tmp_path):
    """No Attach Files in a channel (403/50013): a board the bot posts or edits itself
    goes without its picture rather than not at all."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 403, 50013)
    await bot.boards.messages.post(game)
    posted = fake_discord.get_message(game.row.board_message_id)
    assert posted["embeds"] and board_ids(posted)
    assert fake_discord.message_attachments(posted) == []
    fake_discord.fail_next("PATCH", r"/channels/\d+/messages/\d+$", 403, 50013)
    await bot.boards.messages.refresh(await bot.tables.load(game.id))
    assert fake_discord.get_message(game.row.board_message_id)["embeds"]
