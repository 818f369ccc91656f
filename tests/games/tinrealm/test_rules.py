"""Rulings R1-R11: one or more tests pin each (the ruling id starts the docstring)."""

from __future__ import annotations

import pytest

from bot.games.protocol import GameError
from bot.games.tinrealm import adventurer
from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.scoring import rank, score, score_parts

from .helpers import C, act, deciding, fight, hero, ids, placing, scripted


@pytest.mark.parametrize(("race", "klass"), C.pairs())
def test_r1_adventurer_sums_race_and_class(race, klass):
    """R1: health and energy are the race+class sums; food from the race; class trappings."""
    state = hero(race, klass)
    r, k = C.races[race], C.classes[klass]
    assert state.health == state.max_health == r.health + k.health
    assert state.energy == state.max_energy == r.energy + k.energy
    assert state.food == r.food
    assert state.items == list(k.trappings)


def test_r1_race_then_class_are_the_first_choices():
    """R1: a new game offers the races, then two classes, before any exploring."""
    state = ENGINE.new(4)
    assert ids(state) == [f"race:{r}" for r in C.races]
    assert {a.group for a in ENGINE.legal_actions(state, 0)} == {"race"}
    state, _ = act(state, "race:marshkin")
    assert ids(state) == [f"class:{k}" for k in C.classes_for("marshkin")]
    state, events = act(state, "class:chanter")
    assert "Marshkin Chanter" in events[-1]
    assert ENGINE.view(state)["top_card"] is not None


def test_r1_food_is_capped_at_five():
    """R1: food never goes above 5 (searching with 5 food gains nothing)."""
    state = hero()
    state.food = 5
    run_state, events = act(_camp(state), "camp:search")
    assert run_state.food == 5
    assert "full" in events[0]


def _camp(state):
    """Make ``state`` wait on a campsite choice."""
    state.queue = ["camp", "decide"]
    return state


@pytest.mark.parametrize(
    ("options", "total"),
    [
        ({}, 12),
        ({"preset": "easy"}, 12),
        ({"preset": "hard"}, 16),
        ({"preset": "custom", "sides": [3, 4, 3, 4]}, 14),
        ({"preset": "custom", "sides": "4,4,3,4"}, 15),
    ],
)
def test_r2_presets_choose_the_map_sides(options, total):
    """R2: easy uses every 3-space side, hard every 4-space side, custom one per card."""
    view = ENGINE.view(ENGINE.new(1, options=options))
    assert view["nodes_total"] == total
    assert view["node"] == 0
    assert view["map"][0]["nodes"][0] == "S" and view["map"][-1]["nodes"][-1] == "F"


@pytest.mark.parametrize(
    "options",
    [
        {"preset": "medium"},
        {"preset": "custom", "sides": [3, 4]},
        {"preset": "custom", "sides": "3,5,3,3"},
        {"preset": "easy", "sides": [4, 4, 4, 4]},
        {"colour": "red"},
    ],
)
def test_r2_bad_map_options_are_refused(options):
    """R2: an unknown preset, a bad sides list or an unknown option is a readable GameError."""
    with pytest.raises(GameError):
        ENGINE.new(1, options=options)


def test_one_seat_only():
    """Tin Realm is solo: asking for 2 seats is refused."""
    with pytest.raises(GameError, match="solo"):
        ENGINE.new(1, seats=2)


def test_r2_reaching_f_wins_at_once():
    """R2: a match that moves the meeple onto F wins at once, mid-day."""
    state = placing(hero(), ["lantern-marsh"], "hollow-oak")
    state.node = state.furthest = 10
    state, events = act(state, "place:right")
    assert "Oakinshelm" in events[-1]
    assert ENGINE.is_over(state) and state.end == "won"
    assert ENGINE.to_act(state) is None and ids(state) == []
    result = ENGINE.result(state)
    assert result is not None and result.outcomes[0].outcome == "win"


def test_r2_map_nodes_passed_give_water_and_campsite():
    """R2: moving over a water node rolls for food; landing on a campsite node offers a camp."""
    state = hero()
    state.rng = scripted(6)
    state.node = state.furthest = 1
    state.queue = ["decide"]
    log: list[str] = []
    adventurer.move(C, state, 3, log)
    assert state.node == 4 and state.food == 1
    assert state.queue[0] == "camp"
    assert any("water you roll 6" in e for e in log)


def test_r2_moving_back_never_goes_behind_s_and_triggers_what_it_passes():
    """R2 (revised)/R4: moving back stops at S; the nodes passed on the way back trigger
    too (easy map: node 2 is water)."""
    state = hero()
    state.rng = scripted(5)
    state.node = state.furthest = 4
    state.queue = ["decide"]
    log: list[str] = []
    adventurer.move(C, state, -9, log)
    assert state.node == 0 and state.furthest == 4
    assert state.food == 1 and any("water you roll 5" in e for e in log)
    assert state.queue == ["decide"]
    assert log[-1] == "You are back at the start and can go back no further."


def test_r3_resolve_uses_the_top_card_as_location():
    """R3: resolving makes the top card the location and the next card its result card."""
    state = deciding(hero("marshkin", "chanter"), "hollow-oak", "cinder-pass")
    assert ENGINE.view(state)["top_card"]["id"] == "hollow-oak"
    state, _ = act(state, "resolve")
    view = ENGINE.view(state)
    assert view["location"]["id"] == "hollow-oak"
    assert view["result"]["id"] == "cinder-pass"
    assert view["top_card"] is None
    assert state.waiting_for == "camp"


def test_r3_skip_flips_the_top_card_as_result_for_the_next():
    """R3: skipping turns the top card to its result side; the next card is the location."""
    state = deciding(hero("marshkin", "chanter"), "hollow-oak", "cinder-pass")
    state.rng = scripted(4, 1)
    state, events = act(state, "skip")
    assert state.location == "cinder-pass"
    assert state.result_card == "hollow-oak"
    assert "Larder Goblin" in events[-1]
    assert len(state.deck) == 10


def test_r3_icons_resolve_left_to_right():
    """R3: trap, then loot, then campsite, for a card showing them in that order."""
    state = deciding(hero("marshkin", "chanter"), "briar-hollow", "hollow-oak")
    state, events = act(state, "resolve")
    trap = next(i for i, e in enumerate(events) if "energy trap" in e)
    chest = next(i for i, e in enumerate(events) if "chest is empty" in e)
    camp = next(i for i, e in enumerate(events) if "campsite" in e)
    assert trap < chest < camp
    assert state.waiting_for == "camp"


def test_r4_first_card_starts_the_tableau_without_a_choice():
    """R4: the day's first location joins the tableau by itself; then the result is discarded."""
    state = deciding(hero("marshkin", "chanter"), "mossy-ford", "hollow-oak")
    state.rng = scripted(1)
    state, events = act(state, "resolve")
    assert state.tableau == ["mossy-ford"]
    assert state.discard == ["hollow-oak"]
    assert "starts today's tableau" in events[-1]
    assert state.waiting_for == "decide"


def test_r4_place_at_either_end_only():
    """R4: a placement is offered only at the left or right end, never wedged between."""
    state = placing(hero(), ["lantern-marsh", "mossy-ford"], "hollow-oak")
    assert [i for i in ids(state) if i.startswith("place")] == ["place:left", "place:right"]
    left, _ = act(state, "place:left")
    right, _ = act(state, "place:right")
    assert left.tableau == ["hollow-oak", "lantern-marsh", "mossy-ford"]
    assert right.tableau == ["lantern-marsh", "mossy-ford", "hollow-oak"]


def test_r4_landscape_match_advances_one_node():
    """R4: forest meeting forest advances the meeple 1 node; the label says so first."""
    state = placing(hero(), ["lantern-marsh"], "hollow-oak")
    labels = {a.id: a.label for a in ENGINE.legal_actions(state, 0)}
    assert "forest match" in labels["place:right"]
    state, events = act(state, "place:right")
    assert state.node == state.furthest == 1
    assert "forest edges match" in " ".join(events)


def test_r4_no_match_does_nothing():
    """R4: edges that differ (water against none) move nothing."""
    state = placing(hero(), ["lantern-marsh"], "hollow-oak")
    state, _ = act(state, "place:left")
    assert state.node == 0


def test_r4_half_skull_against_landscape_does_nothing():
    """R4: half a skull meeting a landscape icon has no effect."""
    state = placing(hero(), ["sunken-chapel"], "lantern-marsh")
    health = state.health
    state, _ = act(state, "place:left")
    assert (state.node, state.health) == (0, health)


def test_r4_skull_match_halves_health_and_moves_back_three():
    """R4: skull meets skull: lose half the current health (rounded down), move back 3."""
    state = placing(hero(), ["sunken-chapel"], "howling-scree")
    state.health = 9
    state.node = state.furthest = 5
    labels = {a.id: a.label for a in ENGINE.legal_actions(state, 0)}
    assert "skull" in labels["place:left"]
    state, _ = act(state, "place:left")
    assert state.health == 5
    assert state.node == 2 and state.furthest == 5


def test_r4_skull_match_never_moves_behind_s():
    """R4: the skull setback stops at S."""
    state = placing(hero(), ["sunken-chapel"], "howling-scree")
    state.node = state.furthest = 1
    state, _ = act(state, "place:left")
    assert state.node == 0


def test_r4_skull_match_can_kill_through_poison():
    """R4/R8: halving health to at or below the poison kills."""
    state = placing(hero(), ["sunken-chapel"], "howling-scree")
    state.health, state.poison = 6, 3
    state, _ = act(state, "place:left")
    assert state.end == "dead"


def test_r5_rest_and_search():
    """R5: rest gives +2 health and +1 energy (capped); search gives +1 food."""
    state = hero()
    state.health, state.energy, state.food = state.max_health - 1, 0, 0
    rested, _ = act(_camp(state.copy()), "camp:rest")
    assert rested.health == rested.max_health and rested.energy == 1
    searched, _ = act(_camp(state.copy()), "camp:search")
    assert searched.food == 1 and searched.health == state.health


@pytest.mark.parametrize(
    ("race", "roll", "food"),
    [
        ("stoneborn", 4, 0),
        ("stoneborn", 5, 1),
        ("stoneborn", 6, 1),
        ("marshkin", 3, 2),
        ("marshkin", 4, 3),
    ],
)
def test_r5_water_finds_food_on_five_or_six(race, roll, food):
    """R5: water rolls one die: 5-6 gives 1 food (the Marshkin forager: 4-6)."""
    state = hero(race, "pathfinder")
    state.rng = scripted(roll)
    log: list[str] = []
    adventurer.water(C, state, log)
    assert state.food == food
    assert state.dice == [roll]
    assert str(roll) in log[0]


def test_r6_enemy_health_is_printed_plus_day():
    """R6: an enemy's health is its printed health plus the current day."""
    state = hero("stoneborn", "pathfinder")
    state.day = 3
    state.queue = ["fight:moss-troll", "decide"]
    from .helpers import run

    run(state)
    assert state.fight is not None
    assert state.fight.health == C.enemies["moss-troll"].health + 3
    assert ENGINE.view(state)["combat"]["health"] == state.fight.health


def test_r6_player_strikes_first_with_energy_choices():
    """R6: without a strikes-first power nothing rolls until the player strikes (0-3 energy)."""
    state, events = fight("moss-troll", klass="pathfinder")
    assert state.dice == [] and len(events) == 1
    assert [i for i in ids(state) if i.startswith(("strike", "blow"))] == [
        "strike:0",
        "strike:1",
        "strike:2",
        "strike:3",
        "blow",
    ]
    assert {a.group for a in ENGINE.legal_actions(state, 0) if a.id.startswith("strike")} == {
        "combat"
    }


def test_r6_strike_adds_the_chart_bonus_and_subtracts_defense():
    """R6: dice difference + energy bonus - defense is dealt; the energy is spent."""
    state, _ = fight("ironhide-boar", 6, 2, 1, 1, klass="pathfinder")
    state.fight.health = state.fight.start_health = 20
    energy = state.energy
    state, events = act(state, "strike:2")
    dealt = 4 + C.classes["pathfinder"].chart[1] - C.enemies["ironhide-boar"].defense
    assert state.energy == energy - 2
    assert f"= {dealt} damage" in events[0]
    assert state.fight.health == 20 - dealt


def test_r6_doubles_miss_and_the_enemy_strikes_back():
    """R6: the player's doubles deal nothing; the enemy then rolls difference + attack."""
    state, _ = fight("hollow-knight", 3, 3, 6, 1, klass="pathfinder")
    health, start = state.health, state.fight.health
    state, events = act(state, "strike:0")
    assert "doubles, your strike misses" in events[0]
    assert state.fight.health == start
    assert state.health == health - (5 + C.enemies["hollow-knight"].attack)


def test_r6_defense_never_makes_damage_negative():
    """R6: a strike below the enemy's defense deals 0, never heals it."""
    state, _ = fight("ironhide-boar", 2, 1, 1, 1, klass="pathfinder")
    start = state.fight.health
    state, events = act(state, "strike:0")
    assert "= 0 damage" in events[0]
    assert state.fight.health == start


def test_r6_sure_blow_ignores_defense_and_rolls_nothing():
    """R6: the 1-damage strike ignores defense and spends no energy."""
    state, _ = fight("ironhide-boar", 1, 1, klass="pathfinder")
    start, energy = state.fight.health, state.energy
    state, events = act(state, "blow")
    assert events[0] == "You land a sure blow: 1 damage."
    assert state.fight.health == start - 1
    assert state.energy == energy


def test_r6_zero_energy_offers_a_roll_without_bonus_and_the_sure_blow():
    """R6 (revised): at 0 energy both a roll spending 0 energy and the sure blow are offered
    (the blow is no longer forced)."""
    state, _ = fight("moss-troll", klass="pathfinder", energy=0)
    strikes = [i for i in ids(state) if i.startswith(("strike", "blow"))]
    assert strikes == ["strike:0", "blow"]
    assert "eat:energy" not in ids(state)


def test_r6_a_roll_at_zero_energy_has_no_bonus_and_spends_nothing():
    """R6 (revised): rolling at 0 energy deals the dice difference less defense, no bonus."""
    state, _ = fight("ironhide-boar", 6, 2, 1, 1, klass="pathfinder", energy=0)
    start = state.fight.health
    state, events = act(state, "strike:0")
    dealt = 4 - C.enemies["ironhide-boar"].defense
    assert state.energy == 0
    assert events[0] == f"You roll 6 and 2: 4 - 1 defense = {dealt} damage."
    assert state.fight.health == start - dealt


def test_r6_the_sure_blow_is_a_choice_with_energy_left():
    """R6 (revised): with energy left the sure blow is offered beside every roll, and
    taking it spends no energy."""
    state, _ = fight("ironhide-boar", 1, 1, klass="pathfinder", energy=3)
    assert [i for i in ids(state) if i.startswith(("strike", "blow"))] == [
        "strike:0", "strike:1", "strike:2", "strike:3", "blow"]
    start = state.fight.health
    state, events = act(state, "blow")
    assert state.energy == 3 and state.fight.health == start - 1
    assert events[0] == "You land a sure blow: 1 damage."


def test_r6_energy_choices_stop_at_current_energy():
    """R6: with 2 energy, strikes with 0, 1 or 2 energy are offered."""
    state, _ = fight("moss-troll", klass="pathfinder", energy=2)
    assert [i for i in ids(state) if i.startswith("strike")] == ["strike:0", "strike:1", "strike:2"]


def test_r6_a_helm_takes_one_damage_off_each_hit():
    """R6: with a helm an enemy hit deals 1 less."""
    state, _ = fight("hollow-knight", 3, 3, 6, 1, klass="pathfinder")
    state.items.append("dented-helm")
    health = state.health
    state, events = act(state, "strike:0")
    assert state.health == health - (5 + C.enemies["hollow-knight"].attack - 1)
    assert "helm -1" in events[-1]


def test_r6_winning_gives_favor_and_goes_on():
    """R6: the enemy falling gives its favor; the location goes on."""
    state, _ = fight("larder-goblin", 6, 1, klass="pathfinder")
    state.fight.health = 5
    state, events = act(state, "strike:0")
    assert state.fight is None and state.favor == C.enemies["larder-goblin"].favor
    assert any("falls" in e for e in events)
    assert state.waiting_for == "decide"


def test_r6_dying_in_combat_ends_the_game():
    """R6: health reaching 0 from an enemy hit is death and a loss."""
    state, _ = fight("hollow-knight", 3, 3, 6, 1, klass="pathfinder", health=2)
    state, events = act(state, "strike:0")
    assert state.end == "dead" and state.health == 0
    assert ENGINE.result(state).outcomes[0].outcome == "loss"
    assert "die" in events[-1]


@pytest.mark.parametrize("waiting", ["decide", "camp", "place", "fight"])
def test_r7_food_can_be_eaten_at_any_choice(waiting):
    """R7: eat actions are offered whatever the game waits for, when they would help."""
    state = hero()
    if waiting == "place":
        state = placing(state, ["mossy-ford"], "hollow-oak")
    elif waiting == "fight":
        state, _ = fight("moss-troll")
    else:
        state.queue = [waiting, "decide"]
    state.food, state.health, state.energy = 2, state.max_health - 1, state.max_energy - 1
    assert {"eat:health", "eat:energy"} <= set(ids(state))
    eaten, events = act(state, "eat:health")
    assert eaten.health == state.health + 1 and eaten.food == 1
    assert eaten.waiting_for == state.waiting_for
    assert events == ["You eat 1 food: +1 health."]


def test_r7_no_eating_without_food_or_need():
    """R7: no eat action with no food, nor for a stat already at its maximum."""
    state = hero()
    state.food = 3
    assert "eat:health" not in ids(state) and "eat:energy" not in ids(state)
    state.health -= 1
    assert "eat:health" in ids(state) and "eat:energy" not in ids(state)
    state.food = 0
    assert "eat:health" not in ids(state)


def test_r8_poison_at_health_kills():
    """R8: gaining poison up to the health level is death."""
    state = deciding(hero("marshkin", "chanter"), "gullwater-bank", "mossy-ford")
    state.health, state.poison = 3, 2
    state.items, state.food = [], 0  # nothing to eat: no brace before the trap (R7)
    state, events = act(state, "resolve")
    assert state.end == "dead"
    assert "poison" in events[-1]


def test_r8_health_above_poison_lives():
    """R8: health one above poison survives."""
    state = hero()
    state.health, state.poison = 3, 2
    assert not adventurer.check_death(state, [])


def test_r9_end_of_day_eats_advances_and_reshuffles():
    """R9: after the sixth location the sundial advances, 1 food is eaten, all 12 reshuffle."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.food = 2
    state.spent_today = ["buckler"]
    state, events = act(state, "place:right")
    assert state.day == 2 and state.food == 1
    assert sorted(state.deck) == sorted(C.exploration)
    assert state.tableau == [] and state.discard == [] and state.spent_today == []
    assert "Day 2 begins." in events
    assert ENGINE.view(state)["location_in_day"] == 1


def test_r9_no_food_costs_three_health():
    """R9: with no food the day's end costs 3 health."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.food, health = 0, state.health
    state, events = act(state, "place:right")
    assert state.health == health - 3
    assert "No food" in " ".join(events)


def test_r9_starving_can_kill():
    """R9: the 3 hunger damage can kill."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.food, state.health = 0, 3
    state, _ = act(state, "place:right")
    assert state.end == "dead" and state.day == 2


def test_r9_a_death_at_supper_belongs_to_the_night_after_the_day_that_ended():
    """R9: the sundial advances before supper, so starving after day 3 leaves it at 4; the
    journey died on the night after day 3 (not "on day 4"), it ended 3 days for the score,
    and a save and load keeps that it ended at supper."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.day, state.food, state.health = 3, 0, 3
    state, _ = act(state, "place:right")
    assert state.end == "dead" and state.day == 4 and state.supper
    view = ENGINE.view(state)
    assert view["end_text"] == "Died on the night after day 3: health ran out"
    assert view["night"] is True
    assert score_parts(state)["days"] == -2 * 3
    again = ENGINE.load(ENGINE.dump(state))
    assert again.supper and ENGINE.view(again)["end_text"] == view["end_text"]


def test_r9_a_death_in_the_day_is_on_that_day():
    """R8/R9: a death during day 3 (not at supper) is on day 3."""
    state = deciding(hero("marshkin", "chanter"), "gullwater-bank", "mossy-ford")
    state.day, state.health, state.poison = 3, 3, 2
    state.items = []
    state, _ = act(state, "resolve", "go")  # braced (R7: 2 food to eat), and not eating
    assert state.end == "dead" and not state.supper
    assert ENGINE.view(state)["end_text"].startswith("Died on day 3:")
    assert ENGINE.view(state)["night"] is False


def test_a_game_saved_before_supper_was_kept_still_loads():
    """A saved state without the "supper" key loads (the key was added later) and a
    journey out of time still reads as over at night (its sundial past day 7)."""
    state, _ = _last_night(food=3, health=8)
    data = ENGINE.dump(state)
    del data["supper"]
    old = ENGINE.load(data)
    assert not old.supper and ENGINE.view(old)["night"] is True


def test_r9_the_end_of_day_seven_loses():
    """R9: when day 7 ends the game is lost; the day count stops at 8."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.day, state.food = 7, 3
    state, events = act(state, "place:right")
    assert state.end == "time" and state.day == 8
    assert ENGINE.is_over(state)
    assert "seventh day" in events[-1]
    assert ENGINE.result(state).outcomes[0].outcome == "loss"


def _last_night(food: int, health: int):
    """Day 7's last placement, done: the game after the seventh day's end (R9)."""
    state = placing(
        hero(),
        ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank", "sunken-chapel"],
        "old-toll-bridge",
    )
    state.day, state.food, state.health = 7, food, health
    return act(state, "place:right")


def test_r9_the_last_supper_is_eaten_before_the_day_seven_check():
    """R9 (revised): on the last night supper comes first: 1 food is eaten, then the journey
    is out of time; the score counts the food left after supper."""
    state, events = _last_night(food=3, health=8)
    assert state.end == "time" and state.food == 2 and state.health == 8
    supper = events.index("You eat 1 food for supper.")
    assert supper < events.index("The seventh day ends before you reach Oakinshelm.")
    assert score_parts(state)["food"] == 2


def test_r9_the_last_night_without_food_costs_three_health_then_time_runs_out():
    """R9 (revised): with no food the last supper costs 3 health, then the day-7 check ends
    the journey out of time."""
    state, events = _last_night(food=0, health=8)
    assert state.end == "time" and state.health == 5
    assert any(e.startswith("No food") for e in events)
    assert events[-1] == "The seventh day ends before you reach Oakinshelm."


def test_r9_starving_on_the_last_night_is_a_death_not_time():
    """R9 (revised): starving that night kills before the day-7 check: the end is death."""
    state, events = _last_night(food=0, health=3)
    assert state.end == "dead" and state.health == 0
    assert "The seventh day ends before you reach Oakinshelm." not in events
    assert ENGINE.view(state)["end_text"] == "Died on the night after day 7: health ran out"


def test_r10_score_parts():
    """R10: 10 for Oakinshelm + health + energy + food + favor + 2/node - poison - 2/day ended."""
    state = hero()
    state.end, state.queue = "won", []
    state.health, state.energy, state.food, state.favor = 6, 2, 1, 4
    state.furthest, state.node, state.poison, state.day = 11, 11, 2, 5
    parts = score_parts(state)
    assert parts == {
        "oakinshelm": 10,
        "health": 6,
        "energy": 2,
        "food": 1,
        "favor": 4,
        "nodes": 22,
        "poison": -2,
        "days": -8,
    }
    assert score(state) == 35
    result = ENGINE.result(state)
    assert result.outcomes[0].score == 35
    assert result.outcomes[0].detail["rank"] == "Guard"
    view = ENGINE.view(state)
    assert (view["score"], view["rank"]) == (35, "Guard")


def test_r10_nodes_count_the_furthest_reached():
    """R10: the node points use the furthest node reached, even after a setback."""
    state = hero()
    state.end, state.queue = "dead", []
    state.furthest, state.node = 6, 3
    assert score_parts(state)["nodes"] == 12
    assert score_parts(state)["oakinshelm"] == 0


@pytest.mark.parametrize(
    ("points", "title"),
    [
        (-4, "Ratcatcher"),
        (20, "Ratcatcher"),
        (21, "Laborer"),
        (30, "Laborer"),
        (31, "Guard"),
        (40, "Guard"),
        (41, "Performer"),
        (50, "Performer"),
        (51, "Merchant"),
        (60, "Merchant"),
        (61, "Mayor"),
        (90, "Mayor"),
    ],
)
def test_r10_ranks(points, title):
    """R10: rank boundaries; 50 is Performer (the text's overlap resolved)."""
    assert rank(points) == title


def test_r11_replay_from_seed_and_actions_is_identical():
    """R11: replaying the same seed and choices gives the same events and the same state."""
    state, chosen, events = ENGINE.new(99, options={"preset": "hard"}), [], []
    while not ENGINE.is_over(state):
        action = ENGINE.computer_action(state, 0)
        step = ENGINE.apply(state, 0, action)
        chosen.append(action)
        events.append(step.events)
        state = step.state
    again = ENGINE.new(99, options={"preset": "hard"})
    for action, expected in zip(chosen, events, strict=True):
        step = ENGINE.apply(again, 0, action)
        assert step.events == expected
        again = step.state
    assert ENGINE.dump(again) == ENGINE.dump(state)


def test_r9_the_text_board_of_a_death_at_supper_names_the_day_that_ended() -> None:
    """R9: starving on the night after day 3, the text board (the terminal play tool's)
    says day 3 is over, as the picture and the alt text do, not "day 4 of 7"."""
    state = placing(hero(), ["hollow-oak", "mossy-ford", "cinder-pass", "gullwater-bank",
                             "sunken-chapel"], "old-toll-bridge")
    state.day, state.food, state.health = 3, 0, 3
    state, _ = act(state, "place:right")
    assert ENGINE.view(state)["end_text"] == "Died on the night after day 3: health ran out"
    assert ENGINE.render_text(state).splitlines()[0] == "Tin Realm - day 3 of 7 is over"
