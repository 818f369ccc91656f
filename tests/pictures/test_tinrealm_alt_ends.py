"""Alt text of an ended Tin Realm journey: the node counted as the board counts it, and
no day beyond the last."""

from __future__ import annotations

from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import TinState
from bot.pictures.alt import describe


def _ended(end: str) -> TinState:
    """The first easy journey, played by the computer, that ends ``end``."""
    for seed in range(300):
        state = ENGINE.new(seed, 1, {"preset": "easy"})
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
        if ENGINE.view(state)["end"] == end:
            return state
    raise AssertionError(end)


def test_a_won_journey_puts_the_meeple_on_the_last_node():
    """R2: reaching F wins; the alt text counts nodes past S as the text board does, so
    the winner stands at node N of N."""
    view = ENGINE.view(_ended("won"))
    last = view["nodes_total"] - 1
    assert view["node"] == last
    assert f"at node {last} of {last}." in describe("tinrealm", view, "over")


def test_a_journey_out_of_time_says_the_last_day_is_over():
    """R9: the game is lost at the end of day 7; the alt text never says day 8 of 7."""
    view = ENGINE.view(_ended("time"))
    assert view["day"] > view["last_day"]
    alt = describe("tinrealm", view, "over")
    assert f"day {view['last_day']} of {view['last_day']} is over" in alt, alt
    assert f"day {view['day']} of" not in alt


def test_a_journey_on_the_road_says_its_day():
    """A journey under way keeps "day d of 7"."""
    state = ENGINE.new(1, 1, {"preset": "easy"})
    view = ENGINE.view(state)
    assert f"day {view['day']} of 7," in describe("tinrealm", view, "playing")
