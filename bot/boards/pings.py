"""Each member's own choice about turn notices: pinged, or told without a ping.

The choice is stored per member (``member_settings``, kept across servers) and read
through :class:`PingChoices` for each turn notice, never remembered: a choice made in a
server one process of a sharded bot serves holds at once in the servers of the others.
A member who chose "don't ping me" still gets the notice, without its ping (the mention
shows, nothing notifies them): the channel still says whose turn it is.

The choice is offered privately: :func:`choice_button` is the button that opens it (on
Rules & details and /help), :class:`PingChoiceButton` the persistent buttons of the
private answer, which work after a restart.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.boards.answer_clock import AnswerClock
from bot.boards.in_flight import Tracked
from bot.boards.send_errors import SEND_ERRORS, tell_after_failure
from bot.table.service import Tables
from db.errors import StorageError

log = logging.getLogger(__name__)

#: The custom_id pattern of the private choice's buttons (show, on, off).
CHOICE_TEMPLATE = r"pings:(?P<choice>show|on|off)"

class PingChoices:
    """Members' turn-ping choices, read from the store."""

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def wants_ping(self, user_id: int) -> bool:
        """Whether ``user_id`` is to be pinged by their turn notices (yes unless they said
        no); a store that cannot answer means yes."""
        try:
            return await self.chosen(user_id)
        except StorageError as exc:
            log.warning("could not read the ping choice of a member: %s", exc)
            return True

    async def chosen(self, user_id: int) -> bool:
        """Whether ``user_id`` chose to be pinged (yes unless they said no); raise
        StorageError if the store cannot answer."""
        chosen = await self.tables.store.turn_pings(user_id)
        return True if chosen is None else chosen

    async def choose(self, user_id: int, pings: bool) -> None:
        """Store ``user_id``'s choice (raise StorageError if it cannot be stored)."""
        await self.tables.store.set_turn_pings(user_id, pings)


def choice_button() -> discord.ui.Button[Any]:
    """Return the button that opens a member's turn-ping choice privately."""
    return PingChoiceButton("show").item


def choice_text(wants: bool) -> str:
    """Return the private answer that says a member's current choice."""
    now = ("You are pinged when your turn comes at a Steam to Solar table, if you have not "
           "played within a short while." if wants else
           "Your turn notices do not ping you: they still name you in the channel, "
           "without a notification.")
    return f"🔔 Turn notices: {now}"


def choice_view(wants: bool) -> discord.ui.View:
    """Return the private answer's two buttons, the current choice marked."""
    view = discord.ui.View(timeout=None)
    for choice, label in (("on", "Ping me"), ("off", "Don't ping me")):
        button = PingChoiceButton(choice)
        chosen = (choice == "on") == wants
        button.item.label = f"✓ {label}" if chosen else label
        button.item.style = (discord.ButtonStyle.primary if chosen
                             else discord.ButtonStyle.secondary)
        button.item.disabled = chosen
        view.add_item(button)
    return view


class PingChoiceButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=CHOICE_TEMPLATE):
    """A button of the turn-ping choice: open it (``show``), ping me, don't ping me."""

    def __init__(self, choice: str) -> None:
        super().__init__(discord.ui.Button(
            label="🔔 Turn pings", style=discord.ButtonStyle.secondary,
            custom_id=f"pings:{choice}",
        ))
        self.choice = choice

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: Any, /,
    ) -> PingChoiceButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        return cls(str(match["choice"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Show the member's choice privately, or store the one they clicked (on the
        answer clock: reading or storing it may be slow)."""
        choices: PingChoices = interaction.client.boards.pings
        user_id = interaction.user.id
        async with AnswerClock.of(interaction) as clock:
            try:
                if self.choice == "show":
                    try:
                        wants = await choices.chosen(user_id)
                    except StorageError as exc:
                        log.warning("could not read a ping choice: %s", exc)
                        await clock.tell("Your choice could not be read just now. Please "
                                         "try again in a moment.")
                        return
                    await clock.send(content=choice_text(wants), view=choice_view(wants),
                                     ephemeral=True)
                    return
                wants = self.choice == "on"
                await choices.choose(user_id, wants)
                try:
                    await clock.edit(content=choice_text(wants), view=choice_view(wants))
                except SEND_ERRORS as exc:  # stored all the same: said again
                    log.warning("could not answer a ping choice: %s", exc)
                    await tell_after_failure(interaction, choice_text(wants), exc)
            except StorageError as exc:
                log.warning("could not store a ping choice: %s", exc)
                await clock.tell("Your choice could not be saved just now; "
                                 "nothing changed. Please try again in a moment.")
            except SEND_ERRORS as exc:
                log.warning("could not answer a ping choice: %s", exc)
