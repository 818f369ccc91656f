"""Tinker, Sailor, Soldier, Spy: the computer player's heuristic.

It only uses what a player at the table knows: which cards are in the deck and the
discard pile (not their order), which Aces and locations remain (not their order), the
chips. It never reads the order of a face-down pile. The ideas:

* Recruit a card whose value will count against the locations still ahead, and whose
  target the deck can reach for few chips (:func:`_choice_score`).
* Pay with chips of the suits the remaining locations need least; a chip matching the
  challenge is worth its +1 now (:func:`_chip_suit`).
* In round 1, give up when the chips still needed cost more than the card is worth.
"""

from __future__ import annotations

from bot.games.decktet import Card, Suit
from bot.games.tinker.rules import (
    CHIP_PREFIX,
    CHOOSE_EVENT,
    CHOOSE_PERSONALITY,
    GIVE_UP,
    LOSE_PREFIX,
    card_points,
    chip_points,
    running_sum,
)
from bot.games.tinker.state import LOCATIONS, Phase, TinkerState, value

#: Points of expected use in round 2 one chip is worth when weighing a round 1 challenge
#: (tuned by simulation: 3 and 5 win less often).
CHIP_WORTH = 4.0
#: How much a chip's +1 on the current challenge counts when picking which chip to pay.
MATCH_WEIGHT = 4.0


def choose_action(state: TinkerState) -> str:
    """Return the id of the heuristic's action in ``state`` (which must not be over)."""
    if state.phase is Phase.CHOOSE:
        personality, event = state.offer
        scores = (_choice_score(state, personality), _choice_score(state, event))
        return CHOOSE_PERSONALITY if scores[0] >= scores[1] else CHOOSE_EVENT
    if state.phase is Phase.LOSE_CHIP:
        return LOSE_PREFIX + _spare_suit(state, None).value
    assert state.challenge is not None
    held = [s for s, n in state.chips.items() if n]
    if state.round == 1 and (not held or _chips_needed(state, state.challenge,
                                                       running_sum(state)) > _budget(state)):
        return GIVE_UP
    return CHIP_PREFIX + _spare_suit(state, state.challenge).value


def _owned(state: TinkerState) -> list[Card]:
    return state.deck + state.discard + state.played


def _draw_mean(state: TinkerState, challenge: Card) -> float:
    """Expected points of the next card drawn, from what a player knows (T8).

    The deck's contents are known (not their order). With an empty deck the next deck is
    the discard pile plus one Ace from the face-down Ace pile: any of the Aces left,
    equally likely, since their order is hidden.
    """
    if state.deck:
        return sum(card_points(c, challenge) for c in state.deck) / len(state.deck)
    if state.discard or state.aces:
        total = float(sum(card_points(c, challenge) for c in state.discard))
        if state.aces:
            total += sum(card_points(a, challenge) for a in state.aces) / len(state.aces)
        return total / (len(state.discard) + (1 if state.aces else 0))
    cards = _owned(state)
    return sum(card_points(c, challenge) for c in cards) / max(len(cards), 1)


def _chips_needed(state: TinkerState, challenge: Card, total: float) -> float:
    """Roughly how many chips it still takes to reach the target."""
    gap = value(challenge) - total
    if gap <= 0:
        return 0.0
    per_play = _draw_mean(state, challenge) + max(
        (chip_points(s, challenge) for s, n in state.chips.items() if n), default=0
    )
    return gap / per_play if per_play > 0 else float("inf")


def _use(state: TinkerState, c: Card) -> float:
    """Expected points ``c`` adds over the locations still ahead."""
    return sum(card_points(c, loc) for loc in state.locations) / len(LOCATIONS)


def _budget(state: TinkerState) -> float:
    """Chips worth spending to win the current round 1 challenge."""
    assert state.challenge is not None
    return _use(state, state.challenge) / CHIP_WORTH


def _choice_score(state: TinkerState, c: Card) -> float:
    first = _draw_mean(state, c)
    return _use(state, c) - CHIP_WORTH * _chips_needed(state, c, first)


def _spare_suit(state: TinkerState, challenge: Card | None) -> Suit:
    """The suit whose chip the remaining locations miss least (+1 now counts too)."""

    def worth_keeping(suit: Suit) -> float:
        need = sum(loc.has(suit) for loc in state.locations)
        now = chip_points(suit, challenge) if challenge else 0
        return need - state.chips[suit] - MATCH_WEIGHT * now

    return min((s for s, n in state.chips.items() if n), key=worth_keeping)
