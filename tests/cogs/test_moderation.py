"""What a moderator does to a channel while a game plays in it: a board deleted (as it
is clicked, before a turn notice, before the game is abandoned) and a channel locked
(the bot loses Send Messages). Players are told what happened, privately, and a board
is there to play on whenever the game goes on."""

from __future__ import annotations

from tests.support import (
    Clock,
    abandon,
    board_ids,
    button,
    host_board,
    host_does,
    make_bot,
    press,
    steam_against_computer,
)

POST = r"^/channels/\d+/messages$"
POST_OR_EDIT = r"^/channels/\d+/messages"
COGS = ("cogs.steam",)


async def _two_seats(driver, fake, tmp_path, clock):
    """Alice and Bob at a started table, Alice first; return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


async def _plays_turn(driver, fake, bot, seat: int, name: str) -> list[str]:
    """The person at ``seat`` plays their whole turn; return what they were told."""
    told: list[str] = []
    while True:
        game = await bot.tables.open_in_channel(fake.channel_id)
        if game.to_act() != seat:
            return told
        board = fake.get_message(game.row.board_message_id)
        result = await press(driver, board, game.engine.computer_action(game.state, seat), name)
        await driver.settle()
        told += [f.get("content") or "" for f in result.followups]


async def _told_after_a_refused_notice(driver, fake, bot, clock) -> int:
    """The channel refuses the bot's posts: Alice's notice is refused, then she plays her
    turn; return how many times she was told the bot can no longer post here."""
    fake.fail_next("POST", POST, 403, code=50013, times=10_000)
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await driver.settle()
    told = await _plays_turn(driver, fake, bot, 0, "alice")
    return sum("can no longer update this board" in t for t in told)


async def test_a_turn_notice_after_the_board_was_deleted_leads_to_a_new_board(
        discord_driver, fake_discord, tmp_path):
    """A table of people makes no edit of its own, so nothing else finds the deleted
    board: the notice looks first and posts the board again, and links to it."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    await _plays_turn(discord_driver, fake_discord, bot, 0, "alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.delete_message(fake_discord.channel_id, game.row.board_message_id)
    clock.advance(46)  # Bob's grace time runs out: he is pinged
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    [notice] = [m for m in fake_discord.channel_messages() if "your turn" in m["content"]]
    [link] = [c for row in notice["components"] for c in row["components"]]
    [board] = [m for m in fake_discord.channel_messages() if board_ids(m)]
    assert link["url"].rsplit("/", 1)[1] == board["id"]
    assert (await bot.tables.load(game.id)).row.board_message_id == int(board["id"])


async def test_refused_turn_notices_are_said_to_the_next_player_who_clicks(
        discord_driver, fake_discord, tmp_path):
    """The channel is made read-only: turn notices are refused (403). At a table of
    people the bot makes no edit of its own, so the notice's refusal is what tells the
    next clicker that the bot can no longer post here."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    assert await _told_after_a_refused_notice(discord_driver, fake_discord, bot, clock) == 1


async def test_a_start_the_locked_channel_cannot_show_is_said_to_the_host(
        discord_driver, fake_discord, tmp_path):
    """Host controls → Start while the channel refuses the bot's posts and edits: the
    host is told the channel cannot be updated, not only that the game started."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, TURN_NOTICE_GRACE_SECONDS=0))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    fake_discord.fail_next("*", POST_OR_EDIT, 403, code=50013, times=10_000)
    started = await host_does(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.status == "active"
    told = [started.content] + [f.get("content") or "" for f in started.followups]
    assert any("can no longer update this board" in t for t in told), told


async def test_a_lockdown_does_not_leave_the_channels_boards_without_pictures(
        discord_driver, fake_discord, tmp_path):
    """A board's post is refused with and without its picture (no Send Messages): the
    picture was not what Discord refused, so boards keep their pictures once the
    channel is open again."""
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    assert fake_discord.embed_attachment(board) is not None
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    fake_discord.fail_next("POST", POST, 403, code=50013, times=2)
    assert await bot.boards.messages.refresh(game) is not None
    assert await bot.boards.messages.refresh(game) is None  # the lockdown is over
    game = await bot.tables.load(game.id)
    board = fake_discord.get_message(game.row.board_message_id)
    assert fake_discord.embed_attachment(board) is not None


async def test_a_move_on_a_board_deleted_as_it_is_clicked_is_answered(
        discord_driver, fake_discord, tmp_path):
    """The board is deleted while the click is on its way: the move is made and shown on
    a new board, and the player is told privately (not "This interaction failed")."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", {"players": "only me"},
                                        user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    custom_id = next(c for c in board_ids(board) if c.endswith(":" + action))
    payload = fake_discord.component_payload(board, custom_id, user="alice")
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    result = await discord_driver.feed(payload)
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.version == 1
    assert len([m for m in fake_discord.channel_messages() if board_ids(m)]) == 1
    assert result.response_type == 4 and "board was deleted" in result.content


async def test_abandoning_a_game_whose_board_was_deleted_posts_no_board(
        discord_driver, fake_discord, tmp_path):
    """As when the idle sweep ends a game: nobody plays it any more, so the moderator's
    clean-up stands; the channel is told it was abandoned."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", {"players": "only me"},
                                        user="alice")).message
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    await abandon(discord_driver, "tinker", "alice")
    await discord_driver.settle()
    assert [m["content"] for m in fake_discord.channel_messages()] == [
        "Alice abandoned the game."]


async def test_the_lockout_word_goes_once_the_bot_posts_again_and_comes_back_with_the_next(
        discord_driver, fake_discord, tmp_path):
    """A notice refused while the channel was locked is told once; once the bot posts
    again (the next notice) nobody is told any more, and a second lockdown is told
    again."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.fail_next("POST", POST, 403, code=50013, times=1)
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    told = await _plays_turn(discord_driver, fake_discord, bot, 0, "alice")
    assert sum("can no longer update this board" in t for t in told) == 1
    clock.advance(46)  # Bob's notice posts: the lockdown is over
    await bot.deadlines.run_due()
    await discord_driver.settle()
    told = await _plays_turn(discord_driver, fake_discord, bot, 1, "bob")
    assert not any("can no longer update this board" in t for t in told)
    # locked again
    assert await _told_after_a_refused_notice(discord_driver, fake_discord, bot, clock) == 1


async def test_the_last_move_on_a_board_deleted_as_it_is_clicked_says_the_game_is_over(
        discord_driver, fake_discord, tmp_path):
    """The winning move, on a board deleted as it is clicked: the private word says the
    result is on a new board, not that the game goes on."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    for _ in range(4):
        board = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    custom_id = next(c for c in board_ids(board) if c.endswith(":add2"))
    payload = fake_discord.component_payload(board, custom_id, user="alice")
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    result = await discord_driver.feed(payload)
    await discord_driver.settle()
    assert (await bot.store.get_game(game.id)).status == "over"
    assert result.content.startswith("The move was made and the game is over")


async def test_an_edit_drawn_before_the_board_moved_goes_to_the_new_board(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A vote's tally edit keeps the board's picture; if ``/<game> board`` moved the board
    while the edit was drawn (its old message now a line without the picture), the edit
    is made on the new board, not on the line, whose picture it would name."""
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    messages = bot.boards.messages
    old = (game.row.board_channel_id, game.row.board_message_id)
    assert await messages.post(await bot.tables.load(game.id)) is None  # the board moves
    game = await bot.tables.load(game.id)
    assert game.row.board_message_id != old[1]
    where, reads = messages._where, []

    async def first_read_stale(g):
        reads.append(g.id)
        return old if len(reads) == 1 else await where(g)

    monkeypatch.setattr(messages, "_where", first_read_stale)
    stale = await bot.tables.load(game.id)
    stale.row.board_channel_id, stale.row.board_message_id = old
    messages.shown.pop(game.id, None)
    first = len(fake_discord.requests)
    assert await messages.refresh(stale, keep=True) is None
    edits = [r.path.rsplit("/", 1)[1] for r in fake_discord.requests[first:]
             if r.method == "PATCH"]
    assert edits == [str(game.row.board_message_id)]  # the new board, not the line
    line = fake_discord.get_message(old[1])
    assert line["embeds"] == [] and "moved" in line["content"] and len(reads) >= 2
