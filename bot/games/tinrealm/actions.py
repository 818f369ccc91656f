"""The actions a player may take: listing them with labels, and carrying one out.

Ids are short and stable (they travel in Discord custom_ids): ``race:<id>``,
``class:<id>``, ``resolve``, ``skip``, ``camp:rest``, ``camp:search``, ``offer:yes``,
``offer:no``, ``strike:0``-``strike:3``, ``blow``, ``place:left``, ``place:right``,
``go`` (leave a brace), ``eat:health``, ``eat:energy`` and ``use:<item id>``.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.protocol import MAX_LABEL, Action, IllegalAction
from bot.games.tinrealm import combat, journey
from bot.games.tinrealm.adventurer import change, move, spend, usable
from bot.games.tinrealm.content import LANDSCAPES, AdventurerClass, Content, Encounter, Item
from bot.games.tinrealm.state import FOOD_CAP, LOCATIONS_PER_DAY, TinState


def fit(label: str) -> str:
    """Cut a label to :data:`MAX_LABEL` characters (a replacement content file may use long
    names; the full text is always in the description)."""
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


def legal(c: Content, s: TinState) -> list[Action]:
    """Return every action legal now: the pending choice, then food and items."""
    kind, _, arg = s.waiting_for.partition(":")
    if kind == "race":
        return [
            Action(
                f"race:{r.id}",
                fit(f"{r.name} (health {r.health}, energy {r.energy}, food {r.food})"),
                "race",
                "Class: "
                + " or ".join(c.classes[k].name for k in c.classes_for(r.id))
                + f". {r.text}",
            )
            for r in c.races.values()
        ]
    if kind == "class":
        return [_class_action(c, c.classes[k]) for k in c.classes_for(s.race or "")]
    if not kind:
        return []
    return _choices(c, s, kind, arg) + _food(s) + _item_actions(c, s)


def _class_action(c: Content, k: AdventurerClass) -> Action:
    """One class on offer (R1: only the backs of the two cards the race is not on).

    The description names the damage chart and both starting items, short enough for a
    select's option; what each item does is on the journey's details page.
    """
    return Action(
        f"class:{k.id}",
        fit(f"{k.name} (health {k.health}, energy {k.energy})"),
        "class",
        f"Damage {'/'.join(map(str, k.chart))} for 1/2/3 energy · starts with "
        + ", ".join(c.items[t].name for t in k.trappings),
    )


def _choices(c: Content, s: TinState, kind: str, arg: str) -> list[Action]:
    """The actions of the choice the game waits for."""
    if kind == "decide":
        top = c.exploration[s.deck[0]]
        return [
            Action(
                "resolve",
                fit(f"Resolve {top.name}"),
                "decide",
                f"{top.name} is the location: {', '.join(top.icons)}, against the next "
                "card's result side.",
            ),
            Action(
                "skip",
                fit(f"Skip {top.name}"),
                "decide",
                f"{top.name} turns to its result side; the next card is the location.",
            ),
        ]
    if kind == "camp":
        return [
            Action("camp:rest", "Rest: +2 health, +1 energy", "camp"),
            Action("camp:search", "Search: +1 food", "camp"),
        ]
    if kind == "offer":
        encounter = c.encounters[arg]
        accept = (
            [Action("offer:yes", fit(f"Accept the {encounter.name}"), "offer",
                    _offer_words(s, encounter))]
            if journey.can_pay(s, encounter)
            else []
        )
        return [*accept, Action("offer:no", "Walk on", "offer", f"Leave the {encounter.name}.")]
    if kind == "place":
        return [_place_action(c, s, end) for end in ("left", "right")]
    if kind == "brace":
        return [_go_action(c, s)]
    # R6 (revised): a roll spending 0 energy is always offered, at 0 energy too, and so
    # is the sure blow, with or without energy left.
    enemy = c.enemies[arg]
    extra = combat.strike_extra(c, s, enemy)
    strikes = [_strike_action(energy, combat.energy_bonus(c, s, energy) + extra)
               for energy in range(min(3, s.energy) + 1)]
    sure = combat.sure_damage(c, s, enemy)
    return [
        *strikes,
        Action("blow", f"Sure blow: {sure} damage", "combat",
               f"No roll: {sure} damage that ignores defense."),
    ]


def _go_action(c: Content, s: TinState) -> Action:
    """Going on from a brace: the label says what comes ("Go on: face a 2 health trap")."""
    coming = journey.threat(c, s, s.queue[1]) if len(s.queue) > 1 else None
    if coming is None:  # play never braces before a harmless task; a hand-made save might
        return Action("go", "Go on", "brace", "Go on with the location.")
    end = ": it could kill you." if coming.deadly else "."
    return Action("go", fit(f"Go on: {coming.what}"), "brace",
                  f"{coming.words}{end} Eat or use an item first, or go on.")


def _strike_action(energy: int, bonus: int) -> Action:
    """A rolled strike spending ``energy``; ``bonus`` is all it adds to the dice: the class
    chart's for the energy, gear, and against the undead the wards and the race's bane."""
    return Action(
        f"strike:{energy}",
        f"Strike with {energy} energy" + (f" (+{bonus})" if bonus else ""),
        "combat",
        "Roll two dice: doubles miss, else the difference"
        + (f" + {bonus}" if bonus else "")
        + " - the enemy's defense.",
    )


def _amounts(stats: Mapping[str, int]) -> str:
    """Name stat changes as an offer's card does: "2 favor and 1 less poison"."""
    return " and ".join(f"{amount} {stat}" if amount > 0 else f"{-amount} less {stat}"
                        for stat, amount in stats.items())


def _edge(stat: str, amount: int) -> str:
    """Where ``stat`` stops when changed by ``amount``: its cap, its maximum or 0."""
    if amount < 0:
        return "0"
    return str(FOOD_CAP) if stat == "food" else "your maximum"


def _offer_words(s: TinState, encounter: Encounter) -> str:
    """What accepting an offer does now: the card's text, and, when a cap (or 0 poison) cuts
    what it gives, what accepting would give now ("Now: 2 favor for 1 food (food stops at
    5)."), or that it would give nothing."""
    paid = s.copy()
    for stat, amount in encounter.pay.items():
        change(paid, stat, -amount)
    gains = journey.offer_gains(paid, encounter)
    if not gains:
        return f"{encounter.text} You hold the most you can: accepting would gain you nothing."
    if gains == dict(encounter.gain):
        return encounter.text
    cut = ", ".join(f"{stat} stops at {_edge(stat, amount)}"
                    for stat, amount in encounter.gain.items() if gains.get(stat) != amount)
    return f"{encounter.text} Now: {_amounts(encounter.pay)} for {_amounts(gains)} ({cut})."


def _place_action(c: Content, s: TinState, end: str) -> Action:
    """Placing the location at one end; the label says what the edges would do (R4)."""
    matched = journey.edge_match(c, s.tableau, c.exploration[s.location or ""], end)
    other = journey.edge_match(
        c, s.tableau, c.exploration[s.location or ""], "right" if end == "left" else "left"
    )
    side = end.capitalize()
    if matched == "skull":
        label, note = f"{side}: skull meets skull!", "lose half your health and go back 3 nodes"
    elif matched:
        label, note = f"{side}: {matched} match, advance", "move 1 node forward"
    else:
        label, note = f"{side}: no match", "nothing happens"
    return Action(
        f"place:{end}",
        label,
        "place",
        f"Place the location at the {end} end of the tableau: {note}.",
        primary=matched in LANDSCAPES and other not in LANDSCAPES,
    )


def _food(s: TinState) -> list[Action]:
    """Eating 1 food for +1 health or +1 energy, when it would help (R7)."""
    actions = []
    if s.food and s.health < s.max_health:
        actions.append(Action("eat:health", f"Eat: +1 health ({s.food} food)", "eat",
                              "Eat 1 food for 1 health."))
    if s.food and s.energy < s.max_energy:
        actions.append(Action("eat:energy", f"Eat: +1 energy ({s.food} food)", "eat",
                              "Eat 1 food for 1 energy."))
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


#: The trackers an item changes, by its kind, and where each stops.
ITEM_STATS = {"heal": "health", "restore": "energy", "cure": "poison"}
#: What happens to an item once used, by its uses.
AFTER_USE = {"once": "then discard", "per_day": "once a day", "per_combat": "once a fight"}


def _item_words(s: TinState, item: Item) -> str:
    """What using ``item`` does now: the card's text, or, when a maximum (or 0 poison)
    cuts its amount, the change it would make now and the card's amount."""
    stat = ITEM_STATS.get(item.kind)
    if stat is None:
        return item.text
    if stat == "poison":
        now, edge = -min(item.amount, s.poison), "0"
    else:
        room = (s.max_health - s.health) if stat == "health" else (s.max_energy - s.energy)
        now, edge = min(item.amount, max(0, room)), "your maximum"
    if abs(now) == item.amount:
        return item.text
    after = AFTER_USE.get(item.uses, "")
    return (f"{now:+d} {stat} now (the card's {item.amount} stops at {edge})"
            + (f", {after}." if after else "."))


def _item_actions(c: Content, s: TinState) -> list[Action]:
    """Items the player can use now (automatic items are never offered); a tracker's item
    says what it would change now."""
    return [
        Action(f"use:{item.id}", fit(f"Use {item.name}"), "item", _item_words(s, item))
        for item in (c.items[i] for i in s.items)
        if item.when != "auto" and usable(c, s, item.id) and _helps(s, item)
    ]


def perform(c: Content, s: TinState, action_id: str, log: list[str]) -> None:
    """Check that an action is legal, then carry it out on ``s`` (a copy)."""
    if action_id not in {a.id for a in legal(c, s)}:
        raise IllegalAction(_why_illegal(s, action_id))
    carry_out(c, s, action_id, log)


def carry_out(c: Content, s: TinState, action_id: str, log: list[str]) -> None:
    """Carry out an action already known to be legal, then every step that follows by itself.

    After the action, the automatic tasks run; then, as long as the next decision is
    forced (:func:`forced`), it is taken too and said in the log. Changes ``s`` in place;
    the simulation calls this directly on its own state to skip the copy and the second
    legality check.
    """
    _do(c, s, action_id, log)
    while (step := forced(c, s)) is not None:
        action, why = step
        log.append(f"{action.label}: happened by itself ({why}).")
        _do(c, s, action.id, log)


def forced(c: Content, s: TinState) -> tuple[Action, str] | None:
    """Return the action a decision takes by itself, and why, or None if the player chooses.

    A decision is forced when exactly one action is legal, or when nothing but the
    decision's own options is legal and they all lead to the same result: the day's last
    placement when both ends match alike (the tableau is cleared at dawn), or a campsite
    where neither resting nor searching would change anything. While eating or an item is
    possible the player keeps the choice, since doing those first can matter.
    """
    if not s.queue or s.waiting_for in ("race", "class"):
        return None
    options = legal(c, s)
    if len(options) == 1:
        return options[0], "the only choice"
    if s.waiting_for == "brace" and (why := journey.brace_over(c, s)):
        return next(a for a in options if a.id == "go"), why
    if any(a.group in ("eat", "item") for a in options):
        return None
    kind = s.waiting_for
    if kind == "place" and len(s.tableau) == LOCATIONS_PER_DAY - 1:
        card = c.exploration[s.location or ""]
        if journey.edge_match(c, s.tableau, card, "left") == journey.edge_match(
            c, s.tableau, card, "right"
        ):
            return options[1], "both ends give the same result"
    if kind == "camp" and s.health == s.max_health and s.energy == s.max_energy and (
        s.food == FOOD_CAP
    ):
        return options[0], "resting and searching would change nothing"
    return None


def _do(c: Content, s: TinState, action_id: str, log: list[str]) -> None:
    """Carry out one action, then the automatic tasks that follow it."""
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
    elif head == "go":
        journey.go_on(c, s, log)
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
    if action_id == "offer:yes" and s.waiting_for.startswith("offer:"):
        return "You can no longer pay what this offer asks."
    if s.waiting_for in ("race", "class") and action_id.startswith("class:"):
        return (
            f"{action_id[6:]!r} is not on the back of the two other cards."
            if s.race
            else "Choose a race first."
        )
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
