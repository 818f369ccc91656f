"""The start's redraw of recent boards (bot/restart.py, bot/boards/updates.py): it posts no
board (a deleted one stays deleted), it does not bring back a board moved by
``/<game> board``, and a redraw cut short by a quick second restart is still made."""

import asyncio
import logging

import pytest

import bot.boards.updates as updates_module
from bot.boards.messages import BoardMessages
from tests.support import Clock, abandon, board_ids, make_bot


async def _nothing() -> None:
    """Stands in for a method that a dead process never runs."""


def _offers_moves(message) -> bool:
    """Whether a board message (as the fake stores it) still has move buttons."""
    return any(c.get("custom_id", "").endswith((":add1", ":add2"))
               for row in message.get("components") or [] for c in row["components"])


async def test_deleted_board_of_ended_game_is_not_posted_again_at_start(
        discord_driver, fake_discord, tmp_path):
    """A moderator deletes the board of a game just abandoned, and the bot restarts within
    the redraw's window: no new message with that board shows up."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    await abandon(discord_driver, "toy", "mod")
    rows = await bot.store.query("SELECT id, status FROM games")
    assert rows and rows[0][1] == "abandoned"
    fake_discord.delete_message(fake_discord.channel_id, board["id"])
    before = {m["id"] for m in fake_discord.channel_messages()}
    clock.advance(30)
    await discord_driver.close_client(bot)  # clean stop
    clock.advance(60)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    assert bot.restart._redraw is not None
    await bot.restart._redraw
    after = [m for m in fake_discord.channel_messages() if m["id"] not in before]
    assert after == [], f"a deleted board of an ended game was posted again: {after}"


async def test_redraw_does_not_bring_back_a_board_moved_meanwhile(
        discord_driver, fake_discord, tmp_path):
    """The redraw read the game, and while its board is drawn a player moves the board with
    ``/toy board``: the old message stays a "moved" pointer, not a second live board."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    old = (await discord_driver.slash("toy", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await discord_driver.settle()

    messages = bot.boards.messages
    render = messages.render
    reached, release = asyncio.Event(), asyncio.Event()

    async def slow_render(g, **kw):  # a board picture takes a moment to draw
        if kw.get("edit") and g.row.board_message_id == int(old["id"]):
            reached.set()
            await release.wait()
        return await render(g, **kw)

    messages.render = slow_render
    redraw = asyncio.create_task(messages.redraw([game.id]))  # what the start's redraw does
    await asyncio.wait_for(reached.wait(), 5)
    moved = await discord_driver.slash("toy", "board", user="bob")
    assert "moved" in fake_discord.get_message(old["id"])["content"]
    release.set()
    assert await redraw
    await discord_driver.settle()
    old_now = fake_discord.get_message(old["id"])
    assert board_ids(old_now) == [] and "moved" in old_now["content"], old_now
    assert board_ids(fake_discord.get_message(moved.message["id"]))


async def test_redraw_owed_after_a_crash_survives_a_quick_second_restart(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Two games end just before a crash, their boards unedited. The next start's redraw is
    slow and a clean stop cuts it short 10 s later: the start after that still redraws
    both boards, and once done the redraw is no longer owed."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    other = fake_discord.add_channel("more-games")
    a = (await discord_driver.slash("toy", "start", user="alice")).message
    b = (await discord_driver.slash("toy", "start", user="bob", channel=other)).message
    game_a = await bot.tables.open_in_channel(fake_discord.channel_id)
    game_b = await bot.tables.open_in_channel(other)
    # From here on the process "dies": its edits are lost and nothing notes the stop.
    bot.boards.messages.update_soon = lambda *x, **k: None  # type: ignore[method-assign]
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    bot.alive_marker.cancel()
    await bot.tables.call_off(game_a.id, "ended")
    await bot.tables.call_off(game_b.id, "ended")
    await discord_driver.close_client(bot)
    assert _offers_moves(fake_discord.get_message(a["id"]))
    assert _offers_moves(fake_discord.get_message(b["id"]))
    clock.advance(3600)

    # The next start's redraw goes one board at a time, each edit slow ...
    monkeypatch.setattr(updates_module, "REDRAW_AT_ONCE", 1)
    real_edit = BoardMessages._edit
    gate = asyncio.Event()

    async def slow_edit(self, game, **kw):
        await gate.wait()
        return await real_edit(self, game, **kw)

    monkeypatch.setattr(BoardMessages, "_edit", slow_edit)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await asyncio.sleep(0.2)
    clock.advance(10)
    # ... and an admin restarts the bot again 10 s later (a clean stop)
    closing = asyncio.create_task(discord_driver.close_client(bot))
    await asyncio.sleep(0.05)
    gate.set()
    await closing
    monkeypatch.setattr(BoardMessages, "_edit", real_edit)
    monkeypatch.setattr(updates_module, "REDRAW_AT_ONCE", 10)
    clock.advance(60)

    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    assert bot.restart._redraw is not None
    await bot.restart._redraw
    stale = [m["id"] for m in (a, b) if _offers_moves(fake_discord.get_message(m["id"]))]
    assert not stale, f"boards of ended games still offer moves after three starts: {stale}"
    assert await bot.store.get_meta(bot.alive.redraw_key) == ""  # done: no longer owed


async def test_owed_redraw_takes_the_older_window_and_ignores_a_damaged_one(
        discord_driver, tmp_path, caplog):
    """The window owed is the older of the stored one and this start's; a damaged stored
    value counts as none, with a warning."""
    bot = await discord_driver.login(make_bot(tmp_path))
    await bot.store.set_meta(bot.alive.redraw_key, repr(100.0))
    assert await bot.alive.owed_redraw(200.0) == 100.0
    assert await bot.alive.owed_redraw(50.0) == 50.0
    assert await bot.store.get_meta(bot.alive.redraw_key) == repr(50.0)
    assert await bot.alive.owed_redraw(None) == 50.0
    await bot.store.set_meta(bot.alive.redraw_key, "")
    assert await bot.alive.owed_redraw(None) is None
    for damaged in ("not a time", "nan", "inf"):
        await bot.store.set_meta(bot.alive.redraw_key, damaged)
        with caplog.at_level(logging.WARNING, logger="bot.client"):
            caplog.clear()
            assert await bot.alive.owed_redraw(300.0) == 300.0
        assert any("unreadable" in r.getMessage() for r in caplog.records), damaged
        assert await bot.store.get_meta(bot.alive.redraw_key) == repr(300.0)


async def test_redraw_leaves_a_board_past_its_edit_cap_but_a_move_still_reposts(
        discord_driver, fake_discord, tmp_path):
    """A board Discord no longer lets the bot edit (30046) is left as it is by the start's
    redraw; the bot's own edit after a change still posts a fresh board, as before."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await discord_driver.settle()
    messages = bot.boards.messages
    patch = rf"/channels/\d+/messages/{board['id']}"
    before = {m["id"] for m in fake_discord.channel_messages()}
    fake_discord.fail_next("PATCH", patch, 400, code=30046)
    assert await messages.redraw([game.id])
    await discord_driver.settle()
    assert {m["id"] for m in fake_discord.channel_messages()} == before
    assert (await bot.tables.load(game.id)).row.board_message_id == int(board["id"])

    fake_discord.fail_next("PATCH", patch, 400, code=30046)
    messages.update_soon(game.id)
    await asyncio.wait([t for t in [messages.updates._updaters.get(game.id)] if t is not None])
    await discord_driver.settle()
    posted = [m for m in fake_discord.channel_messages() if m["id"] not in before]
    assert len(posted) == 1 and board_ids(posted[0])


async def _ended_before_a_crash(driver, fake, tmp_path, clock):
    """A game ends just before a crash, its board unedited (it still offers moves);
    return its board message."""
    bot = await driver.login(make_bot(tmp_path, clock=clock))
    board = (await driver.slash("toy", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake.channel_id)
    bot.boards.messages.update_soon = lambda *x, **k: None  # type: ignore[method-assign]
    bot.alive.note_alive = _nothing  # type: ignore[method-assign]
    bot.alive_marker.cancel()
    await bot.tables.call_off(game.id, "ended")
    await driver.close_client(bot)
    assert _offers_moves(fake.get_message(board["id"]))
    clock.advance(3600)
    return board


@pytest.mark.parametrize("failing", [1, 99], ids=["once", "every-time"])
async def test_a_redraw_whose_game_cannot_be_read_tries_again_and_stays_owed(
        discord_driver, fake_discord, tmp_path, monkeypatch, failing):
    """The start's redraw reads an ended game while the database is out of reach: the
    read is made again a moment later and the board shown ended; read failing every
    time, the redraw stays owed, so the next start shows it (it used to be let go, the
    board offering moves of an ended game until someone clicked)."""
    from db.errors import StorageError
    from db.store import Store

    clock = Clock()
    board = await _ended_before_a_crash(discord_driver, fake_discord, tmp_path, clock)
    real = Store.get_game
    failures = []

    async def locked(self, game_id):
        if len(failures) < failing:
            failures.append(game_id)
            raise StorageError("database is locked")
        return await real(self, game_id)

    monkeypatch.setattr(updates_module, "EDIT_TRIES", 2)
    monkeypatch.setattr(Store, "get_game", locked)
    bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
    await discord_driver.settle()
    await bot.restart._redraw
    monkeypatch.undo()
    owed = failing > 1
    assert len(failures) == (2 if owed else 1)
    assert _offers_moves(fake_discord.get_message(board["id"])) is owed
    assert bool(await bot.store.get_meta(bot.alive.redraw_key)) is owed
    if owed:  # the next start shows it
        await discord_driver.close_client(bot)
        bot = await discord_driver.restart(make_bot(tmp_path, clock=clock))
        await discord_driver.settle()
        await bot.restart._redraw
        assert not _offers_moves(fake_discord.get_message(board["id"]))
        assert await bot.store.get_meta(bot.alive.redraw_key) == ""
