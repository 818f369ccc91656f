"""Loot, trappings, race abilities, traps and random encounters: every effect tested."""

from __future__ import annotations

import pytest

from bot.games.tinrealm import adventurer
from bot.games.tinrealm.engine import ENGINE

from .helpers import C, act, deciding, fight, hero, ids, run, scripted


def result_with(**wanted) -> str:
    """The id of an exploration card whose result side matches ``wanted``."""
    for card in C.exploration.values():
        if all(getattr(card, k) == v for k, v in wanted.items()):
            return card.id
    raise LookupError(wanted)


def trap_card(kind: str) -> str:
    """An exploration card whose result side holds a ``kind`` trap."""
    return next(c.id for c in C.exploration.values() if c.trap.kind == kind)


def spring(state, card: str) -> list[str]:
    """Spring the trap on ``card``'s result side."""
    state.result_card = card
    state.queue = ["decide"]
    return run(state, "icon:trap")


def meet(state, encounter: str) -> list[str]:
    """Meet the random encounter ``encounter`` (by its result card)."""
    state.result_card = result_with(encounter=("reference", encounter))
    state.queue = ["decide"]
    return run(state, "icon:encounter")


def test_dented_helm_takes_one_off_every_hit():
    """Helm (Dented Helm, the only helm): every enemy hit deals 1 less (R6)."""
    state, _ = fight("hollow-knight", 1, 1, 6, 1, klass="pathfinder")
    state.items += ["dented-helm"]
    health = state.health
    state, _ = act(state, "strike:0")
    assert state.health == health - (5 + C.enemies["hollow-knight"].attack - 1)


def test_buckler_blocks_the_first_hit_of_each_combat():
    """Block (Buckler, per combat): the first hit in each combat deals less; later hits do not."""
    buckler = C.items["buckler"]
    state, _ = fight("hollow-knight", 1, 1, 6, 1, 1, 1, 6, 1, klass="pathfinder")
    state.items = ["buckler"]
    health = state.health
    hit = 5 + C.enemies["hollow-knight"].attack
    state, events = act(state, "strike:0")
    assert state.health == health - max(0, hit - buckler.amount)
    assert "Buckler" in events[-1]
    health = state.health
    state, _ = act(state, "strike:0")
    assert state.health == health - hit
    assert not adventurer.usable(C, state, "buckler")
    state.fight = None
    assert adventurer.usable(C, state, "buckler")


def test_r6_buckler_is_spent_on_a_first_hit_the_helm_brought_to_0():
    """Block and helm (R6, docs' "hit"): a hit the Dented Helm brings to 0 is still the
    first hit, so the Buckler is spent on it and the next hit deals its damage less the
    helm only."""
    state, _ = fight("larder-goblin", 1, 1, 5, 4, 1, 1, 6, 3, klass="pathfinder")
    state.items = ["buckler", "dented-helm"]
    assert state.fight is not None
    state.fight.health = 20
    health = state.health
    state, events = act(state, "strike:0")  # the goblin rolls 5 and 4: 1, less the helm
    assert state.health == health
    assert "it hits for 0 damage (helm -1, Buckler spent)" in " ".join(events)
    assert not adventurer.usable(C, state, "buckler")
    state, events = act(state, "strike:0")  # 6 and 3: 3, less the helm only
    assert state.health == health - 2
    assert "Buckler" not in " ".join(e for e in events if "rolls 6 and 3" in e)


def test_block_ignores_misses():
    """Block (Buckler): a miss does not use up the block."""
    state, _ = fight("hollow-knight", 1, 1, 2, 2, 3, 3, klass="pathfinder")
    state.items = ["buckler"]
    state, _ = act(state, "strike:0")
    assert adventurer.usable(C, state, "buckler")


def test_whetstone_adds_to_landed_rolled_strikes_only():
    """Weapon (Whetstone): landed rolled strikes deal more; the sure blow stays 1."""
    state, _ = fight("larder-goblin", 5, 1, 1, 1, 1, 1, klass="pathfinder")
    state.items.append("whetstone")
    state.fight.health = 20
    state, _ = act(state, "strike:0")
    assert state.fight.health == 20 - (4 + C.items["whetstone"].amount)
    state, _ = act(state, "blow")
    assert state.fight.health == 20 - (4 + C.items["whetstone"].amount) - 1


@pytest.mark.parametrize(("enemy", "undead"), [("lantern-wisp", True), ("larder-goblin", False)])
def test_blessed_chalk_wards_against_undead_only(enemy, undead):
    """Ward (Blessed Chalk): extra damage against undead foes only."""
    state, _ = fight(enemy, 6, 1, 1, 1, race="marshkin", klass="chanter")
    state.fight.health = 20
    state, _ = act(state, "strike:0")
    bonus = C.items["blessed-chalk"].amount if undead else 0
    assert state.fight.health == 20 - (5 + bonus - C.enemies[enemy].defense)


@pytest.mark.parametrize(("enemy", "undead"), [("barrow-wight", True), ("larder-goblin", False)])
def test_cinderfolk_undead_bane(enemy, undead):
    """Race ability undead_bane (Cinderfolk): extra damage against undead foes only."""
    state, _ = fight(enemy, 6, 1, 1, 1, race="cinderfolk", klass="warden")
    state.fight.health = 20
    state, _ = act(state, "strike:0")
    bonus = C.races["cinderfolk"].amount if undead else 0
    assert state.fight.health == 20 - (5 + bonus - C.enemies[enemy].defense)


def test_stoneborn_traps_cost_less():
    """Race ability trap_ward (Stoneborn): every trap costs 1 less; a 1-point trap nothing."""
    state = hero("stoneborn", "warden")
    health = state.health
    card = trap_card("health")
    spring(state, card)
    assert state.health == health - (C.exploration[card].trap.amount - 1)
    one = next(c.id for c in C.exploration.values() if c.trap.amount == 1)
    before = (state.health, state.energy, state.poison)
    events = spring(state, one)
    assert (state.health, state.energy, state.poison) == before
    assert "cannot hurt you" in events[0]


@pytest.mark.parametrize("kind", ["health", "energy", "poison"])
def test_traps_cost_their_kind(kind):
    """Traps: the result card's trap costs health or energy, or gives poison."""
    state = hero("marshkin", "pathfinder")
    state.poison = 0
    card = trap_card(kind)
    amount = C.exploration[card].trap.amount
    before = {"health": state.health, "energy": state.energy, "poison": state.poison}
    spring(state, card)
    after = {"health": state.health, "energy": state.energy, "poison": state.poison}
    expected = dict(before)
    expected[kind] += amount if kind == "poison" else -amount
    assert after == expected


def test_grapple_line_cancels_the_first_trap_each_day():
    """Trap guard, per day (Grapple Line): once a day; it is ready again the next day."""
    state = hero("marshkin", "pathfinder")
    state.items.append("grapple-line")
    health = state.health
    events = spring(state, trap_card("health"))
    assert state.health == health and "Grapple Line cancels" in events[0]
    assert "grapple-line" in state.spent_today and "grapple-line" in state.items
    spring(state, trap_card("health"))
    assert state.health < health
    state.spent_today.clear()
    assert adventurer.ready(C, state, "trap_guard") is not None


def test_salve_jar_heals_once():
    """Heal, once (Salve Jar): +health up to the maximum, then discarded."""
    state = hero()
    state.items.append("salve-jar")
    assert "use:salve-jar" not in ids(state)
    state.health = 1
    state, events = act(state, "use:salve-jar")
    assert state.health == 1 + C.items["salve-jar"].amount
    assert "salve-jar" not in state.items
    assert events[0].startswith("You use the Salve Jar")


def test_prayer_beads_heal_once_a_day():
    """Heal, per day (Prayer Beads): usable once a day, then spent until the next day."""
    state = hero("marshkin", "chanter")
    state.health = 2
    state, _ = act(state, "use:prayer-beads")
    assert state.health == 2 + C.items["prayer-beads"].amount
    assert "use:prayer-beads" not in ids(state)
    assert "prayer-beads" in state.items
    shown = {i["id"]: i["ready"] for i in ENGINE.view(state)["items"]}
    assert shown["prayer-beads"] is False


def test_spark_tonic_restores_energy():
    """Restore, once (Spark Tonic): +energy up to the maximum, usable in combat."""
    state, _ = fight("moss-troll", energy=0)
    state.items.append("spark-tonic")
    state, _ = act(state, "use:spark-tonic")
    assert state.energy == min(state.max_energy, C.items["spark-tonic"].amount)
    assert state.fight is not None


def test_bitterroot_cures_poison():
    """Cure, once (Bitterroot): removes poison (not below 0); not offered without poison."""
    state = hero()
    state.items.append("bitterroot")
    assert "use:bitterroot" not in ids(state)
    state.poison = 1
    state, events = act(state, "use:bitterroot")
    assert state.poison == 0 and "bitterroot" not in state.items
    assert "-1 poison" in events[0]


def test_pitch_flask_only_in_combat_and_ignores_defense():
    """Bomb (Pitch Flask): only in combat; damage ignores defense; the enemy does not answer."""
    state = hero()
    state.items.append("pitch-flask")
    assert "use:pitch-flask" not in ids(state)
    state, _ = fight("moss-troll")
    state.items.append("pitch-flask")
    state.fight.health = 20
    health = state.health
    state, _ = act(state, "use:pitch-flask")
    assert state.fight.health == 20 - C.items["pitch-flask"].amount
    assert state.health == health


def test_pitch_flask_can_finish_an_enemy():
    """Bomb (Pitch Flask): a killing blast wins the combat and gives favor."""
    state, _ = fight("larder-goblin")
    state.fight.health = C.items["pitch-flask"].amount
    state.items.append("pitch-flask")
    state, events = act(state, "use:pitch-flask")
    assert state.fight is None and state.favor == C.enemies["larder-goblin"].favor
    assert "falls" in " ".join(events)


def test_lodestone_moves_forward_outside_combat_only():
    """Advance (Lodestone, Trail Chart): move forward outside combat; not while fighting."""
    state = hero("marshkin", "pathfinder")
    state.items.append("lodestone")
    state, _ = act(state, "use:lodestone")
    assert state.node == 1 and "lodestone" not in state.items
    state, _ = act(state, "use:trail-chart")
    assert state.node == 2 and "trail-chart" not in state.items
    fighting, _ = fight("moss-troll", klass="pathfinder")
    assert "use:trail-chart" not in ids(fighting)


def test_an_advance_item_can_win():
    """Advance: reaching F with an item wins at once."""
    state = hero("marshkin", "pathfinder")
    state.node = state.furthest = 10
    state, _ = act(state, "use:trail-chart")
    assert state.end == "won"


def test_auto_items_are_never_offered():
    """Helms, weapons, wards, blocks and trap guards work by themselves: no button."""
    state = hero("marshkin", "chanter")
    state.items += ["dented-helm", "whetstone", "blessed-chalk", "grapple-line"]
    assert not [i for i in ids(state) if i.startswith("use:")]


def test_loot_icon_takes_the_named_loot():
    """Loot: the result card's loot joins the items."""
    state = hero()
    card = result_with(loot="salve-jar")
    state.result_card, state.queue = card, ["decide"]
    events = run(state, "icon:loot")
    assert "salve-jar" in state.items and "Salve Jar" in events[0]


def test_loot_icon_empty_chest_and_already_carried():
    """Loot: an empty chest gives nothing; a loot card already carried is not taken twice."""
    state = hero()
    state.result_card, state.queue = result_with(loot=None), ["decide"]
    assert run(state, "icon:loot") == ["The chest is empty."]
    state.items.append("salve-jar")
    state.result_card = result_with(loot="salve-jar")
    events = run(state, "icon:loot")
    assert state.items.count("salve-jar") == 1 and "already carry" in events[0]


def test_encounter_clear_spring():
    """Encounter gain (Clear Spring): stats change within their bounds."""
    state = hero()
    state.poison, state.health = 3, 5
    meet(state, "clear-spring")
    gain = C.encounters["clear-spring"].gain
    assert state.poison == max(0, 3 + gain["poison"])
    assert state.health == 5 + gain["health"]


@pytest.mark.parametrize("encounter", ["rockslide", "fog-bank"])
def test_encounter_losses(encounter):
    """Encounter gain (Rockslide, Fog Bank): losses never go below 0 and can kill."""
    state = hero()
    before = (state.health, state.energy)
    meet(state, encounter)
    gain = C.encounters[encounter].gain
    assert (state.health, state.energy) == (
        before[0] + gain.get("health", 0),
        before[1] + gain.get("energy", 0),
    )
    state = hero()
    state.health, state.energy = 1, 0
    meet(state, encounter)
    assert state.energy == 0
    assert (state.end == "dead") == ("health" in gain)


@pytest.mark.parametrize("encounter", ["altar", "peddler"])
def test_encounter_offers(encounter):
    """Encounter offer (Altar, Peddler): accept pays and gains; decline changes nothing."""
    offer = C.encounters[encounter]
    state = hero()
    state.food, state.favor, state.poison = 3, 3, 2
    meet(state, encounter)
    assert state.waiting_for == f"offer:{encounter}"
    assert {"offer:yes", "offer:no"} <= set(ids(state))
    declined, _ = act(state, "offer:no")
    assert (declined.food, declined.favor, declined.poison) == (3, 3, 2)
    accepted, _ = act(state, "offer:yes")
    expected = {"food": 3, "favor": 3, "poison": 2}
    for stat, amount in offer.pay.items():
        expected[stat] -= amount
    for stat, amount in offer.gain.items():
        expected[stat] = max(0, min(5 if stat == "food" else 99, expected[stat] + amount))
    assert {"food": accepted.food, "favor": accepted.favor, "poison": accepted.poison} == expected
    assert accepted.waiting_for == "decide"


def test_encounter_offer_needs_the_price():
    """Encounter offer (Altar): without the price there is no offer."""
    state = hero()
    state.food = 0
    events = meet(state, "altar")
    assert state.waiting_for == "decide" and "cannot pay" in events[-1]


def test_encounter_campsite():
    """Encounter campsite: the same rest-or-search choice as the icon."""
    state = hero()
    meet(state, "campsite")
    assert state.waiting_for == "camp"
    assert {"camp:rest", "camp:search"} <= set(ids(state))


def test_encounter_abandoned_cart_gives_a_missing_loot():
    """Encounter loot (Abandoned Cart): a random loot card not yet carried."""
    state = hero()
    state.rng = scripted()
    state.items.append(C.loot[0])
    meet(state, "abandoned-cart")
    assert state.items[-1] == C.loot[1]
    state.items = list(C.loot)
    events = meet(state, "abandoned-cart")
    assert "every loot card" in events[-1]


def test_encounter_hidden_trail_moves_forward():
    """Encounter move (Hidden Trail): the meeple moves forward."""
    state = hero()
    meet(state, "hidden-trail")
    assert state.node == C.encounters["hidden-trail"].amount


def test_encounter_enemy_starts_a_combat():
    """Encounter enemy: a result card naming an enemy as its encounter starts a combat."""
    kind, enemy = next(c.encounter for c in C.exploration.values() if c.encounter[0] == "enemy")
    state = hero()
    state.rng = scripted(1, 1)
    state.result_card = result_with(encounter=(kind, enemy))
    state.queue = ["decide"]
    run(state, "icon:encounter")
    assert state.fight is not None and state.fight.enemy == enemy


def test_enemy_icon_fights_the_result_cards_enemy():
    """Enemy icon: the enemy named on the result card is fought."""
    state = deciding(hero(), "cinder-pass", "mossy-ford")
    state, _ = act(state, "resolve")
    assert state.fight.enemy == C.exploration["mossy-ford"].enemy
