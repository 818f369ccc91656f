"""Abandoning a game from its command: a private question that names what is given up,
and the button that does it.

The button is a ``DynamicItem`` whose custom_id names the game (``ab1:<game id>``), so
it works after a restart and never ends a game started since in the same channel.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock
from bot.boards.in_flight import Tracked
from bot.boards.send_errors import (
    DISMISS,
    SEND_ERRORS,
    acknowledge,
    answer_lost,
    tell_after_failure,
)
from bot.table.errors import Refusal
from bot.table.loaded import LoadedGame

log = logging.getLogger(__name__)

#: The custom_id pattern of the button that confirms abandoning a game.
ABANDON_TEMPLATE = r"ab1:(?P<game>[0-9]{1,20})(?::(?P<loss>[01]))?"


def abandon_question(game: LoadedGame, ends: bool, deal_played: bool = False,
                     forfeits: bool = False) -> str:
    """Return the private question asked before abandoning ``game``: what it gives up.

    ``ends`` tells whether the member's word ends the game at once, or only records
    their ask (a running table ends when a majority of its players ask);
    ``deal_played`` that it is a daily deal played on from its deal, which counts as a
    loss for everyone who played it; ``forfeits`` that a computer plays at the table,
    so abandoning it is losing it for its people.
    """
    title = game.engine.title
    if game.row.status == "lobby":
        return (f"Close this {title} table? Everyone seated leaves it. (Dismiss this "
                "message to keep the table open.)")
    if forfeits:
        when = ("It ends now, unfinished" if ends else "Once a majority of the players "
                "still playing ask, it ends, unfinished")
        return (f"Abandon this {title} game? {when}, and a computer plays here, so it "
                "counts as a loss scoring 0 for each player who asked (and anyone who "
                f"played and then resigned or went away), in the ratings too. ({DISMISS})")
    if not ends:
        return (f"Ask to abandon this {title} game? Once a majority of the players still "
                "playing ask, it ends for everyone, unfinished, and nobody gets a result "
                f"from it. ({DISMISS})")
    if deal_played:
        return (f"Abandon this {title} daily deal? It ends now, unfinished, and counts as "
                "a loss scoring 0 for everyone who played it: their first result of the "
                f"day's deal, the one the daily leaderboard keeps. ({DISMISS})")
    return (f"Abandon this {title} game? It ends now for everyone, unfinished, and nobody "
            f"gets a result from it. ({DISMISS})")


async def ask_to_abandon(bot: Any, interaction: discord.Interaction[Any]) -> None:
    """Answer ``/<game> abandon`` privately with the question and its button; refuse
    (raise a Refusal) when the member may not abandon the channel's game."""
    async with AnswerClock.of(interaction, private=True) as clock:
        game, ends = await bot.tables.may_abandon(interaction.channel_id or 0,
                                                  actor_of(interaction))
        deal_played = bot.tables.core.deal_played(game)
        forfeits = bot.tables.abandon_forfeits(game, actor_of(interaction))
        view = discord.ui.View(timeout=None)
        view.add_item(AbandonButton(game.id, ends, deal_played or forfeits))
        question = abandon_question(game, ends, deal_played, forfeits)
        await clock.send(content=question, view=view, ephemeral=True)


class AbandonButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=ABANDON_TEMPLATE):
    """The button of the abandon question: ends the game (or records the ask)."""

    def __init__(self, game_id: int, ends: bool = True, as_a_loss: bool | None = None) -> None:
        terms = "" if as_a_loss is None else f":{int(as_a_loss)}"
        super().__init__(discord.ui.Button(
            label="Yes, abandon it" if ends else "Yes, ask to abandon",
            style=discord.ButtonStyle.danger, custom_id=f"ab1:{game_id}{terms}",
        ))
        self.game_id = game_id
        #: Whether the question said abandoning counts as a loss (None: not known).
        self.as_a_loss = as_a_loss

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
        match: re.Match[str], /,
    ) -> AbandonButton:
        """Rebuild the button from its custom_id (after a restart too)."""
        loss = match["loss"]
        return cls(int(match["game"]), as_a_loss=None if loss is None else loss == "1")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Abandon the game and say so in the channel, or record the ask and say so
        privately (the board shows it); edit its board."""
        bot = interaction.client
        async with AnswerClock.of(interaction, self.game_id) as clock:
            try:
                game = await bot.tables.abandon(
                    interaction.channel_id or 0, actor_of(interaction), game_id=self.game_id,
                    as_a_loss=self.as_a_loss)
            except Refusal as refusal:
                await clock.tell(str(refusal))
                return
            said = game.row.events[-1] if game.row.events else "The game was abandoned."
            try:  # an ask: the board's footer shows it to everyone; an end: told next
                await clock.edit(content=said if game.row.is_open else "Done.", view=None)
            except SEND_ERRORS as exc:
                log.warning("could not answer the abandoning of game %s: %s", game.id, exc)
                if game.row.is_open:  # the ask is stored: said again
                    await tell_after_failure(interaction, said, exc)
                elif not answer_lost(exc):  # it happened: never "This interaction failed"
                    await acknowledge(interaction)  # (the channel is told next)
            if not game.row.is_open:
                try:
                    await interaction.followup.send(
                        said, ephemeral=False, allowed_mentions=discord.AllowedMentions.none())
                except SEND_ERRORS as exc:
                    log.warning("could not say game %s was abandoned: %s", game.id, exc)
        # an ended game's board deleted meanwhile is not posted again: nobody plays it
        await bot.boards.messages.show(game, repost=game.row.is_open)
        await bot.boards.announce(game, None)
