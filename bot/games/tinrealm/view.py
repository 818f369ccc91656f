"""The public view of a game: plain JSON-able data, what a board shows."""

from __future__ import annotations

from typing import Any

from bot.games.tinrealm.adventurer import WATER_ROLL, ability, usable
from bot.games.tinrealm.combat import sure_damage
from bot.games.tinrealm.content import Content, ExplorationCard
from bot.games.tinrealm.scoring import end_words, rank, score, score_parts, score_words
from bot.games.tinrealm.state import FOOD_CAP, LAST_DAY, TinState

#: Every symbol a board uses: (key, emoji, text-board character, meaning). Edge icons,
#: exploration icons and map marks share one entry where they share a symbol.
LEGEND: tuple[tuple[str, str, str, str], ...] = (
    ("forest", "🌲", "forest", "forest edge: two side by side move you 1 node forward"),
    ("mountain", "⛰️", "mountain", "mountain edge: two side by side move you 1 node forward"),
    ("water", "💧", "~", "water (wave lines in the picture): two water edges side by side "
     "move you 1 node forward; as an icon or a map node, roll a die, {water}-6 finds 1 food"),
    ("skull", "💀", "skull", "half a skull on an edge: two halves side by side cost half "
     "your health and move you back 3 nodes"),
    ("none", "·", ".", "a plain edge or road node: nothing happens"),
    ("enemy", "👹", "enemy", "enemy icon (crossed swords in the picture): fight the enemy "
     "the result card names"),
    ("trap", "🪤", "trap", "trap icon: lose what the result card's trap says"),
    ("encounter", "❔", "encounter", "random encounter icon (a speech bubble in the "
     "picture): the result card names an enemy or a reference card"),
    ("loot", "💰", "loot", "loot icon (a chest in the picture): take the loot card the "
     "result card names"),
    ("campsite", "🏕️", "C", "campsite (icon or map node): rest (+2 health, +1 energy) or "
     "search (+1 food)"),
    ("S", "▶️", "S", "the start of the map (the green mark in the picture)"),
    ("F", "🏰", "F", "Oakinshelm (the red flag in the picture): reaching it wins at once"),
    ("meeple", "🧍", "@", "you, on the map"),
    ("health", "❤️", "health", "health; you die when it is at or below your poison"),
    ("energy", "⚡", "energy", "energy, spent on strikes"),
    ("food", "🍖", "food", "food (a fruit in the picture): eat 1 for +1 health or energy; 1 "
     "is eaten each night"),
    ("poison", "☠️", "poison", "poison (a green drop in the picture, its bar against your "
     "most health): you die when health is at or below it"),
    ("favor", "⭐", "favor", "favor won from enemies, counted in the score"),
    ("sundial", "🕰️", "day", "the sundial: the day of 7"),
    ("dice", "🎲", "roll", "the last dice rolled"),
)

#: The emoji of each key of :data:`LEGEND` (edge, icon and map mark names included).
EMOJI: dict[str, str] = {key: emoji for key, emoji, _, _ in LEGEND} | {"-": "·"}


def legend(water: int = WATER_ROLL) -> list[dict[str, str]]:
    """Return the legend: every symbol the boards use and what it means; ``water`` is the
    least roll that finds food at water (R5: 5, or the race's forager roll)."""
    return [
        {"key": key, "emoji": emoji, "text": text,
         "meaning": meaning.replace("{water}", str(water))}
        for key, emoji, text, meaning in LEGEND
    ]


def card_view(card: ExplorationCard) -> dict[str, Any]:
    """The illustrated side of an exploration card."""
    return {
        "id": card.id,
        "name": card.name,
        "icons": list(card.icons),
        "edges": [card.left, card.right],
    }


def result_view(c: Content, card: ExplorationCard) -> dict[str, Any]:
    """The result side of an exploration card, with names spelled out."""
    kind, target = card.encounter
    met = c.enemies[target].name if kind == "enemy" else c.encounters[target].name
    return {
        "id": card.id,
        "name": card.name,
        "enemy": c.enemies[card.enemy].name,
        "trap": f"{card.trap.amount} {card.trap.kind}",
        "encounter": met,
        "loot": c.items[card.loot].name if card.loot else "empty chest",
    }


def _combat(c: Content, s: TinState) -> dict[str, Any] | None:
    """The enemy being fought, or None."""
    if s.fight is None:
        return None
    enemy = c.enemies[s.fight.enemy]
    return {
        "enemy": enemy.id,
        "name": enemy.name,
        "health": s.fight.health,
        "max_health": s.fight.start_health,
        "attack": enemy.attack,
        "defense": enemy.defense,
        "favor": enemy.favor,
        "undead": enemy.undead,
        "power": enemy.text,
        "sure_blow": sure_damage(c, s, enemy),
    }


def view(c: Content, s: TinState) -> dict[str, Any]:
    """Return the board as plain data."""
    nodes = c.nodes(s.sides)
    deciding = s.waiting_for == "decide"
    over = not s.queue
    data: dict[str, Any] = {
        "day": s.day,
        "night": s.at_night,
        "last_day": LAST_DAY,
        "location_in_day": s.location_in_day,
        "health": s.health,
        "max_health": s.max_health,
        "energy": s.energy,
        "max_energy": s.max_energy,
        "food": s.food,
        "food_cap": FOOD_CAP,
        "poison": s.poison,
        "favor": s.favor,
        "node": s.node,
        "furthest": s.furthest,
        "nodes_total": len(nodes),
        "map": [
            {"name": card.name, "side": side, "nodes": list(card.sides[side])}
            for card, side in zip(c.maps, s.sides, strict=True)
        ],
        "tableau": [card_view(c.exploration[i]) for i in s.tableau],
        "deck_left": len(s.deck),
        "top_card": card_view(c.exploration[s.deck[0]]) if deciding else None,
        "location": card_view(c.exploration[s.location]) if s.location else None,
        "result": result_view(c, c.exploration[s.result_card]) if s.result_card else None,
        "combat": _combat(c, s),
        "items": [
            {
                "id": i,
                "name": c.items[i].name,
                "text": c.items[i].text,
                "trapping": c.items[i].trapping,
                "ready": usable(c, s, i),
            }
            for i in s.items
        ],
        "race": c.races[s.race].name if s.race else None,
        "class": c.classes[s.klass].name if s.klass else None,
        "dice": list(s.dice),
        "waiting": s.waiting_for.partition(":")[0],
        "over": over,
        "end": s.end or None,
        "end_text": end_words(s) if over else None,
        "legend": legend(ability(c, s, "forager") or WATER_ROLL),
    }
    if over:
        points = score(s)
        data.update(
            score=points, rank=rank(points), score_parts=score_parts(s), score_words=score_words(s)
        )
    return data
