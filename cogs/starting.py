"""The /help buttons that start a game: one click starts it in that channel the way its
start command does with the default options, with the same checks and refusals.

The buttons are discord.py DynamicItems (``st1:<kind>``), registered when the records
cog loads, so a /help answer's buttons work after a restart.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.boards.answer_clock import AnswerClock
from bot.boards.in_flight import Tracked
from bot.boards.send_errors import SEND_ERRORS
from bot.table.errors import AnsweredElsewhere, Refusal

if TYPE_CHECKING:
    from cogs.base import GameCog

log = logging.getLogger(__name__)

START_TAG = "st1"
START_TEMPLATE = rf"{START_TAG}:(?P<kind>[a-z]{{1,20}})"

#: Each game's button on /help, in order: its kind and its label.
START_LABELS = {"tinker": "Tinker", "tinrealm": "Tin Realm", "steam": "Steam to Solar"}


def game_cog(client: discord.Client, kind: str) -> GameCog | None:
    """Return the loaded cog of the game ``kind``, or None."""
    from cogs.base import GameCog

    cogs = getattr(client, "cogs", {})
    return next((c for c in cogs.values() if isinstance(c, GameCog) and c.kind == kind), None)


class StartButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=START_TEMPLATE):
    """A /help button that starts one game in the channel with the default options."""

    def __init__(self, kind: str) -> None:
        super().__init__(discord.ui.Button(
            label=START_LABELS.get(kind, kind), custom_id=f"{START_TAG}:{kind}",
            style=discord.ButtonStyle.success if kind == "steam"
            else discord.ButtonStyle.primary,
        ))
        self.kind = kind

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> StartButton:
        """Rebuild the button from its custom_id (also after a restart)."""
        return cls(match["kind"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Start the game here, or say privately why not (on the answer clock, which the
        start itself runs on: the checks before it read the database)."""
        cog = game_cog(interaction.client, self.kind)
        async with AnswerClock.of(interaction) as clock:
            try:
                if cog is None:
                    raise Refusal("That game is not available on this bot.")
                if interaction.guild_id is None or interaction.channel_id is None:
                    raise Refusal("Games are played in a server channel or thread.")
                await cog.start_default(interaction)
            except AnsweredElsewhere:
                pass  # the process that took the start answers
            except Refusal as refusal:
                await clock.tell(str(refusal))
            except SEND_ERRORS as exc:
                log.warning("could not start %s from /help: %s", self.kind, exc)

def start_buttons(client: discord.Client | None) -> list[StartButton]:
    """Return a start button for each game loaded (every game without a client)."""
    kinds = [k for k in START_LABELS if client is None or game_cog(client, k) is not None]
    return [StartButton(kind) for kind in kinds]
