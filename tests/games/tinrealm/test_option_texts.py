"""What the race, class, strike and item options say: everything a voter needs, in the
room a select's option gives (100 letters), with the numbers the rules will use."""

from __future__ import annotations

from bot.games.tinrealm import combat
from bot.games.tinrealm.engine import ENGINE
from tests.games.tinrealm.helpers import C, act, fight, hero

#: The room of a select option's description on Discord.
OPTION_ROOM = 100


def _legal(state) -> dict:
    return {a.id: a for a in ENGINE.legal_actions(state, 0)}


def test_every_class_option_names_both_starting_items_within_the_room():
    """R1: a class names two items; both are named within the option's 100 letters."""
    for race in C.races:
        state = ENGINE.apply(ENGINE.new(1, 1, {}), 0, f"race:{race}").state
        for action in ENGINE.legal_actions(state, 0):
            text = action.description[:OPTION_ROOM]
            klass = C.classes[action.id.removeprefix("class:")]
            assert "/".join(map(str, klass.chart)) in text, text
            for item in klass.trappings:
                assert C.items[item].name in text, (klass.id, text)


def test_every_race_option_names_the_classes_it_leaves_open_within_the_room():
    """R1: the class comes from the backs of the two other cards; the race's option names
    both within its 100 letters (the Cinderfolk's long ability came first before)."""
    for action in ENGINE.legal_actions(ENGINE.new(1, 1, {}), 0):
        text = action.description[:OPTION_ROOM]
        for klass in C.classes_for(action.id.removeprefix("race:")):
            assert C.classes[klass].name in text, text


def test_strike_labels_count_gear_and_the_undead_bonuses():
    """R6: a landed strike adds the chart's bonus and every extra (a Whetstone, the Blessed
    Chalk and the Cinderfolk bane against the undead): the label and description give the
    sum the roll will add, for the 0-energy strike too."""
    state, _ = fight("hollow-knight", 5, 1, race="cinderfolk", klass="chanter")
    state.items.append("whetstone")
    extra = combat.strike_extra(C, state, C.enemies["hollow-knight"])
    assert extra == 4
    legal = _legal(state)
    assert legal["strike:1"].label == "Strike with 1 energy (+6)"
    assert "the difference + 6 - the enemy's defense" in legal["strike:1"].description
    assert legal["strike:0"].label == "Strike with 0 energy (+4)"
    assert "the difference + 4 -" in legal["strike:0"].description
    _, events = act(state, "strike:1")  # rolls 5 and 1: 4 + 6 - 1 defense
    assert any("= 9 damage" in e for e in events), events


def test_a_plain_strike_keeps_its_short_label():
    """Without chart bonus or extras the 0-energy strike reads as before."""
    state, _ = fight("hollow-knight", race="stoneborn", klass="warden")
    assert _legal(state)["strike:0"].label == "Strike with 0 energy"


def test_an_item_says_what_it_would_change_now():
    """Health never exceeds its start: at 1 below the maximum the Salve Jar gives +1, and
    its option says so rather than the card's 3."""
    state = hero()
    state.items.append("salve-jar")
    state.health = state.max_health - 1
    text = _legal(state)["use:salve-jar"].description
    assert text.startswith("+1 health now") and "+3" not in text, text
    state.health = state.max_health - 5
    assert _legal(state)["use:salve-jar"].description == C.items["salve-jar"].text
