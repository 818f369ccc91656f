"""The built-in computer player: simple rules of thumb, no look-ahead, no randomness.

It decides only from what a player at the table can see: the top exploration card, the
day's remaining cards as a set (not their order), the face-up result card, its own
trackers and items. It never reads the order of the deck or the dice to come.

It keeps itself fed and healed, uses map items at once, resolves a location when the
top card looks better than an average card left in the deck, places cards where the
edges match, and spends energy in combat when the extra damage is worth it. Braced
before a harm the result card shows, it eats, heals or cures while the harm could still
kill it, then goes on.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.protocol import Action
from bot.games.tinrealm import combat, journey
from bot.games.tinrealm.content import LANDSCAPES, Content, ExplorationCard
from bot.games.tinrealm.journey import edge_match
from bot.games.tinrealm.state import FOOD_CAP, TinState

#: Chance of each difference (1-5) on two dice; doubles (the rest) miss.
DIFFERENCES = {1: 10 / 36, 2: 8 / 36, 3: 6 / 36, 4: 4 / 36, 5: 2 / 36}
#: Value of an advancing edge match, compared with the icons' values below.
MATCH_VALUE = 4.0
#: Value of the exploration icons for a healthy adventurer.
ICON_VALUES = {"trap": -1.5, "encounter": -0.3, "loot": 1.2, "campsite": 1.5, "water": 0.4}
#: Food kept back for the suppers to come.
FOOD_RESERVE = 2


def choose(c: Content, s: TinState, legal: list[Action]) -> str:
    """Return the id of the action this player takes."""
    ids = [a.id for a in legal]
    kind = s.waiting_for.partition(":")[0]
    if kind == "race":
        return ids[s.rng.seed % len(ids)]
    if kind == "class":
        return ids[s.rng.seed // len(c.races) % len(ids)]
    upkeep = _upkeep(c, s, ids)
    if upkeep:
        return upkeep
    if kind == "decide":
        return _decide(c, s)
    if kind == "place":
        return _place(c, s)
    if kind == "camp":
        return _camp(s)
    if kind == "offer":
        return _offer(c, s) if "offer:yes" in ids else "offer:no"
    if kind == "brace":
        return _brace(c, s, ids)
    return _strike(c, s, ids)


def _margin(s: TinState) -> int:
    """Health above the poison line: how far from death."""
    return s.health - s.poison


def _upkeep(c: Content, s: TinState, ids: list[str]) -> str | None:
    """Eat, heal, cure and use map items before the pending choice."""
    danger = 6 if s.fight else 3
    for action in ids:
        if not action.startswith("use:"):
            continue
        item = c.items[action[4:]]
        if item.kind == "advance":
            return action
        if item.kind == "cure" and (s.poison >= 2 or _margin(s) <= danger):
            return action
        if item.kind == "heal" and (s.health <= s.max_health - item.amount or _margin(s) <= danger):
            return action
        if item.kind == "restore" and s.energy <= s.max_energy - item.amount:
            return action
        if (
            item.kind == "bomb"
            and s.fight
            and (s.fight.health <= item.amount or _margin(s) <= danger)
        ):
            return action
    if "eat:health" in ids and (_margin(s) <= danger or s.food > FOOD_RESERVE):
        return "eat:health"
    if "eat:energy" in ids and (
        s.food > FOOD_RESERVE or (s.fight and s.energy == 0 and s.food > 1)
    ):
        return "eat:energy"
    return None


def _brace(c: Content, s: TinState, ids: list[str]) -> str:
    """Before a harm the result card shows (R7): while it could kill, eat or use a healing,
    curing or map item (:func:`_reach`), and once it cannot, go on."""
    coming = journey.threat(c, s, s.queue[1]) if len(s.queue) > 1 else None
    if coming is None or not coming.deadly:
        return "go"
    helping = [a for a in ids if a == "eat:health" or (
        a.startswith("use:") and c.items[a[4:]].kind in ("heal", "cure", "advance"))]
    return min(helping, key=lambda action: _reach(c, action)) if helping else "go"


def _reach(c: Content, action: str) -> int:
    """The order a helping action is reached for: first what comes back tomorrow (a
    once-a-day item), then food, then an item that is used up."""
    if action == "eat:health":
        return 1
    return 0 if c.items[action[4:]].uses == "per_day" else 2


def _place_value(c: Content, s: TinState, card: ExplorationCard, end: str) -> float:
    """Value of placing ``card`` at ``end`` of the tableau."""
    matched = edge_match(c, s.tableau, card, end)
    if matched == "skull":
        return -MATCH_VALUE * 2
    return MATCH_VALUE if matched else 0.0


def _card_value(c: Content, s: TinState, card: ExplorationCard) -> float:
    """How good a card looks as the location: its best placement plus its icons."""
    value = max(_place_value(c, s, card, end) for end in ("left", "right"))
    fragile = 1.0 + max(0, 7 - _margin(s)) * 0.4
    for icon in card.icons:
        if icon == "enemy":
            value -= (1.0 + 0.4 * s.day) * fragile
        elif icon == "campsite":
            value += ICON_VALUES[icon] * fragile
        else:
            value += ICON_VALUES[icon]
    return value


def _decide(c: Content, s: TinState) -> str:
    """Resolve the top card unless an average card below it looks better."""
    top = _card_value(c, s, c.exploration[s.deck[0]])
    # Only the top card is seen; the rest are known as a set (the day's cards not yet
    # used), never in order: sorting makes the sum the same whatever their order.
    rest = sorted(_card_value(c, s, c.exploration[i]) for i in s.deck[1:])
    return "resolve" if top >= sum(rest) / len(rest) else "skip"


def _openness(c: Content, s: TinState, left: str, right: str) -> float:
    """How many cards left in the deck could match the tableau's outer edges."""
    count = 0
    for i in s.deck:
        card = c.exploration[i]
        count += card.right == left and left in LANDSCAPES
        count += card.left == right and right in LANDSCAPES
    return count * 0.1


def _place(c: Content, s: TinState) -> str:
    """Place where the edges match; otherwise keep the outer edges easy to match."""
    card = c.exploration[s.location or ""]
    left_end, right_end = c.exploration[s.tableau[0]], c.exploration[s.tableau[-1]]
    left = _place_value(c, s, card, "left") + _openness(c, s, card.left, right_end.right)
    right = _place_value(c, s, card, "right") + _openness(c, s, left_end.left, card.right)
    return "place:left" if left > right else "place:right"


def _camp(s: TinState) -> str:
    """Rest when hurt or tired, else search for food."""
    rest = min(2, s.max_health - s.health) + 0.8 * min(1, s.max_energy - s.energy)
    search = 1.2 if s.food < FOOD_CAP else 0.0
    return "camp:rest" if rest >= search else "camp:search"


def _worth(s: TinState, stats: Mapping[str, int]) -> float:
    """A rough value of some stats to this adventurer."""
    weights = {
        "health": 1.0,
        "energy": 0.8,
        "food": 1.5 if s.food <= 1 else 1.0,
        "poison": -1.2 if s.poison else 0.0,
        "favor": 0.5,
    }
    room = {
        "food": FOOD_CAP - s.food,
        "health": s.max_health - s.health,
        "energy": s.max_energy - s.energy,
    }
    return sum(weights[k] * min(v, room.get(k, v)) for k, v in stats.items())


def _offer(c: Content, s: TinState) -> str:
    """Accept an offer when what it gives is worth more than what it costs."""
    encounter = c.encounters[s.waiting_for.partition(":")[2]]
    return "offer:yes" if _worth(s, encounter.gain) > _worth(s, encounter.pay) else "offer:no"


def _strike(c: Content, s: TinState, ids: list[str]) -> str:
    """Pick the strike whose expected damage, and chance to end the fight, beats its cost.

    The sure blow (1 damage, no roll; more to undead for a race with a bane) and a roll
    spending 0 energy are both on offer at any energy (R6, revised), so at 0 energy it
    still weighs the one against the other: the roll's expected damage less the enemy's
    defense (and its weapons) against the sure damage, plus the chance of ending the fight
    before the enemy strikes back. Against a high defense, or an enemy the blow finishes,
    the blow wins; otherwise the roll does.
    """
    fight = s.fight
    if fight is None or not any(a.startswith("strike:") for a in ids):
        return "blow"
    enemy = c.enemies[fight.enemy]
    extra = combat.strike_extra(c, s, enemy) - enemy.defense
    threat = 5 / 6 * (7 / 3 + enemy.attack)
    cost = 0.5 if s.energy >= 4 else 0.9
    sure = combat.sure_damage(c, s, enemy)
    best, best_value = "blow", min(fight.health, sure) + (threat if fight.health <= sure else 0.0)
    for action in ids:
        if not action.startswith("strike:"):
            continue
        energy = int(action[7:])
        base = combat.energy_bonus(c, s, energy) + extra
        expected = sum(p * min(fight.health, max(0, d + base)) for d, p in DIFFERENCES.items())
        kill = sum(p for d, p in DIFFERENCES.items() if d + base >= fight.health)
        value = expected + kill * threat - cost * energy
        if value > best_value:
            best, best_value = action, value
    return best
