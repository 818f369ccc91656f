"""Tin Realm in Discord: /tinrealm commands and the journey's board."""

from __future__ import annotations

import re
from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.layout import BoardButton, BoardItem, default_items
from bot.boards.render import actions_for_board
from bot.games.protocol import Action
from bot.table.service import LoadedGame
from cogs.base import (
    MODES_TEXT,
    PLAYERS_HELP,
    WINDOW_HELP,
    GameCog,
    choose_level,
    daily_note,
    embed_lines,
    fit_events,
    last_move_events,
    room,
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
    "race": "**Choose your adventurer's race**; a class follows.",
    "class": "**Choose your adventurer's class.**",
    "decide": "**Resolve** the top card here, or **skip** it (it turns to its result side "
              "for the next one).",
    "place": "**Place** the location at the left or right end of the tableau.",
    "camp": "**A campsite**: rest (+2 health, +1 energy) or search (+1 food).",
    "fight": "**Fight!** Strike with 0-3 energy ⚡ (bonus damage after +), or a sure "
             "1-damage blow.",
    "offer": "**Something is offered**: take it or leave it.",
}

#: Groups that are side options, never the decision itself (food and items, any time).
SIDE_GROUPS = ("eat", "item")

#: Colours of the board: on the road, and ended boards by how the journey ended.
COLOUR = 0xB08D57
WON_COLOUR = 0x2ECC71
LOST_COLOUR = 0x992D22
#: Headlines of an ended journey: reaching Oakinshelm, death, time running out.
HEADLINES = {"won": "🏆 Victory", "dead": "💀 Defeat: died on the road",
             "time": "⌛ Defeat: out of time"}
#: How far a board gives way to fit a phone: 0 everything, 1 the tableau's ends only,
#: 2 item names only, 3 the trackers on one line and the race and class choices without
#: their abilities, 4 the footer without the starter.
LEVELS = 5

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
    colour = COLOUR

    tinrealm = app_commands.Group(
        name="tinrealm", description="Tin Realm: a solo journey to Oakinshelm within 7 days",
        guild_only=True,
    )

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the journey, phone first: the decision, trackers, map, items, last move.

        The board fits :data:`~cogs.base.PHONE_LINES` lines at phone width: the tableau
        shrinks to its two ends and items to their names first (all in "Rules &
        details"), then older events are cut.
        """
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        v = game.view()
        events = last_move_events(game)
        choices = [a for a in actions_for_board(game) if a.group in CHOICES]
        built: dict[int, discord.Embed] = {}

        def cost(level: int) -> int:
            built[level] = _board(game, v, choices, level)
            return embed_lines(built[level]) + 1

        level = choose_level(cost, LEVELS, events, room(game))
        embed = built.get(level) or _board(game, v, choices, level)
        embed.add_field(name="Last move",
                        value=fit_events(events, room(game) - embed_lines(embed) - 1),
                        inline=False)
        return embed

    def legend(self, game: LoadedGame) -> str:
        """Return every symbol the board uses and its meaning (the engine's legend)."""
        v = game.view() if game.state is not None else {}
        entries = v.get("legend") or [
            {"emoji": emoji, "meaning": key} for key, emoji in ICONS.items() if key != "-"
        ]
        lines = [f"{e['emoji']} {e['meaning']}" for e in entries]
        lines += ["🗺️ the map: a mark per node, ┃ between two map cards",
                  "`🌲|Name 👹💰|💧` a card: left edge | name and icons | right edge",
                  "✅ an item you can use now · ▫️ one you cannot (used up or not now)",
                  "🏆 reached Oakinshelm · 💀 died · ⌛ the seventh day ended on the road"]
        return "\n".join(lines)

    def details(self, game: LoadedGame) -> list[discord.Embed]:
        """Return the rules, then the whole tableau, the items and the score so far."""
        embeds = super().details(game)
        if game.state is None:
            return embeds
        v = game.view()
        more = discord.Embed(title="The journey in full", colour=self.colour)
        more.add_field(name="Tableau, left to right",
                       value=clip("\n".join(_card(c) for c in v["tableau"]) or "—", 1024),
                       inline=False)
        items = "\n".join(f"{'✅' if i.get('ready') else '▫️'} **{i['name']}**: {i['text']}"
                          for i in v["items"])
        more.add_field(name="Items", value=clip(items or "—", 1024), inline=False)
        if v.get("dice"):
            more.add_field(name="Last roll", value=" ".join(f"🎲{d}" for d in v["dice"]),
                           inline=False)
        return [*embeds[:-1], more, embeds[-1]]

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return every decision the rules give now, grouped in rows.

        Race and class buttons carry just the name; the board lists what each gives. The
        decision's buttons use the primary style (only the engine's primary choice when it
        marks one); eating and items stay secondary. Select options carry the action's
        description.
        """
        actions = [_short_label(a) for a in actions_for_board(game)]
        items = default_items(game.id, game.row.version, actions, placeholders=PLACEHOLDERS)
        by_id = {a.id: a for a in actions}
        marked = any(a.primary for a in actions)
        for item in items:
            if isinstance(item, BoardButton) and item.custom_id:
                action = by_id.get(item.custom_id.split(":", 3)[-1])
                if action is not None and (
                    action.primary if marked else action.group not in SIDE_GROUPS
                ):
                    item.style = discord.ButtonStyle.primary
        return items

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


#: A strike's engine label ("Strike with 2 energy (+4)"), shortened to fit a phone row.
STRIKE = re.compile(r"Strike with (\d+) energy(?: \((\+\d+)\))?")


def _short_label(action: Action) -> Action:
    """Return ``action`` with a label short enough for two buttons a row on a phone.

    Race and class keep just their name (the board lists what each gives); strikes say
    "Strike 2⚡ +4"; other labels stay as the engine wrote them.
    """
    label = action.label
    if action.group in CHOICES:
        label = label.split(" (", 1)[0]
    elif match := STRIKE.fullmatch(label):
        label = f"Strike {match[1]}⚡{' ' + match[2] if match[2] else ''}"
    if label == action.label:
        return action
    return Action(action.id, label, action.group, action.description, action.primary)


def _trackers(v: dict[str, Any], short: bool = False) -> list[str]:
    """Return the adventurer's lines: who, health and energy, food, poison, favor, the map.

    ``short`` puts the trackers on one line, by their icons only.
    """
    who = " ".join(x for x in (v.get("race"), v.get("class")) if x)
    lines = [f"**{who}**"] if who else []
    if v.get("class") and short:
        lines.append(f"❤️ {v['health']}/{v['max_health']} ⚡ {v['energy']}/{v['max_energy']} "
                     f"🍖 {v['food']}/{v['food_cap']} ☠️ {v['poison']} ⭐ {v['favor']}")
    elif v.get("class"):
        lines.append(f"❤️ health {v['health']}/{v['max_health']} · "
                     f"⚡ energy {v['energy']}/{v['max_energy']}")
        lines.append(f"🍖 food {v['food']}/{v['food_cap']} · ☠️ poison {v['poison']} · "
                     f"⭐ favor {v['favor']}")
    lines.append(f"🗺️ {_map(v)} (node {v['node']} of {v['nodes_total'] - 1})")
    return lines


def _choice_lines(choices: list[Action], level: int) -> list[str]:
    """Return the race or class choices: name, numbers and (room allowing) the ability."""
    lines = []
    for a in choices:
        name, _, rest = a.label.partition(" (")
        numbers = f" ({rest}" if rest else ""
        ability = f": {a.description}" if a.description and level < 3 else ""
        lines.append(f"• **{name}**{numbers}{ability}")
    return lines


def _board(game: LoadedGame, v: dict[str, Any], choices: list[Action],
           level: int) -> discord.Embed:
    """Return the board without its events, at a level of detail (see :data:`LEVELS`)."""
    started = f"Started by {game.seat_name(0)} · " if level < 4 else ""
    footer = f"{started}{who_plays(game)} · deck {v['deck_left']} cards{daily_note(game)}"
    if v["over"]:
        embed = _ended(v)
        embed.set_footer(text=footer)
        return embed
    embed = discord.Embed(
        title=f"{TITLE} · day {min(v['day'], v['last_day'])} of {v['last_day']} · "
              f"location {v['location_in_day']}/6",
        colour=COLOUR,
    )
    lines = [WAITING.get(v["waiting"], "")]
    lines += _choice_lines(choices, level)
    lines += _situation(v)
    if v["tableau"] and level >= 1:
        ends = v["tableau"][0]["edges"][0], v["tableau"][-1]["edges"][1]
        left, right = (ICONS.get(e, e) for e in ends)
        count = len(v["tableau"])
        lines.append(f"Tableau: {count} card{'' if count == 1 else 's'}, ends {left} … {right}")
    lines += ["", *_trackers(v, short=level >= 3)]
    embed.description = clip("\n".join(line for line in lines if line is not None), 4096)
    if v["tableau"] and level == 0:
        embed.add_field(name="Tableau, left to right",
                        value=clip(" ".join(_card(c) for c in v["tableau"]), 1024),
                        inline=False)
    if v["items"]:
        if level < 2:
            items = "\n".join(f"{'✅' if i.get('ready') else '▫️'} **{i['name']}**: {i['text']}"
                              for i in v["items"])
        else:
            items = " · ".join(f"{'✅' if i.get('ready') else '▫️'} {i['name']}"
                               for i in v["items"])
        embed.add_field(name="Items", value=clip(items, 1024), inline=False)
    embed.set_footer(text=footer)
    return embed


def _situation(v: dict[str, Any]) -> list[str]:
    """Return what is in front of the adventurer: the card, the location, the fight."""
    lines = []
    if v["top_card"]:
        lines.append(f"Top card: {_card(v['top_card'])}")
    if v["location"]:
        lines.append(f"Location: {_card(v['location'])}")
    if v["result"] and v["waiting"] not in ("race", "class"):
        r = v["result"]
        lines.append(f"Result card {r['name']}: 👹 {r['enemy']} · 🪤 {r['trap']} · "
                     f"❔ {r['encounter']} · 💰 {r['loot']}")
    if v["combat"]:
        c = v["combat"]
        undead = " (undead)" if c.get("undead") else ""
        lines.append(
            f"👹 **{c['name']}**{undead}: health **{c['health']}/{c['max_health']}**, "
            f"attack {c['attack']}, defense {c['defense']}, favor {c['favor']}. {c['power']}"
        )
    return lines


def _ended(v: dict[str, Any]) -> discord.Embed:
    """Return an ended journey: how it ended, the score in words, the map."""
    end = v.get("end") or "dead"
    embed = discord.Embed(title=f"{HEADLINES.get(end, '💀 Defeat')} · {TITLE}",
                          colour=WON_COLOUR if end == "won" else LOST_COLOUR)
    how = v.get("end_text") or {"won": "You reached Oakinshelm", "dead": "You died on the road",
                                "time": "The seventh day ended on the road"}.get(end, "")
    parts = v.get("score_parts") or {}
    words = v.get("score_words") or ", ".join(
        f"{k} {'+' if n >= 0 else ''}{n}" for k, n in parts.items())
    lines = [f"**{how}.**", f"Score **{v.get('score', 0)}**, rank **{v.get('rank', '—')}**",
             words, "", *_trackers(v)]
    embed.description = clip("\n".join(lines), 4096)
    return embed


async def setup(bot: Any) -> None:
    """Load the Tin Realm cog."""
    await bot.add_cog(TinRealmCog(bot))
