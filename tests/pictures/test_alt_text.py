"""Alt text: a plain summary of every game's position, the lobby and the endings, in 1,024."""

from __future__ import annotations

import pytest

from bot.pictures import describe
from bot.pictures.alt import LIMIT
from tests.pictures.conftest import play
from tests.pictures.widest import LONG_NAMES, steam_view, tinker_view, tinrealm_view


@pytest.mark.parametrize("kind", ["tinker", "steam", "tinrealm"])
@pytest.mark.parametrize("moves", [0, 15, 60, 10_000])
def test_every_game_is_described(kind: str, moves: int) -> None:
    game, state = play(kind, 2, moves)
    view = game.view(state)
    status = "over" if game.is_over(state) else "active"
    text = describe(kind, view, status)
    assert 30 < len(text) <= LIMIT
    title = {"tinker": "Tinker", "steam": "Steam to Solar", "tinrealm": "Tin Realm"}[kind]
    assert text.startswith(title)
    if kind == "steam":
        for player in view["players"]:
            assert player["name"] in text
    if kind == "tinrealm":
        assert f"day {view['day']}" in text
    if kind == "tinker" and view.get("challenge"):
        assert view["challenge"]["name"] in text


def test_steam_says_who_places_what_and_who_is_away() -> None:
    text = describe("steam", steam_view(3), "active")
    assert "王小明 (老师) 89, 2 Wave tokens included, to play" in text
    assert "さくら🌸ハナコ 90, 2 Wave tokens included, away" in text
    assert "placing Discovery (5, Suns, Waves)" in text
    assert "Borderland (Pawn, Waves, Leaves, Wyrms) costs 0" in text


@pytest.mark.parametrize("make", [steam_view, tinker_view, tinrealm_view])
@pytest.mark.parametrize("status", ["active", "over", "abandoned", "expired"])
def test_longest_cases_stay_within_the_limit(make, status: str) -> None:
    view = make()
    kind = {steam_view: "steam", tinker_view: "tinker", tinrealm_view: "tinrealm"}[make]
    view["players"] = view.get("players") or []
    text = describe(kind, view, status)
    assert len(text) <= LIMIT
    if make is steam_view:
        assert len(text) == LIMIT and text.endswith("…")
    if status == "abandoned":
        assert "Game abandoned" in text


def test_endings_come_first() -> None:
    for kind in ("tinker", "steam", "tinrealm"):
        game, state = play(kind, 4, 10_000)
        assert game.is_over(state)
        text = describe(kind, game.view(state), "over")
        second = text.split(". ", 2)[1]
        assert second and second != "Round 1", text


def test_lobby() -> None:
    text = describe("steam", {"players": [{"name": n} for n in LONG_NAMES[:5]]}, "lobby")
    assert text.startswith("Steam to Solar. Table open, 5 seated: Bartholomew")
    empty = describe("tinker", {}, "lobby")
    assert empty == "Tinker, Sailor, Soldier, Spy. Table open, no one seated yet."


def test_odd_views_do_not_raise() -> None:
    for view in ({}, {"players": "x", "river": 3, "pending": []}, {"combat": 5}):
        for kind in ("tinker", "steam", "tinrealm", "other"):
            assert len(describe(kind, view, "active")) <= LIMIT
