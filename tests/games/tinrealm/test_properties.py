"""Properties over thousands of seeded games played by random (and heuristic) choices."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import FOOD_CAP, LAST_DAY

from .helpers import C

#: No game may need more actions than this.
MAX_STEPS = 5000
ALL_CARDS = Counter(C.exploration.keys())

seeds = st.integers(min_value=0, max_value=2**32)
presets = st.sampled_from(["easy", "hard"])
#: Share of choices made by the heuristic: 0 is purely random play.
shares = st.sampled_from([0.0, 0.0, 0.6, 0.95])


def check(state) -> None:
    """The invariants every reachable state keeps."""
    view = ENGINE.view(state)
    assert 0 <= state.health <= state.max_health
    assert 0 <= state.energy <= state.max_energy
    assert 0 <= state.food <= FOOD_CAP
    assert state.poison >= 0 and state.favor >= 0
    cards = state.deck + state.discard + state.tableau
    cards += [c for c in (state.location, state.result_card) if c]
    assert Counter(cards) == ALL_CARDS
    assert len(state.tableau) <= 6
    assert 1 <= state.day <= LAST_DAY + 1
    assert (state.day == LAST_DAY + 1) <= (state.end in ("time", "dead"))
    assert 0 <= state.node <= state.furthest < view["nodes_total"]
    assert (state.node == view["nodes_total"] - 1) == (state.end == "won")
    if not ENGINE.is_over(state):
        assert state.race is None or state.klass is None or state.health > state.poison
        legal = ENGINE.legal_actions(state, 0)
        assert 0 < len(legal) <= 20


def play(seed: int, preset: str, share: float, checking: bool = True):
    """Play one game; return its final state and the actions taken."""
    chooser = random.Random(seed ^ 0x5EED)
    state = ENGINE.new(seed, options={"preset": preset})
    taken = []
    for _ in range(MAX_STEPS):
        if ENGINE.is_over(state):
            return state, taken
        if chooser.random() < share:
            action = ENGINE.computer_action(state, 0)
        else:
            action = chooser.choice(ENGINE.legal_actions(state, 0)).id
        taken.append(action)
        state = ENGINE.apply(state, 0, action).state
        if checking:
            check(state)
    raise AssertionError("the game did not end")


def r10(state) -> int:
    """The score by the words of R10, computed apart from the engine's own scoring."""
    return (
        (10 if state.end == "won" else 0)
        + state.health
        + state.energy
        + state.food
        + state.favor
        + 2 * state.furthest
        - state.poison
        - 2 * (state.day - 1)
    )


@settings(max_examples=1500, deadline=None)
@given(seed=seeds, preset=presets, share=shares)
def test_every_game_keeps_its_bounds_and_ends(seed, preset, share):
    """Stats stay in bounds, all 12 cards stay accounted for, days stop at 8, games end."""
    state, _ = play(seed, preset, share)
    assert state.end in ("won", "dead", "time")
    result = ENGINE.result(state)
    outcome = result.outcomes[0]
    assert outcome.score == r10(state)
    assert outcome.outcome == ("win" if state.end == "won" else "loss")


@settings(max_examples=150, deadline=None)
@given(seed=seeds, preset=presets, share=shares)
def test_replay_from_seed_and_actions_is_identical(seed, preset, share):
    """R11: replaying the seed and the actions gives the same final state."""
    state, taken = play(seed, preset, share, checking=False)
    again = ENGINE.new(seed, options={"preset": preset})
    for action in taken:
        again = ENGINE.apply(again, 0, action).state
    assert ENGINE.dump(again) == ENGINE.dump(state)


@settings(max_examples=150, deadline=None)
@given(seed=seeds, preset=presets, share=shares)
def test_dump_and_load_round_trip_at_every_step(seed, preset, share):
    """load(dump(s)) is the same game at every step, and play goes on identically from it."""
    chooser = random.Random(seed)
    state = ENGINE.new(seed, options={"preset": preset})
    while not ENGINE.is_over(state):
        data = ENGINE.dump(state)
        loaded = ENGINE.load(data)
        assert ENGINE.dump(loaded) == data
        if chooser.random() < share:
            action = ENGINE.computer_action(state, 0)
        else:
            action = chooser.choice(ENGINE.legal_actions(state, 0)).id
        assert ENGINE.apply(loaded, 0, action).events == ENGINE.apply(state, 0, action).events
        state = ENGINE.apply(state, 0, action).state
    assert ENGINE.dump(ENGINE.load(ENGINE.dump(state))) == ENGINE.dump(state)


def test_heuristic_games_reach_every_ending():
    """Across 200 heuristic games some are won, some lost to death and some to the sundial."""
    ends = Counter(play(seed, "hard", 1.0, checking=False)[0].end for seed in range(200))
    assert set(ends) == {"won", "dead", "time"}
