"""Tin Realm in Discord: /tinrealm commands and the journey's board."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.layout import BoardButton, BoardItem, phone_items
from bot.boards.render import actions_for_board
from bot.games.protocol import Action, GameError
from bot.games.tinrealm.adventurer import WATER_ROLL
from bot.games.tinrealm.content import EDGE_WORDS, Content, ContentError
from bot.games.tinrealm.engine import ENGINE as TINREALM
from bot.games.tinrealm.engine import parse_sides
from bot.games.tinrealm.text import SPENT
from bot.table.errors import Refusal
from bot.table.service import LoadedGame
from bot.text.widths import clip_words, shown_width
from cogs.base import (
    PLAYERS_HELP,
    THREAD_HELP,
    WINDOW_HELP,
    GameCog,
    last_line,
    modes_text,
    voting,
)
from cogs.cards import clip
from cogs.details import Section
from db.base import GameStore
from db.errors import StorageError

log = logging.getLogger(__name__)

TITLE = "Tin Realm"

ICONS = {
    "forest": "🌲", "water": "💧", "mountain": "⛰️", "skull": "💀", "half-skull": "💀",
    "none": "·", "enemy": "👹", "trap": "🪤", "encounter": "❔", "loot": "💰",
    "campsite": "🏕️", "S": "▶️", "F": "🏰", "-": "·",
}

#: The board's selects: a placeholder and the groups whose actions it offers.
SELECTS = {"Choose your race…": ("race",), "Choose your class…": ("class",),
           "Eat or use an item…": ("eat", "item")}

WAITING = {
    "race": "**Choose your adventurer's race**; a class follows.",
    "class": "**Choose your adventurer's class.**",
    "decide": "**Resolve** the top card, or **skip** it.",
    "place": "**Place** the location at the left or right end.",
    "camp": "**A campsite**: rest (+2 ❤️, +1 ⚡) or search (+1 🍖).",
    "offer": "**Something is offered**: take it or walk on.",
}

#: A line of the board's description on a phone, in letters (``bot.text.widths``): 42 ordinary
#: letters fit before the preview tool wraps at 360 px.
DESCRIPTION_LETTERS = 40
#: Letters of room bold words take beyond their count (a name of 20 bold letters).
BOLD_SLACK = 2
#: What the fight's buttons mean, on the board while fighting (the sure blow's damage).
FIGHT_LEGEND = "Sure: {sure} damage, no roll; ⚡n: strike with n energy (+ bonus damage)."
#: Groups that are side options, never the decision itself (food and items, any time).
SIDE_GROUPS = ("eat", "item")

#: Colours of the board: on the road, and ended boards by how the journey ended.
COLOUR = 0xB08D57
WON_COLOUR = 0x2ECC71
LOST_COLOUR = 0x992D22
#: Headlines of an ended journey: reaching Oakinshelm, death, time running out (each a
#: phone line with the game's name; the board's first words say how it ended).
HEADLINES = {"won": "🏆 Victory", "dead": "💀 Defeat", "time": "⌛ Defeat"}

#: The ways to play a journey (it cannot be given up).
WAYS_TO_PLAY = modes_text(give_up=False)


def rules_of(c: Content) -> tuple[tuple[str, str], ...]:
    """Return the rules page's sections, with the numbers of the cards ``c`` (a
    replacement content file may have another foraging race, another helm)."""
    best_helm = max((i.amount for i in c.items.values() if i.kind == "helm"), default=0)
    helm = f", minus {best_helm} with a helm" if best_helm else ""
    foragers = "; ".join(f"the {r.name}: {_rolls(r.amount)}" for r in c.races.values()
                         if r.ability == "forager" and r.amount != WATER_ROLL)
    foragers = f" ({foragers})" if foragers else ""
    water = f"Water: roll one die; {_rolls(WATER_ROLL)} finds 1 food{foragers}. "
    return (
        ("Goal", "Lead your adventurer to Oakinshelm (🏰, the last node of the map) within 7 "
                 "days. Reaching it wins at once; the score decides your rank."),
        ("A day", "Six locations a day. Look at the top exploration card and resolve it, or skip "
                  "it so it becomes the result card for the next one. A location's icons resolve "
                  "left to right: enemies, traps, random encounters, loot, campsite, water. Then "
                  "the location joins either end of your tableau. A campsite or water node on the "
                  "map works like that icon whenever you land on or pass it, forward or back."),
        ("The tableau", "Matching forest, water or mountain edges move you 1 node forward; two "
                        "skull halves cost half your health and move you back 3 nodes."),
        ("Combat", "Enemy health is its printed health plus the day. You strike first unless "
                   "the foe's power says otherwise. Before each strike pick 0-3 energy and roll "
                   "two dice: doubles miss, otherwise the difference plus your class bonus (and "
                   "your gear's) minus the enemy's defense. Or deal 1 sure damage (a race with a "
                   "bane deals more to the undead). The enemy strikes back with two dice: doubles "
                   f"miss; otherwise the difference plus its attack value{helm}. "
                   "A win gives its favor."),
        ("Camps, water and food", "Campsite: rest (+2 health, +1 energy) or search (+1 food). "
                                  f"{water}"
                                  "Eat food any time for +1 health or +1 energy; before a "
                                  "harm that could kill you, the game stops so you may eat "
                                  "first. At the end of each day eat 1 food or take 3 "
                                  "damage. You die when health is "
                                  "at or below poison. You hold at most 5 food, and never more "
                                  "health or energy than you started with."),
        ("Score", "10 for Oakinshelm + health + energy + food + favor + 2 per node reached "
                  "- poison - 2 per day ended. Ranks: up to 20 Ratcatcher, 21-30 Laborer, "
                  "31-40 Guard, 41-50 Performer, 51-60 Merchant, 61+ Mayor."),
        ("Who plays", WAYS_TO_PLAY),
    )


def _rolls(least: int) -> str:
    """Return the die rolls from ``least`` up, in words ("4-6", "6", "none")."""
    return f"{least}-6" if least < 6 else "6" if least == 6 else "none"


#: The rules page of the content the bot ships.
RULES = rules_of(TINREALM.content(None))


def _card(card: dict[str, Any]) -> str:
    """Return an exploration card in words: "**Name** 👹💰 · forest on the left, water on
    the right"."""
    left, right = (EDGE_WORDS.get(e, e) for e in card["edges"])
    icons = "".join(ICONS.get(i, i) for i in card["icons"])
    return f"**{card['name']}** {icons} · {left} on the left, {right} on the right"


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
    modes_text = WAYS_TO_PLAY

    tinrealm = app_commands.Group(
        name="tinrealm", description="Tin Realm: a solo journey to Oakinshelm within 7 days",
        guild_only=True,
    )

    async def cog_load(self) -> None:
        """Also read the content files stored journeys were started with (an earlier
        TINREALM_CONTENT), off the event loop and before the bot serves: a move, or a
        look at an ended journey's board or replay, then finds its content in the
        engine's memory. A file that cannot be read is logged; its journeys show as
        damaged."""
        await super().cog_load()
        chosen = self.bot.settings.tinrealm_content
        if chosen is not None:  # the rules page quotes the numbers of the cards played
            with contextlib.suppress(ContentError, OSError, ValueError):  # said at the start
                self.rules_text = rules_of(await asyncio.to_thread(TINREALM.content,
                                                                   str(chosen)))
        for path in await _journeys_contents(self.bot.store):
            try:
                await asyncio.to_thread(TINREALM.content, path)
            except ContentError as exc:  # one file never stops the start
                log.warning("a journey's content file is not usable: %s", exc)

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the journey, phone first: the decision in a line or two, the last event
        in the footer; in a fight with a picture, the foe's power and whether it is undead
        (the picture shows neither); without a picture, the position in a few more lines.

        The whole tableau and the items' texts are in "Rules & details".
        """
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        v = game.view()
        if v["over"]:
            embed = _ended(v, full=not game.pictured)
        else:
            fight = v["waiting"] == "fight"
            embed = discord.Embed(
                title=f"{'👹 Fight!' if fight else TITLE} · day "
                      f"{min(v['day'], v['last_day'])}/{v['last_day']} · "
                      f"location {v['location_in_day']}/6",
                colour=COLOUR,
            )
            lines = [_offer_line(game) if v["waiting"] == "offer"
                     else _brace_line(game) if v["waiting"] == "brace"
                     else WAITING.get(v["waiting"], ""),
                     _skull_line(game) if v["waiting"] == "place" else ""]
            if fight:  # the title says it; the legend, while no vote takes the room
                foe = v["combat"] or {}
                lines = [] if voting(game) else [FIGHT_LEGEND.format(sure=foe.get("sure_blow", 1))]
                if game.pictured and foe:  # the picture draws neither power nor undead
                    lines.insert(0, _foe_line(foe))
            if not game.pictured:
                lines += _position(v)
            embed.description = clip("\n".join(line for line in lines if line), 4096) or None
        embed.set_footer(text=last_line(game))
        return embed

    def legend(self, game: LoadedGame) -> str:
        """Return every symbol the board uses and its meaning (the engine's legend)."""
        v = game.view() if game.state is not None else {}
        entries = v.get("legend") or [
            {"emoji": emoji, "meaning": key} for key, emoji in ICONS.items() if key != "-"
        ]
        lines = [f"{e['emoji']} {e['meaning']}" for e in entries]
        lines += ["🗺️ the map: a mark per node, ┃ between two map cards",
                  "🎒 the items you carry, +2 for two more (what each does: the Journey page, "
                  "under Items)",
                  "✅ an item not used up (the \"Eat or use an item…\" menu offers the "
                  "ones that would do something now) · ~~Rope~~ on the board, Rope (spent) "
                  "on the Journey page: one used up for today, this fight or good",
                  "🏆 reached Oakinshelm · 💀 died · ⌛ the seventh day ended on the road"]
        return "\n".join(lines)

    def card_sections(self, game: LoadedGame) -> list[Section]:
        """Return the whole tableau, the items and the last roll; while the adventurer is
        chosen, every class's starting items and what each does."""
        if game.state is None:
            return []
        v = game.view()
        items = "\n".join(f"✅ **{i['name']}**: {i['text']}" if i.get("ready")
                          else f"**{i['name']}**{SPENT}: {i['text']}" for i in v["items"])
        fields = [("Tableau, left to right", "\n".join(_card(c) for c in v["tableau"]) or "—"),
                  ("Items", items or "—")]
        if v.get("dice"):
            fields.append(("Last roll", " ".join(f"🎲{d}" for d in v["dice"])))
        if v["waiting"] in ("race", "class"):
            fields.append(("Classes and their starting items", _classes(game)))
        return [Section("cards", "Journey", "The journey in full", fields)]

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return every decision the rules give now, phone first.

        Race and class are a select whose options say what each gives; eating and items
        share one select (what each does under its name); the decision's buttons come
        three to a row, in the primary style (only the engine's primary choice when it
        marks one).
        """
        actions = _sure_first([_short_label(a) for a in actions_for_board(game)])
        items = phone_items(game.id, game.row.version, actions, selects=SELECTS)
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
        sides="Your own map instead: each map card's side, 3 or 4 spaces, e.g. 3,4,3,4",
        thread=THREAD_HELP,
    )
    async def start(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        preset: Literal["easy", "hard"] = "easy",
        sides: app_commands.Range[str, 1, 40] | None = None,
        thread: Literal["yes", "no"] | None = None,
    ) -> None:
        """Start a journey in this channel (or a new thread); ``sides`` picks each map
        card's side (R2: a custom map) in place of the preset."""
        await self.start_solo(interaction, self._options(preset, sides), players=players,
                              window=vote_seconds, thread=thread)

    @tinrealm.command(name="daily", description="Play today's daily journey: the same everywhere")
    @app_commands.describe(players=PLAYERS_HELP, vote_seconds=WINDOW_HELP, thread=THREAD_HELP)
    async def daily(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        thread: Literal["yes", "no"] | None = None,
    ) -> None:
        """Start today's daily journey (easy map) in this channel."""
        await self.start_solo(interaction, self._options("easy"),
                              players=players, window=vote_seconds, daily=True, thread=thread)

    def default_options(self) -> dict[str, Any]:
        """Return /tinrealm start's options when none is chosen: the easy map."""
        return self._options("easy")

    def _options(self, preset: str, sides: str | None = None) -> dict[str, Any]:
        """Return a journey's options: the preset's map, or ``sides`` read as a custom one
        (refused privately, saying why, when it does not name every card's side)."""
        options: dict[str, Any] = {"preset": preset}
        content = self.bot.settings.tinrealm_content if self.bot else None
        if content is not None:
            options["content_path"] = str(content)  # resolved by the settings
        if sides is not None:
            maps = len(TINREALM.content(options.get("content_path")).maps)
            try:
                options.update(preset="custom", sides=parse_sides(sides, maps))
            except GameError as exc:
                raise Refusal(f"That map cannot be laid: {exc}.") from None
        return options

    @tinrealm.command(name="board", description="Post the journey's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @tinrealm.command(name="replay", description="Replay the last journey that ended here")
    async def replay(self, interaction: discord.Interaction) -> None:
        """Post the replay of the channel's last ended journey."""
        await self.replay_last(interaction)

    @tinrealm.command(name="rules", description="How Tin Realm is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction)

    @tinrealm.command(name="abandon", description="End this channel's journey (starter or mods)")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


#: A ruling id in an engine's text, e.g. " (R7)": players never see it.
RULING = re.compile(r"\s*\([A-Z]{1,2}\d{1,2}\)")
#: A strike's engine label ("Strike with 2 energy (+4)"), shortened to fit a phone row.
STRIKE = re.compile(r"Strike with (\d+) energy(?: \((\+\d+)\))?")
#: The sure blow's engine label ("Sure blow: 2 damage"): its damage stays on the button.
SURE = re.compile(r"Sure blow: (\d+) damage")


def _sure_first(actions: list[Action]) -> list[Action]:
    """Put a fight's sure blow before its strikes (R6): as energy runs low the strikes
    it no longer pays for go from the end of the row, and every button left stays where
    the thumb found it (after the blow, "⚡2" would move to where "Sure" was)."""
    blow = [a for a in actions if a.id == "blow"]
    return [*blow, *(a for a in actions if a.id != "blow")] if blow else actions


def _short_label(action: Action) -> Action:
    """Return ``action`` with a label short enough for three buttons a row on a phone.

    Race and class keep their name and numbers (a select's option, its ability below);
    the card, place, camp and offer buttons say the choice alone ("Skip", "⬅️ advance");
    strikes say "⚡2 +4", the sure blow its damage ("Sure 2"); eating "🍖→❤️". Descriptions
    lose the rules' ids ("(R7)").
    """
    label = action.label
    if action.group in ("decide", "camp"):
        label = label.split(" ", 1)[0].rstrip(":")
    elif action.group == "offer":
        label = "Accept" if label.startswith("Accept") else label
    elif action.group == "place":
        label = _place_label(label)
    elif action.group == "eat":
        label = "🍖→⚡" if "energy" in label else "🍖→❤️"
    elif action.group == "item":
        label = label.removeprefix("Use ")
    elif match := STRIKE.fullmatch(label):
        label = f"⚡{match[1]}{' ' + match[2] if match[2] else ''}"
    elif label.startswith("Sure blow"):
        label = f"Sure {match[1]}" if (match := SURE.search(label)) else "Sure"
    description = RULING.sub("", action.description)
    if (label, description) == (action.label, action.description):
        return action
    return Action(action.id, label, action.group, description, action.primary)


def _place_label(label: str) -> str:
    """Return a placing choice as its end and result: "⬅️ forest +1", "➡️ 💀 ½❤️ −3" (half
    the health lost, 3 nodes back), or "⬅️ no match" (the edges meet but do not match; "no
    path" is a blank edge of its own)."""
    side, _, result = label.partition(": ")
    arrow = "⬅️" if side == "Left" else "➡️"
    if "skull" in result:
        return f"{arrow} 💀 ½❤️ −3"
    edge = result.split(" ", 1)[0]
    if "advance" in result and edge in ICONS:
        return f"{arrow} {edge} +1"
    return f"{arrow} no match"


def _position(v: dict[str, Any]) -> list[str]:
    """Return what the picture shows, as text: the card, the fight, the adventurer (the
    placing buttons say where each end leads, the item select what each item does)."""
    return [*_situation(v), *_trackers(v, short=True, pack=True)]


def _pack(v: dict[str, Any], room: float) -> str:
    """Return the items carried, by name, cut to ``room`` letters ("🎒 Rope · ~~Lantern~~":
    one used up for now struck through, as the picture strikes it, which costs no room
    and reads on every theme, where a pale mark does not); what each does is in the item
    select and "Rules & details"."""
    items = v.get("items") or []
    if not items:
        return ""
    names = [str(i["name"]) for i in items]
    count = 1
    while count < len(names):  # the next item joins if it fits, with the count after it
        after = f" +{len(names) - count - 1}" if count + 1 < len(names) else ""
        if shown_width("🎒 " + " · ".join(names[:count + 1])) + len(after) > room:
            break
        count += 1
    more = f" +{len(names) - count}" if count < len(names) else ""  # left out, counted
    # the first alone: its name cut to the room the count leaves
    shown = names[:count] if count > 1 else \
        [clip_words(f"🎒 {names[0]}", room - len(more)).removeprefix("🎒 ")]
    return "🎒 " + " · ".join(name if item.get("ready") else f"~~{name}~~"
                             for name, item in zip(shown, items, strict=False)) + more


def _trackers(v: dict[str, Any], short: bool = False, pack: bool = False) -> list[str]:
    """Return the adventurer's lines: who, health and energy, food, poison, favor, the map.

    ``short`` puts the trackers on one line, by their icons only; ``pack`` follows who
    with the items carried, on the same phone line.
    """
    who = " ".join(x for x in (v.get("race"), v.get("class")) if x)
    carried = _pack(v, DESCRIPTION_LETTERS - BOLD_SLACK - shown_width(f"{who} · ")) if pack \
        else ""
    lines = [f"**{who}**" + (f" · {carried}" if carried else "")] if who else []
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


def _classes(game: LoadedGame) -> str:
    """Return each class's starting items in full ("**Warden**: Buckler (The first enemy
    hit ...)"): the class select names them only."""
    c = TINREALM.content(getattr(game.state, "content_path", None))
    return clip("\n".join(
        f"**{k.name}**: " + "; ".join(f"{c.items[t].name} ({c.items[t].text})"
                                      for t in k.trappings)
        for k in c.classes.values()), 1024)


def _offer_line(game: LoadedGame) -> str:
    """Return what is offered, in the card's words ("You may offer 1 food for 2 favor and
    1 less poison."), or the plain prompt when the terms are not known."""
    offers = {a.id: a for a in game.legal_actions(0)}
    taking, leaving = offers.get("offer:yes"), offers.get("offer:no")
    if taking is not None and taking.description:
        who = _capital(taking.label.removeprefix("Accept "))
        return f"**{who}**: {taking.description} Take it or walk on."
    if leaving is not None and leaving.description:
        who = _capital(leaving.description.removeprefix("Leave ").rstrip("."))
        return f"**{who}** offers something you cannot pay for: walk on."
    return WAITING["offer"]


def _brace_line(game: LoadedGame) -> str:
    """Return what a brace waits before (R7), and that eating or an item may come first:
    "⚠️ The result card's 2 health trap springs next: it could kill you. Eat or use an
    item first, or go on." """
    going = next((a for a in actions_for_board(game) if a.id == "go"), None)
    return f"⚠️ {going.description}" if going is not None and going.description else ""


def _skull_line(game: LoadedGame) -> str:
    """Return what a placing button marked 💀 does, in words (R4), or "" when no end
    matches skulls: its label ("⬅️ 💀 ½❤️ −3") says it in emoji alone."""
    ends = [a.label.partition(": ")[0].lower() for a in actions_for_board(game)
            if a.group == "place" and "skull" in a.label]
    if not ends:
        return ""
    where = " and ".join(ends)
    return (f"💀 At the {where} end{'s' if len(ends) > 1 else ''}, skull meets skull: you "
            "lose half your health and go back 3 nodes.")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


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


def _foe_line(combat: dict[str, Any]) -> str:
    """Return what the fight's picture leaves out: whether the foe is undead and its power
    ("👹 Undead · Rerolls its doubles once per strike.")."""
    undead = "Undead · " if combat.get("undead") else ""
    return f"👹 {undead}{combat.get('power') or ''}".rstrip(" ·")


def _ended(v: dict[str, Any], *, full: bool = True) -> discord.Embed:
    """Return an ended journey: how it ended, the score and its parts in words; ``full``
    adds the adventurer (the picture shows it)."""
    end = v.get("end") or "dead"
    embed = discord.Embed(title=f"{HEADLINES.get(end, '💀 Defeat')} · {TITLE}",
                          colour=WON_COLOUR if end == "won" else LOST_COLOUR)
    how = v.get("end_text") or {"won": "You reached Oakinshelm", "dead": "You died on the road",
                                "time": "The seventh day ended on the road"}.get(end, "")
    parts = v.get("score_parts") or {}
    words = v.get("score_words") or ", ".join(
        f"{k} {'+' if n >= 0 else ''}{n}" for k, n in parts.items())
    lines = [f"**{how}.** Score **{v.get('score', 0)}**, rank **{v.get('rank', '—')}**",
             words]
    if full:
        lines += _trackers(v, short=True)
    embed.description = clip("\n".join(line for line in lines if line), 4096)
    return embed


async def _journeys_contents(store: GameStore) -> list[str]:
    """Return the content files stored journeys were started with, open or ended, as
    their options name them (none on a store that cannot be read now: logged, read at
    the first look)."""
    try:
        rows = await store.query("SELECT DISTINCT options FROM games WHERE kind = 'tinrealm'")
    except StorageError as exc:
        log.warning("could not read the open journeys' content files: %s", exc)
        return []
    paths: set[str] = set()
    for (raw,) in rows:
        try:
            options = json.loads(raw)
        except (TypeError, ValueError):
            continue  # a damaged row: its game shows as damaged
        path = options.get("content_path") if isinstance(options, dict) else None
        if isinstance(path, str):
            paths.add(path)
    return sorted(paths)


async def setup(bot: Any) -> None:
    """Load the Tin Realm cog."""
    await bot.add_cog(TinRealmCog(bot))
