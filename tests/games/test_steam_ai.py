"""Steam to Solar: the computer player chooses legal, sensible actions quickly."""

from __future__ import annotations

import random
import time

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.games.protocol import IllegalAction
from bot.games.steam import hard
from bot.games.steam.ai import race
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import DECKS, HARD, LEVELS, PAWNS
from tests.games.test_steam_build import build, ids, play

#: Generous ceiling per decision for a busy test machine (bench/steam_ai.py measures).
SLOWEST_DECISION = 0.25


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), data=st.data())
def test_computer_choices_are_always_legal_and_quick(seed, seats, data):
    """In mixed games (computer and random seats) every computer choice is legal and fast."""
    computer = data.draw(st.sets(st.integers(0, seats - 1), min_size=1))
    chooser = random.Random(seed)
    state = ENGINE.new(seed, seats)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)
        legal = ids(state, seat)
        if seat in computer:
            began = time.perf_counter()
            action = ENGINE.computer_action(state, seat)
            assert time.perf_counter() - began < SLOWEST_DECISION
            assert action in legal and action != "resign"
        else:
            action = chooser.choice([i for i in legal if i != "resign"])
        state = ENGINE.apply(state, seat, action).state


def test_computer_beats_random_players():
    """Against two random players the computer player wins nearly every game."""
    wins = 0
    for seed in range(12):
        chooser = random.Random(seed)
        state = ENGINE.new(seed, 3)
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)
            if seat == seed % 3:
                action = ENGINE.computer_action(state, seat)
            else:
                action = chooser.choice([i for i in ids(state, seat) if i != "resign"])
            state = ENGINE.apply(state, seat, action).state
        wins += ENGINE.result(state).outcomes[seed % 3].outcome == "win"
    assert wins >= 11


def drive(state, seat=0):
    """Let the computer play ``seat`` until its turn ends; return the ids it chose."""
    chosen = []
    while state.turn == seat and not state.over:
        action = ENGINE.computer_action(state, seat)
        chosen.append(action)
        state = ENGINE.apply(state, seat, action).state
    return chosen


def test_computer_runs_a_ready_train_on_its_last_turn():
    """On its last turn the computer runs its train, shipping every goods card at once."""
    state = build(river=["Ace of Moons", "Mill", "Savage", "Sailor"], half=2, final=[0, 1],
                  trains=[[["Journey", "Market", "Merchant", "Forest"]]])
    assert drive(state) == ["run:1", "all"]


def test_computer_takes_steam_for_the_tokens_at_the_end():
    """With both powers on its last turn in the second half, the computer picks steam."""
    state = build(river=["Ace of Moons"], deck=[], half=2, final=[0, 1],
                  trains=[[["Pact", "Sailor", "Market"]]])
    assert drive(state)[:2] == ["run:1", "pw:steam"]


def test_computer_keeps_its_wave_card_with_solar():
    """Early on, a train with both powers runs on solar when steam would burn a card."""
    state = build(river=["Ace of Moons", "Mill", "Savage", "Sailor"],
                  trains=[[["Pact", "Ace of Waves", "Market", "Merchant", "Battle"]]])
    state, _ = play(state, 0, "run:1")
    assert ENGINE.computer_action(state, 0) == "pw:solar"


def test_computer_burns_the_wave_card_it_needs_least():
    """Asked which Wave card to burn, the computer keeps its Moon card."""
    state = build(river=["Ace of Moons", "Mill", "Savage", "Sailor"],
                  trains=[[["Journey", "Ace of Waves", "Ace of Leaves"]]])
    state, _ = play(state, 0, "run:1", "sh:ALeaves", "ship")
    assert ENGINE.computer_action(state, 0) == "wv:AWaves"


def test_computer_discards_to_make_room_for_goods():
    """S6, S7: with full trains and no run, it takes goods and discards to fit (10 cards)."""
    full = [["Huntress", "Ace of Moons", "Pact", "Diplomat", "Mountain"],
            ["Sea", "Ace of Waves", "Journey", "Lunatic", "Discovery"]]
    state = build(river=["Market", "Merchant", "Battle", "Soldier"], trains=[full])
    chosen = drive(state)
    assert chosen[0].startswith(("t1:", "d:")) and any(c.startswith("d:") for c in chosen)
    after = state
    for action in chosen:
        after = ENGINE.apply(after, 0, action).state
    cards = [c.name for t in after.players[0].trains for c in t]
    assert len(cards) == 10 and set(cards) & {"Market", "Merchant", "Battle", "Soldier"}


def test_computer_takes_the_moon_card_the_next_rival_lacks():
    """S4, S8: paying 1 for the only Moon card in the river, which the next player's long
    train lacks, beats taking two free goods cards it would use just as well."""
    state = build(river=["Ace of Leaves", "Savage", "Huntress", "Mill"],
                  trains=[[["Lunatic", "Market"]], [["Sailor", "Merchant", "End", "Origin"]]])
    first = ENGINE.computer_action(state, 0)
    assert first.startswith("t") and "3" in first.partition(":")[2].split("+")


def test_computer_only_moves_on_its_turn():
    """Asking the computer to move for a seat not to act is refused."""
    with pytest.raises(IllegalAction):
        ENGINE.computer_action(build(river=["Mill"]), 1)


def _random_position(seed: int, seats: int, steps: int, deck: str = PAWNS):
    """A position reached by random legal moves (never resigning) from ``seed``."""
    chooser = random.Random(seed)
    state = ENGINE.new(seed, seats, {"deck": deck})
    for _ in range(steps):
        if state.over:
            break
        seat = state.turn
        state = ENGINE.apply(state, seat, chooser.choice(
            [i for i in ids(state, seat) if i != "resign"])).state
    return state


def _random_endgame(seed: int, seats: int, extra: int, deck: str):
    """A position where Hard plays the end out (second half, deck of 6 or fewer, start of
    a turn), reached by random legal moves from ``seed``; None if the game ends first."""
    chooser = random.Random(seed)
    state = ENGINE.new(seed, seats, {"deck": deck})
    while not state.over and (extra > 0 or not hard.in_endgame(state)):
        if hard.in_endgame(state):
            extra -= 1
        seat = state.turn
        state = ENGINE.apply(state, seat, chooser.choice(
            [i for i in ids(state, seat) if i != "resign"])).state
    return None if state.over else state


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), steps=st.integers(0, 220),
       order=st.randoms(use_true_random=False), level=st.sampled_from(LEVELS),
       deck=st.sampled_from(DECKS))
def test_reshuffling_the_hidden_deck_never_changes_the_choice(seed, seats, steps, order,
                                                              level, deck):
    """Every level sees only the deck's size and what every player can work out: any other
    order of the deck gives the same choice; so does any other future shuffle (the seed's
    draws) for Easy and Normal, and for Hard given the same rollout seed (the state's
    seed and draw count, kept here)."""
    state = _random_position(seed, seats, steps, deck)
    if state.over:
        state = ENGINE.new(seed, seats, {"deck": deck})
    other = state.copy()
    order.shuffle(other.deck)
    if level != HARD:
        other.rng = type(other.rng)(order.randrange(2**32), other.rng.draws)
    seat = state.turn
    assert (ENGINE.computer_action(other, seat, level)
            == ENGINE.computer_action(state, seat, level))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seats=st.integers(2, 5), extra=st.integers(0, 12),
       order=st.randoms(use_true_random=False), deck=st.sampled_from(DECKS))
def test_hard_rollouts_never_see_the_hidden_deck_order(seed, seats, extra, order, deck):
    """Hard in the endgame, where it plays the end out: shuffling the deck's real order
    never changes its choice, given the same rollout seed; neither does another game seed
    with the rollout seed given."""
    state = _random_endgame(seed, seats, extra, deck)
    assume(state is not None)
    seat = state.turn
    choice = hard.choose_action(state, seat)
    shuffled = state.copy()
    order.shuffle(shuffled.deck)
    assert hard.choose_action(shuffled, seat) == choice
    assert ENGINE.computer_action(shuffled, seat, HARD) == choice
    reseeded = shuffled.copy()
    reseeded.rng = type(reseeded.rng)(order.randrange(2**32), order.randrange(10**6))
    rollout_seed = hard.rollout_seed(state, seat)
    assert hard.choose_action(reseeded, seat, rollout_seed) == choice


def test_s10_race_plays_the_token_stacks_out_in_turn_order():
    """S10: the race gives the last steam runner the two and the one before it the one."""
    assert race([1, 0], (None, None), {0: 1.0, 1: 1.0}) == {0: 2.0, 1: 1.0}
    assert race([1], (0, 2), {1: 1.0}) == {1: 2.0, 0: 1.0}
    assert race([0], (0, 1), {0: 1.0}) == {0: 2.0, 1: 1.0}
    half = race([1], (0, None), {1: 0.5})
    assert half == {0: 1.5, 1: 1.0}


def test_s11_computer_triggers_the_end_to_run_steam_last():
    """S11 + S10: with a steam train ready and the rival holding the stack of two, it
    takes two to end the game (its own turn comes last) rather than run now and lose
    the stack to the rival's ready steam train."""
    state = build(river=["Ace of Knots", "Painter", "Castle", "Windfall"], deck=["Sea"],
                  half=2, two_stack=1, scores=[10, 10],
                  trains=[[["Journey", "Market"]], [["Lunatic", "Merchant"]]])
    first = ENGINE.computer_action(state, 0)
    assert first.startswith("t2:")
    after = ENGINE.apply(state, 0, first).state
    while after.turn == 0 and not after.over:
        after = ENGINE.apply(after, 0, ENGINE.computer_action(after, 0)).state
    assert after.final == [1, 0]


def test_computer_on_its_last_turn_runs_steam_after_the_rival():
    """S10: on the very last turn it takes the stack of two with a steam run."""
    state = build(river=["Ace of Knots"], deck=[], half=2, final=[0], two_stack=1,
                  scores=[10, 10], trains=[[["Journey", "Market"]], [["Lunatic"]]])
    assert drive(state) == ["run:1", "all"]


def test_the_computers_remembered_train_values_are_bounded() -> None:
    """The values the computer remembers of trains it weighed stay within a bound a bot
    running for months can hold (about 2 MB), however many games it plays."""
    from bot.games.steam import ai

    for cached in (ai._packed_value, ai._best_split):
        info = cached.cache_info()
        assert info.maxsize is not None and info.maxsize <= 16384
