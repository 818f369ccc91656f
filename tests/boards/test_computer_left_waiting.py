"""A computer's turn whose move another process left pending (a deploy's overlap: the old
process saved the move that handed the turn to the computer, then stopped before the
computer moved) is played by the next sweep of the process serving alone, on either
database; a computer already moving here is not started twice."""

from __future__ import annotations

import asyncio

from bot.table.loaded import Actor
from tests.support import make_bot, steam_against_computer


async def test_the_sweep_plays_a_computer_turn_another_process_left(
        discord_driver, fake_discord, tmp_path, backend):
    old, game = await steam_against_computer(discord_driver, tmp_path)
    new = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    new.sweeper.cancel()  # its sweeps are run below, one at a time
    assert await new.boards.resume_computers() == 0  # as at its start: Alice's turn
    game = await old.tables.load(game.id)
    alice = fake_discord.user("alice").id
    while not game.computer_to_act():  # the old process takes Alice's move
        ids = [a.id for a in game.legal_actions(0) if a.id != "give_up"]
        action = next((i for i in ids if i in ("done", "pass")), ids[0])
        game = (await old.tables.act(game.id, game.row.version, Actor(alice, "alice"),
                                     action, channel_id=game.row.channel_id)).game
    await discord_driver.close_client(old)  # stopped before its computer moved
    await asyncio.sleep(0.2)
    assert (await new.tables.load(game.id)).computer_to_act()  # nobody moves it
    await new.sweep_once()
    for _ in range(100):
        if not (await new.tables.load(game.id)).computer_to_act():
            break
        await asyncio.sleep(0.05)
    assert not (await new.tables.load(game.id)).computer_to_act()
    await discord_driver.settle()


async def test_a_computer_moving_here_is_not_started_twice(discord_driver, fake_discord,
                                                           tmp_path):
    bot, game = await steam_against_computer(discord_driver, tmp_path)
    bot.boards.computers.delay = 30.0  # a computer thinking: its task waits
    game = await bot.tables.load(game.id)
    alice = fake_discord.user("alice").id
    while not game.computer_to_act():
        ids = [a.id for a in game.legal_actions(0) if a.id != "give_up"]
        action = next((i for i in ids if i in ("done", "pass")), ids[0])
        game = (await bot.tables.act(game.id, game.row.version, Actor(alice, "alice"),
                                     action, channel_id=game.row.channel_id)).game
    bot.boards.computers.schedule(game)
    task = bot.boards.computers._computers[game.id]
    assert await bot.boards.computers.resume(since=0.0) == 0
    assert bot.boards.computers._computers[game.id] is task
    task.cancel()
