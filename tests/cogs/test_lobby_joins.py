"""Joining a lobby: two people pressing Join at the same moment are both seated."""

from __future__ import annotations

import asyncio

from tests.support import button, make_bot

COGS = ("cogs.steam",)


async def test_two_people_joining_at_once_are_both_seated(discord_driver, fake_discord,
                                                          tmp_path):
    """Taking a seat does not depend on the lobby as shown: the second of two joins made
    on the same lobby board is not refused as out of date."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    fake_discord.add_user("carol")
    join = button(board, "lobby.join")
    bob = fake_discord.component_payload(board, join, user="bob")
    carol = fake_discord.component_payload(board, join, user="carol")
    results = await asyncio.gather(discord_driver.feed(bob), discord_driver.feed(carol))
    assert not any(result.ephemeral for result in results), [r.content for r in results]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [seat["name"] for seat in game.row.seats] == ["Alice", "Bob", "Carol"]
