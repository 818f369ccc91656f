"""``/<game> board`` racing the bot's other work leaves one live board, the newest.

The command posts a new board at the bottom of the channel and turns the one before into
"This board moved". Racing it: a computer player's move (drawn while the command runs),
a vote's tally edit (waiting its interval), or a second ``/<game> board``. Afterwards
the channel shows exactly one board with buttons, the one the database and the
process's kept row name; every older board says it moved and has no buttons.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.games import registry
from tests.support import board_ids, button, host_board, make_bot


async def _one_live_board(bot: Any, fake_discord: Any) -> dict[str, Any]:
    """Check what the channel shows: one board with buttons, the game's board as stored
    and as kept; every other message that was a board says it moved. Return the live one."""
    game = await bot.tables.open_in_channel(fake_discord.channel_id)  # read from the database
    messages = fake_discord.channel_messages()
    live = [m for m in messages if board_ids(m)]
    assert [m["id"] for m in live] == [str(game.row.board_message_id)], [
        (m["id"], m["content"]) for m in live]
    kept = bot.store.kept_game(game.id)
    assert kept is None or kept.board_message_id == game.row.board_message_id
    for message in messages:
        if message is not live[0] and (message["embeds"] or message["components"]
                                       or "moved" in message["content"]):
            assert message["content"].startswith("This board moved"), message["content"]
            assert not message["embeds"] and not message["components"]
    return live[0]


async def test_a_repost_while_a_computer_thinks_leaves_the_new_board_alone(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    """Alice's move makes the computer think (0.4 s); ``/toy board`` comes meanwhile.
    The computer's move is drawn on the new board, not on the one that moved."""
    bot = await discord_driver.login(make_bot(tmp_path))
    engine_class = type(registry.engine("toy"))
    real = engine_class.computer_action

    def slow(self: Any, state: Any, seat: Any) -> Any:
        time.sleep(0.4)  # a hard computer thinking (in a thread)
        return real(self, state, seat)

    monkeypatch.setattr(engine_class, "computer_action", slow)
    board = (await discord_driver.slash("toy", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    board = await host_board(discord_driver, board, "lobby.start")
    board = fake_discord.get_message(board["id"])

    async def repost_while_thinking() -> Any:
        await asyncio.sleep(0.15)
        return await discord_driver.slash("toy", "board", user="alice")

    _, moved = await asyncio.gather(
        discord_driver.click(board, button(board, "add1"), user="alice"),
        repost_while_thinking())
    await discord_driver.settle()
    await asyncio.sleep(0.3)
    await discord_driver.settle()
    live = await _one_live_board(bot, fake_discord)
    assert live["id"] == moved.message["id"]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert {i.split(":")[2] for i in board_ids(live)} == {str(game.row.version)}
    assert board_ids(fake_discord.get_message(board["id"])) == []


async def test_a_tally_edit_waiting_its_interval_does_not_revive_the_moved_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any) -> None:
    """A vote's tally edit waits its interval (0.5 s) while ``/toy board`` moves the
    board: the tally goes on the new board, and the old one still says it moved."""
    bot = await discord_driver.login(make_bot(tmp_path, BOARD_EDIT_SECONDS=0.5))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    await discord_driver.click(board, button(board, "add1"), user="bob")  # a vote, edited now
    board = fake_discord.get_message(board["id"])

    async def repost_soon() -> Any:
        await asyncio.sleep(0.1)  # while the next tally edit waits its interval
        return await discord_driver.slash("toy", "board", user="bob")

    _, moved = await asyncio.gather(
        discord_driver.click(board, button(board, "add2"), user="alice"), repost_soon())
    await discord_driver.settle()
    live = await _one_live_board(bot, fake_discord)
    assert live["id"] == moved.message["id"]
    assert board_ids(fake_discord.get_message(board["id"])) == []


async def test_two_reposts_at_once_leave_one_live_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, backend: str) -> None:
    """Alice and Bob ask for ``/toy board`` at the same time: of the three boards, the
    two older say they moved (each retired by one command). Both backends."""
    bot = await discord_driver.login(make_bot(tmp_path))
    first = (await discord_driver.slash("toy", "start", user="alice")).message
    asks = [fake_discord.slash_payload("toy", path=["board"], options=[], user=user,
                                       channel_id=None, guild_scoped=False, resolved={})
            for user in ("alice", "bob")]
    await asyncio.gather(*(discord_driver.feed(a) for a in asks))
    await discord_driver.settle()
    live = await _one_live_board(bot, fake_discord)
    boards = [m for m in fake_discord.channel_messages()
              if board_ids(m) or m["content"].startswith("This board moved")]
    assert len(boards) == 3 and live["id"] != first["id"]
    assert board_ids(fake_discord.get_message(first["id"])) == []
