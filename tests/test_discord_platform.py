"""The platform end to end through the offline Discord, with the toy game."""

import asyncio

import pytest

from tests.support import (
    ALICE,
    Clock,
    abandon,
    board_ids,
    button,
    host_board,
    host_panel,
    make_bot,
    set_read_only,
)


async def _start(driver, fake, tmp_path, **kw):
    bot = await driver.login(make_bot(tmp_path, **kw))
    result = await driver.slash("toy", "start", user="alice")
    assert result.response_type == 4 and not result.ephemeral
    return bot, result.message


async def test_slash_command_posts_a_board_through_the_real_tree(discord_driver, fake_discord,
                                                                 tmp_path):
    """/toy start answers with the board: an embed and one button per legal action."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    assert board["embeds"][0]["title"] == "Race to Ten"
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert board_ids(board) == [f"g1:{game.id}:0:add1", f"g1:{game.id}:0:add2"]
    assert game.row.board_message_id == int(board["id"])


async def test_click_is_one_update_message(discord_driver, fake_discord, tmp_path):
    """A click is answered with exactly one request: UPDATE_MESSAGE with the new board."""
    _bot, board = await _start(discord_driver, fake_discord, tmp_path)
    result = await discord_driver.click(board, button(board, "add2"), user="bob")
    assert result.response_type == 7
    assert len(result.requests) == 1
    assert "Count: **2**" in result.message["embeds"][0]["description"]
    assert all(":1:" in cid for cid in result.custom_ids)


async def test_click_after_restart(discord_driver, fake_discord, tmp_path):
    """A board keeps working after a restart: a new bot over the same database file."""
    _bot, board = await _start(discord_driver, fake_discord, tmp_path)
    await discord_driver.click(board, button(board, "add1"), user="alice")
    board = fake_discord.get_message(board["id"])
    await discord_driver.restart(make_bot(tmp_path))
    result = await discord_driver.click(board, button(board, "add2"), user="bob")
    assert result.response_type == 7
    assert "Count: **3**" in result.message["embeds"][0]["description"]


async def test_twenty_simultaneous_clicks(discord_driver, fake_discord, tmp_path):
    """20 clicks on one board version: one move, 19 private refusals, one log entry."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    cid = button(board, "add1")
    payloads = [fake_discord.component_payload(board, cid, user="bob") for _ in range(20)]
    for payload in payloads:
        bot._connection.parse_interaction_create(payload)
    await discord_driver.settle()
    records = [fake_discord.interactions[int(p["id"])] for p in payloads]
    assert sorted(r.response_type for r in records) == [4] * 19 + [7]
    refusals = [fake_discord.ephemeral[int(p["id"])] for p in payloads if int(p["id"]) in
                fake_discord.ephemeral]
    assert len(refusals) == 19
    assert all("out of date" in r[0]["content"] for r in refusals)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 1
    assert len(await bot.store.actions(game.id)) == 1


async def test_stale_board_refused_with_link(discord_driver, fake_discord, tmp_path):
    """A click on an old board version is refused privately with a link to the board."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    await discord_driver.click(board, button(board, "add1"), user="alice")
    old = fake_discord.post_message({k: v for k, v in board.items() if k != "id"})
    result = await discord_driver.click(old, button(old, "add2"), user="alice")
    assert result.ephemeral and "out of date" in result.content
    assert f"/{fake_discord.channel_id}/{board['id']}" in result.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 1 and game.row.version == 1


async def test_only_me_refuses_other_members(discord_driver, fake_discord, tmp_path):
    """C1: with only_me, another member's click is refused privately and changes nothing."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", {"only_me": True}, user="alice")).message
    result = await discord_driver.click(board, button(board, "add1"), user="bob")
    assert result.ephemeral and "only me" in result.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == 0


async def test_second_game_in_channel_refused(discord_driver, fake_discord, tmp_path):
    """C3: starting a second game in a channel is refused privately with a link."""
    await _start(discord_driver, fake_discord, tmp_path)
    result = await discord_driver.slash("toy", "start", user="bob")
    assert result.ephemeral and "already has a game" in result.content


async def test_ended_game_click_refused(discord_driver, fake_discord, tmp_path):
    """A click on a board of an abandoned game is refused and says the game ended."""
    _bot, board = await _start(discord_driver, fake_discord, tmp_path)
    ids = board_ids(board)
    refusal = await discord_driver.slash("toy", "abandon", user="bob")
    assert refusal.ephemeral and "Manage Messages" in refusal.content
    done = await abandon(discord_driver, "toy", "mod")
    assert "abandoned" in done.followups[0]["content"]
    board_now = fake_discord.get_message(board["id"])
    assert board_ids(board_now) == []
    assert "abandoned" in board_now["embeds"][0]["footer"]["text"]
    copy = fake_discord.post_message({k: v for k, v in board.items() if k != "id"})
    result = await discord_driver.click(copy, ids[0], user="alice")
    assert result.ephemeral and "abandoned" in result.content


async def test_repost_retires_old_board(discord_driver, fake_discord, tmp_path):
    """/toy board posts a fresh board and turns the old one into a pointer to it."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    result = await discord_driver.slash("toy", "board", user="bob")
    new_id = result.message["id"]
    assert new_id != board["id"] and board_ids(result.message)
    old = fake_discord.get_message(board["id"])
    assert "moved" in old["content"] and board_ids(old) == []
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.board_message_id == int(new_id)


async def test_deleted_board_is_reposted_on_next_action(discord_driver, fake_discord, tmp_path):
    """If the board message was deleted, the next move (a computer's) posts a new board."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    board = await host_board(discord_driver, board, "lobby.start")
    schedule = bot.boards.computers.schedule
    bot.boards.computers.schedule = lambda game: None  # type: ignore[method-assign]
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    fake_discord.delete_message(fake_discord.channel_id, int(board["id"]))
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    schedule(game)
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 2
    assert game.row.board_message_id != int(board["id"])
    fresh = fake_discord.get_message(game.row.board_message_id)
    assert "Count: **2**" in fresh["embeds"][0]["description"] and board_ids(fresh)


async def test_sweeper_ends_idle_game_and_edits_board(discord_driver, fake_discord, tmp_path):
    """The sweeper ends a solo game idle for 7 days and its board says so."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    clock.advance(7 * 86400 + 1)
    assert await bot.sweep_once() == 1
    edited = fake_discord.get_message(board["id"])
    assert board_ids(edited) == []
    assert "idle" in edited["embeds"][0]["footer"]["text"]


async def test_read_only_database_gives_clear_reply(discord_driver, fake_discord, tmp_path):
    """A database that cannot be written: a clear private reply, nothing lost."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    await set_read_only(bot.store, True)
    result = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert result.ephemeral and "nothing was changed" in result.content
    await set_read_only(bot.store, False)
    result = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert result.response_type == 7


async def test_commands_sync_only_when_changed(discord_driver, fake_discord, tmp_path):
    """Commands are synced on first start, not again when unchanged, and when forced."""
    bot = await discord_driver.login(make_bot(tmp_path))
    assert bot.synced == ["commands:global"]
    assert [c["name"] for c in fake_discord.commands] == ["toy"]
    bot = await discord_driver.restart(make_bot(tmp_path))
    assert bot.synced == []
    forced = make_bot(tmp_path)
    forced.force_sync = True
    bot = await discord_driver.restart(forced)
    assert bot.synced == ["commands:global"]


async def test_dev_guild_gets_a_copy(discord_driver, fake_discord, tmp_path):
    """DEV_GUILD_ID copies the commands to that server for instant testing."""
    bot = await discord_driver.login(make_bot(tmp_path, DEV_GUILD_ID=fake_discord.guild_id))
    assert bot.synced == ["commands:global", f"commands:guild:{fake_discord.guild_id}"]
    assert [c["name"] for c in fake_discord.guild_commands[fake_discord.guild_id]] == ["toy"]


async def test_a_former_dev_guild_loses_its_copy(discord_driver, fake_discord, tmp_path):
    """Once DEV_GUILD_ID is unset (or set to another server), the copy is taken away, so
    that server's members do not see every command twice; once, not at every start."""
    await discord_driver.login(make_bot(tmp_path, DEV_GUILD_ID=fake_discord.guild_id))
    await discord_driver.restart(make_bot(tmp_path))
    assert fake_discord.guild_commands.get(fake_discord.guild_id, []) == []
    assert [c["name"] for c in fake_discord.commands] == ["toy"]
    puts = len([r for r in fake_discord.requests if r.method == "PUT"])
    await discord_driver.restart(make_bot(tmp_path))
    assert len([r for r in fake_discord.requests if r.method == "PUT"]) == puts


async def test_a_dev_guild_the_bot_is_not_in_does_not_stop_it(discord_driver, fake_discord,
                                                               tmp_path, caplog):
    """Discord refuses the copy for DEV_GUILD_ID (403, Missing Access: the bot is not in
    that server): the bot starts all the same, with its global commands, and the log
    names the setting."""
    fake_discord.fail_next("PUT", r"/applications/\d+/guilds/\d+/commands", 403, code=50001,
                           message="Missing Access")
    bot = await discord_driver.login(make_bot(tmp_path, DEV_GUILD_ID=fake_discord.guild_id))
    assert bot.synced == ["commands:global"]
    assert any("DEV_GUILD_ID" in r.getMessage() for r in caplog.records)
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    assert board_ids(board)


async def test_late_click_answer_keeps_the_move(discord_driver, fake_discord, tmp_path):
    """A click answered too late (10062): the move is kept and the board edited instead."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    fake_discord.fail_next("POST", r"/interactions/.*/callback", 404, code=10062)
    await discord_driver.click(board, button(board, "add2"), user="bob")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 2
    edited = fake_discord.get_message(board["id"])
    assert "Count: **2**" in edited["embeds"][0]["description"]


async def test_lobby_and_computer_players(discord_driver, fake_discord, tmp_path):
    """A lobby fills with a player and a computer; computers move by themselves."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.ephemeral and "Only the host" in refused.content
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    board = await host_board(discord_driver, board, "lobby.start")
    wrong = await discord_driver.click(board, button(board, "add1"), user="bob")
    assert wrong.ephemeral and "Alice's turn" in wrong.content
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="bob")).message
    await asyncio.sleep(0)
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.to_act() == 0 and game.state.count == 3


async def test_computer_players_resume_after_restart(discord_driver, fake_discord, tmp_path):
    """A computer player whose turn came just before a restart moves after it."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    board = await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    # the process "dies" before it moves
    bot.boards.computers.schedule = lambda game: None  # type: ignore[method-assign]
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    bot = await discord_driver.restart(make_bot(tmp_path))
    assert await bot.boards.resume_computers() == 1
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.state.count == 2 and game.to_act() == 0


async def test_edit_cap_posts_a_fresh_board(discord_driver, fake_discord, tmp_path):
    """A board past Discord's edit cap (30046) is replaced by a fresh one; the move stays,
    and the click is acknowledged: Bob never reads "This interaction failed"."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    fake_discord.fail_next("POST", r"/interactions/.*/callback", 400, code=30046)
    fake_discord.fail_next("PATCH", rf"/channels/\d+/messages/{board['id']}", 400, code=30046)
    click = await discord_driver.click(board, button(board, "add1"), user="bob")
    assert click.response_type == 6 and not click.followups
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 1
    assert game.row.board_message_id != int(board["id"])
    fresh = fake_discord.get_message(game.row.board_message_id)
    assert "Count: **1**" in fresh["embeds"][0]["description"] and board_ids(fresh)


async def test_button_on_unknown_game_is_refused(discord_driver, fake_discord, tmp_path):
    """A button pointing at a game that does not exist gets a clear private reply."""
    await discord_driver.login(make_bot(tmp_path))
    ghost = fake_discord.post_message({
        "content": "old board",
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Add 1", "custom_id": "g1:999:0:add1"}]}],
    })
    result = await discord_driver.click(ghost, "g1:999:0:add1", user="alice")
    assert result.ephemeral and "no longer exists" in result.content


def test_no_privileged_intents(tmp_path):
    """The bot asks for no privileged intent (members, presences, message content)."""
    bot = make_bot(tmp_path)
    assert not (bot.intents.members or bot.intents.presences or bot.intents.message_content)


@pytest.mark.error_logs_expected
async def test_engine_bug_gets_a_private_apology(discord_driver, fake_discord, tmp_path,
                                                 monkeypatch):
    """An unexpected error in an engine is logged and the player gets a private reply."""
    from bot.games.registry import engine

    bot, board = await _start(discord_driver, fake_discord, tmp_path)

    def broken(*args, **kwargs):
        raise ZeroDivisionError("bug")

    monkeypatch.setattr(engine("toy"), "apply", broken)
    result = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert result.ephemeral and "went wrong" in result.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == 0


async def _computer_table(driver, tmp_path):
    bot = await driver.login(make_bot(tmp_path))
    board = (await driver.slash("toy", "new", user="alice")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    board = await host_board(driver, board, "lobby.start")
    return bot, board


async def test_computer_retries_after_a_busy_database(discord_driver, fake_discord, tmp_path,
                                                      monkeypatch):
    """A computer player whose move hits a busy database tries again and moves."""
    import bot.boards.computers
    from bot.table.errors import Unavailable

    monkeypatch.setattr(bot.boards.computers, "COMPUTER_RETRY_SECONDS", 0.01)
    table_bot, board = await _computer_table(discord_driver, tmp_path)
    real = table_bot.tables.computer_move
    calls = []

    async def flaky(game_id):
        calls.append(game_id)
        if len(calls) == 1:
            raise Unavailable()
        return await real(game_id)

    monkeypatch.setattr(table_bot.tables, "computer_move", flaky)
    await discord_driver.click(board, button(board, "add1"), user="alice")
    game = await table_bot.tables.open_in_channel(fake_discord.channel_id)
    assert len(calls) >= 2 and game.state.count == 2 and game.to_act() == 0


async def test_computer_moves_once_a_long_storage_outage_is_over(
        discord_driver, fake_discord, tmp_path, monkeypatch, caplog):
    """A computer player whose moves meet a database down for longer than its first
    tries keeps trying, a warning logged once, and moves once the database is back: the
    table is never left waiting on a computer that gave up."""
    import bot.boards.computers
    from bot.table.errors import Unavailable

    monkeypatch.setattr(bot.boards.computers, "COMPUTER_RETRY_SECONDS", 0.001)
    monkeypatch.setattr(bot.boards.computers, "COMPUTER_RETRY_MAX_SECONDS", 0.01)
    table_bot, board = await _computer_table(discord_driver, tmp_path)
    real = table_bot.tables.computer_move
    calls = []
    outage = 3 * bot.boards.computers.COMPUTER_RETRIES

    async def down_a_while(game_id):
        calls.append(game_id)
        if len(calls) <= outage:
            raise Unavailable()
        return await real(game_id)

    monkeypatch.setattr(table_bot.tables, "computer_move", down_a_while)
    await discord_driver.click(board, button(board, "add1"), user="alice")
    for _ in range(200):
        game = await table_bot.tables.open_in_channel(fake_discord.channel_id)
        if game.to_act() == 0:
            break
        await asyncio.sleep(0.01)
    assert len(calls) > outage and game.state.count == 2 and game.to_act() == 0
    warned = [r for r in caplog.records if "cannot move yet" in r.getMessage()]
    assert len(warned) == 1 and warned[0].levelname == "WARNING"


async def test_computers_resume_after_a_start_whose_first_read_failed(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The database cannot be read when the bot is ready after a restart: the computer
    players are resumed once it can, without another READY."""
    import bot.restart
    from db.errors import StorageError

    monkeypatch.setattr(bot.restart, "RESUME_RETRY_SECONDS", 0.01)
    table_bot, board = await _computer_table(discord_driver, tmp_path)
    table_bot.boards.computers.schedule = lambda game: None  # type: ignore[method-assign]
    await discord_driver.click(board, button(board, "add1"), user="alice")
    table_bot = await discord_driver.restart(make_bot(tmp_path))
    real = table_bot.boards.resume_computers
    tries = []

    async def locked_twice():
        tries.append(1)
        if len(tries) <= 2:
            raise StorageError("database is locked")
        return await real()

    monkeypatch.setattr(table_bot.boards, "resume_computers", locked_twice)
    table_bot._resumed = False
    await table_bot.on_ready()
    await table_bot.restart._computers
    await discord_driver.settle()
    game = await table_bot.tables.open_in_channel(fake_discord.channel_id)
    assert len(tries) == 3 and game.state.count == 2 and game.to_act() == 0


async def test_the_resume_of_computers_fails_when_a_game_cannot_be_read(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The resume reads the games with computer players, but one of them cannot be read
    just then: the resume fails (the start tries it again), and the next one moves it."""
    from bot.table.errors import Unavailable
    from db.errors import StorageError

    table_bot, board = await _computer_table(discord_driver, tmp_path)
    computers, scheduled = table_bot.boards.computers, []
    monkeypatch.setattr(computers, "schedule", lambda game: scheduled.append(game.id))
    await discord_driver.click(board, button(board, "add1"), user="alice")
    real, tries = table_bot.tables.load, []

    async def busy_once(game_id, *args, **kwargs):
        tries.append(game_id)
        if len(tries) == 1:
            raise Unavailable()
        return await real(game_id, *args, **kwargs)

    monkeypatch.setattr(table_bot.tables, "load", busy_once)
    scheduled.clear()
    with pytest.raises(StorageError):
        await computers.resume()
    assert scheduled == []
    assert await computers.resume() == 1 and scheduled == tries[-1:]


async def test_stalled_computer_is_woken_by_a_click(discord_driver, fake_discord, tmp_path):
    """If a computer player stalled, the next click on its board gets it moving again."""
    table_bot, board = await _computer_table(discord_driver, tmp_path)
    schedule = table_bot.boards.computers.schedule
    table_bot.boards.computers.schedule = lambda game: None  # type: ignore[method-assign]
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    table_bot.boards.computers.schedule = schedule  # type: ignore[method-assign]
    # its options are not live meanwhile; Resign, which anyone seated may do, is
    assert all(c.get("disabled") for row in board["components"] for c in row["components"]
               if ":table." not in c["custom_id"] and not c["custom_id"].endswith(":resign"))
    details = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    assert details.ephemeral
    game = await table_bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 2 and game.to_act() == 0


async def test_board_left_behind_by_a_crash_is_brought_up_to_date(discord_driver, fake_discord,
                                                                  tmp_path):
    """A move saved but never answered (crash): the next click shows the current board."""
    table_bot, board = await _start(discord_driver, fake_discord, tmp_path)
    game = await table_bot.tables.open_in_channel(fake_discord.channel_id)
    await table_bot.tables.act(game.id, 0, ALICE, "add2")  # saved; the board never edited
    table_bot = await discord_driver.restart(make_bot(tmp_path))
    result = await discord_driver.click(board, button(board, "add1"), user="bob")
    assert result.response_type == 7
    assert "Count: **2**" in result.message["embeds"][0]["description"]
    assert all(":1:" in cid for cid in result.custom_ids)
    assert len(await table_bot.store.actions(game.id)) == 1
    again = await discord_driver.click(result.message, button(result.message, "add1"),
                                       user="bob")
    assert "Count: **3**" in again.message["embeds"][0]["description"]


async def test_an_idle_game_whose_board_was_deleted_is_not_posted_again(
        discord_driver, fake_discord, tmp_path):
    """A moderator deleted the board of a game nobody plays: when the sweeper ends it,
    no new board comes to the channel to say so."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    clock.advance(7 * 86400 + 1)
    assert await bot.sweep_once() == 1
    await discord_driver.settle()
    assert fake_discord.channel_messages() == []


async def test_a_machine_without_fribidi_is_named_in_the_log(discord_driver, fake_discord,
                                                             tmp_path, monkeypatch, caplog):
    """Without Pillow's complex layout (raqm needs the system's FriBiDi) the bot still
    starts with pictures, and its log tells the host what to install; with pictures off
    nothing is said."""
    import bot.client

    monkeypatch.setattr(bot.client, "RAQM", False)
    await discord_driver.login(make_bot(tmp_path, BOARD_IMAGES="off"))
    assert not any("libfribidi0" in r.getMessage() for r in caplog.records)
    await discord_driver.restart(make_bot(tmp_path))
    assert any("libfribidi0" in r.getMessage() for r in caplog.records)
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    assert board_ids(board)


@pytest.mark.parametrize("refusal, said", [
    ("attempt to write a readonly database", "cannot be written: attempt to write a "
                                             "readonly database"),
    ("database or disk is full", "(check the free space on the disk that holds it)"),
])
async def test_a_database_that_takes_no_writes_stops_the_start(tmp_path, monkeypatch,
                                                               refusal, said):
    """A database the bot can read but not write (a file restored by root, a read-only
    replica, a full disk) stops the start with an error naming the setting, every time,
    not only when the commands need syncing; a full disk is named as such."""
    from bot.config import ConfigError
    from db.errors import StorageError
    from db.store import Store

    async def refused(self, key, value):
        raise StorageError(refusal)

    monkeypatch.setattr(Store, "set_meta", refused)
    bot = make_bot(tmp_path)
    with pytest.raises(ConfigError) as stopped:
        await bot.open_store()
    assert str(stopped.value).startswith("DATABASE_PATH ") and said in str(stopped.value)


async def test_a_stop_during_the_starts_write_leaves_the_database_closed(tmp_path,
                                                                          monkeypatch):
    """A stop that lands while the start's first write waits (a lock another process
    holds) leaves the database closed: its threads would keep the process alive."""
    import asyncio

    from db.store import Store

    closed: list[bool] = []
    real_close = Store.close

    async def held(self, key, value):
        raise asyncio.CancelledError  # the stop's cancellation, as it lands

    async def close(self):
        closed.append(True)
        await real_close(self)

    monkeypatch.setattr(Store, "set_meta", held)
    monkeypatch.setattr(Store, "close", close)
    bot = make_bot(tmp_path)
    try:
        with pytest.raises(asyncio.CancelledError):
            await bot.open_store()
        assert closed == [True]
    finally:
        if not closed:  # left open: its threads would keep this test run alive too
            await real_close(bot.store)


async def test_a_board_past_the_edit_cap_is_deleted_when_replaced(discord_driver,
                                                                   fake_discord, tmp_path):
    """The old board is as capped as the edit that failed (30046): it cannot be turned
    into "This board moved", so it is deleted, leaving no second board with buttons."""
    bot, board = await _start(discord_driver, fake_discord, tmp_path)
    fake_discord.fail_next("PATCH", rf"/channels/\d+/messages/{board['id']}", 400,
                           code=30046, times=99)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.boards.messages.refresh(game)
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.row.board_message_id != int(board["id"])
    assert fake_discord.get_message(board["id"]) is None
    assert board_ids(fake_discord.get_message(game.row.board_message_id))
