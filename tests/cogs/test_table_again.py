"""A seated table again: Play again pressed by someone who did not play, and the Apps
menu's invitation when the host's lobby is in a thread of its own."""

from __future__ import annotations

from tests.support import abandon, button, host_board, make_bot

COGS = ("cogs.steam",)


async def test_play_again_of_a_full_table_by_someone_who_did_not_play_seats_only_them(
        discord_driver, fake_discord, tmp_path):
    """A member who did not play at a full table presses Play again: their table seats
    only them (no one of the last table is pushed out or seated unasked); one of its
    players pressing it instead seats every person of the last table again."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    for name in ("bob", "carol", "dave", "erin"):
        if name not in fake_discord.users:
            fake_discord.add_user(name)
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    fake_discord.add_user("mod", moderator=True)
    await abandon(discord_driver, "steam", "mod")
    await discord_driver.settle()
    final = fake_discord.get_message(game.row.board_message_id)
    fake_discord.add_user("zed")
    alone = await discord_driver.click(final, button(final, "table.again"), user="zed")
    assert not alone.ephemeral
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s["name"] for s in lobby.row.seats] == ["Zed"]
    await abandon(discord_driver, "steam", "zed")
    again = await discord_driver.click(final, button(final, "table.again"), user="erin")
    assert not again.ephemeral
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert lobby is not None
    assert {s["name"] for s in lobby.row.seats} == {s["name"] for s in game.row.seats}


async def test_the_apps_menu_invites_to_the_hosts_lobby_in_its_thread(
        discord_driver, fake_discord, tmp_path):
    """With game threads on, the host's lobby is in a thread: "Invite to Steam to Solar"
    used in the channel invites the member to it rather than opening a second table."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, GAME_THREADS="on"))
    fake_discord.add_user("carol")
    await discord_driver.slash("steam", "new", user="alice")
    (thread,) = fake_discord.threads_under()
    lobby = await bot.tables.open_in_channel(int(thread["id"]))
    assert lobby is not None and lobby.row.status == "lobby"
    menu = await discord_driver.user_command("Invite to Steam to Solar", "carol", user="alice")
    assert "Alice invites you to Steam to Solar" in menu.content
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    assert len(fake_discord.threads_under()) == 1
