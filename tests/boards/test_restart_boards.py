"""Boards after a restart: the edits asked for before a clean stop are made at the stop,
and the boards of games saved just before the bot stopped (or crashed) are shown again at
the next start, with no click spent on them (bot/boards/updates.py, bot/restart.py)."""

import asyncio

from bot.boards.custom_ids import parse_button_id
from bot.restart import REDRAW_MARGIN_SECONDS
from tests.support import Clock, board_ids, button, host_board, make_bot


def _count_shown(fake, board) -> str:
    """The board's text as the fake stores it now."""
    return fake.get_message(board["id"])["embeds"][0]["description"]


def _version(board) -> int:
    """The board version ``board``'s "add1" button carries."""
    parsed = parse_button_id(button(board, "add1"))
    assert parsed is not None
    return parsed.version


def _edits_of(fake, board) -> int:
    """How many times the bot edited ``board``'s message."""
    return sum(1 for r in fake.requests
               if r.method == "PATCH" and r.path.endswith(f"/messages/{board['id']}"))


async def _against_two_computers(driver, fake, tmp_path, **settings):
    """Alice starts a toy game against two computers; return the bot, board and game."""
    bot = await driver.login(make_bot(tmp_path, **settings))
    board = (await driver.slash("toy", "new", user="alice")).message
    for _ in range(2):
        board = (await driver.click(board, button(board, "lobby.computer"),
                                    user="alice")).message
    board = await host_board(driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake.channel_id)
    return bot, board, game


async def _alice_moves_and_computers_answer(bot, fake, board, game):
    """Alice clicks "add1"; wait until both computers have answered (count 3, saved)."""
    bot._connection.parse_interaction_create(
        fake.component_payload(board, button(board, "add1"), user="alice"))
    for _ in range(500):
        now = await bot.tables.load(game.id)
        if now.state.count == 3:
            break
        await asyncio.sleep(0.01)
    assert now.state.count == 3 and now.to_act() == 0


async def test_edit_waiting_for_its_interval_is_made_at_a_clean_stop(
        discord_driver, fake_discord, tmp_path):
    """A computer's move whose board edit waits for the edit interval (5 s here) when
    the bot stops cleanly: the stop makes the edit at once instead of dropping it."""
    bot, board, game = await _against_two_computers(discord_driver, fake_discord, tmp_path,
                                                    BOARD_EDIT_SECONDS=5)
    await _alice_moves_and_computers_answer(bot, fake_discord, board, game)
    await asyncio.sleep(0.05)
    assert "Count: **3**" not in _count_shown(fake_discord, board)  # still waiting
    await discord_driver.close_client(bot)  # SIGTERM -> bot.close()
    assert "Count: **3**" in _count_shown(fake_discord, board)


async def test_vote_decided_while_stopping_is_shown(discord_driver, fake_discord, tmp_path,
                                                    backend):
    """A vote window that closes while the bot stops (closing is set, the deadline batch
    in flight finishes): the decision's board edit is made, not dropped."""
    from tests.cogs.test_votes_cog import _vote_game

    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    await discord_driver.click(board, button(board, "add2"), user="carol")
    before = _count_shown(fake_discord, board)
    clock.advance(31)
    bot.tables.closing = True  # what close() does first; Deadlines.stop lets the batch end
    assert await bot.deadlines.run_due() == 1
    assert (await bot.tables.load(game.id)).row.version == game.row.version + 1
    await discord_driver.close_client(bot)
    assert _count_shown(fake_discord, board) != before


async def test_board_left_behind_by_a_crash_is_shown_at_the_next_start(
        discord_driver, fake_discord, tmp_path, backend):
    """The bot dies (no clean stop) after a computer's move was saved and before its board
    was edited: the next start edits the board, with no click needed."""
    clock = Clock()
    bot, board, game = await _against_two_computers(discord_driver, fake_discord, tmp_path,
                                                    clock=clock)
    # From here on the process "dies": its edits are lost and nothing notes the stop.
    bot.boards.messages.update_soon = lambda *a, **k: None  # type: ignore[method-assign]
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    await _alice_moves_and_computers_answer(bot, fake_discord, board, game)
    assert "Count: **3**" not in _count_shown(fake_discord, board)
    clock.advance(20)  # the last note of being alive was at the start, 20 s before
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    shown = _count_shown(fake_discord, board)
    assert "Count: **3**" in shown, shown
    # and the board works: Alice's next click is a move, not spent on bringing it up to date
    moved = await discord_driver.click(fake_discord.get_message(board["id"]),
                                       button(board, "add1"), user="alice")
    assert moved.response_type == 7
    assert (await bot.tables.load(game.id)).state.count >= 4


async def _count_reaches(bot, game, count):
    """Wait until the stored game's count is at least ``count``; return it as stored."""
    for _ in range(500):
        now = await bot.tables.load(game.id)
        if now.state.count >= count:
            return now
        await asyncio.sleep(0.01)
    raise AssertionError(f"the count stayed at {now.state.count}")


async def test_game_ended_just_before_a_crash_shows_its_end_at_the_next_start(
        discord_driver, fake_discord, tmp_path, backend):
    """The computers' moves end the game (count 10), and the bot dies before the board is
    edited: the next start edits it to the ended game, with no move buttons left."""
    clock = Clock()
    bot, board, game = await _against_two_computers(discord_driver, fake_discord, tmp_path,
                                                    clock=clock)
    for count in (3, 6):  # two rounds while the bot is healthy: Alice +1, computers +1 +1
        await discord_driver.click(fake_discord.get_message(board["id"]),
                                   button(board, "add1"), user="alice")
        await _count_reaches(bot, game, count)
        await discord_driver.settle()
    assert "Count: **6**" in _count_shown(fake_discord, board)
    # From here on the process "dies": its edits are lost and nothing notes the stop.
    bot.boards.messages.update_soon = lambda *a, **k: None  # type: ignore[method-assign]
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    await discord_driver.click(fake_discord.get_message(board["id"]),
                               button(board, "add1"), user="alice")  # 7, then 8, then 10
    ended = await _count_reaches(bot, game, 10)
    assert ended.row.status == "over"
    assert "Count: **10**" not in _count_shown(fake_discord, board)
    clock.advance(20)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    assert bot.restart._redraw is not None
    await bot.restart._redraw
    shown = fake_discord.get_message(board["id"])
    assert "Count: **10**" in shown["embeds"][0]["description"], shown["embeds"][0]
    moves = [cid for cid in board_ids(shown, table=True) if cid.endswith(":add1")]
    assert not moves, "the ended game's board still has move buttons"


async def test_only_games_saved_shortly_before_the_stop_are_shown_again(
        discord_driver, fake_discord, tmp_path, backend):
    """A board saved long before the stop is not edited at the start; one saved shortly
    before it is."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    old = (await discord_driver.slash("toy", "new", user="alice")).message
    clock.advance(REDRAW_MARGIN_SECONDS + 600)
    other = fake_discord.add_channel("more-games")
    recent = (await discord_driver.slash("toy", "new", user="bob", channel=other)).message
    await discord_driver.close_client(bot)
    edits = _edits_of(fake_discord, old), _edits_of(fake_discord, recent)
    clock.advance(3600)
    await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    assert _edits_of(fake_discord, old) == edits[0]
    assert _edits_of(fake_discord, recent) == edits[1] + 1


async def test_every_board_saved_shortly_before_the_stop_is_shown_again_batch_by_batch(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """More games were saved just before the stop than one batch of the start's redraw
    reads (a burst of closed vote windows before a crash): every one's board is edited
    again, a batch after another, before the redraw counts as done."""
    import bot.restart
    monkeypatch.setattr(bot.restart, "REDRAW_BATCH", 2)
    clock = Clock()
    client = await discord_driver.login(make_bot(tmp_path, clock=clock))
    boards = []
    for i in range(5):
        channel = fake_discord.add_channel(f"games-{i}")
        boards.append((await discord_driver.slash("toy", "new", user="alice",
                                                  channel=channel)).message)
    await discord_driver.close_client(client)
    edits = [_edits_of(fake_discord, board) for board in boards]
    clock.advance(3600)
    client = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await client.restart._redraw
    await discord_driver.settle()
    assert [_edits_of(fake_discord, board) for board in boards] == [n + 1 for n in edits]


async def test_a_game_saved_while_the_redraw_goes_is_redrawn_all_the_same(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """While the start's first batch of boards is edited again, the host of the oldest
    lobby opens Host controls (a save that edits no board): that lobby's board is still
    edited again, once, and so is every other."""
    import bot.restart
    from bot.boards.updates import BoardUpdates
    monkeypatch.setattr(bot.restart, "REDRAW_BATCH", 2)
    clock = Clock()
    client = await discord_driver.login(make_bot(tmp_path, clock=clock))
    boards, games = [], []
    for i in range(5):
        channel = fake_discord.add_channel(f"games-{i}")
        boards.append((await discord_driver.slash("toy", "new", user="alice",
                                                  channel=channel)).message)
        games.append(await client.tables.open_in_channel(channel))
        clock.advance(1)
    await discord_driver.close_client(client)
    edits = [_edits_of(fake_discord, board) for board in boards]
    clock.advance(3600)
    client = make_bot(tmp_path, clock=clock)
    real, batches = BoardUpdates.redraw, []

    async def redraw(self, ids):
        if not batches:
            await client.tables.host_here(games[0].id, games[0].host_id)
        batches.append(list(ids))
        return await real(self, ids)

    monkeypatch.setattr(BoardUpdates, "redraw", redraw)
    client = await discord_driver.restart(client)
    await client.restart._redraw
    await discord_driver.settle()
    assert len(batches) == 3
    assert [_edits_of(fake_discord, board) for board in boards] == [n + 1 for n in edits]


async def test_first_start_shows_nothing_again(discord_driver, fake_discord, tmp_path):
    """With no note of when the bot was last alive (a first start), no board is edited."""
    bot = await discord_driver.login(make_bot(tmp_path))
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    beating = bot.alive_marker.get_task()
    bot.alive_marker.cancel()
    await asyncio.wait({beating})
    await bot.store.set_meta(bot.alive.alive_keys[0], "not a time")  # as if never noted
    assert await bot.alive.recall_alive() is None
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    await discord_driver.close_client(bot)
    edits = _edits_of(fake_discord, board)
    await discord_driver.login(make_bot(tmp_path))
    await discord_driver.settle()
    assert _edits_of(fake_discord, board) == edits


async def _nothing() -> None:
    """Stands in for a method that a dead process never runs."""


async def test_a_board_ahead_of_a_restored_database_is_brought_back(discord_driver,
                                                                    fake_discord, tmp_path):
    """The host restores last night's backup (docs/deploy.md), or the machine lost the
    last commits: a board showing moves the store no longer holds is redrawn at the
    stored position by the first click, which applies nothing; the next click plays."""
    import sqlite3

    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    clock.advance(600)
    await bot.alive.note_alive()
    source, copy = sqlite3.connect(tmp_path / "bot.db"), sqlite3.connect(tmp_path / "old.db")
    source.backup(copy)  # the nightly backup, as `python -m bot backup` takes it
    source.close()
    copy.close()
    clock.advance(3600)
    for _ in range(2):  # the game goes on after the backup
        board = (await discord_driver.click(board, button(board, "add1"),
                                            user="alice")).message
    await discord_driver.close_client(bot)
    (tmp_path / "old.db").replace(tmp_path / "bot.db")
    for extra in ("bot.db-wal", "bot.db-shm"):
        (tmp_path / extra).unlink(missing_ok=True)
    clock.advance(3600)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    stored = await bot.tables.load(game.id)
    shown = fake_discord.get_message(board["id"])
    assert _version(shown) > stored.row.version  # ahead of the store
    healed = await discord_driver.click(shown, button(shown, "add1"), user="alice")
    assert healed.response_type == 7 and "nothing was done" in healed.followups[0]["content"]
    assert (await bot.tables.load(game.id)).row.version == stored.row.version
    shown = fake_discord.get_message(board["id"])
    assert _version(shown) == stored.row.version
    played = await discord_driver.click(shown, button(shown, "add1"), user="alice")
    assert played.response_type == 7
    assert (await bot.tables.load(game.id)).row.version == stored.row.version + 1


async def test_a_turn_notice_of_a_game_ended_just_before_a_crash_is_taken_down(
        discord_driver, fake_discord, tmp_path):
    """Alice's turn notice stands when she resigns, ending the game; the process dies
    after the save and before its announcement. The next start shows the board ended
    and takes the notice down: no "@Alice, it is your turn" stays under a finished
    table."""
    from bot.table.loaded import Actor
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    clock.advance(46)  # Alice's grace time: her notice goes out
    await bot.deadlines.run_due()
    await discord_driver.settle()

    def notices() -> list[dict]:
        return [m for m in fake_discord.channel_messages()
                if "your turn" in (m.get("content") or "")]

    assert len(notices()) == 1
    # From here on the process "dies": its edits are lost and nothing notes the stop.
    bot.boards.messages.update_soon = lambda *a, **k: None  # type: ignore[method-assign]
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    alice = fake_discord.user("alice")
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"), "resign")
    clock.advance(20)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    await discord_driver.settle()
    assert bot.restart._redraw is not None
    await bot.restart._redraw
    await discord_driver.settle()
    ended = await bot.tables.load(game.id)
    assert ended.row.status == "over" and ended.data.notice is None
    assert notices() == []
