"""Every game's board draws a valid, compact PNG for many seeded states, endings included."""

from __future__ import annotations

import pytest

from bot.pictures import FILENAME, render_board
from bot.pictures import steam as steam_board
from bot.pictures import tinker as tinker_board
from bot.pictures import tinrealm as tinrealm_board
from bot.pictures.canvas import WIDTH
from bot.pictures.endings import ending
from tests.pictures.conftest import image, play

KINDS = ("tinker", "steam", "tinrealm")
DRAWERS = {"tinker": tinker_board.draw, "steam": steam_board.draw,
           "tinrealm": tinrealm_board.draw}
MAX_BYTES = 150 * 1024
MAX_HEIGHT = 1400


def test_filename() -> None:
    assert FILENAME == "board.png"


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("moves", [0, 3, 17, 60, 5000])
def test_states_draw_valid_pngs(kind: str, seed: int, moves: int) -> None:
    game, state = play(kind, seed, moves)
    view = game.view(state)
    status = "over" if game.is_over(state) else "active"
    # The board's own drawer, not the plain fallback, must manage every real view.
    png = DRAWERS[kind](view, ending(kind, view, status))
    picture = image(png)
    assert picture.width == WIDTH
    assert 80 <= picture.height <= MAX_HEIGHT
    assert len(png) <= MAX_BYTES
    assert render_board(kind, view, status=status) == png


@pytest.mark.parametrize("seats", [2, 4, 5])
def test_steam_every_table_size(seats: int) -> None:
    for moves in (0, 25, 400):
        game, state = play("steam", seats, moves, seats)
        png = render_board("steam", game.view(state))
        assert image(png).width == WIDTH
        assert len(png) <= MAX_BYTES


def finished(kind: str, outcome: str, seeds: range = range(40)) -> dict:
    """The view of a finished game whose first seat's outcome is ``outcome``."""
    for seed in seeds:
        game, state = play(kind, seed * 2, 10_000)
        result = game.result(state)
        if result is not None and result.outcomes[0].outcome == outcome:
            return game.view(state)
    pytest.fail(f"no {kind} game ended in a {outcome} in the seeds tried")


@pytest.mark.parametrize("kind", ["tinker", "tinrealm"])
def test_won_and_lost_look_different(kind: str) -> None:
    won, lost = finished(kind, "win"), finished(kind, "loss")
    assert ending(kind, won, "over").mood == "won"
    assert ending(kind, lost, "over").mood == "lost"
    won_png = image(render_board(kind, won, status="over"))
    lost_png = image(render_board(kind, lost, status="over"))
    # The backgrounds (top-left pixel) differ: green for a win, red for a loss.
    won_rgb = won_png.convert("RGB").getpixel((2, 2))
    lost_rgb = lost_png.convert("RGB").getpixel((2, 2))
    assert won_rgb[1] > won_rgb[0]
    assert lost_rgb[0] > lost_rgb[1]


def test_steam_ending_names_the_winner() -> None:
    game, state = play("steam", 4, 10_000)
    assert game.is_over(state)
    look = ending("steam", game.view(state), "over")
    assert look.mood == "won"
    assert "wins" in look.headline or "win" in look.headline
    assert image(render_board("steam", game.view(state), status="over")).width == WIDTH


@pytest.mark.parametrize("status", ["abandoned", "expired"])
@pytest.mark.parametrize("kind", KINDS)
def test_ended_games_say_so(kind: str, status: str) -> None:
    game, state = play(kind, 1, 9)
    look = ending(kind, game.view(state), status)
    assert look.mood == "ended" and look.headline
    active = render_board(kind, game.view(state))
    ended = render_board(kind, game.view(state), status=status)
    assert image(ended).width == WIDTH
    assert ended != active
