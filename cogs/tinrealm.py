"""Tin Realm in Discord: /tinrealm commands and the journey's board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards import actions_for_board
from bot.games.protocol import Action
from bot.layout import default_items
from bot.tables import LoadedGame
from cogs.base import (
    MODES_TEXT,
    PLAYERS_HELP,
    WINDOW_HELP,
    GameCog,
    daily_note,
    recent_events,
    who_plays,
)
from cogs.cards import clip

TITLE = "Tin Realm"

ICONS = {
    "forest": "🌲", "water": "💧", "mountain": "⛰️", "skull": "💀", "half-skull": "💀",
    "none": "·", "enemy": "👹", "trap": "🪤", "encounter": "❔", "loot": "💰",
    "campsite": "🏕️", "S": "🚩", "F": "🏰", "-": "·",
}

#: Decisions whose full text goes on the board and only the name on the button.
CHOICES = ("race", "class")

PLACEHOLDERS = {"item": "Use an item…", "eat": "Eat…", "race": "Choose your race…",
                "class": "Choose your class…"}

WAITING = {
    "race": "Choose your adventurer's **race**.",
    "class": "Choose your adventurer's **class**.",
    "decide": "Look at the top card: **resolve** it here, or **skip** it (it becomes the "
              "result card for the next one).",
    "place": "Place the location at the **left** or **right** end of the tableau.",
    "camp": "A campsite: **rest** (+2 health, +1 energy) or **search** (+1 food).",
    "fight": "Fight! Choose the energy for your strike (0-3), or deal a sure 1-damage blow.",
    "offer": "Something is offered: take it or leave it.",
}

RULES = (
    ("Goal", "Lead your adventurer to Oakinshelm (🏰, the last node of the map) within 7 "
             "days. Reaching it wins at once; the score decides your rank."),
    ("A day", "Six locations a day. Look at the top exploration card and resolve it, or skip "
              "it so it becomes the result card for the next one. A location's icons resolve "
              "left to right: enemies, traps, random encounters, loot, campsite, water."),
    ("The tableau", "The location then joins either end of your tableau. Matching forest, "
                    "water or mountain edges move you 1 node forward; two skull halves cost "
                    "half your health and move you back 3 nodes."),
    ("Combat", "Enemy health is its printed health plus the day. Before each strike pick "
               "0-3 energy and roll two dice: doubles miss, otherwise the difference plus "
               "your class bonus minus the enemy's defense. Or deal 1 sure damage. The enemy "
               "strikes back the same way. A win gives its favor."),
    ("Upkeep", "Eat food any time for +1 health or +1 energy. At the end of each day eat 1 "
               "food or take 3 damage. You die when health is at or below poison."),
    ("Score", "10 for Oakinshelm + health + energy + food + favor + 2 per node reached "
              "- poison - 2 per day ended. Ranks: Ratcatcher, Laborer, Guard, Performer, "
              "Merchant, Mayor (61+)."),
    ("Who plays", MODES_TEXT),
)


def _bar(value: int, maximum: int, full: str, empty: str = "▫️", width: int = 10) -> str:
    """Return a short bar for a tracker (capped at ``width`` symbols)."""
    if maximum <= 0:
        return "—"
    shown = min(width, maximum)
    filled = round(shown * max(0, min(value, maximum)) / maximum)
    return f"{full * filled}{empty * (shown - filled)} {value}/{maximum}"


def _card(card: dict[str, Any]) -> str:
    """Return an exploration card as ``edge | Name: icons | edge``."""
    left, right = (ICONS.get(e, e) for e in card["edges"])
    icons = "".join(ICONS.get(i, i) for i in card["icons"])
    return f"{left}|**{card['name']}** {icons}|{right}"


def _map(view: dict[str, Any]) -> str:
    """Return the map as node icons with the meeple (🧍) on the current node."""
    parts, index = [], 0
    for card in view["map"]:
        nodes = []
        for node in card["nodes"]:
            nodes.append("🧍" if index == view["node"] else ICONS.get(node, node))
            index += 1
        parts.append("".join(nodes))
    return " ┃ ".join(parts)


class TinRealmCog(GameCog):
    """The /tinrealm commands and the Tin Realm board."""

    kind = "tinrealm"
    title = TITLE
    rules_text = RULES
    colour = 0xB08D57

    tinrealm = app_commands.Group(
        name="tinrealm", description="Tin Realm: a solo journey to Oakinshelm within 7 days",
        guild_only=True,
    )

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the journey: day, trackers, map, tableau, the current card, events."""
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        v = game.view()
        embed = discord.Embed(
            title=f"{TITLE} · day {min(v['day'], v['last_day'])} of {v['last_day']} · "
                  f"location {v['location_in_day']} of 6",
            colour=0xB08D57,
        )
        who = " ".join(x for x in (v["race"], v["class"]) if x) or "a new adventurer"
        days = v["last_day"]
        day = min(v["day"], days)
        sundial = "🌕" * (day - 1) + "🌗" + "🌑" * (days - day)
        trackers = [
            f"**{who}**",
            f"🕰️ sundial {sundial}",
            f"❤️ {_bar(v['health'], v['max_health'], '🟥')}",
            f"⚡ {_bar(v['energy'], v['max_energy'], '🟨')}",
            f"🍖 {v['food']}/{v['food_cap']} · ☠️ poison {v['poison']} · ⭐ favor {v['favor']}",
            f"🗺️ {_map(v)} (node {v['node']} of {v['nodes_total'] - 1})",
        ]
        situation = _situation(v)
        choices = [a for a in actions_for_board(game) if a.group in CHOICES]
        if choices:
            situation += "\n" + "\n".join(f"• **{a.label.split(' (', 1)[0]}** "
                                           f"({a.label.split(' (', 1)[1]}" for a in choices
                                           if " (" in a.label)
        embed.description = clip("\n".join([*trackers, "", situation]), 4096)
        if v["tableau"]:
            embed.add_field(name="Tableau",
                            value=clip(" ".join(_card(c) for c in v["tableau"]), 1024),
                            inline=False)
        if v["items"]:
            items = "\n".join(
                f"{'✅' if i['ready'] else '▫️'} **{i['name']}**: {i['text']}" for i in v["items"]
            )
            embed.add_field(name="Items", value=clip(items, 1024), inline=False)
        dice = f" · last roll {' '.join(f'🎲{d}' for d in v['dice'])}" if v["dice"] else ""
        embed.add_field(name=f"Recent events{dice}", value=recent_events(game, 6),
                        inline=False)
        embed.set_footer(text=f"Started by {game.seat_name(0)} · {who_plays(game)} · "
                              f"deck {v['deck_left']} cards"
                              f"{daily_note(game)}")
        return embed

    def items(self, game: LoadedGame) -> list[discord.ui.Item[discord.ui.View]]:
        """Return every decision the rules give now, grouped in rows.

        Race and class buttons carry just the name; the board lists what each gives.
        """
        actions = [
            Action(a.id, a.label.split(" (", 1)[0], a.group) if a.group in CHOICES else a
            for a in actions_for_board(game)
        ]
        return default_items(game.id, game.row.version, actions, placeholders=PLACEHOLDERS)

    # -- commands -------------------------------------------------------------------------

    @tinrealm.command(name="start", description="Start a Tin Realm journey here")
    @app_commands.rename(preset="map")
    @app_commands.describe(
        players=PLAYERS_HELP,
        vote_seconds=WINDOW_HELP,
        preset="Map preset: easy (all 3-space sides) or hard (all 4-space sides)",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        preset: Literal["easy", "hard"] = "easy",
    ) -> None:
        """Start a journey in this channel."""
        await self.start_solo(interaction, self._options(preset), players=players,
                              window=vote_seconds)

    @tinrealm.command(name="daily", description="Play today's daily journey: the same everywhere")
    @app_commands.describe(players=PLAYERS_HELP, vote_seconds=WINDOW_HELP)
    async def daily(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
    ) -> None:
        """Start today's daily journey (easy map) in this channel."""
        await self.start_solo(interaction, self._options("easy"),
                              players=players, window=vote_seconds, daily=True)

    def _options(self, preset: str) -> dict[str, Any]:
        options: dict[str, Any] = {"preset": preset}
        content = self.bot.settings.tinrealm_content if self.bot else None
        if content is not None:
            options["content_path"] = str(content.resolve())
        return options

    @tinrealm.command(name="board", description="Post the journey's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @tinrealm.command(name="rules", description="How Tin Realm is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction, TITLE, RULES, 0xB08D57)

    @tinrealm.command(name="abandon", description="End this channel's journey (starter or mods)")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


def _situation(v: dict[str, Any]) -> str:
    """Return what is happening now: the card, the fight, or the final score."""
    if v["over"]:
        parts = v["score_parts"]
        verdict = ("🏰 **You reached Oakinshelm!**" if v["end"] == "won"
                   else "💀 **The journey ended.**")
        detail = " ".join(f"{k} {'+' if n >= 0 else ''}{n}" for k, n in parts.items())
        return f"{verdict}\nScore **{v['score']}**: rank **{v['rank']}**\n{detail}"
    lines = [WAITING.get(v["waiting"], "")]
    if v["top_card"]:
        lines.append(f"Top card: {_card(v['top_card'])}")
    if v["location"]:
        lines.append(f"Location: {_card(v['location'])}")
    if v["result"]:
        r = v["result"]
        lines.append(f"Result card: {r['name']} (👹 {r['enemy']} · 🪤 {r['trap']} · "
                     f"❔ {r['encounter']} · 💰 {r['loot']})")
    if v["combat"]:
        c = v["combat"]
        undead = " (undead)" if c["undead"] else ""
        lines.append(
            f"👹 **{c['name']}**{undead}: health {c['health']}/{c['max_health']}, attack "
            f"{c['attack']}, defense {c['defense']}, favor {c['favor']}. {c['power']}"
        )
    return "\n".join(line for line in lines if line)


async def setup(bot: Any) -> None:
    """Load the Tin Realm cog."""
    await bot.add_cog(TinRealmCog(bot))
