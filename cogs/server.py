"""A server's own defaults in Discord: ``/tablehouse settings`` (Manage Server only)."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards.answer_clock import AnswerClock
from bot.table.errors import Refusal
from bot.table.settings import (
    NOTICE_GRACE_BOUNDS,
    OPEN_GAMES_BOUNDS,
    SETTING_NAMES,
    VOTE_WINDOW_BOUNDS,
    ServerSettings,
)

COLOUR = discord.Colour.from_rgb(88, 101, 242)

#: What a member without Manage Server is told.
NOT_ALLOWED = ("Only members with the Manage Server permission can change this server's "
               "settings. Everyone can see them in /help.")


def settings_embed(settings: ServerSettings, chosen: set[str], *, changed: bool) -> discord.Embed:
    """Return the private answer: each setting in a line, marked where it is the bot's own."""
    lines = [
        line + ("" if name in chosen else " (bot default)")
        for name, line in zip(SETTING_NAMES, settings.lines(), strict=True)
    ]
    embed = discord.Embed(
        title="Server settings saved" if changed else "Server settings",
        description="\n".join(lines), colour=COLOUR,
    )
    embed.set_footer(text="Vote time and threads apply to games started from now; pictures, "
                          "turn notices and the game limit at once. An option of a start "
                          "command comes first. reset: yes goes back to the bot's defaults.")
    return embed


def _flag(value: str | None) -> bool | None:
    return None if value is None else value == "on"


class ServerCog(commands.Cog):
    """The /tablehouse settings command."""

    tablehouse = app_commands.Group(
        name="tablehouse", description="This server's Tablehouse settings",
        guild_only=True, default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @tablehouse.command(name="settings",
                        description="Show or change this server's defaults (Manage Server)")
    @app_commands.describe(
        vote_seconds=f"Seconds a vote stays open, {VOTE_WINDOW_BOUNDS[0]} to "
                     f"{VOTE_WINDOW_BOUNDS[1]}",
        threads="Put each new game in its own thread",
        notice_wait=f"Seconds before a turn notice mentions the player, "
                    f"{NOTICE_GRACE_BOUNDS[0]} (at once) to {NOTICE_GRACE_BOUNDS[1]}",
        pictures="Boards carry a picture of the position",
        open_games=f"Open games a member may start here, {OPEN_GAMES_BOUNDS[0]} (no limit) "
                   f"to {OPEN_GAMES_BOUNDS[1]}",
        reset="Go back to the bot's defaults first",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        threads: Literal["on", "off"] | None = None,
        notice_wait: app_commands.Range[int, 0, 3600] | None = None,
        pictures: Literal["on", "off"] | None = None,
        open_games: app_commands.Range[int, 0, 100] | None = None,
        reset: Literal["yes", "no"] = "no",
    ) -> None:
        """Show this server's settings privately, or change those given."""
        if interaction.guild_id is None:
            raise Refusal("Settings belong to a server: use this command in one.")
        allowed = interaction.permissions
        if not (allowed.manage_guild or allowed.administrator):
            raise Refusal(NOT_ALLOWED)
        book = self.bot.tables.servers
        given: dict[str, Any] = {
            "vote_window_seconds": vote_seconds, "threads": _flag(threads),
            "notice_grace_seconds": notice_wait, "pictures": _flag(pictures),
            "max_open_games": open_games,
        }
        changes = {k: v for k, v in given.items() if v is not None}
        if reset == "yes":
            changes = {name: None for name in SETTING_NAMES} | changes
        async with AnswerClock.of(interaction, private=True) as clock:
            if changes:  # once stored, the change is shown as the store returned it
                current = await book.change(interaction.guild_id, changes)
                chosen = set(book.chosen(interaction.guild_id))
            else:
                chosen = set(await book.stored(interaction.guild_id))
                current = await book.get(interaction.guild_id)
            await clock.send(embed=settings_embed(current, chosen, changed=bool(changes)),
                             ephemeral=True)


async def setup(bot: commands.Bot) -> None:
    """Load the server settings cog."""
    await bot.add_cog(ServerCog(bot))
