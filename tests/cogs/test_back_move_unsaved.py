"""An away player's click on the current board when their move cannot be stored: their
return is stored and shown, the move is not, and they are told to make it again."""

from __future__ import annotations

import pytest

from db.errors import StorageError
from tests.support import Actor, button, host_board, make_bot, press

pytestmark = pytest.mark.usefixtures("away_at_once")


@pytest.mark.parametrize("reads", ["work", "fail"])
async def test_a_return_whose_move_cannot_be_stored(discord_driver, fake_discord, tmp_path,
                                                    monkeypatch, reads):
    """The move's save fails after the return's save; the answer shows the return as
    stored without reading the game again (``reads``: whether reads work meanwhile)."""
    fake, driver = fake_discord, discord_driver
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    tables = bot.tables
    game = await tables.open_in_channel(fake.channel_id)
    alice, bob = (Actor(u.id, u.name) for u in (fake.user("alice"), fake.user("bob")))
    await tables.hand_to_computer(fake.channel_id, bob, alice.user_id)
    game = await tables.load(game.id)
    await tables.act(game.id, game.row.version, bob, "resign")
    game = await tables.load(game.id)
    assert game.seats[0].away and game.person_to_act() == alice.user_id
    await bot.boards.messages.refresh(game)
    await driver.settle()
    board = fake.get_message(game.row.board_message_id)
    move = game.engine.computer_action(game.state, 0)
    logged = list(game.row.events)

    real = bot.store.save_game
    saves = 0

    async def second_fails(*args, **kwargs):
        nonlocal saves
        saves += 1
        if saves == 2:  # the move's save, after the return's
            raise StorageError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.store, "save_game", second_fails)
    real_read = bot.store.get_game

    async def read(*args, **kwargs):
        if saves >= 2 and reads == "fail":
            raise StorageError("connection lost")
        return await real_read(*args, **kwargs)

    monkeypatch.setattr(bot.store, "get_game", read)
    answer = await press(driver, board, move, "alice")
    await driver.settle()
    monkeypatch.undo()

    stored = await tables.load(game.id)
    assert stored.row.version == game.row.version + 1  # the return, not the move
    assert not stored.seats[0].away
    assert stored.row.events[:len(logged)] == logged
    assert stored.row.events[-1] == "Alice is back and plays their own seat again."
    shown = fake.get_message(game.row.board_message_id)
    ids = [c["custom_id"] for row in shown["components"] for c in row["components"]
           if "custom_id" in c]
    assert ids and all(f":{stored.row.version}:" in i for i in ids)
    said = [answer.content or "", *(m.get("content") or "" for m in answer.followups)]
    assert any(s.startswith("Welcome back") and "could not be saved" in s
               and "make it again" in s for s in said), said


@pytest.mark.parametrize("via", ["table.rules", "ask.resign"])
async def test_c6_a_return_that_cannot_be_stored_is_told(discord_driver, fake_discord,
                                                        tmp_path, monkeypatch, via):
    """C6: away Bob opens "Rules & details" (or asks to resign) while the database refuses
    his return's save: he is told privately that he is still away and to press again, not
    shown the page as if he were back; the next press brings him back."""
    from tests.cogs.test_slow_database_answers import _steam

    bot, game = await _steam(discord_driver, fake_discord, tmp_path)
    board = fake_discord.get_message(game.row.board_message_id)
    real = bot.store.save_game
    calls = []

    async def locked(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise StorageError("database is locked")
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.store, "save_game", locked)
    answer = await discord_driver.click(board, button(board, via), user="bob")
    assert calls and answer.ephemeral
    assert (await bot.tables.load(game.id)).seats[1].away
    assert answer.content.startswith("You are still away: the bot could not save your return")
    assert "Press Rules & details again" in answer.content
    again = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert not (await bot.tables.load(game.id)).seats[1].away
    assert "back" in again.content.lower() or "welcome" in again.content.lower(), again.content
