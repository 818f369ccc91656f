"""Combat (R6): energy and dice, the sure 1-damage blow, enemy strikes and enemy powers."""

from __future__ import annotations

from bot.games.tinrealm.adventurer import ability, best, change, check_death, ready, spend
from bot.games.tinrealm.content import Content, Enemy
from bot.games.tinrealm.state import Fight, TinState

#: Damage of the sure blow, which ignores defense and needs no roll (R6).
SURE_BLOW = 1
#: The largest difference two dice can show.
MAX_DIFFERENCE = 5


def enemy_health(enemy: Enemy, day: int) -> int:
    """An enemy's starting health: printed health plus the current day (R6)."""
    return enemy.health + day


def energy_bonus(c: Content, s: TinState, energy: int) -> int:
    """Extra damage for spending ``energy`` (0-3), from the class chart."""
    return c.classes[s.klass].chart[energy - 1] if energy and s.klass else 0


def strike_extra(c: Content, s: TinState, enemy: Enemy) -> int:
    """Extra damage every landed rolled strike deals: weapons, and against undead the
    wards and the race's bane (the sure blow gets only the bane: :func:`sure_damage`)."""
    extra = best(c, s, "weapon")
    if enemy.undead:
        extra += best(c, s, "ward") + ability(c, s, "undead_bane")
    return extra


def start(c: Content, s: TinState, enemy_id: str, log: list[str]) -> None:
    """Begin a combat; an enemy that strikes first does so at once."""
    enemy = c.enemies[enemy_id]
    health = enemy_health(enemy, s.day)
    s.fight = Fight(enemy_id, health, health)
    undead = "undead, " if enemy.undead else ""
    log.append(f"{enemy.name} ({undead}health {health}) attacks! {enemy.text}")
    if enemy.power == "strikes_first":
        enemy_strike(c, s, log)


def worst_opening(c: Content, s: TinState, enemy: Enemy) -> int:
    """The most damage an enemy that strikes first can deal as the combat begins: the
    largest difference plus its attack, less the helm and a ready block (its one power
    is striking first, so no other power adds to it)."""
    block = ready(c, s, "block")
    damage = MAX_DIFFERENCE + enemy.attack - best(c, s, "helm")
    return max(0, damage - (block.amount if block else 0))


def strike(c: Content, s: TinState, energy: int, log: list[str]) -> None:
    """Spend ``energy`` and roll two dice: doubles miss, else difference + bonus - defense."""
    fight = _fight(s)
    enemy = c.enemies[fight.enemy]
    s.energy -= energy
    first, second = s.rng.dice(2)
    s.dice = [first, second]
    if first == second:
        log.append(f"You roll {first} and {second}: doubles, your strike misses.")
        _wound(c, s, 0, log)
        return
    bonus = energy_bonus(c, s, energy)
    extra = strike_extra(c, s, enemy)
    dealt = max(0, abs(first - second) + bonus + extra - enemy.defense)
    parts = [f"{abs(first - second)}"]
    if bonus:
        parts.append(f"{bonus} for {energy} energy")
    bane = ability(c, s, "undead_bane") if enemy.undead else 0  # R6: the race's, not gear
    if extra - bane:
        parts.append(f"{extra - bane} from your gear")
    if bane:
        parts.append(f"{bane} against the undead")
    defense = f" - {enemy.defense} defense" if enemy.defense else ""
    log.append(f"You roll {first} and {second}: {' + '.join(parts)}{defense} = {dealt} damage.")
    _wound(c, s, dealt, log)


def sure_damage(c: Content, s: TinState, enemy: Enemy) -> int:
    """Damage of the sure blow: 1, and the race's bane against undead foes.

    The sure blow always lands, so a race whose "landed strikes" deal more to undead adds
    it; weapons and wards count only on landed rolled strikes (their card texts).
    """
    if c.edition < 3:  # editions 1 and 2: the bane only with landed rolled strikes
        return SURE_BLOW
    return SURE_BLOW + (ability(c, s, "undead_bane") if enemy.undead else 0)


def sure_blow(c: Content, s: TinState, log: list[str]) -> None:
    """Deal the sure damage, ignoring defense, without rolling (R6: a choice at any energy)."""
    enemy = c.enemies[_fight(s).enemy]
    dealt = sure_damage(c, s, enemy)
    bane = dealt - SURE_BLOW
    more = f" + {bane} against the undead = {dealt}" if bane else ""
    log.append(f"You land a sure blow: {SURE_BLOW}{more} damage.")
    _wound(c, s, dealt, log)


def blast(c: Content, s: TinState, amount: int, log: list[str]) -> None:
    """Deal item damage that ignores defense; the enemy does not strike back for it."""
    fight = _fight(s)
    fight.health -= amount
    if fight.health <= 0:
        _defeat(c, s, log)
    else:
        log.append(f"The {c.enemies[fight.enemy].name} has {fight.health} health left.")


def _fight(s: TinState) -> Fight:
    """Return the combat in progress."""
    if s.fight is None:
        raise RuntimeError("no combat in progress")
    return s.fight


def _wound(c: Content, s: TinState, dealt: int, log: list[str]) -> None:
    """Apply the player's strike; a surviving enemy strikes back."""
    fight = _fight(s)
    fight.health -= dealt
    if fight.health <= 0:
        _defeat(c, s, log)
        return
    log.append(f"The {c.enemies[fight.enemy].name} has {fight.health} health left.")
    enemy_strike(c, s, log)


def _defeat(c: Content, s: TinState, log: list[str]) -> None:
    """The enemy falls: gain its favor, suffer a death curse, go on with the location."""
    enemy = c.enemies[_fight(s).enemy]
    gained = change(s, "favor", enemy.favor)
    log.append(f"The {enemy.name} falls. +{gained} favor.")
    s.fight = None
    s.queue.pop(0)
    if enemy.power == "death_curse":
        change(s, "poison", enemy.amount)
        log.append(f"Its dying curse gives you {enemy.amount} poison.")
        check_death(s, log)


def enemy_strike(c: Content, s: TinState, log: list[str]) -> None:
    """The enemy rolls two dice: doubles miss unless its power says otherwise."""
    fight = _fight(s)
    enemy = c.enemies[fight.enemy]
    first, second = s.rng.dice(2)
    if first == second and enemy.power == "reroll_doubles":
        log.append(f"The {enemy.name} rolls {first} and {second} and rolls its doubles again.")
        first, second = s.rng.dice(2)
    s.dice = [first, second]
    roll = f"The {enemy.name} rolls {first} and {second}"
    if first == second and enemy.power != "doubles_hit":
        log.append(f"{roll}: doubles, it misses.")
        _regenerate(enemy, fight, log)
        return
    damage = (enemy.amount if first == second else abs(first - second)) + enemy.attack
    if enemy.power == "enrage" and fight.health * 2 <= fight.start_health:
        damage += enemy.amount
    notes = []
    helm = best(c, s, "helm")
    if helm and damage:
        damage = max(0, damage - helm)
        notes.append(f"helm -{helm}")
    block = ready(c, s, "block")
    # the first hit, even one the helm brought to 0 (edition 1 kept the Buckler then)
    if block and (damage or c.edition >= 2):
        prevented = min(block.amount, damage)
        damage -= prevented
        spend(s, block)
        notes.append(f"{block.name} -{prevented}" if prevented else f"{block.name} spent")
    lost = -change(s, "health", -damage)
    note = f" ({', '.join(notes)})" if notes else ""
    log.append(f"{roll}: it hits for {lost} damage{note}.")
    _on_hit(enemy, s, log)
    _regenerate(enemy, fight, log)
    check_death(s, log)


def _on_hit(enemy: Enemy, s: TinState, log: list[str]) -> None:
    """Powers that work when the enemy hits: poison, drain, steal food."""
    if enemy.power == "poison":
        change(s, "poison", enemy.amount)
        log.append(f"Its venom gives you {enemy.amount} poison.")
    elif enemy.power == "drain":
        lost = -change(s, "energy", -enemy.amount)
        log.append(f"It drains {lost} energy.")
    elif enemy.power == "steal_food":
        lost = -change(s, "food", -enemy.amount)
        log.append(f"It steals {lost} food." if lost else "It finds no food to steal.")


def _regenerate(enemy: Enemy, fight: Fight, log: list[str]) -> None:
    """A regenerating enemy heals after each of its strikes, up to its starting health."""
    if enemy.power == "regenerate" and fight.health < fight.start_health:
        fight.health = min(fight.start_health, fight.health + enemy.amount)
        log.append(f"The {enemy.name} regenerates to {fight.health} health.")
