"""The bot loses access to a game's channel mid-game (made private to a role without the
bot): Discord still brings clicks and takes their answers, but refuses every request the
bot makes through the channel (403 50001). Nobody is left with a board on which nothing
can be pressed, and the player is told once what an admin can do."""

from __future__ import annotations

import asyncio

from bot.boards.render import TALLY
from tests.cogs.test_votes_cog import _vote_game
from tests.support import (
    Clock,
    board_ids,
    button,
    make_bot,
    press,
    seated_steam,
    steam_against_computer,
)


def _live_moves(message: dict) -> list[dict]:
    """The board's move buttons and menus that can be used (not Resign, which anyone
    seated may press at any time)."""
    return [c for row in message["components"] for c in row["components"]
            if ":table." not in c.get("custom_id", ":table.") and not c.get("disabled")
            and not c.get("custom_id", "").endswith("resign")]


def _rules(message: dict) -> str:
    """The custom id of the board's Rules & details button."""
    return next(c["custom_id"] for row in message["components"] for c in row["components"]
                if c.get("custom_id", "").endswith(":table.rules"))


async def test_rules_and_details_brings_back_a_board_the_bot_could_not_edit(
        discord_driver, fake_discord, tmp_path) -> None:
    """Alice against a computer, the bot shut out of the channel: after her turn the
    board shows the computer choosing and stays so (its edits refused). Rules & details,
    the one button left, answers with her turn's board and says once why it lagged."""
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    bot.boards.messages.updates.edit_interval = 0.01
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    for _ in range(40):  # Alice plays her turn out (the answers to her clicks still go)
        game = await bot.tables.load(game.id)
        board = fake_discord.get_message(game.row.board_message_id)
        action = game.engine.computer_action(game.state, 0)
        await press(discord_driver, board, action, "alice")
        await discord_driver.settle()
        if game.engine.to_act(game.engine.apply(game.state, 0, action).state) != 0:
            break
    for _ in range(200):  # the computer's turn: it plays, its board edits are refused
        await asyncio.sleep(0.02)
        game = await bot.tables.load(game.id)
        if game.to_act() == 0 and bot.boards.messages.locked_out:
            break
    await discord_driver.settle()
    assert game.to_act() == 0 and game.id in bot.boards.messages.locked_out
    shown = fake_discord.get_message(game.row.board_message_id)
    assert not _live_moves(shown)  # still the computer's turn as shown
    said = await discord_driver.click(shown, _rules(shown), user="alice")
    shown = fake_discord.get_message(game.row.board_message_id)
    assert _live_moves(shown), "her turn's board, answered to her click"
    assert {c.split(":")[2] for c in board_ids(shown)} == {str(game.row.version)}
    private = [f.get("content") or "" for f in said.followups]
    assert any(p.startswith("The bot can no longer update this board") and
               "View Channel" in p for p in private), private
    again = await discord_driver.click(shown, _rules(shown), user="alice")
    assert not any((f.get("content") or "").startswith("The bot can no longer")
                   for f in again.followups), "told once"


async def test_rules_and_details_racing_a_move_leaves_the_newer_board(
        discord_driver, fake_discord, tmp_path, monkeypatch) -> None:
    """Carol opens Rules & details as Alice's move is saved (her click read the game just
    before it): the board keeps Alice's move, not the board Carol's click read."""
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    action = game.engine.computer_action(game.state, 0)
    real = bot.tables.load_here
    raced: list[bool] = []

    async def read_then_move(game_id: int, channel_id: int):
        read = await real(game_id, channel_id)
        if not raced:
            raced.append(True)
            await press(discord_driver, board, action, "alice")
        return read

    monkeypatch.setattr(bot.tables, "load_here", read_then_move)
    await discord_driver.click(board, _rules(board), user="carol")
    await discord_driver.settle()
    await asyncio.sleep(0.2)
    await discord_driver.settle()
    now = await bot.tables.load(game.id)
    assert now.row.version > game.row.version
    shown = fake_discord.get_message(game.row.board_message_id)
    assert {c.split(":")[2] for c in board_ids(shown)} == {str(now.row.version)}


async def test_a_channel_vote_shows_its_tally_when_the_bot_lost_access(
        discord_driver, fake_discord, tmp_path) -> None:
    """A game the channel votes on, the bot shut out of the channel: each vote answers
    with the board showing the tally (the bot's own edit is refused), the first voter
    after the first refusal is told once what an admin can grant, and after the window
    closed by itself a click on the stale board brings the decision's board."""
    clock = Clock()
    users = ("alice", "bob", "carol", "dave")
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock, users)
    bot.boards.messages.updates.edit_interval = 0.01
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    await discord_driver.click(board, button(board, "add2"), user="alice")
    await discord_driver.settle()
    await asyncio.sleep(0.3)  # the tally's own edit is refused, five times
    assert game.id in bot.boards.messages.locked_out
    bob = await discord_driver.click(fake_discord.get_message(board["id"]),
                                     button(board, "add2"), user="bob")
    assert bob.response_type == 7
    shown = fake_discord.get_message(board["id"])
    assert f"Add 2{TALLY}2" in [c.get("label") for row in shown["components"]
                                for c in row["components"]]
    told = [f.get("content") or "" for f in bob.followups]
    assert any(t.startswith("The bot can no longer update this board") for t in told), told
    carol = await discord_driver.click(shown, button(shown, "add1"), user="carol")
    assert not any((f.get("content") or "").startswith("The bot can no longer")
                   for f in carol.followups), "told once"
    clock.advance(31)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    stale = fake_discord.get_message(board["id"])
    healed = await discord_driver.click(stale, button(stale, "add1"), user="dave")
    assert healed.response_type == 7
    now = await bot.tables.load(game.id)
    assert {c.split(":")[2] for c in board_ids(fake_discord.get_message(board["id"]))} == {
        str(now.row.version)}


async def test_rules_and_details_on_an_up_to_date_board_leaves_it_as_it_is(
        discord_driver, fake_discord, tmp_path) -> None:
    """After a restart (nothing shown yet by this process), Rules & details pressed on a
    board that shows the game as it is answers privately and leaves the board alone: no
    picture drawn again, no edit."""
    _bot, game = await steam_against_computer(discord_driver, tmp_path)
    await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = fake_discord.get_message(game.row.board_message_id)
    said = await discord_driver.click(board, _rules(board), user="alice")
    assert said.response_type == 4 and said.ephemeral


async def test_in_a_members_thread_the_word_names_the_threads_permission(
        discord_driver, fake_discord, tmp_path):
    """A game played in a member's thread (not one the bot opened) whose board the bot is
    shut out of: the private word names the thread and its permission (Send Messages in
    Threads), not the channel's Send Messages."""
    from tests.fake_discord import threads

    parent = fake_discord.add_channel("lfg")
    thread_id = fake_discord.snowflakes.next()
    fake_discord.channels[thread_id] = threads.thread_channel(
        thread_id, fake_discord.channels[parent], fake_discord.user("bob").id, "games night",
        11, 4320)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "fast"}, user="alice",
                               channel=thread_id)
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and game.data.parent == parent and not game.data.thread
    bot.boards.messages.updates.edit_interval = 0.01
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50013, times=10_000)
    bot.boards.messages.update_soon(game.id)
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    clicked = await discord_driver.click(board, button(board, action), user="bob")
    word = next(f["content"] for f in clicked.followups
                if (f.get("content") or "").startswith("The bot can no longer"))
    assert "post in this thread" in word and "Send Messages in Threads" in word
    assert word.endswith("or add the bot to this thread.")


def test_in_a_forums_post_the_word_names_the_forums_words() -> None:
    """In a forum's post the permission is named as the forum's settings show it."""
    from bot.boards.threads import locked_out_text

    word = locked_out_text(thread=True, forum=True)
    assert word.startswith("The bot can no longer update this board or post in this "
                           "forum post:")
    assert "Send Messages in Posts" in word and "this forum's permissions" in word
    assert "Send Messages in Threads" not in locked_out_text(thread=False)


async def test_a_server_the_bot_left_is_not_kept_in_memory(discord_driver, fake_discord,
                                                           tmp_path):
    """Each server's settings are kept in memory once read; once the bot was removed from
    a server and its games were called off, they are let go (a bot running for months
    keeps no copy per server it ever served), and read again if the server comes back."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), clock=clock))
    guilds = []
    for i in range(3):
        guild = fake_discord.add_guild(f"S{i}")
        member = fake_discord.add_user(f"u{i}")
        await discord_driver.slash("tinker", "start", {}, user=member,
                                   channel=guild.channel_id)
        guilds.append(guild.id)
    await discord_driver.settle()
    book = bot.tables.servers
    assert all(g in book._known for g in guilds)
    gone = bot.boards.messages.gone
    for guild_id in guilds:
        await gone.server_left(guild_id)
    clock.advance(2 * 3600)
    assert await gone.sweep_left(lambda guild_id: False) == 3
    assert not any(g in book._known or g in book._chosen for g in guilds)

