"""A board ended before its game was over (abandoned, or ended by the idle sweep) asks
for no move any more: its title says how it ended, its text what ended it, and its
picture's words say it too ("idle too long", not "nobody played")."""

from __future__ import annotations

import copy

import pytest

from bot.boards.render import BoardRenderer
from tests.cogs.board_messages import board_renderer, message, played
from tests.support import Clock, board_ids, button, host_board, make_bot, press


def _ended(game, status: str):
    """``game`` as if it had just ended with ``status``."""
    game = copy.copy(game)
    game.row = copy.copy(game.row)
    game.row.status = status
    return game


@pytest.mark.parametrize("kind", ["tinker", "tinrealm", "steam"])
def test_an_ended_board_asks_for_no_move(kind: str) -> None:
    started = [g for g in played(kind, 1, seed=1, seats=2 if kind == "steam" else 1)
               if g.row.status == "active" and g.state is not None]
    game = started[len(started) // 2]
    for status, said in (("abandoned", "abandoned"), ("expired", "ended, idle too long")):
        for images in (True, False):
            embed = message(board_renderer(images), _ended(game, status)).json["embeds"][0]
            text = f"{embed.get('title')} | {embed.get('description')}"
            assert embed["title"].endswith(f" · {said}"), text
            for asking in ("Pay a chip", "Resolve", "to play", "Fight!", "Choose"):
                assert asking not in text, text
            assert not embed.get("fields")
    alt = BoardRenderer.alt_text(_ended(game, "expired"))
    assert "idle too long" in alt and "nobody played" not in alt, alt


async def test_a_board_left_behind_of_a_game_retention_emptied_stays_as_it_was(
        discord_driver, fake_discord, tmp_path):
    """A played Steam table ends while the bot cannot edit its channel, so its board keeps
    its buttons; after retention emptied the game, a click on that board opens what it
    asks for and leaves the board as it was: nothing is left to draw it from (it was
    redrawn "This table closed before its game began", its buttons gone)."""
    clock = Clock()
    fake_discord.add_user("carol")
    cogs = ("cogs.steam",)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=cogs, clock=clock))
    lobby = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    lobby = (await discord_driver.click(lobby, button(lobby, "lobby.join"), user="bob")).message
    await host_board(discord_driver, lobby, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    for _ in range(3):
        game = await bot.tables.load(game.id)
        seat = game.to_act()
        await press(discord_driver, fake_discord.get_message(game.row.board_message_id),
                    game.engine.computer_action(game.state, seat), ["alice", "bob"][seat])
        await discord_driver.settle()
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    for user in ("bob", "alice"):
        asked = await discord_driver.slash("steam", "abandon", user=user)
        if asked.custom_ids:
            await discord_driver.click(asked.message, asked.custom_ids[0], user=user)
    await discord_driver.settle()
    fake_discord.faults.clear()
    game = await bot.tables.load(game.id)
    assert game.row.status == "abandoned"
    left = fake_discord.get_message(game.row.board_message_id)
    assert board_ids(left)  # its end was never drawn
    clock.advance(31 * 86400)
    assert await bot.store.prune_finished(before=clock.now) == 1
    await discord_driver.restart(make_bot(tmp_path, cogs=cogs, clock=clock))
    await discord_driver.settle()
    tapped = await discord_driver.click(left, button(left, "table.rules"), user="carol")
    assert tapped.ephemeral and tapped.embeds
    assert fake_discord.get_message(left["id"]) == left


async def test_an_idle_table_waiting_for_someone_who_never_came_counts_for_nobody(
        discord_driver, fake_discord, tmp_path):
    """Play again seats Bob for Alice; he never comes, and the table against a computer
    is left idle on his turn. Nobody gets a result (he never took part), and the ended
    board says so rather than that it counts as his loss."""
    from tests.support import abandon
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    first = await bot.tables.open_in_channel(fake.channel_id)
    await abandon(driver, "steam", "alice")  # no move yet: ends with no result
    await abandon(driver, "steam", "bob")
    await driver.settle()
    first = await bot.tables.load(first.id)
    ended = fake.get_message(first.row.board_message_id)
    await driver.click(ended, button(ended, "table.again"), user="alice")
    await driver.settle()
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    assert [s.name for s in lobby.seats][:2] == ["Alice", "Bob"]
    await host_board(driver, fake.get_message(lobby.row.board_message_id), "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    while game.to_act() == 0:
        await press(driver, fake.get_message(game.row.board_message_id),
                    game.engine.computer_action(game.state, 0), "alice")
        await driver.settle()
        game = await bot.tables.load(game.id)
    assert game.person_to_act() == fake.user("bob").id
    clock.advance(3 * 86400)
    assert await bot.sweep_once() == 1
    await driver.settle()
    game = await bot.tables.load(game.id)
    shown = fake.get_message(game.row.board_message_id)["embeds"][0]["description"]
    assert "who never came to this table, so it counts for nobody" in shown, shown
    assert "counts as their loss" not in shown
    assert await bot.store.query("SELECT outcome FROM results WHERE game_id = :g",
                                 {"g": game.id}) == []
