"""Alt text of an ended Tin Realm journey: the node counted as the board counts it, and
no day beyond the last."""

from __future__ import annotations

from bot.games.tinrealm.engine import ENGINE
from bot.pictures.alt import describe
from tests.games.tinrealm.helpers import ended_journey


def test_a_won_journey_puts_the_meeple_on_the_last_node():
    """R2: reaching F wins; the alt text counts nodes past S as the text board does, so
    the winner stands at node N of N."""
    view = ENGINE.view(ended_journey("won"))
    last = view["nodes_total"] - 1
    assert view["node"] == last
    assert f"at node {last} of {last}." in describe("tinrealm", view, "over")


def test_a_journey_out_of_time_says_the_last_day_is_over():
    """R9: the game is lost at the end of day 7; the alt text never says day 8 of 7."""
    view = ENGINE.view(ended_journey("time"))
    assert view["day"] > view["last_day"]
    alt = describe("tinrealm", view, "over")
    assert f"day {view['last_day']} of {view['last_day']} is over" in alt, alt
    assert f"day {view['day']} of" not in alt


def test_a_journey_on_the_road_says_its_day():
    """A journey under way keeps "day d of 7"."""
    state = ENGINE.new(1, 1, {"preset": "easy"})
    view = ENGINE.view(state)
    assert f"day {view['day']} of 7," in describe("tinrealm", view, "playing")


def test_a_death_at_supper_says_the_day_that_ended_is_over():
    """R9: the sundial advances before supper; a journey that starved after day 3 is
    described as "day 3 of 7 is over", not as on day 4."""
    view = dict(ENGINE.view(ended_journey("dead")), day=4, night=True)
    alt = describe("tinrealm", view, "over")
    assert "day 3 of 7 is over" in alt, alt
    assert "day 4" not in alt
