"""The extended Decktet: all 45 cards as data (name, rank, suits, categories).

Values are not part of the deck: each game sets its own (see ``value`` helpers in the
game modules). Suits are always listed in the project's order: Moons, Suns, Waves,
Leaves, Wyrms, Knots.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Suit(StrEnum):
    """The six Decktet suits, in the project's order."""

    MOONS = "Moons"
    SUNS = "Suns"
    WAVES = "Waves"
    LEAVES = "Leaves"
    WYRMS = "Wyrms"
    KNOTS = "Knots"

    @property
    def emoji(self) -> str:
        """The suit's emoji for boards."""
        return SUIT_EMOJI[self]


SUITS: tuple[Suit, ...] = tuple(Suit)

SUIT_EMOJI: dict[Suit, str] = {
    Suit.MOONS: "🌙",
    Suit.SUNS: "☀️",
    Suit.WAVES: "🌊",
    Suit.LEAVES: "🍃",
    Suit.WYRMS: "🐉",
    Suit.KNOTS: "🪢",
}


class Rank(StrEnum):
    """Card ranks of the extended deck."""

    EXCUSE = "Excuse"
    ACE = "Ace"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    PAWN = "Pawn"
    COURT = "Court"
    CROWN = "Crown"


class Category(StrEnum):
    """Card categories: personality, location, event."""

    PERSONALITY = "Personality"
    LOCATION = "Location"
    EVENT = "Event"


@dataclass(frozen=True, slots=True)
class Card:
    """One Decktet card."""

    name: str
    rank: Rank
    suits: tuple[Suit, ...]
    categories: frozenset[Category]

    def has(self, suit: Suit) -> bool:
        """Return whether the card bears ``suit``."""
        return suit in self.suits

    def shares_suit(self, other: Card) -> bool:
        """Return whether the two cards have at least one suit in common."""
        return any(s in other.suits for s in self.suits)

    @property
    def is_basic(self) -> bool:
        """Whether the card is one of the 36 basic cards (Aces, numerals, Crowns)."""
        return self.rank not in (Rank.EXCUSE, Rank.PAWN, Rank.COURT)

    def label(self, value: int | None = None) -> str:
        """A short label with the suit emoji, for example ``Savage 3 🍃🐉``."""
        emoji = "".join(s.emoji for s in self.suits)
        number = "" if value is None else f" {value}"
        return f"{self.name}{number} {emoji}".rstrip()


M, S, W, L, Y, K = Suit.MOONS, Suit.SUNS, Suit.WAVES, Suit.LEAVES, Suit.WYRMS, Suit.KNOTS
P, LO, E = Category.PERSONALITY, Category.LOCATION, Category.EVENT

_TABLE: tuple[tuple[str, Rank, tuple[Suit, ...], tuple[Category, ...]], ...] = (
    ("Ace of Moons", Rank.ACE, (M,), ()),
    ("Ace of Suns", Rank.ACE, (S,), ()),
    ("Ace of Waves", Rank.ACE, (W,), ()),
    ("Ace of Leaves", Rank.ACE, (L,), ()),
    ("Ace of Wyrms", Rank.ACE, (Y,), ()),
    ("Ace of Knots", Rank.ACE, (K,), ()),
    ("Author", Rank.TWO, (M, K), (P,)),
    ("Desert", Rank.TWO, (S, Y), (LO,)),
    ("Origin", Rank.TWO, (W, L), (LO, E)),
    ("Journey", Rank.THREE, (M, W), (E,)),
    ("Painter", Rank.THREE, (S, K), (P,)),
    ("Savage", Rank.THREE, (L, Y), (P,)),
    ("Mountain", Rank.FOUR, (M, S), (LO,)),
    ("Sailor", Rank.FOUR, (W, L), (P,)),
    ("Battle", Rank.FOUR, (Y, K), (E,)),
    ("Forest", Rank.FIVE, (M, L), (LO,)),
    ("Discovery", Rank.FIVE, (S, W), (E,)),
    ("Soldier", Rank.FIVE, (Y, K), (P,)),
    ("Lunatic", Rank.SIX, (M, W), (P,)),
    ("Penitent", Rank.SIX, (S, Y), (P,)),
    ("Market", Rank.SIX, (L, K), (LO, E)),
    ("Chance Meeting", Rank.SEVEN, (M, L), (E,)),
    ("Castle", Rank.SEVEN, (S, K), (LO,)),
    ("Cave", Rank.SEVEN, (W, Y), (LO,)),
    ("Diplomat", Rank.EIGHT, (M, S), (P,)),
    ("Mill", Rank.EIGHT, (W, L), (LO,)),
    ("Betrayal", Rank.EIGHT, (Y, K), (E,)),
    ("Pact", Rank.NINE, (M, S), (E,)),
    ("Darkness", Rank.NINE, (W, Y), (LO,)),
    ("Merchant", Rank.NINE, (L, K), (P,)),
    ("Harvest", Rank.PAWN, (M, S, L), (E,)),
    ("Watchman", Rank.PAWN, (M, Y, K), (P,)),
    ("Light Keeper", Rank.PAWN, (S, W, K), (P,)),
    ("Borderland", Rank.PAWN, (W, L, Y), (LO,)),
    ("Consul", Rank.COURT, (M, W, K), (P,)),
    ("Rite", Rank.COURT, (M, L, Y), (E,)),
    ("Island", Rank.COURT, (S, W, Y), (LO,)),
    ("Window", Rank.COURT, (S, L, K), (LO,)),
    ("Huntress", Rank.CROWN, (M,), (P,)),
    ("Bard", Rank.CROWN, (S,), (P,)),
    ("Sea", Rank.CROWN, (W,), (LO,)),
    ("End", Rank.CROWN, (L,), (LO, E)),
    ("Calamity", Rank.CROWN, (Y,), (E,)),
    ("Windfall", Rank.CROWN, (K,), (E,)),
    ("Excuse", Rank.EXCUSE, (), ()),
)

#: All 45 cards of the extended deck, in the order of the verified card list.
DECK: tuple[Card, ...] = tuple(
    Card(name, rank, suits, frozenset(cats)) for name, rank, suits, cats in _TABLE
)

#: Cards by name.
BY_NAME: dict[str, Card] = {card.name: card for card in DECK}

#: Numeral ranks with their face value.
NUMERAL_VALUE: dict[Rank, int] = {
    Rank.TWO: 2,
    Rank.THREE: 3,
    Rank.FOUR: 4,
    Rank.FIVE: 5,
    Rank.SIX: 6,
    Rank.SEVEN: 7,
    Rank.EIGHT: 8,
    Rank.NINE: 9,
}


def card(name: str) -> Card:
    """Return the card called ``name``; raise KeyError naming it if there is none."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise KeyError(f"no Decktet card is called {name!r}") from None


def card_json(c: Card, value: int | None = None) -> dict[str, object]:
    """Return a card as view data: ``name``, ``rank``, ``value`` and ``suits``."""
    return {
        "name": c.name,
        "rank": c.rank.value,
        "value": value,
        "suits": [s.value for s in c.suits],
    }
