"""Tinker's picture shows the cards played on a challenge whole, each value and both suit
columns visible: all of them where the row has room, else the latest ones after "+N"
for the first (the sum counts them all, and the alt text names them all)."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest

from bot.games.decktet import DECK, NUMERAL_VALUE, card_json
from bot.games.tinker.engine import ENGINE
from bot.pictures import describe, tinker
from bot.pictures.cards import MINI
from bot.pictures.endings import ending


def _view(played: int) -> dict[str, Any]:
    """A challenge under way (seed 3) with ``played`` cards played instead: the deck's
    numbered cards, in order, each worth two more (two-digit values among them)."""
    state = ENGINE.new(3, 1, {})
    while not ENGINE.view(state).get("challenge"):
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    view = dict(ENGINE.view(state))
    numbered = [card_json(c, NUMERAL_VALUE[c.rank]) for c in DECK if c.rank in NUMERAL_VALUE]
    view["played"] = [{**c, "value": c["value"] + 2} for c in numbered[-played:]]
    return view


def _row(view: dict[str, Any]) -> tuple[list[tuple[float, ...]], list[str]]:
    """Draw the board; return the played cards' boxes, left to right, and the row's
    words."""
    c = tinker.board(view, ending("tinker", view, "active"))
    cards = sorted((box for what, box in c.boxes
                    if what == "card" and box[2] - box[0] == MINI.width), key=lambda b: b[0])
    top = cards[0][1]
    words = [what.removeprefix("text:") for what, box in c.boxes
             if what.startswith("text:+") and top <= box[1] <= top + MINI.height]
    return cards, words


@pytest.mark.parametrize("played", [1, 6, 10])
def test_every_played_card_is_drawn_whole_where_the_row_has_room(played: int) -> None:
    cards, words = _row(_view(played))
    assert len(cards) == played and words == []
    assert all(b[0] - a[0] >= MINI.width for a, b in pairwise(cards))


@pytest.mark.parametrize("played", [11, 14, 20])
def test_cards_past_the_row_are_counted_with_plus_n(played: int) -> None:
    view = _view(played)
    cards, words = _row(view)
    assert words == [f"+{played - len(cards)}"] and len(cards) >= 8
    assert all(b[0] - a[0] >= MINI.width for a, b in pairwise(cards))
    alt = describe("tinker", view, "active")
    assert alt.count("Played: ") == 1 and alt.split("Played: ")[1].count("(") >= played
