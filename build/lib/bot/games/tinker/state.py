"""Tinker, Sailor, Soldier, Spy: card values, the game state and its stored form.

The rules that move cards live in :mod:`bot.games.tinker.rules`; this module only knows
what a state holds (every pile of T2, the chips, the phase) and how it is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from bot.games.decktet import DECK, NUMERAL_VALUE, SUITS, Card, Category, Rank, Suit, card
from bot.games.protocol import BrokenState
from bot.games.rng import SeededRandom

#: Version of the stored form written by :func:`dump_state`.
SCHEMA_VERSION = 1

#: Chips of each suit at the start (T2): 6 of each, 36 in all.
CHIPS_PER_SUIT = 6

#: The company you start with (T2): the Excuse is the tinker.
COMPANY: tuple[str, ...] = ("Excuse", "Sailor", "Soldier", "Diplomat")

#: The 11 personalities to recruit (T2).
PERSONALITIES: tuple[str, ...] = tuple(
    c.name for c in DECK if Category.PERSONALITY in c.categories and c.name not in COMPANY
)

#: The 11 events to master, the Market included (T2).
EVENTS: tuple[str, ...] = tuple(
    c.name
    for c in DECK
    if Category.EVENT in c.categories
    and (Category.LOCATION not in c.categories or c.name == "Market")
)

#: The six Aces (T2).
ACES: tuple[str, ...] = tuple(c.name for c in DECK if c.rank is Rank.ACE)

#: The 13 locations of the journey (T2), Origin and End included.
LOCATIONS: tuple[str, ...] = tuple(
    c.name
    for c in DECK
    if c.name not in COMPANY + PERSONALITIES + EVENTS + ACES
)

_FACE_VALUE: dict[Rank, int] = {Rank.EXCUSE: 0, Rank.ACE: 1, Rank.PAWN: 10, Rank.COURT: 11,
                                Rank.CROWN: 12, **NUMERAL_VALUE}


def value(c: Card) -> int:
    """Return a card's value in this game (T1): Excuse 0, Ace 1, Pawn 10, Court 11, Crown 12."""
    return _FACE_VALUE[c.rank]


class Phase(StrEnum):
    """What the game waits for."""

    CHOOSE = "choose"
    """Round 1: pick the personality or the event on offer."""
    PLAY = "play"
    """A challenge is under way: pay a chip for the next card (or give up in round 1)."""
    LOSE_CHIP = "lose_chip"
    """Harsh defeat: pick the chip lost with the fight."""
    OVER = "over"
    """The game has ended."""


@dataclass(slots=True)
class TinkerState:
    """One game. Every pile lists its top card first; each of the 45 cards is in one pile."""

    rng: SeededRandom
    classic_journey: bool = False
    harsh_defeat: bool = False
    round: int = 1
    phase: Phase = Phase.CHOOSE
    deck: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    aces: list[Card] = field(default_factory=list)
    personalities: list[Card] = field(default_factory=list)
    events: list[Card] = field(default_factory=list)
    locations: list[Card] = field(default_factory=list)
    offer: list[Card] = field(default_factory=list)
    challenge: Card | None = None
    played: list[Card] = field(default_factory=list)
    paid: list[Suit] = field(default_factory=list)
    chips: dict[Suit, int] = field(default_factory=lambda: dict.fromkeys(SUITS, CHIPS_PER_SUIT))
    spent: dict[Suit, int] = field(default_factory=lambda: dict.fromkeys(SUITS, 0))
    cleared: list[Card] = field(default_factory=list)
    trashed: list[Card] = field(default_factory=list)
    won: bool | None = None

    def copy(self) -> TinkerState:
        """Return an independent copy (cards are immutable, lists are not)."""
        return TinkerState(
            rng=SeededRandom(self.rng.seed, self.rng.draws),
            classic_journey=self.classic_journey,
            harsh_defeat=self.harsh_defeat,
            round=self.round,
            phase=self.phase,
            deck=list(self.deck),
            discard=list(self.discard),
            aces=list(self.aces),
            personalities=list(self.personalities),
            events=list(self.events),
            locations=list(self.locations),
            offer=list(self.offer),
            challenge=self.challenge,
            played=list(self.played),
            paid=list(self.paid),
            chips=dict(self.chips),
            spent=dict(self.spent),
            cleared=list(self.cleared),
            trashed=list(self.trashed),
            won=self.won,
        )

    def places(self) -> dict[str, list[Card]]:
        """Return every place a card can be, by name (the challenge as a one-card list)."""
        return {
            "deck": self.deck,
            "discard": self.discard,
            "aces": self.aces,
            "personalities": self.personalities,
            "events": self.events,
            "locations": self.locations,
            "offer": self.offer,
            "challenge": [self.challenge] if self.challenge else [],
            "played": self.played,
            "cleared": self.cleared,
            "trashed": self.trashed,
        }


_PILES = ("deck", "discard", "aces", "personalities", "events", "locations", "offer",
          "played", "cleared", "trashed")


def dump_state(state: TinkerState) -> dict[str, Any]:
    """Return the state as compact JSON-able data: cards by name, chips in suit order."""
    data: dict[str, Any] = {
        "schema": SCHEMA_VERSION,
        "rng": state.rng.to_json(),
        "options": [int(state.classic_journey), int(state.harsh_defeat)],
        "round": state.round,
        "phase": state.phase.value,
        "challenge": state.challenge.name if state.challenge else None,
        "paid": [s.value for s in state.paid],
        "chips": [state.chips[s] for s in SUITS],
        "spent": [state.spent[s] for s in SUITS],
        "won": state.won,
    }
    for pile in _PILES:
        data[pile] = [c.name for c in getattr(state, pile)]
    return data


def load_state(data: Mapping[str, Any]) -> TinkerState:
    """Rebuild a state from :func:`dump_state` output; raise BrokenState on bad data."""
    if not isinstance(data, Mapping):
        raise BrokenState("stored Tinker game is not an object")
    if data.get("schema") != SCHEMA_VERSION:
        raise BrokenState(f"unknown Tinker schema {data.get('schema')!r}")
    try:
        state = _build(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise BrokenState(f"broken Tinker game: {exc}") from None
    _check_consistent(state)
    return state


def _build(data: Mapping[str, Any]) -> TinkerState:
    classic, harsh = (bool(flag) for flag in data["options"])
    chips, spent = list(data["chips"]), list(data["spent"])
    if len(chips) != len(SUITS) or len(spent) != len(SUITS):
        raise ValueError("chips need one count per suit")
    challenge = data["challenge"]
    won = data["won"]
    if won not in (None, True, False):
        raise ValueError(f"won must be true, false or null, not {won!r}")
    state = TinkerState(
        rng=SeededRandom.from_json(data["rng"]),
        classic_journey=classic,
        harsh_defeat=harsh,
        round=int(data["round"]),
        phase=Phase(data["phase"]),
        challenge=card(challenge) if challenge is not None else None,
        paid=[Suit(s) for s in data["paid"]],
        chips={s: int(n) for s, n in zip(SUITS, chips, strict=True)},
        spent={s: int(n) for s, n in zip(SUITS, spent, strict=True)},
        won=won,
    )
    for pile in _PILES:
        setattr(state, pile, [card(name) for name in data[pile]])
    return state


#: The names of the 45 cards, sorted: every game holds each of them once.
_DECK_NAMES: list[str] = sorted(c.name for c in DECK)


def _check_consistent(state: TinkerState) -> None:
    names = [c.name for pile in state.places().values() for c in pile]
    if sorted(names) != _DECK_NAMES:
        raise BrokenState("broken Tinker game: the 45 cards are not each in one place")
    for suit in SUITS:
        if min(state.chips[suit], state.spent[suit]) < 0 or (
            state.chips[suit] + state.spent[suit] != CHIPS_PER_SUIT
        ):
            raise BrokenState(f"broken Tinker game: {suit.value} chips do not add up to 6")
    if state.round not in (1, 2):
        raise BrokenState(f"broken Tinker game: no round {state.round}")
    expected = {
        Phase.CHOOSE: (2, False),
        Phase.PLAY: (0, True),
        Phase.LOSE_CHIP: (0, False),
    }.get(state.phase)
    if expected is not None and (
        len(state.offer) != expected[0] or (state.challenge is not None) != expected[1]
    ):
        raise BrokenState(f"broken Tinker game: the piles do not fit phase {state.phase.value}")
    if (state.phase is Phase.OVER) != (state.won is not None):
        raise BrokenState("broken Tinker game: only an ended game has a result")
