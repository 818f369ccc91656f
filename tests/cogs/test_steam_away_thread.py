"""/steam away used in the channel whose table plays in a thread of its own names the
thread, as every other game command used there does (C6)."""

from __future__ import annotations

from tests.support import button, host_board, make_bot


async def test_c6_away_in_the_parent_channel_points_to_the_thread(discord_driver, fake_discord,
                                                                 tmp_path):
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    await discord_driver.slash("steam", "new", {"first": "me (the host)", "thread": "yes"},
                               user="alice")
    await discord_driver.settle()
    (thread,) = fake_discord.threads_under()
    tid = int(thread["id"])
    game = await bot.tables.open_in_channel(tid)
    board = fake_discord.get_message(game.row.board_message_id)
    for name in ("bob", "carol"):
        board = (await discord_driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    away = await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                      user="alice")
    assert away.ephemeral and f"<#{tid}>" in away.content, away.content
    assert not (await bot.tables.load(game.id)).seats[1].away
