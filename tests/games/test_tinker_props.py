"""Tinker, Sailor, Soldier, Spy: invariants over thousands of seeded games."""

import json
import random
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.decktet import DECK
from bot.games.protocol import MAX_ACTION_ID
from bot.games.tinker.engine import ENGINE
from bot.games.tinker.rules import legal_ids

ID_PATTERN = re.compile(r"[A-Za-z0-9_.:+\-]+")
PILES = ("deck", "discard", "aces", "personalities", "events", "locations", "offer",
         "played", "cleared", "trashed")
#: No game takes more steps: 11 choices, 11 give-ups, 36 chips paid or lost.
MAX_STEPS = 11 + 11 + 36


def t4_sum(view):
    """The running sum recomputed from the view alone, as T4 states it."""
    challenge = view["challenge"]
    if challenge is None:
        return 0
    suits = set(challenge["suits"])
    cards = sum(c["value"] for c in view["played"] if suits & set(c["suits"]))
    return cards + sum(1 for s in view["paid"] if s in suits)


def check_invariants(state):
    """Assert every invariant of one state."""
    data = ENGINE.dump(state)
    places = Counter(name for pile in PILES for name in data[pile])
    if data["challenge"]:
        places[data["challenge"]] += 1
    assert places == Counter(c.name for c in DECK), "each of the 45 cards in one place"
    assert sum(data["chips"]) + sum(data["spent"]) == 36
    assert all(a + b == 6 for a, b in zip(data["chips"], data["spent"], strict=True))
    view = ENGINE.view(state)
    assert view["sum"] == t4_sum(view)
    legal = ENGINE.legal_actions(state, 0)
    assert bool(legal) != ENGINE.is_over(state), "always an action until the game ends"
    assert (ENGINE.to_act(state) is None) == ENGINE.is_over(state)
    assert all(ID_PATTERN.fullmatch(a.id) and len(a.id) <= MAX_ACTION_ID for a in legal)
    assert legal_ids(state) == [a.id for a in legal], "the quick ids are the actions' ids"
    assert ENGINE.dump(ENGINE.load(json.loads(json.dumps(data)))) == data


def play(seed, policy, options=None, checks=True):
    """Play one game; return the final state, the ids chosen and all events."""
    state = ENGINE.new(seed, options=options)
    chosen, events = [], []
    while not ENGINE.is_over(state):
        assert len(chosen) < MAX_STEPS, "every game ends"
        if checks:
            check_invariants(state)
        action_id = policy(state)
        step = ENGINE.apply(state, 0, action_id)
        chosen.append(action_id)
        events.extend(step.events)
        state = step.state
    if checks:
        check_invariants(state)
    return state, chosen, events


def random_policy(seed):
    """A player picking uniformly among the legal actions, seeded."""
    rng = random.Random(seed)
    return lambda state: rng.choice(ENGINE.legal_actions(state, 0)).id


def computer(state):
    """The engine's own heuristic."""
    return ENGINE.computer_action(state, 0)


def test_t3_invariants_over_random_games():
    """T2-T9: 45 cards placed, chips conserved, T4 sum, 11 choices, an end, in 1200 games."""
    for seed in range(1200):
        options = {"harsh_defeat": seed % 2 == 1, "classic_journey": seed % 3 == 0}
        state, chosen, _ = play(seed, random_policy(seed), options, checks=seed < 600)
        assert sum(1 for a in chosen if a.startswith("choose:")) == 11
        assert ENGINE.result(state) is not None
        if not options["harsh_defeat"]:
            assert not any(a.startswith("lose:") for a in chosen)


def test_invariants_over_computer_games():
    """The heuristic only picks legal actions and its games keep every invariant."""
    for seed in range(150):
        _, chosen, _ = play(seed, computer, {"harsh_defeat": seed % 2 == 0})
        assert sum(1 for a in chosen if a.startswith("choose:")) == 11


def test_t10_scores_over_computer_games():
    """T10: the score is 100 per location cleared plus chips left, win iff 13 cleared."""
    wins = 0
    for seed in range(300):
        state, _, _ = play(seed, computer, checks=False)
        outcome = ENGINE.result(state).outcomes[0]
        cleared, chips = outcome.detail["locations_cleared"], outcome.detail["chips_left"]
        assert outcome.score == cleared * 100 + chips
        assert (outcome.outcome == "win") == (cleared == 13)
        wins += outcome.outcome == "win"
    assert 0 < wins < 300


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**16),
       harsh=st.booleans(), classic=st.booleans())
def test_replay_from_seed_and_actions_is_identical(seed, policy_seed, harsh, classic):
    """A game replays exactly from its seed and its list of action ids."""
    options = {"harsh_defeat": harsh, "classic_journey": classic}
    state, chosen, events = play(seed, random_policy(policy_seed), options, checks=False)
    replay = ENGINE.new(seed, options=options)
    replay_events = []
    for action_id in chosen:
        step = ENGINE.apply(replay, 0, action_id)
        replay, replay_events = step.state, [*replay_events, *step.events]
    assert ENGINE.dump(replay) == ENGINE.dump(state)
    assert replay_events == events


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**16), harsh=st.booleans())
def test_apply_never_mutates_and_dump_load_round_trips_every_step(seed, policy_seed, harsh):
    """At every step apply() leaves its input alone and load(dump) continues the same game."""
    policy = random_policy(policy_seed)
    state = ENGINE.new(seed, options={"harsh_defeat": harsh})
    while not ENGINE.is_over(state):
        before = ENGINE.dump(state)
        action_id = policy(state)
        step = ENGINE.apply(state, 0, action_id)
        assert ENGINE.dump(state) == before
        reloaded = ENGINE.apply(ENGINE.load(json.loads(json.dumps(before))), 0, action_id)
        assert ENGINE.dump(reloaded.state) == ENGINE.dump(step.state)
        assert reloaded.events == step.events
        state = step.state
