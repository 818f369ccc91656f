"""A right-to-left name followed by a Latin word or a number ("דוד Cohen", "דוד 2",
"محمد Ali") is drawn with its parts in reverse and the space between them, a space wide."""

from __future__ import annotations

import pytest

from bot.pictures.script import runs, sentence, text_mask, width

NAMES = {"דוד Cohen": ["Cohen", " ", "דוד"], "דוד 2": ["2", " ", "דוד"],
         "محمد Ali": ["Ali", " ", "محمد"], "محمد علي Ali 7": ["Ali 7", " ", "محمد علي"],
         "דוד Cohen שרה": ["שרה", " ", "Cohen", " ", "דוד"],
         "דוד  🚂 Bo": ["Bo", " ", "🚂", "  ", "דוד"]}


def _widest_gap(name: str) -> int:
    """The widest run of blank columns between inked columns of the drawn name."""
    mask = text_mask(name, 30, True, "la").mask
    inked = [any(mask.getpixel((x, y)) > 60 for y in range(mask.height))
             for x in range(mask.width)]
    best = blank = 0
    for ink in inked:
        blank = 0 if ink else blank + 1
        best = max(best, blank)
    return best


@pytest.mark.parametrize(("name", "drawn"), NAMES.items())
def test_the_parts_of_a_right_to_left_name_are_reversed_with_the_space_between(
        name: str, drawn: list[str]) -> None:
    assert [r.text for r in runs(name)] == drawn
    assert width(name, 30) == pytest.approx(sum(width(part, 30) for part in drawn), abs=2)


@pytest.mark.parametrize("name", ["דוד Cohen", "דוד 2", "محمد Ali"])
def test_the_space_between_the_parts_is_a_space_wide(name: str) -> None:
    space = width("a b", 30, True) - width("ab", 30, True)
    assert _widest_gap(name) >= 0.8 * space
    # no space before the name: its ink starts where a name's does
    drawn = text_mask(name, 30, True, "la")
    assert drawn.left <= text_mask(name.split()[-1], 30, True, "la").left + 1


def test_a_sentence_starting_with_the_name_keeps_its_order() -> None:
    """In an English sentence the name is not reversed: "דוד Cohen wins"."""
    assert [r.text for r in runs(sentence("דוד Cohen wins"))] == ["דוד", " Cohen wins"]
