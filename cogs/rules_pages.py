"""A game's rules as pages a phone shows whole, for its ``/<game> rules`` command.

The pages' buttons are discord.py DynamicItems (``rp1:<kind>:<page>``), registered when
a game's cog loads, so an old answer's buttons work after a restart; a click edits the
private message in place.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.boards.in_flight import Tracked
from bot.boards.send_errors import SEND_ERRORS
from cogs.details import paginate
from cogs.starting import game_cog

log = logging.getLogger(__name__)

RULES_TAG = "rp1"
RULES_TEMPLATE = rf"{RULES_TAG}:(?P<kind>[a-z]{{1,20}}):(?P<page>[0-9]{{1,2}})"


class RulesPageButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=RULES_TEMPLATE):
    """A button showing another page of a game's rules."""

    def __init__(self, kind: str, page: int, label: str) -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"{RULES_TAG}:{kind}:{page}"))
        self.kind = kind
        self.page = page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RulesPageButton:
        """Rebuild the button from its custom_id (also after a restart)."""
        return cls(match["kind"], int(match["page"]), "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the page in the private message clicked."""
        cog = game_cog(interaction.client, self.kind)
        if cog is None:
            await interaction.response.send_message("That game is not available on this bot.",
                                                    ephemeral=True)
            return
        try:
            await interaction.response.edit_message(
                **rules_body(self.kind, cog.title or self.kind, cog.rules_text, cog.colour,
                             self.page))
        except SEND_ERRORS as exc:  # answered too late, say: the page stays as it was
            log.warning("could not turn a page of the %s rules: %s", self.kind, exc)


def rules_body(kind: str, title: str, rules: Any, colour: int, page: int = 0) -> dict[str, Any]:
    """Return page ``page`` of a game's rules: its embed and the button to the next page."""
    pages = paginate(list(rules))
    index = min(max(page, 0), len(pages) - 1)
    count = f" ({index + 1}/{len(pages)})" if len(pages) > 1 else ""
    embed = discord.Embed(title=f"{title}: how to play{count}", colour=colour)
    for name, text in pages[index]:
        embed.add_field(name=name, value=text, inline=False)
    view = discord.ui.View(timeout=None)
    if len(pages) > 1:
        following = (index + 1) % len(pages)
        view.add_item(RulesPageButton(kind, following, f"Page {following + 1} of {len(pages)}"))
    view.stop()
    return {"embed": embed, "view": view}
