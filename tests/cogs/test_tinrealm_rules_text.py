"""What Tin Realm players read in /tinrealm rules (and the Rules page of "Rules & details"):
campsites, water, the map's nodes, the limits of the trackers and the ranks, with the
numbers the game uses (rulings R1, R2, R5, R10), each rule whole on one phone page."""

from __future__ import annotations

import re

from bot.games.tinrealm import adventurer, scoring
from bot.games.tinrealm.state import FOOD_CAP
from cogs.details import PAGE_LINES, _lines, paginate
from cogs.tinrealm import RULES
from tests.games.tinrealm.helpers import C


def _rule(title: str) -> str:
    return dict(RULES)[title]


def test_r5_the_rules_say_what_a_campsite_gives():
    """R5: a campsite is rest (+2 health, +1 energy) or search (+1 food)."""
    assert (adventurer.REST_HEALTH, adventurer.REST_ENERGY, adventurer.SEARCH_FOOD) == (2, 1, 1)
    assert ("Campsite: rest (+2 health, +1 energy) or search (+1 food)."
            in _rule("Camps, water and food"))


def test_r5_the_rules_say_what_water_finds_and_the_foragers_roll():
    """R5: water rolls one die and 5-6 finds 1 food; the Marshkin's ability lowers it to 4."""
    marshkin = next(r for r in C.races.values() if r.ability == "forager")
    assert (adventurer.WATER_ROLL, marshkin.name, marshkin.amount) == (5, "Marshkin", 4)
    assert ("Water: roll one die; 5-6 finds 1 food (the Marshkin: 4-6)."
            in _rule("Camps, water and food"))


def test_r2_the_rules_say_map_nodes_trigger_when_passed_either_way():
    """R2: a campsite or water node triggers when landed on or passed, forward or back."""
    text = _rule("A day")
    assert "A campsite or water node on the map works like that icon" in text
    assert "whenever you land on or pass it, forward or back." in text


def test_r1_the_rules_say_food_is_capped_and_health_and_energy_stay_at_their_start():
    """R1: food is capped at 5; health and energy never exceed their starting values."""
    assert FOOD_CAP == 5
    text = _rule("Camps, water and food")
    assert "You hold at most 5 food" in text
    assert "never more health or energy than you started with" in text


def test_r10_the_rules_give_every_rank_band():
    """R10: up to 20 Ratcatcher, 21-30 Laborer, 31-40 Guard, 41-50 Performer, 51-60
    Merchant, 61+ Mayor (50 is Performer); the bands are those the score is ranked by."""
    text = _rule("Score")
    low = None
    for highest, name in scoring.RANKS:
        band = f"up to {highest} {name}" if low is None else f"{low}-{highest} {name}"
        assert band in text, band
        assert scoring.rank(highest) == name and scoring.rank(highest + 1) != name
        low = highest + 1
    assert f"{low}+ {scoring.TOP_RANK}" in text
    assert scoring.rank(50) == "Performer" and scoring.rank(61) == "Mayor"


def test_no_rule_is_split_over_two_pages():
    """Each rule is read whole on one phone page ("(continued)" is never needed), and no
    page is longer than a phone screen holds."""
    pages = paginate(list(RULES))
    assert all("(continued)" not in name for page in pages for name, _ in page)
    assert [field for page in pages for field in page] == list(RULES)
    for page in pages:
        assert sum(_lines(name) + _lines(value) for name, value in page) <= PAGE_LINES


def test_the_rules_name_no_ruling():
    """Players read the rules in their own words: no ruling id (R2, R10, ...) is shown."""
    text = " ".join(f"{name} {value}" for name, value in RULES)
    assert not re.search(r"\bR\d+\b", text), text
