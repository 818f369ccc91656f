"""Rulings R1 and R2 as revised, the Altar's price, forced steps, labels, the legend, the
end in words, and what the computer player may know."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.protocol import MAX_LABEL, IllegalAction
from bot.games.tinrealm import actions, journey
from bot.games.tinrealm.content import EDGES, ICONS, NODE_MARKS
from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import TinState
from bot.tools.tinrealm_simulate import ablation, holdable

from .helpers import C, act, fight, hero, ids, placing, run, scripted


def meet_offer(state: TinState, encounter: str) -> None:
    """Make ``state`` meet the offer ``encounter`` through its result card."""
    state.result_card = next(
        card.id for card in C.exploration.values() if card.encounter == ("reference", encounter)
    )
    state.queue = ["decide"]
    run(state, "icon:encounter")


# -- the Altar (and every offer): the price is checked when offered and when accepted ------


def test_altar_reported_case_cannot_be_accepted_after_eating_its_price():
    """The reported game (seed 179): eating the last food at the Altar leaves nothing to pay,
    so accepting is no longer offered; walking on happens by itself once nothing else is
    left to do. (Since Fallow Barrow's icons follow the rules' order, its fight with the
    Lantern Wisp comes before its campsite; two strikes of 1 energy leave the energy low
    enough that the Spark Tonic still helps after eating.)"""
    state = ENGINE.new(179)
    state, _ = act(state, "race:cinderfolk", "class:warden", "resolve", "strike:1", "strike:1",
                   "camp:rest", "resolve")
    assert state.waiting_for == "offer:altar" and state.food == 1
    assert "offer:yes" in ids(state)
    state, events = act(state, "eat:energy")
    assert state.food == 0 and state.favor == 2
    assert ids(state) == ["offer:no", "use:spark-tonic"]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "offer:yes")
    state, events = act(state, "use:spark-tonic")
    assert "Walk on: happened by itself (the only choice)." in events
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "offer:yes")


@pytest.mark.parametrize("encounter", [e.id for e in C.encounters.values() if e.kind == "offer"])
def test_every_offer_checks_its_price_when_offered_and_when_accepted(encounter):
    """An offer is made only if its price is held, and accepting checks the price again."""
    offer = C.encounters[encounter]
    state = hero()
    for stat, amount in offer.pay.items():
        setattr(state, stat, amount - 1)
    meet_offer(state, encounter)
    assert state.waiting_for == "decide", "an offer nobody can pay is not made"
    state = hero()
    for stat, amount in offer.pay.items():
        setattr(state, stat, amount)
    state.food = max(state.food, 1)
    state.health = state.max_health - 1
    meet_offer(state, encounter)
    assert state.waiting_for == f"offer:{encounter}" and "offer:yes" in ids(state)
    stat = next(iter(offer.pay))
    setattr(state, stat, offer.pay[stat] - 1)
    assert "offer:yes" not in ids(state)
    with pytest.raises(IllegalAction, match="no longer pay"):
        ENGINE.apply(state, 0, "offer:yes")
    with pytest.raises(IllegalAction, match="cannot pay"):
        journey.offer(C, state.copy(), True, [])


CAPPED = ("food", "health", "energy")


@pytest.mark.parametrize("encounter", [
    e.id for e in C.encounters.values() if e.kind == "offer" and all(
        (amount > 0 and stat in CAPPED) or amount < 0 for stat, amount in e.gain.items())])
def test_an_offer_accepted_says_what_it_really_gave(encounter):
    """Accepting an offer logs the changes made, not the card's amounts: at the most of
    what it gives (food at its cap, no poison), the price is paid for nothing, and the
    offer says so before it is accepted."""
    offer = C.encounters[encounter]
    state = hero()
    for stat, amount in offer.pay.items():
        setattr(state, stat, amount + 1)
    for stat, amount in offer.gain.items():  # as much as can be held, or none to lose
        setattr(state, stat, {"food": 5, "health": state.max_health,
                              "energy": state.max_energy}.get(stat, 0) if amount > 0 else 0)
    meet_offer(state, encounter)
    (yes,) = [a for a in actions.legal(C, state) if a.id == "offer:yes"]
    assert yes.description.endswith("accepting would gain you nothing.")
    state, events = act(state, "offer:yes")
    paid = ", ".join(f"{amount} {stat}" for stat, amount in offer.pay.items())
    assert f"You pay {paid} and gain nothing: you hold the most you can." in events


# -- R1 revised: double-sided race/class cards, trappings split between classes -----------


def test_r1_revised_a_race_offers_the_classes_on_the_two_other_cards():
    """R1 (revised): after a race, only the classes on the backs of the other two cards."""
    backs = {race.id: race.back for race in C.races.values()}
    assert sorted(backs.values()) == sorted(C.classes), "the backs are a bijection"
    for race in C.races:
        state, _ = act(ENGINE.new(2), f"race:{race}")
        offered = [a.id.removeprefix("class:") for a in ENGINE.legal_actions(state, 0)]
        assert sorted(offered) == sorted(set(C.classes) - {backs[race]})
        with pytest.raises(IllegalAction, match="not on the back of the two other cards"):
            ENGINE.apply(state, 0, f"class:{backs[race]}")
    assert len(C.pairs()) == 6 and len(set(C.pairs())) == 6


def test_r1_revised_each_class_takes_one_side_of_two_different_trapping_cards():
    """R1 (revised): a class's two trappings lie on two different cards; each card gives
    one side to each of two classes."""
    owner = {t: k.id for k in C.classes.values() for t in k.trappings}
    assert sorted(owner) == sorted(s for card in C.trapping_cards.values() for s in card.sides)
    for klass in C.classes.values():
        cards = {C.items[t].card for t in klass.trappings}
        assert len(cards) == 2
    for card in C.trapping_cards.values():
        assert len({owner[side] for side in card.sides}) == 2


# -- R2 revised: map icons on every move, forward or back --------------------------------


def test_r2_revised_the_skull_setback_triggers_the_nodes_it_passes_and_lands_on():
    """R2 (revised): the skull's move back 3 from node 5 passes the campsite at node 4 and
    lands on the water at node 2 (easy map): both happen."""
    state = placing(hero(), ["sunken-chapel"], "howling-scree")
    state.rng = scripted(6)
    state.health, state.food = 9, 0
    state.node = state.furthest = 5
    state, events = act(state, "place:left")
    assert state.health == 5 and state.node == 2 and state.furthest == 5
    assert state.food == 1 and any("water you roll 6" in e for e in events)
    assert state.waiting_for == "camp"
    assert "This node has a campsite." in events


def test_r2_revised_each_campsite_passed_is_offered_in_turn():
    """R2 (revised): two campsites passed in one move are two rest-or-search choices."""
    state = hero(preset="hard")
    nodes = C.nodes(state.sides)
    camps = [i for i, mark in enumerate(nodes) if mark == "campsite"]
    assert len(camps) >= 2
    state.node = state.furthest = camps[1] + 1
    state.queue = ["decide"]
    log: list[str] = []
    from bot.games.tinrealm.adventurer import move

    move(C, state, -(camps[1] + 1 - camps[0]), log)
    assert state.queue[:2] == ["camp", "camp"] and state.queue[2] == "decide"


# -- forced steps happen by themselves ---------------------------------------------------


def test_r6_at_zero_energy_nothing_happens_by_itself():
    """R6 (revised): with no energy, no food and no usable item the player still chooses
    between a roll without bonus and the sure blow, so no strike happens by itself (it
    did when the sure blow was forced at 0 energy)."""
    state, _ = fight("larder-goblin", 1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5,
                     race="marshkin", klass="chanter", food=0, energy=1)
    state, events = act(state, "strike:1")
    assert state.energy == 0 and state.waiting_for == "fight:larder-goblin"
    assert not any("happened by itself" in e for e in events)
    assert actions.forced(C, state) is None
    assert ids(state) == ["strike:0", "blow"]


def test_the_days_last_placement_happens_by_itself_when_both_ends_are_alike():
    """The sixth placement with no match at either end (and nothing to eat or use) needs
    no click: the day ends."""
    state = placing(hero(), ["cinder-pass", "briar-hollow", "hollow-oak", "sunken-chapel",
                             "old-toll-bridge"], "copperleaf-glade")
    assert actions.forced(C, state) is not None
    state.queue = ["camp", "place"]
    state.health, state.energy, state.food = state.max_health - 2, state.max_energy - 1, 0
    state, events = act(state, "camp:rest")
    assert any(e.endswith("happened by itself (both ends give the same result).")
               for e in events)
    assert state.day == 2 and state.waiting_for == "decide"


def test_a_placement_that_matters_or_food_to_eat_keeps_the_choice():
    """Placing where the ends differ, or with food to eat first, is the player's choice."""
    state = placing(hero(), ["mossy-ford"], "hollow-oak")
    assert actions.forced(C, state) is None
    state = placing(hero(), ["cinder-pass", "briar-hollow", "hollow-oak", "sunken-chapel",
                             "old-toll-bridge"], "copperleaf-glade")
    state.health, state.food = state.max_health - 1, 2
    assert actions.forced(C, state) is None


def test_a_campsite_that_would_change_nothing_happens_by_itself():
    """Full health, energy and food: resting and searching are alike; nothing is asked."""
    state = hero()
    state.food = 5
    state.queue = ["decide"]
    run(state, "camp")
    forced = actions.forced(C, state)
    assert forced is not None and forced[0].id == "camp:rest"


# -- labels, descriptions, primary -------------------------------------------------------


def _random_games(count: int, share: float):
    """Yield every state of ``count`` seeded games, random or heuristic choices mixed."""
    for seed in range(count):
        rng = random.Random(seed)
        state = ENGINE.new(seed, options={"preset": "hard" if seed % 2 else "easy"})
        while not ENGINE.is_over(state):
            yield state
            legal = ENGINE.legal_actions(state, 0)
            if rng.random() < share:
                action = ENGINE.computer_action(state, 0)
            else:
                action = rng.choice(legal).id
            state = ENGINE.apply(state, 0, action).state
        yield state


def test_labels_fit_a_button_and_no_decision_left_is_forced():
    """Over 150 games: every label is at most MAX_LABEL long, and no state waiting for the
    player holds a decision that would have happened by itself."""
    for state in _random_games(150, 0.5):
        legal = ENGINE.legal_actions(state, 0)
        for action in legal:
            assert 0 < len(action.label) <= MAX_LABEL, action.label
        if legal and state.waiting_for not in ("race", "class"):
            assert actions.forced(C, state) is None


def test_descriptions_carry_the_long_text_and_an_advancing_end_is_primary():
    """Races, classes, items and offers explain themselves in the description; the end
    that advances the meeple is the primary choice."""
    state = ENGINE.new(1)
    races = ENGINE.legal_actions(state, 0)
    assert all(r.description and r.description.startswith("Class: ") for r in races)
    state = placing(hero(), ["mossy-ford"], "lantern-marsh")
    state.items.append("salve-jar")
    state.health -= 5
    legal = {a.id: a for a in ENGINE.legal_actions(state, 0)}
    assert legal["use:salve-jar"].label == "Use Salve Jar"
    assert legal["use:salve-jar"].description == C.items["salve-jar"].text
    match = [a for a in legal.values() if a.group == "place" and "match" in a.label
             and "no match" not in a.label]
    assert [a.id for a in match] == ["place:right"] and match[0].primary
    assert not legal["place:left"].primary


# -- the legend and the end in words (R10) -----------------------------------------------


def test_the_view_carries_a_legend_of_every_symbol_used():
    """Every edge, icon and map mark of the content, and the text board's characters,
    are explained in the view's legend."""
    legend = {entry["key"]: entry for entry in ENGINE.view(hero())["legend"]}
    for key in {*EDGES, *ICONS, *NODE_MARKS} - {"-"}:
        assert key in legend and legend[key]["emoji"] and legend[key]["meaning"]
    assert legend["none"]["text"] == "."
    assert "Key: S start" in ENGINE.render_text(hero())


@pytest.mark.parametrize(
    ("end", "stats", "words"),
    [
        ("dead", {"health": 0, "poison": 0}, "Died on day 3: health ran out"),
        ("dead", {"health": 2, "poison": 2}, "Died on day 3: the poison (2) reached your health"),
        ("time", {"health": 4, "poison": 1}, "Time ran out: the seventh day ended on the road"),
        ("won", {"health": 9, "poison": 1}, "Reached Oakinshelm on day 3"),
    ],
)
def test_r10_the_end_tells_death_from_time_and_gives_the_score_in_words(end, stats, words):
    """R10: the result and the view say how the journey ended and add the score up."""
    state = hero()
    state.day, state.favor, state.food, state.energy = 3, 4, 2, 3
    state.furthest = 9
    for name, value in stats.items():
        setattr(state, name, value)
    state.end, state.queue = end, []
    result = ENGINE.result(state)
    view = ENGINE.view(state)
    assert result.summary.startswith(words) and view["end_text"].startswith(words)
    head = "Reached Oakinshelm +10" if end == "won" else "Oakinshelm not reached +0"
    expected = (
        f"{head}, health +{state.health}, energy +3, food +2, favor +4, 9 nodes reached +18, "
        f"poison {-state.poison}, 2 days ended -4 = {result.outcomes[0].score}"
    )
    assert view["score_words"] == expected and expected in result.summary
    assert result.outcomes[0].detail["words"] == expected
    assert f"Score: {expected}" in ENGINE.render_text(state)


# -- the computer player decides from what a player can see ------------------------------


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 120), shuffle_seed=st.integers(0, 2**16),
       preset=st.sampled_from(["easy", "hard"]))
def test_computer_decides_only_from_what_a_player_can_know(seed, steps, shuffle_seed, preset):
    """Reshuffling the hidden part of the exploration deck (every card under the face-up
    top card) never changes the computer's choice."""
    rng = random.Random(seed)
    state = ENGINE.new(seed, options={"preset": preset})
    for _ in range(steps):
        if ENGINE.is_over(state):
            return
        state = ENGINE.apply(state, 0, rng.choice(ENGINE.legal_actions(state, 0)).id).state
    if ENGINE.is_over(state):
        return
    choice = ENGINE.computer_action(state, 0)
    shuffler = random.Random(shuffle_seed)
    for _ in range(3):
        other = state.copy()
        hidden = other.deck[1:]
        shuffler.shuffle(hidden)
        other.deck[1:] = hidden
        assert ENGINE.computer_action(other, 0) == choice


# -- the ablation ------------------------------------------------------------------------


def test_ablation_lists_every_thing_each_pair_can_hold():
    """The ablation prints one line per pair and thing it can hold: every loot card, the
    class's two trappings and the race ability."""
    lines = ablation(2, seed=3)
    rows = [line for line in lines if line.split(" ")[0] in {f"{r}+{k}" for r, k in C.pairs()}]
    assert len(rows) == sum(len(holdable(C, r, k)) for r, k in C.pairs()) == 6 * 11
    assert lines[-1].startswith("things worth nothing to someone who holds them:")


def test_r10_nothing_taken_away_reads_zero() -> None:
    """R10 in words: no poison and no day ended read "poison 0" and "0 days ended 0", not
    "-0"."""
    state = hero()
    state.day, state.poison, state.end, state.queue = 1, 0, "dead", []
    words = ENGINE.view(state)["score_words"]
    assert "poison 0, 0 days ended 0 = " in words and "-0" not in words
