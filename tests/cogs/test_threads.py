"""A thread per game, through the offline fake: opened, named, played in, archived after
the end, and refused without the permission (the game then starts in the channel)."""

from __future__ import annotations

import asyncio
from urllib.parse import parse_qs, urlparse

import discord
import pytest

from bot.boards.threads import ENDED_ARCHIVE_MINUTES, OPEN_ARCHIVE_MINUTES, thread_name
from bot.client import invite_url
from tests.fake_discord import payloads
from tests.fake_discord import threads as fake_threads
from tests.support import Clock, abandon, board_ids, button, make_bot

DAY = 86_400.0

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.server")


def _day(result) -> str:
    when = discord.utils.snowflake_time(int(result.payload["id"]))
    return f"{when.day} {when:%b}"


def _board_in(fake, channel_id: int) -> dict:
    boards = [m for m in fake.channel_messages(channel_id) if m.get("components")]
    assert boards, f"no board in channel {channel_id}"
    return boards[-1]


async def test_thread_yes_opens_a_named_thread_with_the_board(discord_driver, fake_discord,
                                                              tmp_path):
    """The board goes to a new public thread named after the game, with its starter added
    to it (it shows in their channel list); the channel gets one line that links to it;
    the game is played there."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    result = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    assert thread["type"] == 11 and thread["name"] == f"Tinker · Alice · {_day(result)}"
    assert thread["thread_metadata"]["auto_archive_duration"] == OPEN_ARCHIVE_MINUTES
    thread_id = int(thread["id"])
    assert fake_discord.thread_members[thread_id] == {fake_discord.user("alice").id}
    assert not result.ephemeral and f"<#{thread_id}>" in result.content
    assert "\n" not in result.content and not result.embeds
    assert [m["id"] for m in fake_discord.channel_messages()] == [result.message["id"]]
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and game.data.thread
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    board = _board_in(fake_discord, thread_id)
    for _ in range(3):
        game = await bot.tables.open_in_channel(thread_id)
        action = next(a.id for a in game.legal_actions(0)  # a move, not the give-up ask
                      if a.id != "give_up")
        moved = await discord_driver.click(board, button(board, action), user="bob")
        assert moved.response_type == 7, moved.content
        board = moved.message
    assert (await bot.tables.open_in_channel(thread_id)).row.version == 3


async def test_the_thread_is_archived_an_hour_after_the_end(discord_driver, fake_discord,
                                                            tmp_path):
    """Once the game ends, Discord is told to archive its thread after an hour; a second
    game in the same thread keeps it open for a week again (Play again)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    thread_id = int(thread["id"])
    ended = await abandon(discord_driver, "tinker", "alice", channel=thread_id)
    assert "abandoned" in ended.followups[0]["content"]
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES
    board = _board_in(fake_discord, thread_id)
    again = await discord_driver.click(board, button(board, "table.again"), user="alice")
    assert not again.ephemeral, again.content
    assert len(fake_discord.threads_under()) == 1
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and game.data.thread
    assert thread["thread_metadata"]["auto_archive_duration"] == OPEN_ARCHIVE_MINUTES


async def test_a_thread_archived_under_an_open_game_is_opened_again_by_its_edit(
        discord_driver, fake_discord, tmp_path):
    """Discord archives a thread a week after its last message, and clicks answered by
    edits are not messages: the bot's own edit of the board of a game still open there
    unarchives the thread and is made. A locked thread is left so."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    thread["thread_metadata"].update(archived=True)
    before = _board_in(fake_discord, int(thread["id"]))["edited_timestamp"]
    assert await bot.boards.messages.refresh(game) is None
    assert thread["thread_metadata"]["archived"] is False
    assert _board_in(fake_discord, int(thread["id"]))["edited_timestamp"] != before
    thread["thread_metadata"].update(archived=True, locked=True)
    edits = len([r for r in fake_discord.requests
                 if r.method == "PATCH" and r.path == f"/channels/{thread['id']}"])
    failed = await bot.boards.messages.refresh(game)
    assert isinstance(failed, discord.HTTPException) and failed.code == 50083
    assert thread["thread_metadata"]["archived"] is True
    assert len([r for r in fake_discord.requests  # not even tried: a moderator locked it
                if r.method == "PATCH" and r.path == f"/channels/{thread['id']}"]) == edits


async def test_a_command_in_the_channel_names_the_games_thread(discord_driver, fake_discord,
                                                               tmp_path):
    """A late arriver who uses /tinker board in the channel a game's thread was opened
    from is pointed to the thread, not told to start a game; where the game of the kind
    asked for has no thread there, they are told how to start one."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    answer = await discord_driver.slash("tinker", "board", user="bob")
    assert answer.ephemeral and answer.content == (
        "This channel's Tinker, Sailor, Soldier, Spy game is played in a thread of its own: "
        f"<#{thread['id']}>. Use the command there.")
    other = await discord_driver.slash("tinrealm", "board", user="bob")
    assert other.content.startswith("There is no game of this kind going in this channel.")


async def test_a_finished_game_winds_its_thread_up_once(discord_driver, fake_discord, tmp_path):
    """A game played to its end in its thread: the end lowers the archive time once."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    thread_id = int(fake_discord.threads_under()[0]["id"])
    board = _board_in(fake_discord, thread_id)
    game = await bot.tables.open_in_channel(thread_id)
    while game is not None:
        action = game.engine.computer_action(game.state, 0)
        if action == "give_up":  # a lone player is asked first (C4), then confirms
            asked = await discord_driver.click(board, button(board, "ask.give_up"),
                                               user="alice")
            await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
            await discord_driver.settle()
            board = _board_in(fake_discord, thread_id)
        else:
            board = (await discord_driver.click(board, button(board, action),
                                                user="alice")).message
        game = await bot.tables.open_in_channel(thread_id)
    edits = [r for r in fake_discord.requests
             if r.method == "PATCH" and r.path == f"/channels/{thread_id}"]
    assert [r.json for r in edits] == [{"auto_archive_duration": ENDED_ARCHIVE_MINUTES}]


async def test_without_the_permission_the_game_starts_here(discord_driver, fake_discord,
                                                           tmp_path):
    """Without Create Public Threads the board is posted in the channel as usual and the
    starter alone is told why; no thread is asked for."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.app_permissions &= ~payloads.CREATE_PUBLIC_THREADS
    result = await discord_driver.slash("tinrealm", "start", {"thread": "yes"}, user="alice")
    assert not result.ephemeral and board_ids(result.message)
    (note,) = result.followups
    assert note["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL
    assert "Create Public Threads" in note["content"]
    assert fake_discord.threads_under() == []
    assert not any(r.path.endswith("/threads") for r in fake_discord.requests)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and not game.data.thread


async def test_thread_no_and_the_servers_default(discord_driver, fake_discord, tmp_path):
    """Threads are off by default; a server that turned them on gets one for each game,
    unless the command says thread: no."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    plain = await discord_driver.slash("tinker", "start", user="alice")
    assert board_ids(plain.message) and fake_discord.threads_under() == []
    await abandon(discord_driver, "tinker", "alice")
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    await discord_driver.slash("tablehouse", "settings", {"threads": "on"}, user="admin")
    here = await discord_driver.slash("tinker", "start", {"thread": "no"}, user="alice")
    assert board_ids(here.message) and fake_discord.threads_under() == []
    await abandon(discord_driver, "tinker", "alice")
    threaded = await discord_driver.slash("tinker", "daily", user="bob")
    (thread,) = fake_discord.threads_under()
    assert f"<#{thread['id']}>" in threaded.content and thread["name"].startswith("Tinker · Bob")


async def test_steam_table_in_its_thread_invites_there(discord_driver, fake_discord, tmp_path):
    """/steam new thread: yes opens the lobby in its thread, mentioning the invited there."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bob = fake_discord.user("bob")
    result = await discord_driver.slash("steam", "new", {"thread": "yes", "invite": bob},
                                        user="alice")
    (thread,) = fake_discord.threads_under()
    assert thread["name"].startswith("Steam to Solar · Alice · ")
    thread_id = int(thread["id"])
    assert f"<#{thread_id}>" in result.content and fake_discord.pings(result.message) == set()
    lobby = _board_in(fake_discord, thread_id)
    assert fake_discord.pings(lobby) == {bob.id}
    joined = await discord_driver.click(lobby, button(lobby, "lobby.join"), user="bob")
    assert joined.response_type == 7, joined.content
    game = await bot.tables.open_in_channel(thread_id)
    assert [s["user_id"] for s in game.row.seats] == [fake_discord.user("alice").id, bob.id]


async def test_a_game_that_cannot_start_leaves_no_open_thread(discord_driver, fake_discord,
                                                              tmp_path):
    """Refused by the open-game limit, a game in a thread of its own opens no thread
    (checked first) and the starter is told why privately."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, MAX_OPEN_GAMES=1))
    await discord_driver.slash("tinker", "start", user="alice")
    refused = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    assert refused.ephemeral and "already have 1 game going" in refused.content
    assert fake_discord.threads_under() == []


def test_thread_names_fit_in_any_script():
    """A thread's name keeps the title and the date and fits Discord's 100 characters,
    whatever the starter's name (long, CJK, emoji, control characters)."""
    when = 1_796_169_600.0  # the first second of 2 Dec 2026, UTC
    assert thread_name("Tinker", "Alice", when) == "Tinker · Alice · 2 Dec"
    for name in ("ア" * 150, "🦊" * 120, "x\u0000y\nz " * 40, "   "):
        made = thread_name("Steam to Solar", name, when)
        assert len(made) <= 100 and made.startswith("Steam to Solar · ")
        assert made.endswith(" · 2 Dec") and "\n" not in made and "\u0000" not in made


def test_the_invite_link_asks_for_what_threads_need():
    """The invite link asks for Create Public Threads and Send Messages in Threads."""
    query = parse_qs(urlparse(invite_url(1234)).query)
    granted = discord.Permissions(int(query["permissions"][0]))
    assert granted.create_public_threads and granted.send_messages_in_threads
    assert not granted.manage_threads and not granted.administrator


async def test_a_thread_game_goes_on_and_winds_up_after_a_restart(discord_driver, fake_discord,
                                                                   tmp_path):
    """After a restart the game's buttons still work in its thread, and its end still lets
    the thread be archived (the game remembers its thread)."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "fast"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    thread_id = int(thread["id"])
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    await discord_driver.settle()  # the restart's board redraw, started at login
    board = _board_in(fake_discord, thread_id)
    game = await bot.tables.open_in_channel(thread_id)
    moved = await discord_driver.click(
        board, button(board, game.engine.computer_action(game.state, 0)), user="bob")
    assert moved.response_type == 7, moved.content
    await abandon(discord_driver, "tinker", "alice", channel=thread_id)
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES


async def test_a_slow_thread_is_answered_after_a_deferral(discord_driver, fake_discord,
                                                          tmp_path):
    """Discord holds the thread's creation back past the 3 s a command may take to answer
    (a 3.2 s rate limit): the command is deferred in time, then answered with the line
    that links to the thread, and the board is posted there; nobody sees "This
    interaction failed"."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.fail_next("POST", r"/channels/\d+/threads", 429, retry_after=3.2)
    result = await discord_driver.slash("steam", "new", {"thread": "yes"}, user="alice")
    await discord_driver.settle()
    assert result.response_type == 5  # deferred, in time
    assert all(r.status < 400 for r in result.requests if r.path.endswith("/callback"))
    (thread,) = fake_discord.threads_under()
    lines = [m for m in fake_discord.channel_messages() if "🧵" in (m.get("content") or "")]
    assert lines and f"<#{thread['id']}>" in lines[0]["content"]
    assert fake_discord.channel_messages(int(thread["id"]))  # the board, in the thread


async def test_a_start_refused_in_an_ended_games_thread_leaves_it_its_hour(
        discord_driver, fake_discord, tmp_path):
    """Today's daily, abandoned in its own thread: "/tinker daily" used there again is
    refused (the thread played today's deal), and the thread still archives an hour after
    its last message, not a week: nothing started in it."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", {"thread": "yes", "players": "only me"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    await abandon(discord_driver, "tinker", "alice", channel=int(thread["id"]))
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES
    again = await discord_driver.slash("tinker", "daily", user="bob",
                                       channel=int(thread["id"]))
    assert again.ephemeral and "already played today's daily" in again.content
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES
    board = _board_in(fake_discord, int(thread["id"]))  # Play again still gets the week
    await discord_driver.click(board, button(board, "table.again"), user="alice")
    assert thread["thread_metadata"]["auto_archive_duration"] == OPEN_ARCHIVE_MINUTES


async def test_a_lobby_whose_thread_is_deleted_takes_its_invitations_along(
        discord_driver, fake_discord, tmp_path):
    """A Steam lobby in its own thread invites Carol from the channel (Apps → Invite):
    the invitation is posted in the channel. A moderator deletes the thread; the lobby is
    called off, and the invitation, which pings Carol to a table that is gone, goes too."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("carol")
    await discord_driver.slash("steam", "new", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    lobby = await bot.tables.open_in_channel(int(thread["id"]))
    menu = await discord_driver.user_command("Invite to Steam to Solar", "carol", user="alice")
    invitation = menu.message["id"]
    assert fake_discord.get_message(invitation) is not None
    await bot.boards.messages.gone.channel_gone(int(thread["id"]))  # the thread's deletion
    await discord_driver.settle()
    assert (await bot.store.get_game(lobby.id)).status == "abandoned"
    assert fake_discord.get_message(invitation) is None


async def test_the_apps_invite_finds_the_thread_lobby_its_host_took_over(
        discord_driver, fake_discord, tmp_path):
    """Alice opens a Steam table in its own thread; Bob joins and Alice makes him host.
    In the channel, Bob's Apps → Invite to Steam to Solar on Carol invites her to that
    lobby (his), not to a second table opened in the channel."""
    from tests.support import host_board
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("carol")
    await discord_driver.slash("steam", "new", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    board = _board_in(fake_discord, int(thread["id"]))
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(discord_driver, board, "lobby.host.1")  # Alice hands Bob the table
    lobby = await bot.tables.open_in_channel(int(thread["id"]))
    assert lobby.host_id == fake_discord.user("bob").id
    menu = await discord_driver.user_command("Invite to Steam to Solar", "carol", user="bob")
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    assert "invites you to" in menu.message["content"] and lobby.link in str(menu.message)


async def test_the_apps_invite_finds_the_hosts_thread_lobby_among_many(
        discord_driver, fake_discord, tmp_path):
    """Twenty newer Steam lobbies of other members stand in other channels of the server:
    Alice's Apps invite from the channel still finds her lobby in its thread."""
    from tests.support import Actor
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("carol")
    await discord_driver.slash("steam", "new", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    mine = await bot.tables.open_in_channel(int(thread["id"]))
    for i in range(20):
        channel = fake_discord.add_channel(f"games-{i}")
        await bot.tables.open_lobby("steam", guild_id=fake_discord.guild_id,
                                    channel_id=channel, host=Actor(9000 + i, f"P{i}"))
    menu = await discord_driver.user_command("Invite to Steam to Solar", "carol", user="alice")
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    assert mine.link in str(menu.message)


async def test_without_posting_in_threads_the_note_says_so(discord_driver, fake_discord,
                                                           tmp_path):
    """The bot may open threads here but not post in them: the game is played in the
    channel and the note names the missing permission, not Create Public Threads."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.app_permissions &= ~payloads.SEND_MESSAGES_IN_THREADS
    result = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    (note,) = result.followups
    assert note["content"] == (
        "This game is played here rather than in a thread of its own: the bot may not post "
        "its board in a thread of this channel. A server admin can give it the Send "
        "Messages in Threads permission there.")
    assert fake_discord.threads_under() == []


async def test_a_channel_with_two_thread_games_names_both(discord_driver, fake_discord,
                                                         tmp_path):
    """Two games of a kind in threads of one channel: "/tinker board" in the channel
    points to both, in words for two."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="bob")
    first, second = (int(t["id"]) for t in fake_discord.threads_under())
    said = await discord_driver.slash("tinker", "board", user="mod")
    assert said.ephemeral and said.content == (
        "This channel's Tinker, Sailor, Soldier, Spy games are played in threads of their "
        f"own: <#{first}> and <#{second}>. Use the command in one.")
    for user in ("mod", "bob"):  # four: the newest three named, the others counted
        await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                                   user=user)
    threads = [f"<#{t['id']}>" for t in fake_discord.threads_under()]
    said = await discord_driver.slash("tinker", "board", user="mod")
    assert said.content.endswith(f"own: {', '.join(threads[1:])} and 1 more. Use the "
                                 "command in one.")


async def test_thread_yes_needs_the_members_own_create_public_threads(discord_driver,
                                                                       fake_discord,
                                                                       tmp_path):
    """Mallory may not create threads in the channel: her ``thread: yes`` plays the game
    here and tells her why, privately (no thread named after her, no line pointing to
    it). Where the server gives every game a thread, her game gets one all the same: the
    admins chose it."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("mallory", permissions=payloads.EVERYONE_PERMISSIONS
                          & ~payloads.CREATE_PUBLIC_THREADS)
    started = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="mallory")
    await discord_driver.settle()
    assert fake_discord.threads_under() == []
    notes = [f["content"] for f in started.followups
             if f["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL]
    assert notes == ["This game is played here rather than in a thread of its own: you may "
                     "not create public threads in this channel."]
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is not None
    await abandon(discord_driver, "tinker", "mallory")
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    await discord_driver.slash("tablehouse", "settings", {"threads": "on"}, user="admin")
    await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="mallory")
    await discord_driver.settle()
    assert len(fake_discord.threads_under()) == 1


async def test_a_game_ended_idle_in_its_archived_thread_shows_its_end(
        discord_driver, fake_discord, tmp_path):
    """A solo game in its own thread posts nothing after its board (clicks are edits,
    which are no activity to Discord): the thread is archived a week after the board,
    the game ends idle a week after its last click, later. The ended board is still
    shown (the thread opened again for it), then the thread is let to archive within
    the hour."""
    bot, thread, game = await _idle_in_archived_thread(discord_driver, fake_discord,
                                                       tmp_path)
    assert await bot.sweep_once() == 1
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.status == "expired"
    assert _moves_on(fake_discord, game) == []
    assert thread["thread_metadata"]["archived"] is False
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES


async def _idle_in_archived_thread(driver, fake, tmp_path, *, members: bool = False):
    """Alice's solo game in its own thread (``members``: in a thread she opened), played
    on day 2; the thread archived by Discord a week after the board was posted; two days
    on the game is due to end idle. Return the bot, the thread and the game."""
    clock = Clock()
    bot = await driver.login(make_bot(tmp_path, clock=clock, cogs=("cogs.tinker",),
                                      BOARD_IMAGES="off"))
    if members:
        thread_id = fake.snowflakes.next()
        fake.channels[thread_id] = fake_threads.thread_channel(
            thread_id, fake.channels[fake.channel_id], fake.user("alice").id, "game night",
            fake_threads.PUBLIC_THREAD, OPEN_ARCHIVE_MINUTES)
        await driver.slash("tinker", "start", {"players": "only me"}, user="alice",
                           channel=thread_id)
        thread = fake.channels[thread_id]
    else:
        await driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                           user="alice")
        (thread,) = fake.threads_under()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    board = fake.get_message(game.row.board_message_id)
    clock.advance(2 * DAY)
    await driver.click(board, board_ids(board)[0], user="alice")
    clock.advance(7 * DAY + 60)
    thread["thread_metadata"]["archived"] = True
    return bot, thread, game


def _moves_on(fake, game) -> list[str]:
    shown = fake.get_message(game.row.board_message_id)
    return [c for c in board_ids(shown) if not c.endswith(("again", "replay", "rules"))]


@pytest.mark.parametrize("failing", ["board", "thread"])
async def test_an_idle_end_whose_edit_or_reopening_fails_once_still_shows(
        discord_driver, fake_discord, tmp_path, failing):
    """Discord fails the ended board's edit, or the thread's opening, once (a 503): the
    edit is made again, the thread opened then, and the end shows; the thread is then
    let to archive within the hour."""
    bot, thread, game = await _idle_in_archived_thread(discord_driver, fake_discord,
                                                       tmp_path)
    path = (rf"/channels/{thread['id']}/messages/{game.row.board_message_id}"
            if failing == "board" else rf"/channels/{thread['id']}$")
    fake_discord.fail_next("PATCH", path, 503, times=1)
    assert await bot.sweep_once() == 1
    for _ in range(100):
        await discord_driver.settle()
        if not _moves_on(fake_discord, game):
            break
        await asyncio.sleep(0.05)
    assert _moves_on(fake_discord, game) == []
    assert thread["thread_metadata"]["auto_archive_duration"] == ENDED_ARCHIVE_MINUTES


async def test_an_idle_end_leaves_a_members_archived_thread_as_it_is(
        discord_driver, fake_discord, tmp_path):
    """A game played in a thread Alice opened is not the bot's to open again (its archive
    time is hers): it ends idle with the thread left archived."""
    bot, thread, game = await _idle_in_archived_thread(discord_driver, fake_discord,
                                                       tmp_path, members=True)
    assert await bot.sweep_once() == 1
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.status == "expired"
    assert thread["thread_metadata"]["archived"] is True
