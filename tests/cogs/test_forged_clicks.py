"""Clicks a modified client can forge: a custom_id that is on no message the bot sent,
or a value that is not among a select's options. Each is refused privately, changes
nothing, and logs no traceback (tests fail on any error logged)."""

from __future__ import annotations

from bot.boards.custom_ids import button_id
from bot.boards.routing import NOT_VALID
from tests.support import make_bot


def _forged(fake, custom_id: str) -> dict:
    """A message carrying one button with ``custom_id`` (the forged click's message)."""
    return fake.post_message({"content": "x", "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]})


async def test_an_invitation_with_no_member_id_is_not_valid(discord_driver, fake_discord,
                                                            tmp_path):
    """A Host controls invitation whose member id is not a number is not valid."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    await discord_driver.slash("steam", "new", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for raw in ("abc", "", "-5"):
        forged_id = button_id(game.id, game.row.version, f"lobby.invite.{raw}")
        result = await discord_driver.click(_forged(fake_discord, forged_id), forged_id,
                                            user="alice")
        assert result.ephemeral and result.content == NOT_VALID, result.content
