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
from tests.support import abandon, button, host_panel, make_bot, seated_steam

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")

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


def _slow_read(monkeypatch: pytest.MonkeyPatch, store: Any, name: str) -> None:
    """Make ``store.name`` (a read) take :data:`COMMIT` seconds before it answers."""
    read = getattr(store, name)

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(COMMIT)
        return await read(*args, **kwargs)

    monkeypatch.setattr(store, name, slow)


def _private(message: dict[str, Any]) -> bool:
    return bool(message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL)


async def _steam(driver: Any, fake: Any, tmp_path: Any, *, away: bool = True) -> Any:
    """Seat Alice, Bob and Carol at a running table (Alice to play); with ``away``, Alice
    and Carol hand Bob's seat to a computer. Return the bot and the game."""
    bot, _ = await seated_steam(driver, fake, tmp_path)
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
    assert done.content == "Done." and done.custom_ids == []  # the channel is told
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
    assert turned.embeds[0]["title"] == "The last turns, newest first"


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
    """C6: Alice's /steam away vote is saved slowly; she is still told, privately, as
    with a quick database (the board shows the ask to everyone)."""
    await _steam(discord_driver, fake_discord, tmp_path, away=False)
    with slowly():
        voted = await discord_driver.slash("steam", "away",
                                           {"player": fake_discord.user("bob")}, user="alice")
    assert voted.response_type == THINKING
    [told] = voted.followups
    assert _private(told) and "1 of 2 needed" in told["content"]


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


async def test_host_controls_opened_on_a_slow_database_are_shown(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice presses "Host controls" while reading her table takes longer than Discord
    waits: the controls still reach her, privately; Bob is still told, privately, who
    hosts."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    _slow_read(monkeypatch, bot.store, "get_game")
    with slowly():
        opened: Any = await host_panel(discord_driver, board)
        refused: Any = await host_panel(discord_driver, board, "bob")
    assert opened.response_type == DEFERRED_UPDATE
    [controls] = opened.followups
    assert _private(controls) and "Host controls" in controls["content"]
    assert controls["components"]
    assert refused.response_type == DEFERRED_UPDATE
    [told] = refused.followups
    assert _private(told) and told["content"].startswith("Only the host, Alice, can use the host")


async def test_lobby_invite_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The host picks Carol on her controls while reading the table takes longer than
    Discord waits: the controls say she was invited and one channel message invites her."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    carol = fake_discord.add_user("carol")
    panel: Any = await host_panel(discord_driver, board)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    before = len(fake_discord.channel_messages())
    _slow_read(monkeypatch, bot.store, "get_game")
    with slowly():
        invited = await discord_driver.pick_member(panel.message, select, "carol",
                                                   user="alice")
    assert invited.response_type == DEFERRED_UPDATE and invited.ephemeral
    assert invited.content.startswith("Invited Carol.") and invited.custom_ids
    [message] = fake_discord.channel_messages()[before:]
    assert fake_discord.pings(message) == {carol.id}
    assert "Alice invites you to Steam to Solar" in message["content"]


async def test_ping_choice_on_a_slow_database_is_answered(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Alice opens her turn-ping choice from /help while reading it is slow, then chooses
    "Don't ping me" while saving it is: both answers reach her privately, the choice
    saved."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.help", "cogs.records",)))
    helped = await discord_driver.slash("help", user="alice")
    _slow_read(monkeypatch, bot.store, "turn_pings")
    with slowly():
        shown = await discord_driver.click(helped.message, "pings:show", user="alice")
    assert shown.response_type == DEFERRED_UPDATE
    [choice] = shown.followups
    assert _private(choice) and choice["content"].startswith("🔔 Turn notices")
    chosen_ids = [c["custom_id"] for c in payloads.iter_components(choice["components"])
                  if "custom_id" in c]
    assert set(chosen_ids) == {"pings:on", "pings:off"}
    with slowly():
        chosen = await discord_driver.click(choice, "pings:off", user="alice")
    assert chosen.response_type == DEFERRED_UPDATE and chosen.ephemeral
    assert "do not ping you" in chosen.content and chosen.followups == []
    assert await bot.store.turn_pings(fake_discord.user("alice").id) is False


async def test_replay_on_a_slow_database_is_posted(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, slowly: Slowly,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Bob presses Replay on an ended board while reading the game is slow: the replay is
    posted in the channel as a message of its own, and the board is left as it was."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    await abandon(discord_driver, "tinker", "alice")
    game = await bot.tables.load((await bot.store.query(
        "SELECT id FROM games ORDER BY id DESC LIMIT 1"))[0][0])
    board = fake_discord.get_message(game.row.board_message_id)
    _slow_read(monkeypatch, bot.store, "get_game")
    with slowly():
        replayed = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    assert replayed.response_type == DEFERRED_UPDATE
    [line] = replayed.followups
    assert not _private(line)
    posted = fake_discord.get_message(line["id"])
    assert posted["content"].startswith("🎞️ Replay of Tinker")
    assert fake_discord.get_message(board["id"])["content"] == board["content"]
