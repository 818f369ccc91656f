"""A server's open-game limit (``MAX_OPEN_GAMES``, /tablehouse settings open_games) counts
the open games a member started that are still theirs to end: a lobby they host, a table
they play at, a game of one seat. A lobby whose host role passed on, or a table they
resigned from, holds them back no more: they could neither finish nor abandon it."""

from __future__ import annotations

from tests.support import abandon, button, make_bot

COGS = ("cogs.tinker", "cogs.steam")


async def _start_elsewhere(driver, fake, user: str = "alice"):
    """``user`` starts Tinker in another channel; return the answer."""
    other = fake.add_channel(f"more-{len(fake.channels)}")
    return await driver.slash("tinker", "start", user=user, channel=other)


async def test_a_lobby_its_opener_left_no_longer_counts_as_theirs(discord_driver, fake_discord,
                                                                  tmp_path):
    """Alice opens a Steam lobby: it counts (limit 1, she is refused another game). Bob
    joins and she leaves it, Bob hosting it now: she may not close it, and it no longer
    counts, so she may start a game elsewhere."""
    fake_discord.add_user("bob")
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, MAX_OPEN_GAMES=1))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    refused = await _start_elsewhere(discord_driver, fake_discord)
    assert refused.ephemeral and "already have 1 game going" in refused.content
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await discord_driver.click(board, button(board, "lobby.leave"), user="alice")
    await discord_driver.settle()
    closing = await abandon(discord_driver, "steam", "alice")
    assert closing.ephemeral and "Only the host" in closing.content
    started = await _start_elsewhere(discord_driver, fake_discord)
    assert not started.ephemeral and started.message is not None, started.content
    again = await _start_elsewhere(discord_driver, fake_discord)  # that one counts
    assert again.ephemeral and "already have 1 game going" in again.content


async def test_a_table_its_opener_resigned_from_no_longer_counts_as_theirs(
        discord_driver, fake_discord, tmp_path):
    """Alice's Steam table runs with Bob and Carol: it counts while she plays at it; once
    she resigns (the others play on) it does not."""
    for name in ("bob", "carol"):
        fake_discord.add_user(name)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, MAX_OPEN_GAMES=1))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    for name in ("bob", "carol"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    panel = await discord_driver.click(board, button(board, "lobby.panel"), user="alice")
    await discord_driver.click(panel.message, button(panel.message, "lobby.start"),
                               user="alice")
    await discord_driver.settle()
    refused = await _start_elsewhere(discord_driver, fake_discord)
    assert refused.ephemeral and "already have 1 game going" in refused.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    shown = fake_discord.get_message(game.row.board_message_id)
    ask = await discord_driver.click(shown, button(shown, "ask.resign"), user="alice")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="alice")
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.is_open  # Bob and Carol play on
    started = await _start_elsewhere(discord_driver, fake_discord)
    assert not started.ephemeral and started.message is not None, started.content
