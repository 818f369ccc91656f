"""The picture cache, and views that are old, partial or odd still giving pictures."""

from __future__ import annotations

import copy

import pytest

from bot.pictures import CACHE, render_board
from bot.pictures.cache import PictureCache, picture_key
from bot.pictures.canvas import WIDTH
from tests.pictures.conftest import image, play

KINDS = ("tinker", "steam", "tinrealm")


@pytest.mark.parametrize("kind", KINDS)
def test_identical_views_give_identical_bytes_from_the_cache(kind: str) -> None:
    game, state = play(kind, 2, 12)
    first = render_board(kind, game.view(state))
    assert CACHE.misses == 1 and CACHE.hits == 0
    again = render_board(kind, copy.deepcopy(game.view(state)))
    assert again == first
    assert CACHE.hits == 1


@pytest.mark.parametrize("kind", KINDS)
def test_different_views_give_different_pictures(kind: str) -> None:
    game, state = play(kind, 2, 4)
    before = render_board(kind, game.view(state))
    for _ in range(6):
        seat = game.to_act(state)
        state = game.apply(state, seat, game.computer_action(state, seat)).state
    after = render_board(kind, game.view(state))
    assert before != after
    assert image(before).tobytes() != image(after).tobytes()


def test_the_cache_key_counts_kind_status_and_view() -> None:
    view = {"a": 1, "b": [1, 2]}
    assert picture_key("tinker", view, "active") == picture_key("tinker", dict(view), "active")
    assert picture_key("tinker", view, "active") != picture_key("tinker", view, "over")
    assert picture_key("tinker", view, "active") != picture_key("steam", view, "active")
    assert picture_key("tinker", view, "active") != picture_key("tinker", {"a": 2}, "active")


def test_the_cache_is_bounded_and_least_recent_goes_first() -> None:
    cache = PictureCache(2)
    cache.put("a", b"1")
    cache.put("b", b"2")
    assert cache.get("a") == b"1"
    cache.put("c", b"3")
    assert cache.get("b") is None
    assert cache.get("a") == b"1" and cache.get("c") == b"3"
    assert len(cache) == 2


ODD_VIEWS = [
    {},
    {"over": True},
    {"round": "two", "challenge": "Sea", "played": {"x": 1}, "chips": [1, 2], "cleared": 5},
    {"challenge": {"name": None, "suits": None, "value": "x"}, "played": [None, 3, {}]},
    {"river": [{"name": "Sea"}, None], "players": [{"trains": [[{}], None, "x"]}, 7]},
    {"players": [{"seat": 0, "trains": [[{"suits": ["Moons", "Suns", "Leaves", "Odd"]}] * 9] * 4}]},
    {"map": 3, "tableau": [None, {"name": 5, "icons": ["dragon"], "edges": ["lava"]}],
     "day": "x", "combat": {"name": "Rat"}, "dice": [9, "x"], "items": [{}]},
    {"map": [{"name": "Only", "nodes": []}], "node": 99, "furthest": -4, "health": -3},
    {"result": {"outcomes": "nope"}, "over": True, "end": "won"},
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("view", ODD_VIEWS)
@pytest.mark.parametrize("status", ["active", "over", "abandoned"])
def test_odd_views_still_draw(kind: str, view: dict, status: str) -> None:
    png = render_board(kind, view, status=status)
    assert image(png).width == WIDTH


@pytest.mark.parametrize("kind", KINDS)
def test_a_view_missing_any_one_key_still_draws(kind: str) -> None:
    game, state = play(kind, 3, 20)
    view = game.view(state)
    for key in view:
        partial = {k: v for k, v in view.items() if k != key}
        assert image(render_board(kind, partial)).width == WIDTH


def test_unknown_games_and_empty_lobbies_draw_nothing() -> None:
    assert render_board("chess", {"board": []}) == b""
    assert render_board("steam", {}, status="lobby") == b""


def test_a_lobby_with_names_draws_its_seats() -> None:
    png = render_board("steam", {"players": [{"name": "Ann"}, {"name": "Computer 1"}]},
                       status="lobby")
    assert image(png).width == WIDTH
