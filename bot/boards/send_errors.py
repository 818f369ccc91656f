"""What a request to Discord may fail with, handled alike wherever the bot sends."""

from __future__ import annotations

import aiohttp
import discord

#: An HTTP error, a rate limit longer than the client waits (``max_ratelimit_timeout``),
#: or the transport itself (a reset connection, a timeout, an answer that is not JSON).
SEND_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError,
    ValueError,
)
