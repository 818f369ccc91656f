"""Everything a player does that saves (or reads) before it is answered is answered in
time when the database is slow: never "This interaction failed" for something that
happened.

Discord fails an interaction that gets no first answer within 3 s, even when what it
asked for was saved, and a commit may take longer (PostgreSQL waits up to 5 s). Here
Discord waits :data:`WAIT` seconds, a commit takes :data:`COMMIT` (longer) and the
answer clock rings after 0.1 s: each interaction is acknowledged first, then answered
as it would have been, privately where its answer is private.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import db.sqlite_batch
from bot.boards import answer_clock
from cogs.steam import INVITE_MENU
from tests.fake_discord import payloads
from tests.fake_discord.server import RESPONSE_DEADLINE
from tests.support import abandon, button, host_board, make_bot

#: Seconds Discord waits for a first answer here (3 in Discord itself).
WAIT = 0.5
#: Seconds a commit takes on the slow database: longer than Discord waits.
COMMIT = 0.8
#: The answers Discord shows as a wait: a command's "thinking…", a click's deferred update.
THINKING, DEFERRED_UPDATE = 5, 6

Slowly = Callable[[], contextlib.AbstractContextManager[None]]


@pytest.fixture
def slowly(monkeypatch: pytest.MonkeyPatch, fake_discord: Any) -> Slowly:
    """Return a context in which every commit takes :data:`COMMIT` seconds and Discord
    waits :data:`WAIT` seconds for an answer."""
    stored = db.sqlite_batch.run_batch
    slow = threading.Event()

    def run_batch(conn: Any, works: Any, check: Any) -> Any:
        if slow.is_set():
            time.sleep(COMMIT)  # on the writing thread, as a slow disk would
        return stored(conn, works, check)

    monkeypatch.setattr(db.sqlite_batch, "run_batch", run_batch)

    @contextlib.contextmanager
    def slow_database() -> Iterator[None]:
        within = answer_clock.ANSWER_WITHIN
        slow.set()
        answer_clock.ANSWER_WITHIN = 0.1
        fake_discord.response_deadline = WAIT
        try:
            yield
        finally:
            slow.clear()
            answer_clock.ANSWER_WITHIN = within
            fake_discord.response_deadline = RESPONSE_DEADLINE

    return slow_database


def _private(message: dict[str, Any]) -> bool:
    return bool(message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL)


async def _steam(driver: Any, fake: Any, tmp_path: Any, *, away: bool = True) -> Any:
    """Seat Alice, Bob and Carol at a running table (Alice to play); with ``away``, Alice
    and Carol hand Bob's seat to a computer. Return the bot and the game."""
    fake.add_user("carol")
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"},
                                user="alice")).message
    for name in ("bob", "carol"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    if away:
        for voter in ("alice", "carol"):
            await driver.slash("steam", "away", {"player": fake.user("bob")}, user=voter)
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None and game.seats[1].away is away
    return bot, game


async def test_abandon_confirmed_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """Alice presses "Yes, abandon it": her question turns into "Done." and the channel is
    told the game ended, although the commit took longer than Discord waits."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    with slowly():
        done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    ended = await bot.store.get_game(game.id)
    assert ended.status == "abandoned"
    assert done.response_type == DEFERRED_UPDATE
    assert done.content == f"Done. {ended.events[-1]}" and done.custom_ids == []
    [said] = done.followups
    assert said["content"] == ended.events[-1] and not _private(said)


async def test_away_player_opening_rules_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """C6: Bob, away, opens "Rules & details": he is back (saved slowly) and still gets the
    rules privately, welcomed back."""
    bot, game = await _steam(discord_driver, fake_discord, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    with slowly():
        opened = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert not (await bot.tables.load(game.id)).seats[1].away
    assert opened.response_type == DEFERRED_UPDATE
    [details] = opened.followups
    assert _private(details) and details["embeds"]
    assert details["content"].startswith("Welcome back")


async def test_away_player_turning_a_rules_page_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """C6: Bob opened "Rules & details", then was handed to a computer; turning a page of
    it brings him back, and the page he asked for is shown in the same private message."""
    bot, game = await _steam(discord_driver, fake_discord, tmp_path, away=False)
    board = fake_discord.get_message(game.row.board_message_id)
    opened = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    for voter in ("alice", "carol"):
        await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                   user=voter)
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).seats[1].away
    turns = next(cid for cid in opened.custom_ids if cid.endswith(":table.rules.turns.0"))
    with slowly():
        turned = await discord_driver.click(opened.message, turns, user="bob")
    assert not (await bot.tables.load(game.id)).seats[1].away
    assert turned.response_type == DEFERRED_UPDATE and turned.followups == []
    assert turned.content.startswith("Welcome back")
    assert turned.embeds[0]["title"] == "The last turns"


async def test_away_player_asking_to_resign_on_a_slow_database_is_asked(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """C6: Bob, away, presses Resign: he is back (saved slowly) and asked privately to
    confirm, with the button that does it."""
    bot, game = await _steam(discord_driver, fake_discord, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    with slowly():
        ask = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert not (await bot.tables.load(game.id)).seats[1].away
    assert ask.response_type == DEFERRED_UPDATE
    [question] = ask.followups
    assert _private(question) and question["content"].startswith("Welcome back")
    assert "Resign" in question["content"] and question["components"]


async def test_steam_away_vote_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """C6: Alice's /steam away vote is saved slowly; the channel still reads it, as with
    a quick database."""
    await _steam(discord_driver, fake_discord, tmp_path, away=False)
    with slowly():
        voted = await discord_driver.slash("steam", "away",
                                           {"player": fake_discord.user("bob")}, user="alice")
    assert voted.response_type == THINKING
    assert "1 of 2 needed" in voted.content and not voted.ephemeral


async def test_server_settings_saved_on_a_slow_database_are_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """A manager's /tablehouse settings change is saved slowly; they still see, privately,
    the settings saved."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.server",)))
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    with slowly():
        saved = await discord_driver.slash("tablehouse", "settings", {"pictures": "off"},
                                           user="admin")
    assert saved.response_type == THINKING and saved.ephemeral
    assert saved.embeds[0]["title"] == "Server settings saved"
    assert (await bot.store.server_settings(fake_discord.guild_id)) == {"pictures": False}


async def test_forget_me_confirmed_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly) -> None:
    """Alice confirms /forget-me while deleting takes longer than Discord waits: her
    prompt says what was deleted."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.records", "cogs.tinker")))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    await abandon(discord_driver, "tinker", "alice")  # the game keeps her seat
    asked = await discord_driver.slash("forget-me", user="alice")
    with slowly():
        done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert done.response_type == DEFERRED_UPDATE and done.ephemeral
    assert done.content.startswith("Done:") and done.custom_ids == []
    assert not (await discord_driver.slash("forget-me", user="alice")).custom_ids


async def test_invite_menu_with_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice's table is in a thread of this channel; inviting Carol from the channel's
    member menu finds it although the database is slow to say where it is, and Carol is
    invited."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    await discord_driver.slash("steam", "new", {"thread": "yes"}, user="alice")
    carol = fake_discord.add_user("carol")
    read = bot.store.query

    async def slow_read(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(COMMIT)
        return await read(*args, **kwargs)

    monkeypatch.setattr(bot.store, "query", slow_read)
    with slowly():
        invited = await discord_driver.user_command(INVITE_MENU, "carol", user="alice")
    assert invited.response_type == THINKING and not invited.ephemeral
    assert invited.content.startswith(f"<@{carol.id}>, Alice invites you")
