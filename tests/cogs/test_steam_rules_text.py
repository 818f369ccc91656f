"""What the /steam rules page (also the Rules page of "Rules & details") tells players,
against the rulings S1, S2, S3, S9, S10, S12 and S13, and that a phone shows each rule
whole on one page."""

from __future__ import annotations

import re

import pytest

from bot.games.steam.state import DECK_NAMES, DECK_SUNNY, DECKS, START_POINTS
from cogs.details import PAGE_LINES, _lines, paginate
from cogs.steam import RULES

TEXT = " ".join(text for _, text in RULES)


def _rule(title: str) -> str:
    return dict(RULES)[title]


def test_s3_everyone_starts_with_five_points() -> None:
    """S3: every player starts with 5 points, the money paid for river cards."""
    assert f"Everyone starts with {START_POINTS} points, which pay for cards" in _rule(
        "Taking")


@pytest.mark.parametrize("deck", DECKS)
def test_s1_s2_the_deck_and_its_sunny_cards(deck: str) -> None:
    """S1: the 36 basic cards and the Pawns by default, the Courts as a table option;
    S2: the four sunny cards of either deck, as the engine sets them aside, sit out the
    first half."""
    goal = _rule("Goal")
    assert "Deck: the 36 basic cards and the 4 Pawns (or the 4 Courts, a table option)" in goal
    assert DECK_NAMES[deck].removeprefix("the 4 ") in goal
    sunny = goal[goal.index("The sunny cards"):]
    assert sunny.endswith("sit out the first half.")
    for card in DECK_SUNNY[deck]:
        assert card.name in sunny, card


def test_s9_the_player_after_the_one_who_ended_the_first_half_starts_the_second() -> None:
    """S9: the sunny cards and the discard pile make the new deck, and the next player
    (after the one whose take ended the first half) starts the second half."""
    halves = _rule("Two halves")
    assert ("the sunny cards and the discard pile are shuffled into the new deck, and the "
            "next player starts the second half") in halves


def test_s10_a_resigned_player_scores_nothing_and_loses() -> None:
    """S10: anyone seated may resign; a resigned player scores nothing and loses."""
    assert ("Anyone seated may resign: a resigned player scores nothing and loses"
            in _rule("At the table"))


def test_s12_ties_go_to_the_most_goods_left_then_the_win_is_shared() -> None:
    """S12: points plus 2 a Wave token; ties: most goods left, still tied a shared win."""
    goal = _rule("Goal")
    assert "each Wave token adds 2" in goal
    assert "ties: most goods left on your trains, then a shared win" in goal


def test_s13_with_no_move_at_all_you_pass() -> None:
    """S13: an empty river and no train that can run: the player passes."""
    assert "with an empty river and no train that can run, you pass" in _rule("Your turn")


def test_the_rules_name_no_ruling() -> None:
    """Players read the rules in their words, never a ruling's id."""
    assert not re.search(r"\bS\d", TEXT)


def test_the_rules_pages_split_no_rule_over_two_pages() -> None:
    """Each rule is read whole on one phone page ("(continued)" is never needed), each
    page within its phone lines."""
    pages = paginate(list(RULES))
    assert all("(continued)" not in name for page in pages for name, _ in page)
    assert sum(len(page) for page in pages) == len(RULES)
    for page in pages:
        assert sum(_lines(name) + _lines(text) for name, text in page) <= PAGE_LINES
