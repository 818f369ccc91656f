"""Cards held to their own words: the Cinderfolk bane on the sure blow, a trap guard spent
only on a trap that would hurt, and every card's icons in the order the rules resolve them."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from bot.games.tinrealm.content import DEFAULT_PATH, ICONS, ContentError, parse_content
from bot.games.tinrealm.engine import ENGINE

from .helpers import C, act, deciding, fight, hero, ids, run, scripted


def _blow_label(state) -> str:
    """The sure blow's label among the legal actions."""
    return next(a.label for a in ENGINE.legal_actions(state, 0) if a.id == "blow")


# -- the sure blow (R6) and "landed strikes" ----------------------------------------------


@pytest.mark.parametrize(("enemy", "undead"), [("hollow-knight", True), ("rust-hound", False)])
def test_r6_cinderfolk_bane_adds_to_the_sure_blow_against_undead(enemy, undead):
    """R6: the sure blow always lands, so the Cinderfolk's "Your landed strikes deal 1 more
    damage to undead foes" counts on it too, past any defense; not against the living.
    Its button and its event say the damage."""
    # Every enemy roll misses: the Rust Hound's first strike and answer, the Hollow Knight's
    # answer and its reroll.
    state, _ = fight(enemy, 1, 1, 1, 1, race="cinderfolk", klass="warden")
    bane = C.races["cinderfolk"].amount if undead else 0
    assert C.enemies[enemy].undead is undead
    assert _blow_label(state) == f"Sure blow: {1 + bane} damage"
    start, energy = state.fight.health, state.energy
    state, events = act(state, "blow")
    assert start - state.fight.health == 1 + bane
    assert state.energy == energy
    more = f" + {bane} against the undead = {1 + bane}" if bane else ""
    assert events[0] == f"You land a sure blow: 1{more} damage."


def test_r6_blessed_chalk_adds_to_rolled_strikes_only_not_the_sure_blow():
    """R6: Blessed Chalk says "Your rolled strikes that land deal 2 more damage to undead
    foes": the sure blow is not rolled, so it stays 1 against the undead for its holder
    (a Marshkin Chanter, no bane)."""
    assert "rolled strikes" in C.items["blessed-chalk"].text
    state, _ = fight("hollow-knight", 1, 1, 1, 1, race="marshkin", klass="chanter")
    assert "blessed-chalk" in state.items
    assert _blow_label(state) == "Sure blow: 1 damage"
    start = state.fight.health
    state, _ = act(state, "blow")
    assert start - state.fight.health == 1


def test_r6_a_rolled_strike_names_the_bane_apart_from_the_gear():
    """R6: the Cinderfolk bane is the race's, not gear: a landed rolled strike against the
    undead says what the gear adds (Blessed Chalk's 2) and what the bane adds, apart."""
    state, _ = fight("hollow-knight", 5, 2, 1, 1, 1, 1, race="cinderfolk", klass="chanter",
                     items=["blessed-chalk"], energy=0)
    bane = C.races["cinderfolk"].amount
    chalk = 2
    enemy = C.enemies["hollow-knight"]
    start = state.fight.health
    state, events = act(state, "strike:0")
    dealt = max(0, 3 + chalk + bane - enemy.defense)
    assert start - state.fight.health == dealt
    defense = f" - {enemy.defense} defense" if enemy.defense else ""
    assert events[0] == (f"You roll 5 and 2: 3 + {chalk} from your gear + {bane} against "
                         f"the undead{defense} = {dealt} damage.")


def test_r6_the_view_gives_the_sure_blow_damage_of_this_fight():
    """R6: the view's combat names the sure blow's damage (2 for a Cinderfolk against the
    undead), for the boards' legend."""
    undead, _ = fight("barrow-wight", race="cinderfolk", klass="chanter")
    living, _ = fight("larder-goblin", race="cinderfolk", klass="chanter")
    assert ENGINE.view(undead)["combat"]["sure_blow"] == 1 + C.races["cinderfolk"].amount
    assert ENGINE.view(living)["combat"]["sure_blow"] == 1


def test_r6_the_computer_takes_a_sure_blow_that_finishes_an_undead_foe():
    """R6: the computer player counts the bane on the sure blow: an undead foe with 2
    health left behind a defense falls to a Cinderfolk's sure 2 (no roll to miss)."""
    state, _ = fight("hollow-knight", race="cinderfolk", klass="warden", energy=0)
    state.fight.health = 2
    assert ENGINE.computer_action(state, 0) == "blow"


# -- the trap guard (R3): only a trap that would hurt ---------------------------------------


def _trap_card(kind: str) -> str:
    """An exploration card whose result side holds a ``kind`` trap."""
    return next(i for i, card in C.exploration.items() if card.trap.kind == kind)


def _spring(state, kind: str) -> list[str]:
    """Spring a ``kind`` trap from a result card."""
    state.result_card = _trap_card(kind)
    state.queue = ["decide"]
    return run(state, "icon:trap")


def test_r3_grapple_line_is_kept_for_a_trap_that_would_hurt():
    """R3: the Grapple Line "Cancels the first trap that would hurt you each day". An
    energy trap at 0 energy takes nothing, so the line is not spent on it, and it cancels
    the health trap that follows the same day."""
    state = hero("marshkin", "pathfinder")
    state.items.append("grapple-line")
    state.energy = 0
    events = _spring(state, "energy")
    assert state.energy == 0
    assert "grapple-line" not in state.spent_today
    assert events == [f"An energy trap ({C.exploration[_trap_card('energy')].trap.amount}) "
                      "finds no energy to take."]
    health = state.health
    events = _spring(state, "health")
    assert state.health == health and "Grapple Line cancels" in events[0]
    assert "grapple-line" in state.spent_today


@pytest.mark.parametrize("kind", ["health", "energy", "poison"])
def test_r3_grapple_line_is_spent_on_a_trap_that_would_hurt(kind):
    """R3: with something to take (and poison always rises), the trap would hurt, so the
    line cancels it and is spent for the day."""
    state = hero("marshkin", "pathfinder")
    state.items.append("grapple-line")
    state.energy = 1
    before = (state.health, state.energy, state.poison)
    events = _spring(state, kind)
    assert (state.health, state.energy, state.poison) == before
    assert "grapple-line" in state.spent_today and "Grapple Line cancels" in events[0]


# -- icon order (R3): enemy, trap, random encounter, loot, campsite, water -----------------


def test_r3_every_card_lists_its_icons_in_the_rules_order():
    """R3: icons resolve left to right, and the rules page and TIN-REALM-CONTENT.md give
    the order enemy, trap, random encounter, loot, campsite, water: every shipped card
    lists its icons in it."""
    assert ICONS == ("enemy", "trap", "encounter", "loot", "campsite", "water")
    for card in C.exploration.values():
        assert list(card.icons) == sorted(card.icons, key=ICONS.index), card.name


def test_r3_a_content_file_with_icons_out_of_order_is_refused():
    """R3: a content file whose card lists water before loot is refused, naming the card,
    the field and the order."""
    data: dict[str, Any] = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    bad["exploration"][0]["icons"] = ["water", "loot"]
    with pytest.raises(ContentError) as error:
        parse_content(bad)
    message = str(error.value)
    name = data["exploration"][0]["name"]
    assert f"exploration card {name!r}" in message and "'icons'" in message
    assert "enemy, trap, encounter, loot, campsite, water" in message
    twice = copy.deepcopy(data)
    twice["exploration"][0]["icons"] = ["enemy", "enemy", "loot"]
    parse_content(twice)  # a kind may repeat, in its place


def test_r3_fallow_barrow_fights_before_its_random_encounter():
    """R3: Fallow Barrow (enemy, encounter, loot) fights its result card's enemy before
    meeting the random encounter."""
    assert C.exploration["fallow-barrow"].icons == ("enemy", "encounter", "loot")
    state = deciding(hero("cinderfolk", "warden"), "fallow-barrow", "gullwater-bank")
    state.rng = scripted(1, 1)
    state, events = act(state, "resolve")
    assert state.waiting_for == f"fight:{C.exploration['gullwater-bank'].enemy}"
    assert not any("random encounter" in e for e in events)
    assert "strike:0" in ids(state)


@pytest.mark.parametrize(("race", "klass", "need"),
                         [("marshkin", "chanter", 4), ("stoneborn", "warden", 5)])
def test_r5_the_legend_states_the_water_roll_of_this_race(race, klass, need):
    """R5 with the content's forager: the legend says the roll that finds food at water
    for this adventurer ("4-6" for a Marshkin, "5-6" otherwise), as the engine rolls it."""
    state = hero(race, klass)
    assert (C.races[race].ability == "forager") == (race == "marshkin")
    water = next(e for e in ENGINE.view(state)["legend"] if e["key"] == "water")
    assert f"roll a die, {need}-6 finds 1 food" in water["meaning"]
