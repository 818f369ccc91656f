"""Every engine treats a state as a value: nothing it is asked changes the state asked about.

The table shares engine states without copying them: the state object a save wrote is
kept with the kept row and taken up by the next click (``db.rows.KeptRows``), a Hard
computer player thinks on a thread while the state stays the game's, and a board is
drawn from the state the click made. So every call of the engine protocol (``apply``,
also when it refuses, ``legal_actions``, ``view``, ``to_act``, ``is_over``, ``result``,
``dump`` and ``computer_action``) must leave the state it was given exactly as it was:
random legal games of the three games check that after every call, through the state's
own dump and its view. Nor may a state's dump share anything with the state: the dump is
the row's state document, which outlives the click with the state kept beside it, so
changing a dump in place must leave the state as it was.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import registry
from bot.games.protocol import Engine, IllegalAction
from tests.support import steam_until

#: The most moves a game here is played for (enough to reach every phase of each game).
MOVES = 300


def _snapshot(engine: Engine, state: Any) -> str:
    """The state as its dump and its view say it, as one text."""
    return json.dumps([engine.dump(state), engine.view(state)], sort_keys=True)


def _spoiled(data: Any) -> None:
    """Change every list and dict inside ``data`` in place."""
    if isinstance(data, list):
        for item in data:
            _spoiled(item)
        data.append("spoiled")
    elif isinstance(data, dict):
        for item in data.values():
            _spoiled(item)
        data["spoiled"] = True


def _asked_everything(engine: Engine, state: Any, seat: int, rng: random.Random) -> str:
    """Ask the engine every question about ``state`` (and spoil its dump, which must
    share nothing with the state); return the action to play."""
    _spoiled(engine.dump(state))
    engine.legal_actions(state, seat)
    engine.view(state)
    engine.is_over(state)
    engine.result(state)
    engine.dump(state)
    engine.to_act(state)
    with contextlib.suppress(IllegalAction):
        engine.apply(state, seat, "not-an-action")
    actions = engine.legal_actions(state, seat)
    if rng.random() < 0.3:
        return engine.computer_action(state, seat)
    return rng.choice(actions).id


def _play(kind: str, seed: int, seats: int, options: dict[str, Any]) -> int:
    """Play one random game, checking the state is unchanged by every question; return
    how many moves were played."""
    engine = registry.engine(kind)
    rng = random.Random(seed)
    state = engine.new(seed, seats, options)
    for moves in range(MOVES):
        if engine.is_over(state):
            return moves
        seat = engine.to_act(state)
        assert seat is not None
        before = _snapshot(engine, state)
        action = _asked_everything(engine, state, seat, rng)
        step = engine.apply(state, seat, action)
        assert _snapshot(engine, state) == before, f"{kind}: {action} changed its input"
        assert step.state is not state, f"{kind}: apply returned the state it was given"
        state = step.state
    return MOVES


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_tinker_states_never_change(seed: int) -> None:
    """Tinker, Sailor, Soldier, Spy, either rule option."""
    options = {"classic_journey": seed % 2 == 0, "harsh_defeat": seed % 3 == 0}
    assert _play("tinker", seed, 1, options) > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_tin_realm_states_never_change(seed: int) -> None:
    """Tin Realm, on either map."""
    options = {"preset": ("easy", "hard")[seed % 2]}
    assert _play("tinrealm", seed, 1, options) > 0


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), seats=st.integers(2, 5))
def test_steam_to_solar_states_never_change(seed: int, seats: int) -> None:
    """Steam to Solar, 2 to 5 seats."""
    options = {"names": [f"Player {i + 1}" for i in range(seats)]}
    assert _play("steam", seed, seats, options) > 0


def test_a_steam_dump_in_the_final_round_shares_nothing_with_its_state() -> None:
    """The final round's seats (S11) are copied into the dump: changing the dump leaves
    the state's final round as it was (a random search found it shared)."""
    engine = registry.engine("steam")
    state = steam_until(lambda s: s.final is not None, seats=5, wander=0.3)
    before = list(state.final)
    engine.dump(state)["final"].append(99)
    assert state.final == before
