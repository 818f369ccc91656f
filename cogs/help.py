"""/help in Discord: the games, how to start them (a button each), who may press what,
the daily deals, the records and the server's settings, privately, in a phone screen."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards.answer_clock import AnswerClock
from bot.boards.pings import choice_button
from bot.boards.threads import COMMANDS_ONLY_HELP, commands_only
from bot.table.settings import ServerSettings
from cogs.records import COLOUR, DAILY_GAMES
from cogs.starting import StartButton, start_buttons

HELP_GAMES = (
    "**Tinker** `/tinker start`: a solo Decktet adventure\n"
    "**Tin Realm** `/tinrealm start`: a solo journey\n"
    "**Steam to Solar** `/steam new`: railroads, 2 to 5 seats"
)
HELP_WHO = (
    "Solo games: the channel votes (or players: fast, \"only me\"). Steam to Solar: the "
    "player whose turn it is. One game per channel; thread: yes gives it its own. Ended "
    "boards: Replay (with pictures); dailies: Share."
)
HELP_RULES = "`/<game> rules` · `board` · `abandon`"
HELP_RECORDS = "`/stats` · `/leaderboard` · `/forget-me`"


def daily_commands(tree: app_commands.CommandTree[Any]) -> list[str]:
    """Return the daily-deal commands the bot has, such as ``/tinker daily``."""
    return sorted(
        f"/{command.name} daily"
        for command in tree.get_commands()
        if isinstance(command, app_commands.Group) and command.get_command("daily")
    )


def help_embed(daily_deals: Sequence[str], server: ServerSettings | None = None, *,
               here: bool = True, note: str | None = None) -> discord.Embed:
    """Return the /help embed: the games, who may press what, the daily deals (their
    commands), the rules, the records and the server's settings, in a phone screen;
    without ``here`` (a direct message) it says games are played in a server. ``note``:
    what this server lacks for games to start (in place of its settings)."""
    title = ("Tablehouse: tap a game to play here" if here else
             "Tablehouse: games to play in a server's channels")
    embed = discord.Embed(title=title, colour=COLOUR)
    embed.add_field(name="The games", value=HELP_GAMES, inline=False)
    embed.add_field(name="Who plays", value=HELP_WHO, inline=False)
    daily = " · ".join(f"`{c}`" for c in daily_deals) or "none yet"
    embed.add_field(name="More", value=f"{HELP_RULES}\nDaily: {daily}\n{HELP_RECORDS}",
                    inline=False)
    if note is not None:
        embed.add_field(name="This server", value=note, inline=False)
    elif server is not None:
        embed.add_field(name="This server", value=f"{server.summary()} "
                        "(`/tablehouse settings`)", inline=False)
    return embed


def help_message(client: discord.Client | None = None,
                 server: ServerSettings | None = None, *, here: bool = True,
                 note: str | None = None) -> dict[str, Any]:
    """Return the private /help answer: its embed, a button starting each game (only
    ``here``, in a server that has the bot: a direct message has none) and the member's
    choice of turn pings (``note``: see :func:`help_embed`)."""
    tree = getattr(client, "tree", None)
    daily = (daily_commands(tree) if isinstance(tree, app_commands.CommandTree)
             else [f"/{kind} daily" for kind in DAILY_GAMES])
    view = discord.ui.View(timeout=None)
    for button in start_buttons(client) if here else ():
        view.add_item(button)
    view.add_item(choice_button())
    view.stop()
    return {"embed": help_embed(daily, server, here=here, note=note), "view": view}


class HelpCog(commands.Cog):
    """The /help command and its start buttons."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the start buttons so that an old /help's buttons work after a restart."""
        self.bot.add_dynamic_items(StartButton)

    async def cog_unload(self) -> None:
        """Unregister the start buttons."""
        self.bot.remove_dynamic_items(StartButton)

    @app_commands.command(name="help", description="The games, how to start them, who may play")
    async def show_help(self, interaction: discord.Interaction) -> None:
        """Explain the bot privately."""
        async with AnswerClock.of(interaction, private=True) as clock:
            # In a direct message there is no server, so no server's settings to show;
            # in a server that has the commands alone, no game can start.
            here = interaction.guild_id is not None
            if commands_only(self.bot, interaction.guild_id):
                await clock.send(**help_message(self.bot, here=False, note=COMMANDS_ONLY_HELP),
                                 ephemeral=True)
                return
            server = await self.bot.tables.servers.get(interaction.guild_id) if here else None
            await clock.send(**help_message(self.bot, server, here=here), ephemeral=True)


async def setup(bot: Any) -> None:
    """Load the /help cog."""
    await bot.add_cog(HelpCog(bot))
