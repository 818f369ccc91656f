"""Board components that survive restarts: DynamicItems parsing their custom_id.

A custom_id carries a format tag, the game id, the board version and the action (or,
for a select, the group; the chosen option is the action). They are registered in the
bot's ``setup_hook``, so every board works after a restart.

Every custom_id with a board's tag is routed here, and parsed strictly
(``bot.layout.parse_button_id``): one the bot could not have drawn (forged, damaged,
out-of-range numbers, other scripts' digits) is answered privately with
:data:`NOT_VALID` and never reaches the game table.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.layout import BUTTON_ROUTE, SELECT_ROUTE, is_action_id, parse_button_id, parse_select_id

log = logging.getLogger(__name__)

#: The private answer to a component whose custom_id (or chosen value) the bot never drew.
NOT_VALID = "That button is not valid."


async def refuse_invalid(interaction: discord.Interaction[Any]) -> None:
    """Answer a forged or damaged component privately; never raise."""
    try:
        await interaction.response.send_message(NOT_VALID, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not refuse an invalid component: %s", exc)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_ROUTE):
    """A board button: applies its action to the board version it was drawn for.

    ``game_id`` is None when the custom_id does not parse: the click is refused.
    """

    def __init__(
        self, item: discord.ui.Button[Any], game_id: int | None, version: int, action: str
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.version = version
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        """Rebuild the button from its custom_id (a refused one if it does not parse)."""
        assert isinstance(item, discord.ui.Button)
        parsed = parse_button_id(match.string)
        if parsed is None:
            return cls(item, None, 0, "")
        return cls(item, parsed.game_id, parsed.version, parsed.key)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the click to the boards service, or refuse an invalid button."""
        if self.game_id is None:
            await refuse_invalid(interaction)
            return
        await interaction.client.boards.handle_click(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, self.action
        )


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_ROUTE):
    """A board select: the chosen option's value is the action to apply.

    ``game_id`` is None when the custom_id does not parse: the choice is refused.
    """

    def __init__(
        self, item: discord.ui.Select[Any], game_id: int | None, version: int, group: str
    ) -> None:
        super().__init__(item)
        self.game_id = game_id
        self.version = version
        self.group = group

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        """Rebuild the select from its custom_id (a refused one if it does not parse)."""
        assert isinstance(item, discord.ui.Select)
        parsed = parse_select_id(match.string)
        if parsed is None:
            return cls(item, None, 0, "")
        return cls(item, parsed.game_id, parsed.version, parsed.key)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen action to the boards service, or refuse an invalid select."""
        if self.game_id is None:
            await refuse_invalid(interaction)
            return
        values = (interaction.data or {}).get("values") or []
        if not values:
            await interaction.response.send_message("Nothing was chosen.", ephemeral=True)
            return
        value = values[0]
        if not isinstance(value, str) or not is_action_id(value):
            await refuse_invalid(interaction)
            return
        await interaction.client.boards.handle_click(  # type: ignore[attr-defined]
            interaction, self.game_id, self.version, value
        )
