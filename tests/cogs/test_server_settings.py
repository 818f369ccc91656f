"""/tablehouse settings through the offline fake: who may use it, what it changes, where
it shows, and that it lasts."""

from __future__ import annotations

import discord

from cogs.base import PHONE_LINES, embed_lines
from tests.fake_discord import payloads
from tests.support import board_ids, button, host_board, make_bot, pings_sent

COGS = ("cogs.help", "cogs.records", "cogs.server", "cogs.tinker", "cogs.steam")


def _admin(fake):
    return fake.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                         | payloads.MANAGE_GUILD)


async def test_member_without_manage_server_is_refused(discord_driver, fake_discord, tmp_path):
    """Without Manage Server: a private refusal, nothing stored (even for a moderator)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    for who in ("bob", "mod"):
        refused = await discord_driver.slash("tablehouse", "settings",
                                             {"threads": "on", "vote_seconds": 60}, user=who)
        assert refused.ephemeral and "Manage Server" in refused.content
    assert await bot.store.server_settings(fake_discord.guild_id) == {}


async def test_the_command_is_for_manage_server_by_default(discord_driver, fake_discord,
                                                          tmp_path):
    """Discord shows /tablehouse only to members with Manage Server (until a server says
    otherwise), and only in servers."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    (command,) = [c for c in fake_discord.commands if c["name"] == "tablehouse"]
    assert int(command["default_member_permissions"]) == payloads.MANAGE_GUILD
    assert command.get("contexts") in (None, [0]) and command.get("dm_permission") is not True


async def test_no_options_shows_the_settings_privately(discord_driver, fake_discord, tmp_path):
    """With no options the current settings are shown to the manager alone, each marked
    as the bot's default until the server chooses it."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    _admin(fake_discord)
    shown = await discord_driver.slash("tablehouse", "settings", user="admin")
    assert shown.ephemeral
    (embed,) = shown.embeds
    lines = embed["description"].split("\n")
    assert len(lines) == 5 and all(line.endswith("(bot default)") for line in lines)
    assert lines[0].startswith("Votes stay open 30 s") and "off" in lines[1]
    assert "45 s" in lines[2] and "on" in lines[3] and "no limit" in lines[4]


async def test_changes_decide_new_games_and_last(discord_driver, fake_discord, tmp_path):
    """A changed vote window, picture setting and open-game limit apply to the next games
    (a start command's own vote window still wins), are kept after a restart, and /help
    shows them to everyone."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    _admin(fake_discord)
    saved = await discord_driver.slash(
        "tablehouse", "settings",
        {"vote_seconds": 45, "pictures": "off", "open_games": 1, "notice_wait": 0},
        user="admin")
    assert saved.ephemeral and saved.embeds[0]["title"] == "Server settings saved"
    lines = saved.embeds[0]["description"].split("\n")
    assert lines[0] == "Votes stay open 45 s" and lines[2] == "Turn notices: mention at once"
    assert lines[1].endswith("(bot default)")
    start = await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.window == 45.0
    assert board_ids(start.message) and not start.message.get("attachments")
    assert "image" not in start.message["embeds"][0]
    other = fake_discord.add_channel("more-games")
    capped = await discord_driver.slash("tinker", "start", user="alice", channel=other)
    assert capped.ephemeral and "already have 1 game going" in capped.content
    own = await discord_driver.slash("tinker", "start", {"vote_seconds": 20}, user="bob",
                                     channel=other)
    assert board_ids(own.message)
    assert (await bot.tables.open_in_channel(other)).data.window == 20.0
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    # a bot that has just started knows every server's settings before the first move
    assert bot.tables.servers.cached(fake_discord.guild_id).vote_window_seconds == 45.0
    helped = await discord_driver.slash("help", user="bob")
    (field,) = [f for f in helped.embeds[0]["fields"] if f["name"] == "This server"]
    assert field["value"].startswith("Votes 45 s · threads off")
    assert "turn notices at once" in field["value"] and "pictures off" in field["value"]
    assert bot.tables.servers.cached(fake_discord.guild_id).notice_grace_seconds == 0.0


async def test_the_footer_says_which_settings_reach_running_games(discord_driver,
                                                                   fake_discord, tmp_path):
    """Pictures off reaches a game already running at its next board, as the settings'
    footer says (the vote window and threads wait for games started from now)."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    _admin(fake_discord)
    start = await discord_driver.slash("tinker", "start", {"players": "fast"}, user="alice")
    assert "image" in start.message["embeds"][0]
    saved = await discord_driver.slash("tablehouse", "settings", {"pictures": "off"},
                                       user="admin")
    footer = saved.embeds[0]["footer"]["text"]
    assert footer.startswith("Vote time and threads apply to games started from now; "
                             "pictures, turn notices and the game limit at once.")
    moved = await discord_driver.click(start.message, board_ids(start.message)[0], user="alice")
    assert "image" not in moved.message["embeds"][0]


async def test_reset_goes_back_to_the_bots_defaults(discord_driver, fake_discord, tmp_path):
    """reset: yes forgets every choice; the .env's values are the defaults."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, VOTE_WINDOW_SECONDS=90,
                                              GAME_THREADS="on"))
    _admin(fake_discord)
    first = await discord_driver.slash("tablehouse", "settings", user="admin")
    assert first.embeds[0]["description"].startswith("Votes stay open 90 s (bot default)")
    await discord_driver.slash("tablehouse", "settings", {"threads": "off"}, user="admin")
    assert not bot.tables.servers.cached(fake_discord.guild_id).threads
    reset = await discord_driver.slash("tablehouse", "settings", {"reset": "yes"}, user="admin")
    assert "thread: on (bot default)" in reset.embeds[0]["description"]
    assert await bot.store.server_settings(fake_discord.guild_id) == {}
    assert bot.tables.servers.cached(fake_discord.guild_id).threads


async def test_help_shows_the_settings_within_a_phone_screen(discord_driver, fake_discord,
                                                            tmp_path):
    """/help carries the server's settings in one field and still fits a phone screen."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    (field,) = [f for f in helped.embeds[0]["fields"] if f["name"] == "This server"]
    assert "/tablehouse settings" in field["value"]
    embed = discord.Embed.from_dict(helped.embeds[0])
    assert embed_lines(embed) <= PHONE_LINES


async def test_a_servers_notice_wait_holds_from_the_first_move_after_a_restart(
        discord_driver, fake_discord, tmp_path):
    """An admin's "mention at once" (notice_wait 0) is known to a bot that has just
    started: the table started right after a restart pings at once, not after the bot's
    default wait."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam", "cogs.server")))
    fake_discord.add_user("admin",
                          permissions=payloads.EVERYONE_PERMISSIONS | payloads.MANAGE_GUILD)
    saved = await discord_driver.slash("tablehouse", "settings", {"notice_wait": 0},
                                       user="admin")
    assert saved.ephemeral
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user="bob")).message
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.steam", "cogs.server")))
    before = len(pings_sent(fake_discord))
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.notice_due is None
    assert len(pings_sent(fake_discord)[before:]) == 1


async def test_every_command_is_for_servers_that_installed_the_bot(discord_driver, fake_discord,
                                                                   tmp_path):
    """No command is offered through a member's own install: there, in a server without
    the bot, nobody could grant it what a game needs."""
    await discord_driver.login(make_bot(tmp_path))
    assert fake_discord.commands
    assert all(c.get("integration_types") == [0] for c in fake_discord.commands), [
        (c["name"], c.get("integration_types")) for c in fake_discord.commands]
