"""What a loaded game keeps of its state: the view and the legal actions, once per state."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.protocol import Action
from bot.games.steam.engine import ENGINE as STEAM
from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinker.rules import card_points, chip_points, running_sum
from tests.support import loaded


class Counting:
    """An engine that counts the calls the loaded game makes to it."""

    def __init__(self, engine: Any) -> None:
        self.engine = engine
        self.kind = engine.kind
        self.legal: list[tuple[int, int]] = []
        self.views = 0

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        self.legal.append((id(state), seat))
        return self.engine.legal_actions(state, seat)

    def view(self, state: Any) -> dict[str, Any]:
        self.views += 1
        return self.engine.view(state)


def test_legal_actions_are_asked_once_per_state_and_seat() -> None:
    """Asked again, the game answers from what it kept; each seat is asked on its own."""
    engine = Counting(STEAM)
    state = STEAM.new(3, 3, {"names": ["A", "B", "C"]})
    game = loaded(engine, state, seats=3)
    seat = STEAM.to_act(state)
    first = game.legal_actions(seat)
    assert first == STEAM.legal_actions(state, seat)
    assert game.legal_actions(seat) == first
    assert game.legal_actions((seat + 1) % 3) == STEAM.legal_actions(state, (seat + 1) % 3)
    game.legal_actions((seat + 1) % 3)
    assert engine.legal == [(id(state), seat), (id(state), (seat + 1) % 3)]


def test_a_new_state_is_asked_again() -> None:
    """The table replaces the state after a move: the view and the actions follow it."""
    engine = Counting(TINKER)
    state = TINKER.new(5)
    game = loaded(engine, state)
    before, view = game.legal_actions(0), game.view()
    step = TINKER.apply(state, 0, before[0].id)
    game.state = step.state
    assert game.legal_actions(0) == TINKER.legal_actions(step.state, 0) != before
    assert game.view() == TINKER.view(step.state) != view
    assert [s for s, _ in engine.legal] == [id(state), id(step.state)]
    assert engine.views == 2
    game.state = state  # back to the first state: asked again, not mixed up
    assert game.legal_actions(0) == before
    assert game.view() == view
    assert len(engine.legal) == 3
    assert engine.views == 3


def test_each_caller_gets_its_own_list() -> None:
    """A caller that changes its list changes nothing for the next one."""
    game = loaded(TINKER, TINKER.new(8))
    mine = game.legal_actions(0)
    expected = list(mine)
    mine.clear()
    assert game.legal_actions(0) == expected
    assert game.legal_actions(0) is not game.legal_actions(0)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_the_running_sum_is_what_each_card_and_chip_adds(seed: int) -> None:
    """T4 card by card and chip by chip, through a whole random game."""
    rng = random.Random(seed)
    state = TINKER.new(seed, 1, {"harsh_defeat": seed % 2 == 0})
    while not TINKER.is_over(state):
        if state.challenge is not None:
            expected = sum(card_points(c, state.challenge) for c in state.played) + sum(
                chip_points(s, state.challenge) for s in state.paid)
            assert running_sum(state) == expected
        actions = TINKER.legal_actions(state, 0)
        assert TINKER.legal_actions(state, 0) == actions
        state = TINKER.apply(state, 0, rng.choice(actions).id).state
