"""Alt text: a plain summary of every game's position, the lobby and the endings, in 1,024."""

from __future__ import annotations

import random

import pytest

from bot.games.tinrealm.engine import ENGINE
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
    if make is steam_view and status != "active":  # no turn under way: what runs unsaid
        assert "to play" not in text and ", runs on " not in text
    elif make is steam_view:  # cut after a whole clause: no train is said in part
        from bot.pictures.alt import _trains

        assert len(text) > LIMIT - 200 and text.endswith("…")
        clauses = {c for p in view["players"] for suits in (True, False)
                   for c in _trains(p, suits=suits)}
        last = text.removesuffix("…").split(": ")[-1].split("; ")[-1]
        assert last in clauses, last
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


def test_a_player_who_cannot_see_the_picture_hears_what_the_buttons_do() -> None:
    """A screen reader reads the alt text: it says what the board's symbol buttons do
    (Tin Realm's ⚡ strikes and Sure blow, Tinker's suit chips), which card Steam's
    train buttons place first (S5), where a Tin Realm card would meet the tableau's ends
    and where the map's campsites and water are; an ending says "6 of 13", not "6/13"."""
    from bot.games.steam.engine import ENGINE as STEAM
    from tests.cogs.board_messages import played

    heard: dict[str, str] = {}
    for kind in ("tinrealm", "tinker"):
        for game in played(kind, 2, 5):
            view = game.view()
            if kind == "tinrealm" and view.get("combat") and not view["over"]:
                heard.setdefault("fight", describe(kind, view, "active"))
            if kind == "tinrealm" and view.get("tableau") and not view["over"]:
                heard.setdefault("tableau", describe(kind, view, "active"))
            if kind == "tinker" and view.get("challenge") and not view["over"]:
                heard.setdefault("challenge", describe(kind, view, "active"))
            if kind == "tinker" and view["over"]:
                heard.setdefault("tinker end", describe(kind, view, "over"))
    assert "The ⚡ buttons strike with that much energy" in heard["fight"]
    assert "Sure deals" in heard["fight"]
    assert "Its ends: " in heard["tableau"] and "Map: campsites at nodes " in heard["tableau"]
    assert "Each suit's button pays a chip of that suit to draw a card" in heard["challenge"]
    assert " of 13, chips left " in heard["tinker end"] and "/13" not in heard["tinker end"]
    assert "button" not in heard["tinker end"]  # nothing to press on an ended board
    state = STEAM.new(5, 3, {})
    while not (state.pending is not None and len(getattr(state.pending, "cards", [])) > 1):
        seat = STEAM.to_act(state)
        takes = [a.id for a in STEAM.legal_actions(state, seat) if a.id.startswith("t2:")]
        state = STEAM.apply(state, seat, takes[0] if takes else
                            STEAM.computer_action(state, seat)).state
    placing = describe("steam", STEAM.view(state), "active")
    first, second = (c.name for c in state.pending.cards[:2])
    assert f"is placing {first}" in placing and f" now, then {second}" in placing


def test_t7_a_harsh_defeat_says_its_buttons_lose_a_chip() -> None:
    """T7 with harsh defeat: after a challenge given up, no challenge is left and each
    suit's button loses a chip of it, drawing nothing; the alt text says so (the same
    buttons paid for a card a moment before). It was said only beside a challenge,
    which this phase never has."""
    from bot.games.tinker.engine import ENGINE as TINKER
    from bot.games.tinker.setup import arranged
    from bot.games.tinker.state import COMPANY

    state = arranged(deck=["Savage", "Author", "Painter", *COMPANY],
                     personalities=["Merchant"], chips={"Waves": 1, "Knots": 3},
                     harsh_defeat=True)
    for action in ("choose:personality", "give_up"):
        state = TINKER.apply(state, 0, action).state
    view = TINKER.view(state)
    assert view["phase"] == "lose_chip" and view["challenge"] is None
    heard = describe("tinker", view, "active")
    assert "Harsh defeat: each suit's button loses one chip of that suit; nothing is " \
           "drawn." in heard
    assert "pays a chip" not in heard


def test_tin_realm_says_the_furthest_node_reached_as_the_map_draws_it() -> None:
    """Back at node 0 after reaching node 1 (a skull on a skull): the map draws the track
    to node 1, and the score counts the furthest node, so the alt text says it too."""
    state = ENGINE.new(51, 1, {"preset": "easy"})
    rng = random.Random(51)
    for _ in range(10):
        state = ENGINE.apply(state, 0, rng.choice(ENGINE.legal_actions(state, 0)).id).state
    view = ENGINE.view(state)
    assert (view["node"], view["furthest"]) == (0, 1)
    assert "at node 0 of 11 (furthest reached: 1)." in describe("tinrealm", view, "active")
