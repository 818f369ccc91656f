"""Exploration: the turn sequence, resolving icons, the journey tableau and the day's end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.protocol import IllegalAction
from bot.games.tinrealm import combat
from bot.games.tinrealm.adventurer import (
    ability,
    change,
    check_death,
    finish,
    move,
    ready,
    rest,
    search,
    spend,
    usable,
    water,
)
from bot.games.tinrealm.content import LANDSCAPES, Content, Encounter, ExplorationCard
from bot.games.tinrealm.state import LAST_DAY, LOCATIONS_PER_DAY, TinState

#: Tasks that wait for the player's choice.
CHOICES = ("race", "class", "decide", "camp", "offer", "fight", "place", "brace")
#: Health lost when a day ends without food (R9).
HUNGER_DAMAGE = 3
#: Nodes the meeple moves back on a skull match (R4).
SKULL_SETBACK = 3


def advance(c: Content, s: TinState, log: list[str]) -> None:
    """Run the tasks that need no choice until one does or the game ends.

    Before a harm the result card has shown that could kill (:func:`threat`), while eating
    or an item could still help (:func:`can_help`), the game waits on a ``brace`` (R7:
    food may be eaten at any time, so also between seeing the harm and taking it).
    """
    while s.queue and not s.end:
        if _waits(s):
            return
        danger = threat(c, s, s.queue[0])
        if danger and danger.deadly and can_help(c, s):
            s.queue.insert(0, "brace")
            return
        _step(c, s, log)


def _waits(s: TinState) -> bool:
    """Whether the task at the head of the queue waits for the player's choice; a combat
    not yet begun and the day's first placement begin by themselves."""
    kind = s.queue[0].partition(":")[0]
    if kind == "fight":
        return s.fight is not None
    if kind == "place":
        return bool(s.tableau)
    return kind in CHOICES


def _step(c: Content, s: TinState, log: list[str]) -> None:
    """Run the automatic task at the head of the queue."""
    kind, _, arg = s.queue[0].partition(":")
    if kind == "fight":
        combat.start(c, s, arg, log)
    elif kind == "place":
        place(c, s, "right", log)
    else:
        s.queue.pop(0)
        if kind == "icon":
            _icon(c, s, arg, log)
        elif kind == "discard":
            s.discard.append(_take_result(s))
        else:
            _dawn(c, s, log)


def go_on(c: Content, s: TinState, log: list[str]) -> None:
    """Leave a brace: the harm it waited before happens now (R7)."""
    s.queue.pop(0)
    _step(c, s, log)


@dataclass(frozen=True, slots=True)
class Threat:
    """A harm to health or poison about to happen by itself: what it is for a button
    ("face a 2 health trap"), in a sentence, and whether at worst it would kill."""

    what: str
    words: str
    deadly: bool


def threat(c: Content, s: TinState, task: str) -> Threat | None:
    """The harm ``task`` would do by itself to health or poison now, or None.

    A trap of health or poison (after the race's ward; none while a trap guard is ready),
    a random encounter that lowers health or gives poison, and the opening strike of an
    enemy that strikes first (at worst: the largest roll, less the helm and a ready
    block). Energy harm is left out: eating energy first never does better than after.
    """
    kind, _, arg = task.partition(":")
    if kind == "fight" and s.fight is None and c.enemies[arg].power == "strikes_first":
        enemy = c.enemies[arg]
        worst = combat.worst_opening(c, s, enemy)
        if worst <= 0:
            return None
        return Threat(f"the {enemy.name} strikes first",
                      f"The {enemy.name} strikes before your first strike, for up to "
                      f"{worst} damage", s.health - worst <= s.poison)
    if kind != "icon" or s.result_card is None:
        return None
    result = c.exploration[s.result_card]
    if arg == "trap":
        trap = result.trap
        amount = trap.amount - ability(c, s, "trap_ward")
        if trap.kind == "energy" or amount <= 0 or ready(c, s, "trap_guard"):
            return None
        after = s.health - amount if trap.kind == "health" else s.health
        poison = s.poison + amount if trap.kind == "poison" else s.poison
        warded = f" ({amount} for you)" if amount != trap.amount else ""
        return Threat(f"face a {amount} {trap.kind} trap",
                      f"The result card's {trap.amount} {trap.kind} trap{warded} springs next",
                      after <= poison)
    encounter_kind, target = result.encounter
    if arg != "encounter" or encounter_kind == "enemy":
        return None
    encounter = c.encounters[target]
    if encounter.kind != "gain":
        return None
    then = s.copy()
    _gain(then, encounter.gain)
    if then.health >= s.health and then.poison <= s.poison:
        return None
    return Threat(f"face the {encounter.name}",
                  f"The {encounter.name} comes next ({encounter.text.rstrip('.')})",
                  then.health <= then.poison)


def brace_over(c: Content, s: TinState) -> str:
    """Why a brace waited on goes on by itself now (eating or an item changed things),
    or "" while it still waits: the harm can no longer kill, or nothing left could help."""
    danger = threat(c, s, s.queue[1]) if len(s.queue) > 1 else None
    if danger is None or not danger.deadly:
        return "it can no longer kill"
    return "" if can_help(c, s) else "nothing left could help"


def can_help(c: Content, s: TinState) -> bool:
    """Whether eating or an item could turn a deadly harm aside now (R7): food while
    health is below its maximum, a healing item while hurt, a curing one while poisoned,
    or a map item that would reach Oakinshelm, or a campsite while hurt (its rest heals;
    at full health it cannot)."""
    if s.food and s.health < s.max_health:
        return True
    nodes = c.nodes(s.sides)
    for item in (c.items[i] for i in s.items):
        if item.when == "auto" or not usable(c, s, item.id):
            continue
        if item.kind == "heal" and s.health < s.max_health:
            return True
        if item.kind == "cure" and s.poison:
            return True
        reached = ("campsite", "F") if s.health < s.max_health else ("F",)  # a camp heals
        if item.kind == "advance" and s.fight is None and any(
            nodes[min(s.node + step, len(nodes) - 1)] in reached
            for step in range(1, item.amount + 1)
        ):
            return True
    return False


def decide(c: Content, s: TinState, resolve: bool, log: list[str]) -> None:
    """Resolve the top card, or skip it (it becomes the result card for the next) (R3)."""
    top, below = s.deck[0], s.deck[1]
    del s.deck[:2]
    s.location, s.result_card = (top, below) if resolve else (below, top)
    place_card = c.exploration[s.location]
    if resolve:
        log.append(
            f"You resolve {place_card.name}; {c.exploration[below].name} turns to its result side."
        )
    else:
        log.append(
            f"You skip {c.exploration[top].name}; it turns to its result side and "
            f"{place_card.name} is the location."
        )
    s.queue.pop(0)
    s.queue[0:0] = [f"icon:{icon}" for icon in place_card.icons] + ["discard", "place"]


def edge_match(c: Content, tableau: list[str], card: ExplorationCard, end: str) -> str | None:
    """The icon matched by placing ``card`` at ``end`` ("left"/"right"), if any (R4)."""
    if not tableau:
        return None
    if end == "left":
        mine, theirs = card.right, c.exploration[tableau[0]].left
    else:
        mine, theirs = card.left, c.exploration[tableau[-1]].right
    return mine if mine == theirs and (mine in LANDSCAPES or mine == "skull") else None


def place(c: Content, s: TinState, end: str, log: list[str]) -> None:
    """Add the location to the tableau at one end and apply any edge match (R4)."""
    card = c.exploration[s.location or ""]
    matched = edge_match(c, s.tableau, card, end)
    if not s.tableau:
        log.append(f"{card.name} starts today's tableau.")
    else:
        log.append(f"{card.name} joins the tableau on the {end}.")
    if end == "left":
        s.tableau.insert(0, card.id)
    else:
        s.tableau.append(card.id)
    s.location = None
    s.queue.pop(0)
    s.queue.append("dawn" if len(s.tableau) == LOCATIONS_PER_DAY else "decide")
    if matched == "skull":
        lost = -change(s, "health", -(s.health // 2))
        log.append(f"Skull meets skull! You lose {lost} health.")
        if not check_death(s, log):
            move(c, s, -SKULL_SETBACK, log)
    elif matched:
        log.append(f"The {matched} edges match.")
        move(c, s, 1, log)


def camp(s: TinState, resting: bool, log: list[str]) -> None:
    """Rest or search at a campsite (R5)."""
    (rest if resting else search)(s, log)
    s.queue.pop(0)


def offer(c: Content, s: TinState, accept: bool, log: list[str]) -> None:
    """Accept or decline an offer encounter (the Altar, the Peddler)."""
    encounter = c.encounters[s.queue[0].partition(":")[2]]
    if accept and not can_pay(s, encounter):
        raise IllegalAction(f"You cannot pay {_stats(encounter.pay)} for the {encounter.name}.")
    s.queue.pop(0)
    if not accept:
        log.append(f"You leave the {encounter.name} behind.")
        return
    for stat, amount in encounter.pay.items():
        change(s, stat, -amount)
    gained = _gain(s, encounter.gain)
    log.append(f"You pay {_stats(encounter.pay)} and gain {_stats(gained)}." if gained else
               f"You pay {_stats(encounter.pay)} and gain nothing: you hold the most you can.")
    check_death(s, log)


def offer_gains(s: TinState, encounter: Encounter) -> dict[str, int]:
    """What accepting an offer would change now, within the stats' bounds."""
    return _gain(s.copy(), encounter.gain)


def can_pay(s: TinState, encounter: Encounter) -> bool:
    """Whether the adventurer holds what an offer asks for."""
    return all(getattr(s, stat) >= amount for stat, amount in encounter.pay.items())


def _take_result(s: TinState) -> str:
    """Take the result card off the table."""
    card, s.result_card = s.result_card or "", None
    return card


def _stats(stats: Mapping[str, int]) -> str:
    """Describe stat changes: "1 food, -1 poison"."""
    return ", ".join(f"{amount} {stat}" for stat, amount in stats.items())


def _gain(s: TinState, gain: Mapping[str, int]) -> dict[str, int]:
    """Apply an encounter's stat changes within their bounds; return those made."""
    made = {stat: change(s, stat, amount) for stat, amount in gain.items()}
    return {stat: amount for stat, amount in made.items() if amount}


def _icon(c: Content, s: TinState, icon: str, log: list[str]) -> None:
    """Resolve one icon of the location against the result card (R3, R5)."""
    result = c.exploration[s.result_card or ""]
    if icon == "enemy":
        s.queue.insert(0, f"fight:{result.enemy}")
    elif icon == "trap":
        _trap(c, s, log)
    elif icon == "encounter":
        kind, target = result.encounter
        if kind == "enemy":
            log.append("A random encounter: an enemy!")
            s.queue.insert(0, f"fight:{target}")
        else:
            _encounter(c, s, c.encounters[target], log)
    elif icon == "loot":
        _loot(c, s, result.loot, log)
    elif icon == "campsite":
        log.append("You find a campsite.")
        s.queue.insert(0, "camp")
    else:
        water(c, s, log)


def _trap(c: Content, s: TinState, log: list[str]) -> None:
    """Spring the result card's trap, less the race's ward; a trap guard cancels it.

    The guard is spent only on a trap that would lower a stat: not on one the ward blunts
    to nothing, nor on an energy (or health) trap when there is none of it left to take.
    """
    trap = c.exploration[s.result_card or ""].trap
    amount = trap.amount - ability(c, s, "trap_ward")
    if amount <= 0:
        log.append(f"{_a(trap.kind)} {trap.kind} trap ({trap.amount}) cannot hurt you.")
        return
    if trap.kind != "poison" and getattr(s, trap.kind) <= 0 and c.edition >= 3:
        log.append(f"{_a(trap.kind)} {trap.kind} trap ({amount}) finds no {trap.kind} to take.")
        return
    guard = ready(c, s, "trap_guard")
    if guard:
        spend(s, guard)
        article = _a(trap.kind).lower()
        log.append(f"Your {guard.name} cancels {article} {trap.kind} trap ({amount}).")
        return
    if trap.kind == "poison":
        change(s, "poison", amount)
        log.append(f"A poison trap: +{amount} poison.")
    else:
        lost = -change(s, trap.kind, -amount)
        log.append(f"{_a(trap.kind)} {trap.kind} trap: -{lost} {trap.kind}.")
    check_death(s, log)


def _a(word: str) -> str:
    """The article before ``word``: "An" before a vowel ("An energy trap"), else "A"."""
    return "An" if word[:1] in "aeiou" else "A"


def _loot(c: Content, s: TinState, loot: str | None, log: list[str]) -> None:
    """Take the loot card the result names, unless the chest is empty or it is carried."""
    if loot is None:
        log.append("The chest is empty.")
    elif loot in s.items:
        log.append(f"The chest holds a {c.items[loot].name}, and you already carry one.")
    else:
        s.items.append(loot)
        log.append(f"Loot: {c.items[loot].name}. {c.items[loot].text}")


def _encounter(c: Content, s: TinState, encounter: Encounter, log: list[str]) -> None:
    """Carry out a reference card's random encounter."""
    log.append(f"A random encounter: {encounter.name}. {encounter.text}")
    if encounter.kind == "gain":
        _gain(s, encounter.gain)
        check_death(s, log)
    elif encounter.kind == "offer":
        if can_pay(s, encounter):
            s.queue.insert(0, f"offer:{encounter.id}")
        else:
            log.append(f"You cannot pay {_stats(encounter.pay)}.")
    elif encounter.kind == "campsite":
        s.queue.insert(0, "camp")
    elif encounter.kind == "loot":
        missing = [loot for loot in c.loot if loot not in s.items]
        if missing:
            _loot(c, s, s.rng.choice(missing), log)
        else:
            log.append("You already carry every loot card.")
    else:
        move(c, s, encounter.amount, log)


def _dawn(c: Content, s: TinState, log: list[str]) -> None:
    """End the day: the sundial advances, eat or starve, reshuffle (R9)."""
    s.day += 1
    log.append(f"Day {s.day - 1} ends.")
    if s.food:
        s.food -= 1
        log.append("You eat 1 food for supper.")
    else:
        lost = -change(s, "health", -HUNGER_DAMAGE)
        log.append(f"No food: you suffer {lost} damage.")
        if check_death(s, log):
            s.supper = True
            return
    if s.day > LAST_DAY:
        log.append("The seventh day ends before you reach Oakinshelm.")
        finish(s, "time")
        s.supper = True
        return
    s.deck = sorted(c.exploration)
    s.rng.shuffle(s.deck)
    s.tableau.clear()
    s.discard.clear()
    s.spent_today.clear()
    s.queue.append("decide")
    log.append(f"Day {s.day} begins.")
