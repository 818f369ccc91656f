"""Tinker's picture shows every chip paid on a challenge: all of them where the row has
room, else the first ones and "+N" for the rest, in readable text; never silently fewer
than the alt text and the sum count."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.tinker.engine import ENGINE
from bot.pictures import describe, tinker
from bot.pictures.canvas import MARGIN, MIN_TEXT, Canvas
from bot.pictures.endings import ending
from bot.pictures.palette import SUIT_ORDER


def _view(paid: int) -> dict[str, Any]:
    """A challenge under way (seed 24, 47 computer moves: 14 chips paid) with ``paid``
    chips paid instead."""
    state = ENGINE.new(24, 1, {})
    for _ in range(47):
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    view = dict(ENGINE.view(state))
    assert view["challenge"] and len(view["paid"]) == 14
    view["paid"] = [SUIT_ORDER[i % len(SUIT_ORDER)] for i in range(paid)]
    return view


def _paid_row(view: dict[str, Any]) -> tuple[int, list[str], Any]:
    """Draw the board; return how many chips the paid row shows, its words, and the
    canvas."""
    c = tinker.board(view, ending("tinker", view, "active"))
    label = next(box for what, box in c.boxes if what == "text:paid")
    row = [(what, box) for what, box in c.boxes
           if box[1] >= label[1] - 12 and box[3] <= label[3] + 12 and box[0] > label[2]]
    icons = sum(what.startswith("icon:") for what, _ in row)
    words = [what.removeprefix("text:") for what, _ in row if what.startswith("text:")]
    return icons, words, c


@pytest.mark.parametrize("paid", [1, 12, 13, 14, 15])
def test_every_paid_chip_is_drawn_where_the_row_has_room(paid: int) -> None:
    icons, words, _c = _paid_row(_view(paid))
    assert icons == paid and words == []


@pytest.mark.parametrize("paid", [16, 17, 23])
def test_chips_past_the_row_are_counted_with_plus_n(paid: int) -> None:
    view = _view(paid)
    icons, words, c = _paid_row(view)
    assert icons >= 12
    assert words == [f"+{paid - icons}"]
    more = next(box for what, box in c.boxes if what == f"text:+{paid - icons}")
    assert more[2] <= c.width - MARGIN  # inside the margin
    assert f"Paid: {', '.join(view['paid'])}." in describe("tinker", view, "active")


def test_the_plus_n_mark_is_readable_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mark is drawn at the pictures' smallest reading size or larger, uncut. (Other
    "+N" texts, such as a card's drawn on a cold cache, are told apart by place.)"""
    drawn: list[tuple[str, int, float | None, float]] = []
    text = Canvas.text

    def spy(self: Canvas, x: float, y: float, words: str, size: int = MIN_TEXT,
            **options: Any) -> int:
        drawn.append((words, size, options.get("max_width"), x))
        return text(self, x, y, words, size, **options)

    monkeypatch.setattr(Canvas, "text", spy)
    _icons, (words,), c = _paid_row(_view(16))
    box = next(box for what, box in c.boxes if what == f"text:{words}")
    (mark,) = [(size, cut) for said, size, cut, x in drawn
               if said == words and abs(x - box[0]) < 1]
    assert mark[0] >= MIN_TEXT and mark[1] is None
