"""What a request to Discord may fail with, handled alike wherever the bot sends, and
the one way the bot answers privately."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

#: An HTTP error, a rate limit longer than the client waits (``max_ratelimit_timeout``),
#: or the transport itself (a reset connection, a timeout, an answer that is not JSON).
SEND_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError,
    ValueError,
)

log = logging.getLogger(__name__)

#: How a private question says that nothing happens without an answer.
DISMISS = "Dismiss this message to keep playing."


async def tell_privately(interaction: discord.Interaction[Any], text: str) -> None:
    """Answer ``interaction`` with a private line (a follow-up if it was answered already);
    a failure to send is logged, never raised."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not answer privately: %s", exc)
