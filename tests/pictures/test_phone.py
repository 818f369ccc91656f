"""The widest case of every game fits the canvas, keeps text readable and stays short."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pictures import describe, lobby, steam, tinker, tinrealm
from bot.pictures.canvas import MIN_TEXT, WIDTH, Canvas
from bot.pictures.endings import ending
from tests.pictures.conftest import image, play
from tests.pictures.widest import LONG_NAMES, steam_view, tinker_view, tinrealm_view

Board = Callable[[Any, Any], Canvas]


def outside(c: Canvas) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every recorded element whose box leaves the finished picture."""
    return [(what, box) for what, box in c.boxes
            if box[0] < 0 or box[1] < 0 or box[2] > c.width or box[3] > c.height]


def finish(board: Board, kind: str, view: dict[str, Any], status: str = "active") -> Canvas:
    c = board(view, ending(kind, view, status))
    png = c.png(c.bottom)
    picture = image(png)
    assert picture.size == (WIDTH, c.height)
    # No element is painted over by a layer pasted after it.
    assert c.covered == []
    return c


WIDEST: list[tuple[str, Board, Callable[[], dict[str, Any]]]] = [
    ("steam", steam.board, steam_view),
    ("tinker", tinker.board, tinker_view),
    ("tinrealm", tinrealm.board, tinrealm_view),
]


@pytest.mark.parametrize(("kind", "board", "make"), WIDEST)
@pytest.mark.parametrize("status", ["active", "over", "abandoned"])
def test_widest_case_stays_inside_the_canvas(kind: str, board: Board,
                                            make: Callable[[], dict[str, Any]],
                                            status: str) -> None:
    view = make()
    if status == "over":
        view["over"] = True
    c = finish(board, kind, view, status)
    assert len(c.boxes) > 20
    assert outside(c) == []


def test_steam_five_full_trains_are_all_drawn_with_a_gap() -> None:
    c = finish(steam.board, "steam", steam_view(5))
    cards = [box for what, box in c.boxes if what == "card"]
    # 5 seats x 10 train cards, plus the 2 cards being placed.
    assert len(cards) == 5 * 10 + 2
    first_row = sorted(box for box in cards if box[1] == cards[2][1])
    assert len(first_row) == 10
    gaps = [b[0] - a[2] for a, b in itertools.pairwise(first_row)]
    assert max(gaps) >= 20 > min(gaps)
    assert max(box[2] for box in cards) <= WIDTH - 16


def test_steam_marks_away_resigned_and_placing() -> None:
    c = finish(steam.board, "steam", steam_view(5))
    words = [what for what, _ in c.boxes if what.startswith("text:")]
    assert "text:away" in words or "text:💤" in words  # 💤 beside two Wave tokens
    assert any(w.startswith("text:resign") for w in words)
    assert any(w.endswith("places · final round") for w in words)


def test_steam_river_names_every_card() -> None:
    c = finish(steam.board, "steam", steam_view(3))
    words = {what for what, _ in c.boxes}
    for name in ("Borderland", "Light Keeper", "Ace of Knots", "Watchman", "Bard"):
        assert f"text:{name}" in words


@pytest.mark.parametrize(("kind", "board", "make"), WIDEST[:2])
def test_text_is_at_least_thirty_pixels(kind: str, board: Board,
                                        make: Callable[[], dict[str, Any]]) -> None:
    c = finish(board, kind, make())
    assert c.sizes and min(c.sizes) >= MIN_TEXT


def test_tin_realm_text_is_thirty_pixels_but_card_lettering() -> None:
    c = finish(tinrealm.board, "tinrealm", tinrealm_view())
    small = set(s for s in c.sizes if s < MIN_TEXT)
    assert small and small <= set(tinrealm.NAME_SIZES)


@pytest.mark.parametrize(("seats", "tallest"), [(3, 680), (5, 900)])
def test_steam_heights(seats: int, tallest: int) -> None:
    assert finish(steam.board, "steam", steam_view(seats)).height <= tallest


@pytest.mark.parametrize("seed", range(4))
def test_real_games_stay_inside(seed: int) -> None:
    for kind, board, seats in (("steam", steam.board, 5), ("tinker", tinker.board, 1),
                               ("tinrealm", tinrealm.board, 1)):
        for moves in (0, 20, 80, 5000):
            game, state = play(kind, seed, moves, seats)
            view = game.view(state)
            status = "over" if game.is_over(state) else "active"
            c = finish(board, kind, view, status)
            assert outside(c) == []
            if kind == "tinker":
                assert c.height <= 600


def test_lobby_of_long_names_stays_inside() -> None:
    view = {"players": [{"name": n} for n in LONG_NAMES[:5]]}
    c = lobby.board(view, ending("steam", view, "lobby"))
    assert c is not None
    c.png(c.bottom)
    assert outside(c) == []


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=5))
def test_any_names_draw_inside_the_canvas(names: list[str]) -> None:
    c = finish(steam.board, "steam", steam_view(len(names), tuple(names)))
    assert outside(c) == []
    assert describe("steam", steam_view(len(names), tuple(names)), "active")


def test_steam_rows_show_the_total_as_the_ending_does() -> None:
    """A player's row shows their total, Wave tokens included (S10), as the text board
    and the ending's banner do; one point reads "1 pt"."""
    view = steam_view(3)
    view["players"][0].update(score=5, total=9, tokens=2)
    view["players"][1].update(score=1, total=1, tokens=0, away=False)
    c = finish(steam.board, "steam", view)
    words = [what for what, _ in c.boxes if what.startswith("text:")]
    assert "text:9" in words and "text:5" not in words
    assert "text:1" in words and "text:pt" in words
