"""A tiny bot process for the gateway test: ``python -m tests.fake_discord.sample_bot``.

It shows the two switches a real bot needs to run against the fake: ``Route.BASE`` from
DISCORD_API_BASE (REST and interaction webhooks) and ``DiscordWebSocket.DEFAULT_GATEWAY``
from DISCORD_GATEWAY_URL (a plain ``discord.Client`` never asks ``/gateway/bot``).
"""

from __future__ import annotations

import asyncio
import logging
import os

import discord
import discord.gateway
import discord.http
import yarl
from discord import app_commands


def point_at_fake() -> None:
    """Honour DISCORD_API_BASE and DISCORD_GATEWAY_URL when they are set."""
    api_base = os.environ.get("DISCORD_API_BASE")
    if api_base:
        discord.http.Route.BASE = api_base.rstrip("/")
    gateway = os.environ.get("DISCORD_GATEWAY_URL")
    if gateway:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)


class SampleBot(discord.Client):
    """A client with one slash command, ``/ping``."""

    def __init__(self) -> None:
        super().__init__(intents=discord.Intents.default())
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Answer with pong and this process id.")
        async def ping(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pong from {os.getpid()}")

    async def on_ready(self) -> None:
        """Say so, for the test's log."""
        logging.getLogger("sample_bot").info("ready as %s", self.user)


async def main() -> None:
    """Connect with the token in DISCORD_TOKEN and serve until killed."""
    point_at_fake()
    discord.utils.setup_logging(level=logging.INFO)
    async with SampleBot() as bot:
        await bot.start(os.environ["DISCORD_TOKEN"])


if __name__ == "__main__":
    asyncio.run(main())
