"""Games whose channel or thread is deleted, or whose server removed the bot, mid-game:
they end with no result, so nobody is held by a game they cannot reach any more."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

import discord.gateway
import pytest
import yarl

from bot.boards.gone import CHANNEL_GONE, SERVER_GRACE_SECONDS, SERVER_LEFT
from bot.client import TableBot
from bot.table.data import NoticeRef
from bot.table.loaded import Actor
from db.errors import StorageError
from tests.fake_discord import Driver, FakeDiscord
from tests.support import Clock, board_ids, make_bot, seated_steam


@contextlib.asynccontextmanager
async def connected(driver: Driver, fake: FakeDiscord, bot: TableBot,
                    monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[None]:
    """Connect the logged-in ``bot`` to the fake gateway until it is ready (it then has
    the fake's servers and channels), and close it on exit."""
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(fake.gateway_url))
    task = asyncio.create_task(bot.connect(), name="gateway-connection")
    try:
        await asyncio.wait_for(bot.wait_until_ready(), 15)
        yield
    finally:
        await driver.close_client(bot)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)


async def gateway_event(driver: Driver, fake: FakeDiscord, bot: TableBot, event: str,
                        data: dict[str, Any], heard: str) -> None:
    """Send ``event`` through the fake gateway and wait until the bot has handled it
    (``heard``: the name discord.py dispatches it under)."""
    waiting = asyncio.ensure_future(bot.wait_for(heard, timeout=10))
    await asyncio.sleep(0)
    assert await fake.gateway.dispatch(event, data) == 1
    await waiting
    await driver.settle()


def delete_channel(fake: FakeDiscord, channel_id: int) -> dict[str, Any]:
    """Delete a channel or thread, and its messages, as a moderator does."""
    for message in fake.channel_messages(channel_id):
        fake.delete_message(channel_id, message["id"])
    return fake.channels.pop(channel_id)


async def _thread_game(driver: Driver, fake: FakeDiscord, tmp_path: Any) -> tuple[TableBot, int]:
    """Alice's Tinker game in a thread of its own, on a server allowing one open game each."""
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), MAX_OPEN_GAMES=1))
    await driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                       user="alice")
    (thread,) = fake.threads_under()
    return bot, int(thread["id"])


async def _called_off(bot: TableBot, game_id: int, why: str) -> None:
    """Check the game ended with no result, its last event saying why."""
    row = await bot.store.get_game(game_id)
    assert row is not None and row.status == "abandoned"
    assert row.events[-1] == why
    assert await bot.store.results() == []
    assert game_id not in bot.boards.messages.shown


@pytest.mark.parametrize("found_by", ["edit", "post"])
async def test_a_deleted_threads_game_ends_when_its_board_finds_the_thread_gone(
        discord_driver, fake_discord, tmp_path, found_by):
    """Alice's game thread is deleted mid-game. Once the bot finds out (Discord answers
    its next edit, or post, of her board with Unknown Channel) her game is over with no
    result, and she may start another one at once, although the server allows one open
    game each; the bot sends nothing more to the thread."""
    bot, thread_id = await _thread_game(discord_driver, fake_discord, tmp_path)
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None
    delete_channel(fake_discord, thread_id)
    first = len(fake_discord.requests)
    if found_by == "edit":
        bot.boards.messages.update_soon(game.id)
    else:
        await bot.boards.messages.post(game)
    await discord_driver.settle()
    sent = [r for r in fake_discord.requests[first:] if str(thread_id) in r.path]
    assert [r.status for r in sent] == [404]
    await _called_off(bot, game.id, CHANNEL_GONE)
    again = await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    assert again.response_type == 4 and not again.ephemeral, again.content


async def test_the_one_game_cap_says_game_not_games(discord_driver, fake_discord, tmp_path):
    """A member refused a second game where the server allows one is told "1 game"."""
    await _thread_game(discord_driver, fake_discord, tmp_path)
    refused = await discord_driver.slash("tinker", "start", {"players": "only me"},
                                         user="alice")
    assert refused.ephemeral and "You already have 1 game going" in refused.content


async def test_a_deleted_thread_ends_its_game_at_once(discord_driver, fake_discord, tmp_path,
                                                     monkeypatch):
    """A moderator deletes Alice's game thread: Discord tells the bot, and her game ends
    then (no result), with no request to the thread; a game elsewhere goes on."""
    bot, thread_id = await _thread_game(discord_driver, fake_discord, tmp_path)
    other = fake_discord.add_channel("more-games")
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="bob",
                               channel=other)
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        thread = delete_channel(fake_discord, thread_id)
        first = len(fake_discord.requests)
        await gateway_event(discord_driver, fake_discord, bot, "THREAD_DELETE", {
            "id": thread["id"], "guild_id": thread["guild_id"],
            "parent_id": thread["parent_id"], "type": thread["type"],
        }, "raw_thread_delete")
        assert [r for r in fake_discord.requests[first:] if str(thread_id) in r.path] == []
        await _called_off(bot, game.id, CHANNEL_GONE)
        assert await bot.tables.open_in_channel(other) is not None


async def _bobs_game(driver, fake, tmp_path, in_thread: bool):
    """Bob, held to one open game, plays Tinker in #doomed (or in a thread of it); #kept
    is another channel. Return the bot, both channels, the threads and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), MAX_OPEN_GAMES=1))
    doomed = fake.add_channel("doomed")
    kept = fake.add_channel("kept")
    await driver.slash("tinker", "start", {"players": "only me",
                                           "thread": "yes" if in_thread else "no"},
                       user="bob", channel=doomed)
    threads = fake.threads_under(doomed)
    assert len(threads) == in_thread
    game = await bot.tables.open_in_channel(int(threads[0]["id"]) if threads else doomed)
    assert game is not None and game.data.parent == (doomed if in_thread else None)
    return bot, doomed, kept, threads, game


@pytest.mark.parametrize("in_thread", [False, True], ids=["in-it", "in-its-thread"])
async def test_a_deleted_channel_ends_its_game_at_once(discord_driver, fake_discord, tmp_path,
                                                      monkeypatch, in_thread):
    """The channel of Bob's game is deleted: his game ends (no result) and he may start
    another in a channel that is still there. So too for a game in a thread of the
    channel: Discord deletes the threads with it and sends only the channel's event."""
    bot, doomed, kept, threads, game = await _bobs_game(discord_driver, fake_discord,
                                                        tmp_path, in_thread)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        for thread in threads:
            delete_channel(fake_discord, int(thread["id"]))  # gone with it, silently
        channel = delete_channel(fake_discord, doomed)
        await gateway_event(discord_driver, fake_discord, bot, "CHANNEL_DELETE", channel,
                            "guild_channel_delete")
        await _called_off(bot, game.id, CHANNEL_GONE)
        again = await discord_driver.slash("tinker", "start", {"players": "only me"},
                                           user="bob", channel=kept)
        assert again.response_type == 4 and not again.ephemeral, again.content


@pytest.mark.parametrize("failing", ["reads", "writes"])
@pytest.mark.parametrize("in_thread", [False, True], ids=["in-it", "in-its-thread"])
async def test_a_deleted_channel_whose_game_cannot_be_read_ends_it_at_the_next_sweep(
        discord_driver, fake_discord, tmp_path, monkeypatch, in_thread, failing):
    """The channel of Bob's game (or of its thread) is deleted while the database cannot
    be read (or written: the game found, its end not saved): Discord says so once, so
    the next sweep calls the game off, and Bob, held to one open game, may start another
    (it used to stay open for days, in no channel where it could be abandoned)."""
    bot, doomed, kept, threads, game = await _bobs_game(discord_driver, fake_discord,
                                                        tmp_path, in_thread)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        for thread in threads:
            delete_channel(fake_discord, int(thread["id"]))
        channel = delete_channel(fake_discord, doomed)

        async def locked(*args, **kwargs):
            raise StorageError("database is locked")

        with monkeypatch.context() as down:
            if failing == "reads":
                down.setattr(bot.store, "open_game_in_channel", locked)
                down.setattr(bot.store, "query", locked)
            else:
                down.setattr(bot.store, "save_game", locked)
            await gateway_event(discord_driver, fake_discord, bot, "CHANNEL_DELETE", channel,
                                "guild_channel_delete")
        assert (await bot.store.get_game(game.id)).status == "active"
        await bot.sweep_once()
        await _called_off(bot, game.id, CHANNEL_GONE)
        assert bot.boards.messages.gone.unsettled == {}
        again = await discord_driver.slash("tinker", "start", {"players": "only me"},
                                           user="bob", channel=kept)
        assert again.response_type == 4 and not again.ephemeral, again.content


async def _none_called_off(guild_id: int) -> int:
    return 0


async def test_a_server_that_removes_the_bot_has_its_open_games_ended(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The bot is removed from a server: an hour later, by the idle sweep (after a
    restart too), every open game there ends with no result (read from the database a
    few at a time), while games in another server go on."""
    monkeypatch.setattr("bot.boards.gone.BATCH", 2)  # several batches of a few games
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    here = [fake_discord.channel_id] + [fake_discord.add_channel(f"t{i}") for i in range(4)]
    elsewhere = fake_discord.add_guild("Elsewhere").channel_id
    for channel in [*here, elsewhere]:
        await discord_driver.slash("toy", "start", user="alice", channel=channel)
    games = [await bot.tables.open_in_channel(c) for c in here]
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        first = len(fake_discord.requests)
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_DELETE",
                            {"id": str(fake_discord.guild_id)}, "guild_remove")
        assert fake_discord.requests[first:] == []
        await bot.sweep_once()
        assert await bot.store.count_open() == len(here) + 1  # within the grace
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    del fake_discord.guilds[fake_discord.guild_id]  # still not back
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        clock.advance(SERVER_GRACE_SECONDS + 1)
        gone = bot.boards.messages.gone
        real, gone.server_gone = gone.server_gone, _none_called_off  # as a stop cut it short
        await bot.sweep_once()
        gone.server_gone = real
        assert await bot.store.count_open() == len(here) + 1  # the removal is still noted
        await bot.sweep_once()
        for game in games:
            assert game is not None
            await _called_off(bot, game.id, SERVER_LEFT)
        assert await bot.tables.open_in_channel(elsewhere) is not None
        assert await bot.store.count_open() == 1
        await bot.sweep_once()  # the removal is forgotten once dealt with
        assert await bot.store.query("SELECT value FROM meta WHERE key LIKE 'server_left:%'"
                                     ) == [("",)]


async def _added_back(driver, fake, bot) -> None:
    """The server adds the bot back: wait until the bot knows it, and for what it does."""
    await fake.announce_guild(fake.guild_id)
    for _ in range(100):
        if bot.get_guild(fake.guild_id) is not None:
            break
        await asyncio.sleep(0.02)
    await driver.settle()


async def test_a_server_that_adds_the_bot_back_keeps_its_games(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """An admin removes the bot by mistake and adds it back: a Steam table mid-game is
    still there after the grace, the removal is forgotten, and its board shows the move
    made while the bot was out (which it could not show then)."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_DELETE",
                            {"id": str(fake_discord.guild_id)}, "guild_remove")
        assert bot.get_guild(fake_discord.guild_id) is None
        alice = fake_discord.user("alice")
        moved = (await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                                      game.engine.computer_action(game.state, 0))).game
        await _added_back(discord_driver, fake_discord, bot)
        board = fake_discord.get_message(moved.row.board_message_id)
        assert all(f":{moved.row.version}:" in cid for cid in board_ids(board))
        clock.advance(SERVER_GRACE_SECONDS + 1)
        assert await bot.sweep_once() == 0
        row = await bot.store.get_game(game.id)
        assert row is not None and row.status == "active"
        assert await bot.store.query("SELECT value FROM meta WHERE key LIKE 'server_left:%'"
                                     ) == [("",)]


async def _lobby_idle_50_minutes(driver, fake, tmp_path, clock):
    """Alice's Steam lobby, left 50 minutes of its idle hour; return the bot and it."""
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    await driver.slash("steam", "new", user="alice")
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    clock.advance(50 * 60)
    return bot, lobby


async def test_a_removed_servers_games_are_not_idle_while_it_may_add_the_bot_back(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A lobby has waited 50 minutes of its idle hour when an admin removes the bot by
    mistake; the idle sweep within the grace leaves it (nobody there could use it), and
    once the bot is added back its idle time counts from the return: it is still open
    50 minutes later, and ends as idle only after a whole hour."""
    clock = Clock()
    bot, lobby = await _lobby_idle_50_minutes(discord_driver, fake_discord, tmp_path, clock)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_DELETE",
                            {"id": str(fake_discord.guild_id)}, "guild_remove")
        clock.advance(40 * 60)  # within the grace: past the lobby's idle hour
        assert await bot.sweep_once() == 0
        assert (await bot.store.get_game(lobby.id)).status == "lobby"
        await _added_back(discord_driver, fake_discord, bot)
        await _idle_from_the_return(bot, lobby, clock)


async def _idle_from_the_return(bot, lobby, clock) -> None:
    """The lobby's idle hour counts from now (the server is back): still open 50 minutes
    on, ended as idle after the whole hour."""
    clock.advance(50 * 60)
    assert await bot.sweep_once() == 0
    assert (await bot.store.get_game(lobby.id)).status == "lobby"
    clock.advance(11 * 60)
    assert await bot.sweep_once() == 1
    assert (await bot.store.get_game(lobby.id)).status == "expired"


async def test_a_lobby_host_is_not_counted_away_for_the_time_the_bot_was_out(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Alice hosts a lobby with Bob seated; the bot is removed for 30 minutes and added
    back. A minute later Bob opens Host controls: Alice still hosts (nobody could use
    the lobby while the bot was out, she no more than anyone)."""
    from tests.support import button, host_panel
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    clock.advance(60)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_DELETE",
                            {"id": str(fake_discord.guild_id)}, "guild_remove")
        clock.advance(30 * 60)
        await _added_back(discord_driver, fake_discord, bot)
        clock.advance(60)
        await host_panel(discord_driver, fake_discord.get_message(board["id"]), user="bob")
        await discord_driver.settle()
        assert (await bot.tables.load(lobby.id)).host_id == fake_discord.user("alice").id


async def test_a_save_the_database_fails_at_the_return_is_made_again(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The bot is added back while the database is locked for a moment: the first save
    of the lobby (its idle time counted from the return) fails, and is made again, so
    the lobby is not ended as idle a minute later."""
    from db.errors import StorageError
    clock = Clock()
    bot, lobby = await _lobby_idle_50_minutes(discord_driver, fake_discord, tmp_path, clock)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_DELETE",
                            {"id": str(fake_discord.guild_id)}, "guild_remove")
        clock.advance(40 * 60)
        store = bot.tables.store
        real, failed = store.save_game, []

        async def locked_once(*args, **kwargs):
            if not failed:
                failed.append(True)
                raise StorageError("database is locked")
            return await real(*args, **kwargs)

        monkeypatch.setattr(store, "save_game", locked_once)
        await _added_back(discord_driver, fake_discord, bot)
        assert failed and fake_discord.guild_id not in bot.tables.removed
        clock.advance(60)
        assert await bot.sweep_once() == 0
        assert (await bot.store.get_game(lobby.id)).status == "lobby"


@pytest.mark.parametrize("days", [1, 3])
async def test_a_server_that_adds_the_bot_back_late_sees_its_called_off_games_ended(
        discord_driver, fake_discord, tmp_path, monkeypatch, days):
    """An admin removes the bot and adds it back ``days`` later: its Steam table was
    called off when the grace ran out, but its board and Alice's turn notice could not be
    seen to then (no access). Once the bot is back, the board shows the game ended (no
    move left on it) and the notice is taken down, also after retention (two days here)
    emptied the game; a later start does it no second time."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   settings={"RETENTION_DAYS": "2"})
    clock.advance(46)  # Alice's turn notice goes out
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert [m for m in fake_discord.channel_messages() if "your turn" in m["content"]]
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        guild = await _removed_past_its_grace(discord_driver, fake_discord, bot, clock)
        row = await bot.store.get_game(game.id)
        assert row is not None and row.status == "abandoned" and row.events[-1] == SERVER_LEFT
        clock.advance(days * 86_400)
        await bot.sweep_once()  # (after two days, retention empties the game)
        assert ((await bot.tables.load(game.id)).state is None) == (days > 2)
        await _let_back(discord_driver, fake_discord, bot, guild)
        for _ in range(100):
            if not [m for m in fake_discord.channel_messages() if "your turn" in m["content"]]:
                break
            await asyncio.sleep(0.02)
        await discord_driver.settle()
        assert await bot.store.query(
            "SELECT value FROM meta WHERE key LIKE 'server_called_off:%'") == [("",)]
    board = fake_discord.get_message(row.board_message_id)
    assert [c for c in board_ids(board) if not c.endswith(("again", "replay", "rules"))] == []
    assert not [m for m in fake_discord.channel_messages() if "your turn" in m["content"]]


async def test_a_game_called_off_with_its_channel_leaves_no_notice_behind(
        discord_driver, fake_discord, tmp_path):
    """A game called off because its channel went keeps nothing of its board or its
    turn notice in the bot's memory (a process runs for months)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="bob")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.id in bot.boards.messages.shown
    bot.boards.notices._notices[game.id] = NoticeRef(fake_discord.channel_id, 1, 2)
    await bot.boards.messages.gone.call_off(game.id, CHANNEL_GONE)
    await _called_off(bot, game.id, CHANNEL_GONE)
    assert game.id not in bot.boards.notices._notices


async def test_a_deleted_channel_ends_its_thread_games_in_a_server_with_many(
        discord_driver, fake_discord, tmp_path):
    """The threads' games of a deleted channel are found among more open thread games
    of the server than one read takes (500)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    guild, busy, doomed = fake_discord.guild_id, 10_000, 20_000
    for i in range(501):  # games in the threads of another channel, older
        await bot.tables.start("tinker", guild_id=guild, channel_id=busy + i,
                               starter=Actor(900 + i, f"p{i}"), only_starter=True,
                               thread=True, parent=busy - 1)
    game = await bot.tables.start("tinker", guild_id=guild, channel_id=doomed + 1,
                                  starter=Actor(1, "Alice"), only_starter=True,
                                  thread=True, parent=doomed)
    assert len(await bot.tables.find.open_in_threads_of(guild, busy - 1)) == 501
    await bot.boards.messages.gone.channel_gone(doomed, guild)
    assert (await bot.tables.load(game.id)).row.status == "abandoned"



async def test_a_start_reads_the_servers_removals_once(discord_driver, fake_discord, tmp_path,
                                                       monkeypatch):
    """Every server is there at a start, each asking whether it had removed the bot: the
    removals are read once, however many servers ask at once."""
    for i in range(30):
        fake_discord.add_guild(f"Server {i}")
    bot = await discord_driver.login(make_bot(tmp_path))
    bot.boards.messages.gone._removals = None  # as after a start whose own read failed
    reads = []
    real = bot.store.query

    async def counting(sql, params=None, *args, **kwargs):
        if "FROM meta" in sql and "server_left" in str(
                (params or {}).get("left", "")):
            reads.append(sql)
            await asyncio.sleep(0.05)  # a PostgreSQL server a network hop away
        return await real(sql, params, *args, **kwargs)

    async def no_sweep(*_args: Any) -> int:
        return 0

    monkeypatch.setattr(bot.store, "query", counting)
    # (the idle sweep reads the removals afresh on its own: left out here)
    monkeypatch.setattr(bot.boards.messages.gone, "sweep_left", no_sweep)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await discord_driver.settle()
        assert len(bot.guilds) == 31
    assert len(reads) == 1


async def test_removals_that_cannot_be_read_say_no_server_added_the_bot_back(
        discord_driver, fake_discord, tmp_path, monkeypatch, caplog):
    """The removals cannot be read: a warning each, and no server is said to have added
    the bot back."""
    bot = await discord_driver.login(make_bot(tmp_path))
    bot.boards.messages.gone._removals = None  # as after a start whose own read failed

    async def down(*_a, **_k):
        raise StorageError("database is locked")

    monkeypatch.setattr(bot.store, "query", down)
    caplog.set_level(logging.INFO)
    for guild_id in (111 << 22, 222 << 22):
        assert await bot.boards.messages.gone.server_back(guild_id, lambda _g: None) == 0
    assert not [r for r in caplog.records if "added back" in r.getMessage()]
    assert len([r for r in caplog.records if "had removed the bot" in r.getMessage()]) == 2


async def test_a_timed_table_waits_while_its_server_has_removed_the_bot(
        discord_driver, fake_discord, tmp_path):
    """An admin removes the bot by mistake, with a two-minute turn timer running, and
    adds it back 50 minutes later. Meanwhile nobody could click or read a reminder: the
    timer waited (no reminder, no seat handed to a computer), and once the bot is back
    it has the time it had left, then runs as before."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min")
    assert game.data.timer is not None
    left = game.data.timer.at - clock()
    gone = bot.boards.messages.gone
    await gone.server_left(fake_discord.guild_id)
    for _ in range(25):
        clock.advance(121)
        await bot.deadlines.run_due()
        await discord_driver.settle()
    waited = await bot.tables.load(game.id)
    assert waited.row.version == game.row.version and not any(s.away for s in waited.seats)
    assert waited.data.timer is not None and waited.data.timer.strikes == 0
    assert await gone.server_back(fake_discord.guild_id, bot.boards.messages.update_soon) == 1
    back = await bot.tables.load(game.id)
    assert back.data.timer is not None
    assert back.data.timer.at - clock() == pytest.approx(left, abs=1.0)
    clock.advance(left + 1)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    reminded = await bot.tables.load(game.id)
    assert reminded.data.timer is not None and reminded.data.timer.strikes == 1


async def test_a_restart_keeps_the_deadlines_of_a_server_that_removed_the_bot_waiting(
        discord_driver, fake_discord, tmp_path):
    """The bot is restarted (a deploy) 20 s after a server removed it, before the server
    is heard from: the removal is read at the start, so the table's two-minute timer
    still waits rather than reminding a player who cannot click."""
    clock = Clock()
    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, clock=clock,
                                   turn_timer="2 min")
    await bot.boards.messages.gone.server_left(fake_discord.guild_id)
    clock.advance(20)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    assert fake_discord.guild_id in bot.tables.removed
    clock.advance(121)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    waited = await bot.tables.load(game.id)
    assert waited.data.timer is not None and waited.data.timer.strikes == 0


async def test_a_called_off_games_archived_thread_is_left_so_when_the_bot_is_back(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A game called off while its server had removed the bot is shown ended once the
    bot is back, but its own thread, archived by Discord since, is not opened for it:
    only a game the table ended as idle has its thread opened for its end."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, cogs=("cogs.tinker",),
                                              BOARD_IMAGES="off"))
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        guild = await _removed_past_its_grace(discord_driver, fake_discord, bot, clock)
        assert (await bot.store.get_game(game.id)).status == "abandoned"
        clock.advance(30 * 86_400)
        thread["thread_metadata"]["archived"] = True
        await _let_back(discord_driver, fake_discord, bot, guild)  # a month later
        await discord_driver.settle()
        assert await bot.store.query(
            "SELECT value FROM meta WHERE key LIKE 'server_called_off:%'") == [("",)]
    assert thread["thread_metadata"]["archived"] is True


async def _removed_past_its_grace(driver, fake, bot, clock):
    """The server removes the bot (Discord then refuses it every channel) and the hour's
    grace runs out: the sweep calls its games off. Return the server, for its return."""
    guild = fake.guilds.pop(fake.guild_id)
    await gateway_event(driver, fake, bot, "GUILD_DELETE", {"id": str(guild.id)},
                        "guild_remove")
    fake.fail_next("*", r"^/channels/", 403, code=50001, times=1000)
    clock.advance(SERVER_GRACE_SECONDS + 60)
    await bot.sweep_once()
    await driver.settle()
    return guild


async def _let_back(driver, fake, bot, guild) -> None:
    """The server removed past its grace adds the bot back: Discord serves it again."""
    fake.faults.clear()
    fake.guilds[guild.id] = guild
    await _added_back(driver, fake, bot)


async def test_a_called_off_lobbys_invitations_are_taken_down_when_the_bot_is_back(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Alice's lobby has invited Erin when the server removes the bot for longer than
    the grace: the lobby is called off, but Discord refuses every delete meanwhile, so
    the invitation stays kept; a day later the bot is added back, and the line asking
    Erin to join a table that no longer exists is taken down with the board's end."""
    from tests.cogs.test_lobby_invitations import _invitations, _invite
    from tests.support import button
    fake = fake_discord
    fake.add_user("bob")
    fake.add_user("erin")
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await _invite(discord_driver, fake, board, "erin")
    assert len(_invitations(fake)) == 1
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    async with connected(discord_driver, fake, bot, monkeypatch):
        guild = await _removed_past_its_grace(discord_driver, fake, bot, clock)
        assert (await bot.store.get_game(lobby.id)).events[-1] == SERVER_LEFT
        assert len((await bot.tables.load(lobby.id)).data.invites) == 1
        clock.advance(86_400)
        await _let_back(discord_driver, fake, bot, guild)
    assert _invitations(fake) == []
    assert "lobby.join" not in str(fake.get_message(board["id"]).get("components"))
