"""R2: the four map cards are each used on their 3-space or 4-space side; besides the easy
and hard presets, /tinrealm start takes a custom map, a side per card ("3,4,4,3"). A map
that cannot be laid is refused privately, saying why, and nothing starts."""

from __future__ import annotations

import pytest

from tests.support import make_bot

COGS = ("cogs.tinrealm",)


async def test_r2_a_custom_map_lays_each_card_on_its_chosen_side(discord_driver, fake_discord,
                                                                 tmp_path):
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    started = await discord_driver.slash("tinrealm", "start", {"sides": "3, 4, 4, 3"},
                                         user="alice")
    assert not started.ephemeral
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.sides == [3, 4, 4, 3]
    assert game.state.preset == "custom"
    nodes = game.view()["nodes_total"]
    easy = sum(3 for _ in range(4))
    assert nodes > easy  # two 4-space sides: a longer road than the easy map's


@pytest.mark.parametrize("sides", ["3,4", "3,5,3,3", "four"])
async def test_r2_a_map_that_cannot_be_laid_is_refused_privately(discord_driver, fake_discord,
                                                                 tmp_path, sides):
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    refused = await discord_driver.slash("tinrealm", "start", {"sides": sides}, user="alice")
    assert refused.ephemeral
    assert refused.content.startswith("That map cannot be laid:")
    assert "3 or 4" in refused.content
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
