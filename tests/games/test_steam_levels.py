"""Steam to Solar: the computer player's levels (Easy, Normal, Hard) and old saves.

The level of each seat is kept in the state (option ``levels`` of ``new``; ``normal`` by
default) and ``computer_action`` plays at it. The hidden-information property for every
level is in test_steam_ai.py; the strength of each level is measured by
bench/steam_ai.py (docs/steam.md).
"""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

from bot.games.protocol import GameError
from bot.games.steam import ai, easy, hard, levels
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import EASY, HARD, LEVELS, NORMAL
from tests.games.test_steam_build import build, ids

#: States dumped by the code before the deck option and the levels (schema 2), with what
#: that code's computer chose in each (tests/games/saves/steam_schema2_saves.json).
OLD_SAVES = json.loads(
    (Path(__file__).parent / "saves" / "steam_schema2_saves.json").read_text(encoding="utf-8")
)["saves"]


def endgame_position(seed: int, seats: int, extra: int = 0):
    """A position where Hard plays the end out: Normal plays every seat from ``seed``
    until the second half's deck holds 6 cards or fewer, then ``extra`` more steps."""
    state = ENGINE.new(seed, seats)
    while not hard.in_endgame(state):
        assert not state.over
        state = ENGINE.apply(state, state.turn, ai.choose_action(state, state.turn)).state
    for _ in range(extra):
        if state.over:
            break
        state = ENGINE.apply(state, state.turn, ai.choose_action(state, state.turn)).state
    while not state.over and not hard.in_endgame(state):
        state = ENGINE.apply(state, state.turn, ai.choose_action(state, state.turn)).state
    return state


# -- the option and the state -------------------------------------------------------------


def test_levels_default_to_normal_and_are_kept_per_seat():
    """Every seat plays at ``normal`` unless option ``levels`` says otherwise; the level
    is saved with the seat."""
    assert [p.level for p in ENGINE.new(1, 3).players] == [NORMAL] * 3
    state = ENGINE.new(1, 4, {"levels": ["hard", None, "easy"]})
    assert [p.level for p in state.players] == [HARD, NORMAL, EASY, NORMAL]
    again = ENGINE.load(json.loads(json.dumps(ENGINE.dump(state))))
    assert [p.level for p in again.players] == [HARD, NORMAL, EASY, NORMAL]
    assert [p["level"] for p in ENGINE.dump(state)["players"]] == [
        "hard", "normal", "easy", "normal"]


def test_levels_option_as_text_for_the_terminal_player():
    """The terminal player passes options as text: ``levels`` reads "easy,,hard"."""
    state = ENGINE.new(1, 3, {"levels": "easy,,hard"})
    assert [p.level for p in state.players] == [EASY, NORMAL, HARD]
    assert ENGINE.new(1, 2, {"levels": None, "deck": None}).players[1].level == NORMAL


@pytest.mark.parametrize("bad", [["expert"], ["normal"] * 3, "normal,normal,hard", 3])
def test_bad_levels_are_refused(bad):
    """Unknown levels, or more levels than seats, raise a readable GameError."""
    with pytest.raises(GameError, match="levels"):
        ENGINE.new(1, 2, {"levels": bad})


def test_computer_action_plays_at_the_seats_level(monkeypatch):
    """``computer_action`` asks the player of the seat's level, or of the level it is
    given."""
    monkeypatch.setattr(easy, "choose_action", lambda state, seat: "easy says")
    monkeypatch.setattr(hard, "choose_action", lambda state, seat: "hard says")
    monkeypatch.setattr(ai, "choose_action", lambda state, seat: "normal says")
    state = ENGINE.new(2, 3, {"levels": ["easy", "hard"], "start_seat": 0})
    assert ENGINE.computer_action(state, 0) == "easy says"
    assert ENGINE.computer_action(state, 0, level=HARD) == "hard says"
    state.turn = 1
    assert ENGINE.computer_action(state, 1) == "hard says"
    state.turn = 2
    assert ENGINE.computer_action(state, 2) == "normal says"
    with pytest.raises(GameError, match="level"):
        levels.computer_choice(state, 2, "expert")


# -- saves from before the levels --------------------------------------------------------


@pytest.mark.parametrize("save", OLD_SAVES, ids=lambda s: f"{s['seats']}seats-step{s['step']}")
def test_a_save_from_before_the_levels_loads_unchanged(save):
    """A state dumped by the code before the deck option and the levels (schema 2) loads:
    the Pawns, every seat Normal, every field as it was; and the computer makes the very
    choice that code made there (Normal is today's computer)."""
    old = save["state"]
    assert old["schema"] == 2 and "deck_kind" not in old
    state = ENGINE.load(json.loads(json.dumps(old)))
    assert state.deck_kind == "pawns" and all(p.level == NORMAL for p in state.players)
    new = ENGINE.dump(state)
    assert new["schema"] == 3 and new.pop("deck_kind") == "pawns"
    assert [p.pop("level") for p in new["players"]] == ["normal"] * save["seats"]
    assert {**new, "schema": 2} == old
    if save["computer_action"] is not None:
        assert ENGINE.computer_action(state, state.turn) == save["computer_action"]
    else:
        assert ENGINE.is_over(state)


def test_the_old_saves_cover_both_halves_and_every_pending_step():
    """The saves from before the levels include first and second halves, the final round
    and each pending step (placing, arranging, running), so the test above means
    something."""
    kinds = {(s["state"]["half"], (s["state"]["pending"] or {}).get("kind")) for s in OLD_SAVES}
    assert {(1, None), (2, None), (1, "place"), (1, "arrange"), (1, "run")} <= kinds
    assert any(s["state"]["final"] for s in OLD_SAVES)
    assert any(s["state"]["over"] for s in OLD_SAVES)


# -- Easy ---------------------------------------------------------------------------------


def test_easy_runs_a_good_shipment_at_once_and_anything_on_its_last_turn():
    """Easy runs a train as soon as it would ship 5 points or more, and on its last turn
    runs whatever it can; a smaller shipment earlier waits."""
    river = ["Ace of Moons", "Mill", "Savage", "Sailor"]
    big = build(river=river, trains=[[["Journey", "Market", "Merchant", "Forest"]]])
    assert easy.choose_action(big, 0) == "run:1"
    small = build(river=river, trains=[[["Journey", "Market"]]])
    assert easy.choose_action(small, 0).startswith(("t1:", "t2:"))
    last = build(river=river, half=2, final=[0, 1], trains=[[["Journey", "Market"]]])
    assert easy.choose_action(last, 0) == "run:1"


def test_easy_runs_on_solar_in_the_first_half_and_on_steam_in_the_second():
    """Easy keeps its Wave card with solar in the first half; in the second half it takes
    steam, for the stack of two the button speaks of (without weighing the race)."""
    trains = [[["Pact", "Ace of Waves", "Market", "Merchant", "Battle"]]]
    river = ["Ace of Moons", "Mill", "Savage", "Sailor"]
    first = build(river=river, trains=trains)
    state = ENGINE.apply(first, 0, "run:1").state
    assert easy.choose_action(state, 0) == "pw:solar"
    second = build(river=river, half=2, trains=trains)
    state = ENGINE.apply(second, 0, "run:1").state
    assert easy.choose_action(state, 0) == "pw:steam"


def test_easy_is_deterministic_and_not_random():
    """Easy always makes the same choice in the same position (no dice of its own)."""
    for seed in range(6):
        state = ENGINE.new(seed, 2 + seed % 4)
        for _ in range(40):
            if state.over:
                break
            first = easy.choose_action(state, state.turn)
            assert all(easy.choose_action(state.copy(), state.turn) == first for _ in range(3))
            state = ENGINE.apply(state, state.turn, first).state


def test_easy_loses_to_normal_most_of_the_time():
    """Easy against Normal at a table of two (24 seeded games, seats alternating) wins
    at most a third (6 of them; bench/steam_ai.py measures it over 800 games per table
    size)."""
    wins = 0
    for game in range(24):
        seat = game % 2
        state = ENGINE.new(7_000 + game, 2, {"levels": [EASY, NORMAL][::1 - 2 * seat]})
        assert state.players[seat].level == EASY
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, state.turn, ENGINE.computer_action(state, state.turn)
                                 ).state
        wins += ENGINE.result(state).outcomes[seat].outcome == "win"
    assert wins <= 8


# -- Hard ---------------------------------------------------------------------------------


def test_hard_plays_like_normal_before_the_endgame():
    """Before the second half's deck is down to 6 cards Hard is Normal, click for click."""
    state = ENGINE.new(31, 3)
    while not hard.in_endgame(state):
        assert hard.choose_action(state, state.turn) == ai.choose_action(state, state.turn)
        state = ENGINE.apply(state, state.turn, ai.choose_action(state, state.turn)).state
    assert state.half == 2 and len(state.deck) <= hard.ENDGAME_DECK


def test_hard_is_deterministic_from_the_state_seed():
    """The same endgame position gives the same choice every time, from a copy, a reload
    or a fresh process's view of it: the orders tried come from the state's seed."""
    state = endgame_position(12, 3)
    first = hard.choose_action(state, state.turn)
    assert hard.choose_action(state.copy(), state.turn) == first
    assert hard.choose_action(ENGINE.load(ENGINE.dump(state)), state.turn) == first
    assert first in ids(state)
    seed = hard.rollout_seed(state, state.turn)
    assert seed.startswith(f"{state.rng.seed}/{state.rng.draws}/")


def test_hard_tries_orders_of_the_public_contents_only():
    """The orders Hard plays out are shuffles of the deck's contents as every player can
    work them out (in card order), whatever the deck's real order; with 3 cards or fewer
    every order is tried."""
    state = endgame_position(5, 2)
    other = state.copy()
    random.Random(1).shuffle(other.deck)
    other.deck.reverse()
    public = hard.public_deck(state)
    assert public == hard.public_deck(other)
    assert sorted(c.name for c in public) == sorted(c.name for c in state.deck)
    seed = hard.rollout_seed(state, state.turn)
    assert hard.sample_orders(public, seed) == hard.sample_orders(hard.public_deck(other), seed)
    assert len(hard.sample_orders(public[:3], seed, samples=6)) == 6
    assert len(hard.sample_orders(public[:2], seed, samples=4)) == 2


def test_hard_plays_out_with_normal_in_every_seat():
    """A play-out ends the game and never changes the position it starts from."""
    state = endgame_position(8, 4)
    before = ENGINE.dump(state)
    action = ai.choose_action(state, state.turn)
    value = hard.play_out(state, state.turn, action, hard.public_deck(state))
    assert ENGINE.dump(state) == before
    assert -1 <= value <= 2


def test_hard_decisions_are_quick_enough():
    """A Hard endgame decision stays well within a second on a busy test machine
    (bench/steam_ai.py measures the p99 of its CPU time: the target is 500 ms)."""
    slowest = 0.0
    for seed in range(3):
        state = endgame_position(40 + seed, 2 + seed)
        began = time.process_time()
        hard.choose_action(state, state.turn)
        slowest = max(slowest, time.process_time() - began)
    assert slowest < 2.0


def test_hard_beats_normal_at_a_table_of_two():
    """Hard against Normal at a table of two (24 seeded games, seats alternating) wins
    more than half (15 of them; bench/steam_ai.py measures it over 800 games per table
    size)."""
    wins = 0
    for game in range(24):
        seat = game % 2
        state = ENGINE.new(9_000 + game, 2, {"levels": [HARD, NORMAL][::1 - 2 * seat]})
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, state.turn, ENGINE.computer_action(state, state.turn)
                                 ).state
        wins += ENGINE.result(state).outcomes[seat].outcome == "win"
    assert wins >= 13


def test_every_level_is_listed():
    """The levels are Easy, Normal and Hard, Normal the default."""
    assert LEVELS == ("easy", "normal", "hard")
    assert [o.default for o in ENGINE.options if o.name == "levels"] == [None]
