"""Tinker, Sailor, Soldier, Spy: rulings T2, T5, T6 and T8 pinned, what the computer may
know, forced steps, and the length of every label."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.protocol import MAX_LABEL
from bot.games.tinker.engine import ENGINE
from bot.games.tinker.setup import arranged
from bot.games.tinker.state import COMPANY, TinkerState

#: The face-down piles (T2, T8): their contents are known, their order is not.
HIDDEN = ("deck", "aces", "personalities", "events", "locations")


def act(state: TinkerState, *action_ids: str) -> tuple[TinkerState, list[str]]:
    """Apply actions in order; return the last state and every event."""
    events: list[str] = []
    for action_id in action_ids:
        step = ENGINE.apply(state, 0, action_id)
        state = step.state
        events.extend(step.events)
    return state, events


def reshuffled(state: TinkerState, rng: random.Random) -> TinkerState:
    """The same game with every face-down pile in another order.

    With the classic journey the End stays at the bottom and the Origin, while still on
    top, stays there: those places are public.
    """
    other = state.copy()
    for pile in HIDDEN:
        cards = getattr(other, pile)
        fixed_top = pile == "locations" and other.classic_journey and cards[:1] and (
            cards[0].name == "Origin")
        fixed_end = pile == "locations" and other.classic_journey and cards[-1:] and (
            cards[-1].name == "End")
        start, stop = int(bool(fixed_top)), len(cards) - int(bool(fixed_end))
        middle = cards[start:stop]
        rng.shuffle(middle)
        cards[start:stop] = middle
    return other


def random_position(seed: int, steps: int, harsh: bool, classic: bool) -> TinkerState:
    """A position reached by ``steps`` random legal actions from a seeded deal."""
    rng = random.Random(seed)
    state = ENGINE.new(seed, options={"harsh_defeat": harsh, "classic_journey": classic})
    for _ in range(steps):
        if ENGINE.is_over(state):
            break
        state = ENGINE.apply(state, 0, rng.choice(ENGINE.legal_actions(state, 0)).id).state
    return state


def test_t2_every_pile_is_shuffled_by_the_seed():
    """T2: the deck, personality, event, Ace and location piles each get their own shuffle."""
    deals = [ENGINE.new(seed) for seed in range(30)]
    for pile in HIDDEN:
        orders = {tuple(c.name for c in getattr(s, pile)) for s in deals}
        assert len(orders) > 10, f"the {pile} pile is not shuffled by the seed"
    offers = {tuple(c.name for c in s.offer) for s in deals}
    assert len(offers) > 10
    assert ENGINE.dump(ENGINE.new(5)) == ENGINE.dump(ENGINE.new(5))


def test_t8_view_and_text_never_reveal_the_deck_order():
    """T8: two games differing only in the order of face-down piles look the same."""
    rng = random.Random(8)
    for seed in range(150):
        state = random_position(seed, seed % 40, seed % 2 == 0, seed % 3 == 0)
        other = reshuffled(state, rng)
        assert ENGINE.view(other) == ENGINE.view(state)
        assert ENGINE.render_text(other) == ENGINE.render_text(state)
        assert [a.id for a in ENGINE.legal_actions(other, 0)] == [
            a.id for a in ENGINE.legal_actions(state, 0)
        ]


def test_t8_view_lists_the_deck_contents_and_the_locations_by_name():
    """T8: the deck's contents are public (sorted, not in order); so are the locations."""
    state = random_position(3, 25, False, False)
    view = ENGINE.view(state)
    assert sorted(c["name"] for c in view["deck_cards"]) == sorted(c.name for c in state.deck)
    values = [(c["value"], c["name"]) for c in view["deck_cards"]]
    assert values == sorted(values)
    assert view["locations"]["remaining"] == sorted(c.name for c in state.locations)
    assert view["locations"]["cleared"] == [c.name for c in state.cleared]
    assert "In the deck (order hidden)" in ENGINE.render_text(state)
    assert "Locations ahead (order hidden)" in ENGINE.render_text(state)


def test_t5_t6_a_chip_that_alone_reaches_the_target_still_draws_and_plays_a_card():
    """T5/T6: Merchant 9 at 8: a Leaves chip makes 9, and its card is still played.

    The chip's description, the view's note and the text board say so beforehand.
    """
    state = arranged(deck=["Savage", "Painter", "Author", *COMPANY],
                     personalities=["Merchant"], events=["Journey"])
    state, _ = act(state, "choose:personality", "chip:Moons", "chip:Moons")
    view = ENGINE.view(state)
    assert (view["sum"], view["target"]) == (8, 9)
    leaves = {a.id: a for a in ENGINE.legal_actions(state, 0)}["chip:Leaves"]
    assert leaves.label == "🍃 +1, draws"
    assert "alone reaches the target" in leaves.description
    assert "still draws" in view["note"] and "still draws" in ENGINE.render_text(state)
    state, events = act(state, "chip:Leaves")
    assert events[0] == "Paid a 🍃 chip: 9 / 9"
    assert "still drawn and played." in events[1]
    assert events[2].startswith("Played Excuse 0")
    assert events[3] == "Beat the Merchant!"
    discard = [c.name for c in state.discard]
    assert discard == ["Merchant", "Savage", "Painter", "Author", "Excuse"]
    assert state.spent[next(s for s in state.spent if s.value == "Leaves")] == 1


def test_t9_a_lone_chip_suit_in_round_2_pays_by_itself():
    """T9: in round 2 with chips of one suit only, paying it is the only choice: it happens
    by itself, and the events say so; the game goes on until a real choice or the end."""
    state = arranged(deck=["Excuse", "Sailor", "Soldier"], discard=["Diplomat"],
                     round=2, chips={"Moons": 2, "Suns": 1})
    assert [a.id for a in ENGINE.legal_actions(state, 0)] == ["chip:Moons", "chip:Suns"]
    state, events = act(state, "chip:Suns")
    assert events[:4] == [
        "Paid a ☀️ chip: 1 / 2",
        "Played Sailor 4 🌊🍃: 1 / 2",
        "🌙 draws: happened by itself (the only choice).",
        "Paid a 🌙 chip: 1 / 2",
    ]
    assert events.count("🌙 draws: happened by itself (the only choice).") == 2
    assert ENGINE.is_over(state) and state.won is False
    assert len(state.cleared) == 1


def test_labels_fit_a_button_over_many_random_games():
    """Every label of every legal action in 300 random games is at most MAX_LABEL long."""
    for seed in range(300):
        rng = random.Random(seed)
        state = ENGINE.new(seed, options={"harsh_defeat": seed % 2 == 0})
        while not ENGINE.is_over(state):
            legal = ENGINE.legal_actions(state, 0)
            assert len(legal) > 1, "a lone action would have happened by itself"
            for action in legal:
                assert 0 < len(action.label) <= MAX_LABEL, action.label
            state = ENGINE.apply(state, 0, rng.choice(legal).id).state


def test_computer_never_reads_the_face_down_ace_pile():
    """T8: with the deck spent, the next draw brings in an Ace; the computer weighs the
    Aces left, never the top one (in 400 positions, some of which a peek would change)."""
    for seed in range(400):
        state = random_position(seed, seed % 60, seed % 2 == 0, False)
        if ENGINE.is_over(state):
            continue
        state.discard.extend(state.deck)
        state.deck.clear()
        choice = ENGINE.computer_action(state, 0)
        for k in range(3):
            assert ENGINE.computer_action(reshuffled(state, random.Random(k)), 0) == choice


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 60), shuffle_seed=st.integers(0, 2**16),
       harsh=st.booleans(), classic=st.booleans(), deck_spent=st.booleans())
def test_computer_decides_only_from_what_a_player_can_know(seed, steps, shuffle_seed, harsh,
                                                          classic, deck_spent):
    """T8: reshuffling every face-down pile (deck, Aces, personalities, events, locations)
    never changes the computer's choice.

    ``deck_spent`` moves the deck onto the discard pile first, so the next draw brings in
    an Ace: the face-down Ace pile's order is exactly what a peeking player would read.
    """
    state = random_position(seed, steps, harsh, classic)
    if ENGINE.is_over(state):
        return
    if deck_spent:
        state.discard.extend(state.deck)
        state.deck.clear()
    choice = ENGINE.computer_action(state, 0)
    for round_ in range(3):
        other = reshuffled(state, random.Random(shuffle_seed * 3 + round_))
        assert ENGINE.computer_action(other, 0) == choice
