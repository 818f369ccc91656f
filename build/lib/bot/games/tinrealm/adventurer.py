"""The adventurer: stats within their bounds, death, items, food and moving on the map."""

from __future__ import annotations

from bot.games.tinrealm.content import Content, Item
from bot.games.tinrealm.state import FOOD_CAP, TinState

#: Roll needed on one die to find food at water (R5).
WATER_ROLL = 5
#: Rest at a campsite (R5).
REST_HEALTH = 2
REST_ENERGY = 1
SEARCH_FOOD = 1


def finish(s: TinState, how: str) -> None:
    """End the game: ``won``, ``dead`` or ``time``."""
    s.end = how
    s.queue.clear()
    s.fight = None


def check_death(s: TinState, log: list[str]) -> bool:
    """End the game if health is at or below poison (R8); return whether it ended."""
    if s.end or s.health > s.poison:
        return bool(s.end)
    if s.health <= 0:
        log.append("Your health is gone. You die on the road.")
    else:
        log.append(f"The poison ({s.poison}) has caught up with your health ({s.health}). You die.")
    finish(s, "dead")
    return True


def change(s: TinState, stat: str, delta: int) -> int:
    """Change one stat within its bounds and return how much it really changed."""
    before = getattr(s, stat)
    ceiling = {"health": s.max_health, "energy": s.max_energy, "food": FOOD_CAP}.get(stat)
    after = max(0, before + delta)
    if ceiling is not None:
        after = min(ceiling, after)
    setattr(s, stat, after)
    return after - before


def ability(c: Content, s: TinState, kind: str) -> int:
    """Return the amount of the race ability ``kind`` (0 if the race has another one)."""
    race = c.races[s.race] if s.race else None
    return race.amount if race and race.ability == kind else 0


def usable(c: Content, s: TinState, item_id: str) -> bool:
    """Whether a held item is not spent (for today, or for this combat)."""
    item = c.items[item_id]
    if item.uses == "per_day":
        return item_id not in s.spent_today
    if item.uses == "per_combat":
        return s.fight is None or item_id not in s.fight.spent
    return True


def ready(c: Content, s: TinState, kind: str) -> Item | None:
    """Return the first held, unspent item of ``kind``."""
    for item_id in s.items:
        if c.items[item_id].kind == kind and usable(c, s, item_id):
            return c.items[item_id]
    return None


def best(c: Content, s: TinState, kind: str) -> int:
    """Return the largest amount among held passive items of ``kind`` (0 if none)."""
    return max((c.items[i].amount for i in s.items if c.items[i].kind == kind), default=0)


def spend(s: TinState, item: Item) -> None:
    """Mark an item as used: discarded (once), spent today, or spent this combat."""
    if item.uses == "once":
        s.items.remove(item.id)
    elif item.uses == "per_day":
        s.spent_today.append(item.id)
    elif item.uses == "per_combat" and s.fight is not None:
        s.fight.spent.append(item.id)


def rest(s: TinState, log: list[str]) -> None:
    """Rest at a campsite: +2 health and +1 energy (R5)."""
    health = change(s, "health", REST_HEALTH)
    energy = change(s, "energy", REST_ENERGY)
    log.append(f"You rest: +{health} health, +{energy} energy.")


def search(s: TinState, log: list[str]) -> None:
    """Search a campsite: +1 food (R5)."""
    food = change(s, "food", SEARCH_FOOD)
    log.append(
        f"You search the camp: +{food} food." if food else "You search, but your pack is full."
    )


def water(c: Content, s: TinState, log: list[str]) -> None:
    """Look for food at water: one die, 5-6 (or the race's forager roll) gives 1 food (R5)."""
    need = ability(c, s, "forager") or WATER_ROLL
    roll = s.rng.die()
    s.dice = [roll]
    if roll >= need:
        food = change(s, "food", 1)
        log.append(
            f"At the water you roll {roll}: +{food} food."
            if food
            else f"At the water you roll {roll}: food, but your pack is full."
        )
    else:
        log.append(f"At the water you roll {roll}: nothing to eat (needs {need}+).")


def move(c: Content, s: TinState, steps: int, log: list[str]) -> None:
    """Move the meeple ``steps`` nodes (negative: back, never behind S) (R2).

    Every node passed or landed on, forward or back, triggers its icon: water rolls for
    food at once, a campsite offers rest or search (in the order they were met) before
    the game goes on. Reaching F wins at once.
    """
    nodes = c.nodes(s.sides)
    step = 1 if steps > 0 else -1
    camps = 0
    for _ in range(abs(steps)):
        if s.node + step < 0:
            log.append("You are back at the start and can go back no further.")
            break
        s.node += step
        s.furthest = max(s.furthest, s.node)
        mark = nodes[s.node]
        if mark == "F":
            log.append("You reach Oakinshelm! The Baron hears your news.")
            finish(s, "won")
            return
        verb = "advance" if step > 0 else "are driven back"
        log.append(f"You {verb} to node {s.node} of {len(nodes) - 1}.")
        if mark == "water":
            water(c, s, log)
        elif mark == "campsite":
            log.append("This node has a campsite.")
            camps += 1
    s.queue[0:0] = ["camp"] * camps
