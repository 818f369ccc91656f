"""The actions a player may take: listing them with labels, and carrying one out.

Ids are short and stable (they travel in Discord custom_ids): ``race:<id>``,
``class:<id>``, ``resolve``, ``skip``, ``camp:rest``, ``camp:search``, ``offer:yes``,
``offer:no``, ``strike:0``-``strike:3``, ``blow``, ``place:left``, ``place:right``,
``eat:health``, ``eat:energy`` and ``use:<item id>``.
"""

from __future__ import annotations

from bot.games.protocol import Action, IllegalAction
from bot.games.tinrealm import combat, journey
from bot.games.tinrealm.adventurer import change, move, spend, usable
from bot.games.tinrealm.content import Content, Item
from bot.games.tinrealm.state import TinState


def legal(c: Content, s: TinState) -> list[Action]:
    """Return every action legal now: the pending choice, then food and items."""
    kind, _, arg = s.waiting_for.partition(":")
    if kind == "race":
        return [
            Action(
                f"race:{r.id}",
                f"{r.name} (health {r.health}, energy {r.energy}, food {r.food}): {r.text}",
                "race",
            )
            for r in c.races.values()
        ]
    if kind == "class":
        return [
            Action(
                f"class:{k.id}",
                f"{k.name} (health {k.health}, energy {k.energy}, "
                f"chart {'/'.join(map(str, k.chart))}, "
                f"{' + '.join(c.items[t].name for t in k.trappings)})",
                "class",
            )
            for k in c.classes.values()
        ]
    if not kind:
        return []
    return _choices(c, s, kind, arg) + _food(s) + _item_actions(c, s)


def _choices(c: Content, s: TinState, kind: str, arg: str) -> list[Action]:
    """The actions of the choice the game waits for."""
    if kind == "decide":
        top = c.exploration[s.deck[0]]
        return [
            Action("resolve", f"Resolve {top.name} ({', '.join(top.icons)})", "decide"),
            Action("skip", f"Skip {top.name} (the next card is the location)", "decide"),
        ]
    if kind == "camp":
        return [
            Action("camp:rest", "Rest: +2 health, +1 energy", "camp"),
            Action("camp:search", "Search: +1 food", "camp"),
        ]
    if kind == "offer":
        encounter = c.encounters[arg]
        return [
            Action("offer:yes", f"{encounter.name}: {encounter.text}", "offer"),
            Action("offer:no", "Walk on", "offer"),
        ]
    if kind == "place":
        return [
            Action("place:left", f"Place on the left{_match_note(c, s, 'left')}", "place"),
            Action("place:right", f"Place on the right{_match_note(c, s, 'right')}", "place"),
        ]
    strikes = (
        [
            Action(
                f"strike:{energy}",
                f"Strike with {energy} energy"
                + (f" (+{combat.energy_bonus(c, s, energy)})" if energy else ""),
                "combat",
            )
            for energy in range(min(3, s.energy) + 1)
        ]
        if s.energy
        else []
    )
    return [*strikes, Action("blow", "Sure blow: 1 damage, ignores defense", "combat")]


def _match_note(c: Content, s: TinState, end: str) -> str:
    """Say what placing at ``end`` would match."""
    matched = journey.edge_match(c, s.tableau, c.exploration[s.location or ""], end)
    if matched == "skull":
        return " (skull meets skull!)"
    return f" ({matched} match: advance)" if matched else ""


def _food(s: TinState) -> list[Action]:
    """Eating 1 food for +1 health or +1 energy, when it would help (R7)."""
    actions = []
    if s.food and s.health < s.max_health:
        actions.append(Action("eat:health", f"Eat 1 food: +1 health ({s.food} food)", "eat"))
    if s.food and s.energy < s.max_energy:
        actions.append(Action("eat:energy", f"Eat 1 food: +1 energy ({s.food} food)", "eat"))
    return actions


def _helps(s: TinState, item: Item) -> bool:
    """Whether using an item now would do anything."""
    fighting = s.fight is not None
    if item.when == "combat":
        return fighting
    if item.when == "peace":
        return not fighting
    return {
        "heal": s.health < s.max_health,
        "restore": s.energy < s.max_energy,
        "cure": s.poison > 0,
    }[item.kind]


def _item_actions(c: Content, s: TinState) -> list[Action]:
    """Items the player can use now (automatic items are never offered)."""
    return [
        Action(f"use:{item.id}", f"Use {item.name}: {item.text}", "item")
        for item in (c.items[i] for i in s.items)
        if item.when != "auto" and usable(c, s, item.id) and _helps(s, item)
    ]


def perform(c: Content, s: TinState, action_id: str, log: list[str]) -> None:
    """Check that an action is legal, then carry it out on ``s`` (a copy)."""
    if action_id not in {a.id for a in legal(c, s)}:
        raise IllegalAction(_why_illegal(s, action_id))
    carry_out(c, s, action_id, log)


def carry_out(c: Content, s: TinState, action_id: str, log: list[str]) -> None:
    """Carry out an action already known to be legal, then run the automatic tasks.

    Changes ``s`` in place; the simulation calls this directly on its own state to
    skip the copy and the second legality check.
    """
    head, _, arg = action_id.partition(":")
    if head == "race":
        s.race = arg
        s.queue.pop(0)
        log.append(f"You are one of the {c.races[arg].name}.")
    elif head == "class":
        _choose_class(c, s, arg, log)
    elif head in ("resolve", "skip"):
        journey.decide(c, s, head == "resolve", log)
    elif head == "camp":
        journey.camp(s, arg == "rest", log)
    elif head == "offer":
        journey.offer(c, s, arg == "yes", log)
    elif head == "place":
        journey.place(c, s, arg, log)
    elif head == "strike":
        combat.strike(c, s, int(arg), log)
    elif head == "blow":
        combat.sure_blow(c, s, log)
    elif head == "eat":
        s.food -= 1
        change(s, arg, 1)
        log.append(f"You eat 1 food: +1 {arg}.")
    else:
        _use(c, s, c.items[arg], log)
    journey.advance(c, s, log)


def _why_illegal(s: TinState, action_id: str) -> str:
    """A readable reason an action cannot be taken."""
    if not s.queue:
        return "The journey is over."
    return f"{action_id!r} is not something you can do now (waiting for: {s.waiting_for})."


def _choose_class(c: Content, s: TinState, klass: str, log: list[str]) -> None:
    """Build the adventurer from race plus class (R1)."""
    race, chosen = c.races[s.race or ""], c.classes[klass]
    s.klass = klass
    s.max_health = s.health = race.health + chosen.health
    s.max_energy = s.energy = race.energy + chosen.energy
    s.food = race.food
    s.items = list(chosen.trappings)
    s.queue.pop(0)
    log.append(
        f"You set out as a {race.name} {chosen.name}: health {s.health}, "
        f"energy {s.energy}, food {s.food}."
    )


def _use(c: Content, s: TinState, item: Item, log: list[str]) -> None:
    """Use an item: heal, restore, cure, bomb or advance."""
    spend(s, item)
    if item.kind == "bomb":
        log.append(f"You use the {item.name}: {item.amount} damage.")
        combat.blast(c, s, item.amount, log)
    elif item.kind == "advance":
        log.append(f"You use the {item.name}.")
        move(c, s, item.amount, log)
    else:
        stat = {"heal": "health", "restore": "energy", "cure": "poison"}[item.kind]
        delta = change(s, stat, -item.amount if stat == "poison" else item.amount)
        log.append(f"You use the {item.name}: {delta:+d} {stat}.")
