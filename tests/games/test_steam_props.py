"""Steam to Solar: properties over thousands of seeded random games (2 to 5 seats).

Random players pick among their legal ids (half the time they run a train, in one go or
step by step, ship everything or pick steam when they can, so that the Wave token race
happens); now and then a random seat resigns. Every step is checked against the
invariants below. The games are played with both decks (S1, S2: the Pawns and the
Courts).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games.protocol import MAX_LABEL, MAX_OPTION
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import (
    DECK_SUNNY,
    DECKS,
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    THREE_SUITED,
    Arranging,
    Running,
    SteamState,
)
from tests.games.test_steam_build import restart

#: Chance per step that some seat resigns (often enough to reach the S10 cases).
RESIGN_RATE = 1 / 150
#: Chance that a random player picks a run, ship-all or steam when one is offered.
EAGER_RATE = 0.5
#: No game may take more steps than this.
MAX_STEPS = 20_000

seeds = st.integers(min_value=0, max_value=2**32)
seat_counts = st.integers(min_value=2, max_value=5)
decks = st.sampled_from(DECKS)


def games(count: int) -> settings:
    """Hypothesis settings for ``count`` whole games (slow examples, no deadline)."""
    return settings(max_examples=count, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])



@dataclass
class Game:
    """A random game played to its end: the seed, the seats and the moves made."""

    seed: int
    seats: int
    deck: str = "pawns"
    moves: list[tuple[int, str]] = field(default_factory=list)
    events: list[str] = field(default_factory=list)


def random_move(state: SteamState, chooser: random.Random) -> tuple[int, str]:
    """Pick a random legal move: usually the seat to act, rarely someone resigning."""
    if chooser.random() < RESIGN_RATE:
        return chooser.choice(state.active()), "resign"
    seat = state.turn
    actions = ENGINE.legal_actions(state, seat)
    assert all(len(a.label) <= MAX_LABEL for a in actions)
    assert all(len(a.label) < len(a.option) <= MAX_OPTION for a in actions if a.option)
    action_ids = [a.id for a in actions if a.id != "resign"]
    eager = [i for i in action_ids if i.startswith(("run:", "go:", "all", "pw:steam"))]
    if eager and chooser.random() < EAGER_RATE:
        return seat, chooser.choice(eager)
    return seat, chooser.choice(action_ids)


def play_random(seed: int, seats: int, check=None, deck: str = "pawns"
                ) -> tuple[Game, SteamState]:
    """Play a random game to its end with ``deck`` (S1), calling ``check(before, move,
    after)`` each step."""
    chooser = random.Random(seed)
    game = Game(seed, seats, deck)
    state = ENGINE.new(seed, seats, {"deck": deck})
    assert state.deck_kind == deck
    while not state.over:
        assert len(game.moves) < MAX_STEPS, "the game does not end"
        move = random_move(state, chooser)
        step = ENGINE.apply(state, *move)
        if check is not None:
            check(state, move, step.state)
        game.moves.append(move)
        game.events.extend(step.events)
        state = step.state
    return game, state


def check_cards(state: SteamState) -> None:
    """S1, S2: every one of the deck's 40 cards is in exactly one place: the 36 basic cards
    and the table's four three-suited cards, no other; the sunny cards set aside are the
    deck's own four, and only in the first half."""
    places = [state.deck, state.river, state.discard, state.sunny]
    places += [c for p in state.players for c in p.trains]
    places.append(state.in_hand())
    seen = [c.name for place in places for c in place]
    names = {c.name for c in state.cards}
    assert len(seen) == 40 == len(names) and set(seen) == names
    assert sum(c.is_basic for c in state.cards) == 36
    assert set(state.cards) - {c for c in state.cards if c.is_basic} == set(
        THREE_SUITED[state.deck_kind])
    assert not state.sunny or (state.half == 1 and set(state.sunny) == set(
        DECK_SUNNY[state.deck_kind]))


def check_players(state: SteamState) -> None:
    """Train limits (S6: not while arranging), points never negative, points add up."""
    for seat, p in enumerate(state.players):
        assert len(p.trains) <= MAX_TRAINS and all(p.trains)
        arranging = seat == state.turn and isinstance(state.pending, Arranging)
        assert arranging or all(len(t) <= MAX_TRAIN_CARDS for t in p.trains)
        assert p.score >= 0 and p.paid >= 0 and p.scored >= 0
        assert p.score == 5 - p.paid + p.scored
        assert not (p.resigned and p.trains)
    if state.half == 1:
        assert state.two_stack is None and state.one_stack is None
    assert state.two_stack is None or state.two_stack != state.one_stack


class FinalRoundLog:
    """Counts, per seat, the turns that began after the end was triggered (S11)."""

    def __init__(self) -> None:
        self.in_final = False
        self.turns: Counter[int] = Counter()

    def __call__(self, before: SteamState, move: tuple[int, str], after: SteamState) -> None:
        """Note a turn played to its end, and whether the next turn is a final one.

        A turn ends when the seat to act changes or the game ends; one ended by its
        player resigning is not a turn played.
        """
        check_cards(after)
        check_players(after)
        if not (after.over or after.turn != before.turn):
            return
        if self.in_final and move[1] != "resign":
            self.turns[before.turn] += 1
        self.in_final = after.final is not None


@games(1500)
@given(seed=seeds, seats=seat_counts, deck=decks)
def test_s1_s2_random_games_keep_every_invariant_and_end(seed, seats, deck):
    """S1, S2: random games with either deck end, keep the deck's 40 cards in place, the
    limits, and the points sum."""
    log = FinalRoundLog()
    _, state = play_random(seed, seats, log, deck)
    if len(state.active()) >= 2:
        assert {s: log.turns[s] for s in state.active()} == dict.fromkeys(state.active(), 1)
    result = ENGINE.result(state)
    assert result is not None and any(o.outcome == "win" for o in result.outcomes)
    assert all(o.outcome == "loss" for o in result.outcomes if state.players[o.seat].resigned)


@games(150)
@given(seed=seeds, seats=seat_counts, deck=decks)
def test_s1_replay_from_seed_and_moves_is_identical(seed, seats, deck):
    """Replaying a game (either deck) from its seed and moves gives the same states and
    events."""
    game, end = play_random(seed, seats, deck=deck)
    state = ENGINE.new(seed, seats, {"deck": deck})
    events: list[str] = []
    for move in game.moves:
        step = ENGINE.apply(state, *move)
        events.extend(step.events)
        state = step.state
    assert ENGINE.dump(state) == ENGINE.dump(end)
    assert events == game.events


@games(100)
@given(seed=seeds, seats=seat_counts, deck=decks)
def test_s1_dump_load_round_trip_at_every_step(seed, seats, deck):
    """At every step (either deck) the saved state loads back identical and plays on the
    same way."""
    def check(before: SteamState, move: tuple[int, str], after: SteamState) -> None:
        reloaded = restart(before)
        assert ENGINE.dump(ENGINE.apply(reloaded, *move).state) == ENGINE.dump(after)
        assert ENGINE.view(reloaded) == ENGINE.view(before)

    play_random(seed, seats, check, deck)


class TokenLog:
    """Counts the S10 cases around resigned players, checking them on the way."""

    def __init__(self) -> None:
        self.cases: Counter[str] = Counter()

    def __call__(self, before: SteamState, move: tuple[int, str], after: SteamState) -> None:
        """Note a resigned player holding, losing or receiving a Wave token stack."""
        check_cards(after)
        check_players(after)
        gone = {s for s, p in enumerate(after.players) if p.resigned}
        if move[1] == "resign" and move[0] in (before.two_stack, before.one_stack):
            assert (after.two_stack, after.one_stack) == (before.two_stack, before.one_stack)
            self.cases["resigns holding a stack"] += 1
        if before.two_stack in gone and after.two_stack != before.two_stack:
            assert after.one_stack == before.two_stack and after.two_stack == before.turn
            self.cases["stack of two taken from a resigned player"] += 1
        if after.one_stack in gone and after.one_stack != before.one_stack:
            self.cases["resigned player receives the stack of one"] += 1
        if before.one_stack in gone and after.one_stack != before.one_stack:
            self.cases["stack of one taken from a resigned player"] += 1
        for seat in gone:
            if after.over:
                assert ENGINE.result(after).outcomes[seat].score == 0


def test_s10_resigned_players_keep_lose_and_receive_stacks():
    """S10: over 400 seeded 3-5 seat games (half of them with the Courts, S1) every
    resignation case is reached and holds."""
    log = TokenLog()
    for seed in range(400):
        play_random(seed, 3 + seed % 3, log, DECKS[seed % 2])
    assert set(log.cases) == {
        "resigns holding a stack", "stack of two taken from a resigned player",
        "resigned player receives the stack of one", "stack of one taken from a resigned player",
    }, log.cases


def run_step_by_step(state: SteamState, seat: int, action_id: str) -> tuple[SteamState, list[str]]:
    """Play the one-go run ``action_id`` (``go:<train>:<power>[:<wave>]``) as its steps:
    run the train, pick the power if asked, ship all, burn the named Wave card if asked."""
    train, power, *wave = action_id.split(":")[1:]
    events: list[str] = []
    steps = [f"run:{train}", f"pw:{power}", "all", *(f"wv:{w}" for w in wave)]
    for step_id in steps:
        pending = state.pending
        if step_id.startswith("pw:") and isinstance(pending, Running) and pending.power:
            continue
        assert step_id in {a.id for a in ENGINE.legal_actions(state, seat)}, step_id
        step = ENGINE.apply(state, seat, step_id)
        events.extend(step.events)
        state = step.state
    return state, events


@games(120)
@given(seed=seeds, seats=seat_counts, deck=decks)
def test_s8_every_run_in_one_go_equals_its_steps(seed, seats, deck):
    """S8: wherever a run in one go is offered (each power, each Wave card to burn), it
    leaves the same state and says the same events as running the train, choosing the
    power, shipping every goods card and burning that Wave card one click at a time."""
    play_random(seed, seats, WholeRunLog(), deck)


def test_s8_runs_in_one_go_are_checked_for_each_power_and_wave_card():
    """S8: over 60 seeded games, the one-go runs checked include steam, solar and a pick
    among several Wave cards."""
    log = WholeRunLog()
    for seed in range(60):
        play_random(seed, 2 + seed % 4, log, DECKS[seed % 2])
    assert {"steam", "solar", "wave"} <= set(log.seen), log.seen


class WholeRunLog:
    """Checks every one-go run offered against its steps, counting them by kind."""

    def __init__(self) -> None:
        self.seen: Counter[str] = Counter()

    def __call__(self, before: SteamState, move: tuple[int, str], after: SteamState) -> None:
        """Compare each one-go run offered before ``move`` with its steps."""
        seat = before.turn
        for action in ENGINE.legal_actions(before, seat):
            if not action.id.startswith("go:"):
                continue
            whole = ENGINE.apply(before, seat, action.id)
            state, events = run_step_by_step(before, seat, action.id)
            assert ENGINE.dump(whole.state) == ENGINE.dump(state)
            assert list(whole.events) == events
            assert whole.state.turn != seat or whole.state.over or len(before.active()) < 2
            parts = action.id.split(":")
            self.seen["wave" if len(parts) == 4 else parts[2]] += 1
