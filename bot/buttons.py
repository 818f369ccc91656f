"""Board components that survive restarts: DynamicItems parsing their custom_id.

A custom_id carries a format tag, the game id, the board version and the action (or,
for a select, the group; the chosen option is the action). They are registered in the
bot's ``setup_hook``, so every board works after a restart.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.layout import BUTTON_TEMPLATE, SELECT_TEMPLATE


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    """A board button: applies its action to the board version it was drawn for."""

    def __init__(
        self, item: discord.ui.Button[Any], game_id: int, version: int, action: str
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        """Rebuild the button from its custom_id."""
        assert isinstance(item, discord.ui.Button)
        return cls(item, int(match["game"]), int(match["version"]), match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the boards service."""
        await interaction.client.boards.handle_click(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, self.action
        )


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """A board select: the chosen option's value is the action to apply."""

    def __init__(
        self, item: discord.ui.Select[Any], game_id: int, version: int, group: str
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.version = version
        self.group = group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        """Rebuild the select from its custom_id."""
        assert isinstance(item, discord.ui.Select)
        return cls(item, int(match["game"]), int(match["version"]), match["group"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen action to the boards service."""
        values = (interaction.data or {}).get("values") or []
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        await interaction.client.boards.handle_click(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, str(values[0])
        )
