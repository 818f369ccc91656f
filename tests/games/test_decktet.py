"""The Decktet card list matches the verified list (decktet-cards.md)."""

from collections import Counter

import pytest

from bot.games.decktet import BY_NAME, DECK, SUITS, Category, Rank, card


def test_deck_has_45_distinct_cards():
    """The extended deck holds 45 cards with distinct names."""
    assert len(DECK) == 45
    assert len(BY_NAME) == 45


def test_rank_counts():
    """36 basic cards, the Excuse, 4 Pawns and 4 Courts."""
    ranks = Counter(c.rank for c in DECK)
    assert ranks[Rank.ACE] == 6
    assert ranks[Rank.CROWN] == 6
    assert ranks[Rank.PAWN] == 4
    assert ranks[Rank.COURT] == 4
    assert ranks[Rank.EXCUSE] == 1
    assert sum(1 for c in DECK if c.is_basic) == 36


def test_each_suit_once_per_numeral_rank_and_twice_on_pawns_and_courts():
    """Each suit is on exactly one card of each numeral rank, two Pawns and two Courts."""
    numerals = [r for r in Rank if r.value.isdigit()]
    for suit in SUITS:
        for rank in numerals:
            assert sum(1 for c in DECK if c.rank == rank and suit in c.suits) == 1
        assert sum(1 for c in DECK if c.rank == Rank.PAWN and suit in c.suits) == 2
        assert sum(1 for c in DECK if c.rank == Rank.COURT and suit in c.suits) == 2


def test_categories():
    """Origin, Market and End are both Location and Event; 14 personalities in all."""
    for name in ("Origin", "Market", "End"):
        assert card(name).categories == {Category.LOCATION, Category.EVENT}
    assert sum(1 for c in DECK if Category.PERSONALITY in c.categories) == 14


def test_unknown_card_names_itself():
    """Asking for a card that does not exist names it in the error."""
    with pytest.raises(KeyError, match="Joker"):
        card("Joker")
