"""The names on full card faces stand clear of the gold edge of a counting card: the
descenders of "Journey", "Savage", "Chance Meeting" and "Light Keeper" end above it."""

from __future__ import annotations

import pytest

from bot.games import decktet
from bot.games.decktet import card_json
from bot.pictures.cards import EDGE, FULL, face
from bot.pictures.palette import CARD_INK, HIGHLIGHT


def _dark(pixel: tuple[int, ...]) -> bool:
    return pixel[3] > 0 and sum(pixel[:3]) < 200


@pytest.mark.parametrize("card", decktet.DECK, ids=lambda c: c.name)
@pytest.mark.parametrize("mark", ["count", "", "dim"])
def test_no_ink_reaches_the_gold_edge_or_the_row_inside_it(card: decktet.Card,
                                                           mark: str) -> None:
    image = face(card_json(card), FULL, mark)
    # the gold edge and the row inside it, away from the rounded corners (a plain face's
    # own edge, 2 px of dark brown, is left out)
    rows = range(FULL.height - EDGE - 1, FULL.height if mark == "count" else FULL.height - 2)
    ink = [(x, y) for y in rows for x in range(12, FULL.width - 12)
           if _dark(image.getpixel((x, y)))]
    assert ink == []


def test_the_gold_edge_is_unbroken_under_a_descender() -> None:
    image = face(card_json(decktet.card("Journey")), FULL, "count")
    for y in range(FULL.height - EDGE + 1, FULL.height - 1):
        row = {image.getpixel((x, y))[:3] for x in range(20, FULL.width - 20)}
        assert row == {HIGHLIGHT}, y
    assert CARD_INK != HIGHLIGHT


def test_every_face_keeps_the_same_name_line() -> None:
    """The name stands on the same line whatever the mark, so a face marked or not
    swaps in place."""
    def ink_rows(mark: str) -> tuple[int, int]:
        image = face(card_json(decktet.card("Savage")), FULL, mark)
        rows = [y for y in range(100, FULL.height - EDGE)
                if any(_dark(image.getpixel((x, y))) for x in range(12, FULL.width - 12))]
        return rows[0], rows[-1]

    assert ink_rows("count") == ink_rows("") == ink_rows("dim")
