"""Interactions as work in flight: a clean shutdown waits for them, and none start once
it has begun.

Commands pass through the command tree's check and board clicks through the board
service (``Tables.busy``); the bot's other buttons (/help's start buttons, the turn pings
choice, confirmations and pages) are discord.py dynamic items, whose callbacks run in a
task of their own: :class:`Tracked` counts that task, so a stop does not close the
connection under a game being started or a confirmation being answered.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.boards.send_errors import SEND_ERRORS

log = logging.getLogger(__name__)

#: The private answer to an interaction that arrives once the bot is shutting down.
RESTARTING = "The bot is restarting; try again in a few seconds."


async def let_in(interaction: discord.Interaction[Any]) -> bool:
    """Count the task handling ``interaction`` as in flight until it ends and return
    True; once the bot is shutting down, refuse privately instead and return False."""
    tables = getattr(interaction.client, "tables", None)
    if tables is None:
        return True
    if not tables.closing:
        task = asyncio.current_task()
        if task is not None:
            tables.track(task)
        return True
    try:
        await interaction.response.send_message(RESTARTING, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not refuse an interaction while closing: %s", exc)
    return False


class Tracked:
    """A dynamic item whose callback counts as work in flight (see :func:`let_in`); put
    it before ``discord.ui.DynamicItem`` among the bases."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        """Let the interaction in as work in flight, or refuse it while closing."""
        return await let_in(interaction)
