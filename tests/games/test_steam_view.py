"""Steam to Solar: the view the boards read, labels, and loading older saves."""

from __future__ import annotations

import json

from bot.games.protocol import MAX_LABEL
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import Arranging, Placing
from tests.games.test_steam_build import build, play

RIVER = ["Ace of Moons", "Mill", "Savage", "Sailor"]


def test_view_totals_goods_left_and_resigned_per_player():
    """S12: each player's total is points + 2 per token; goods left is the tie-break."""
    state = build(3, river=RIVER, half=2, scores=[7, 3, 5], two_stack=1, one_stack=0,
                  trains=[[["Market", "Journey"]], [], [["Sea"]]])
    state, _ = play(state, 2, "resign")
    players = ENGINE.view(state)["players"]
    assert [p["total"] for p in players] == [9, 7, 0]
    assert [p["goods_left"] for p in players] == [2, 0, 0]
    assert [p["resigned"] for p in players] == [False, False, True]


def test_s11_view_says_who_still_has_a_last_turn():
    """S11: in the final round the view lists who still has a turn, the acting seat first."""
    state = build(3, river=RIVER, deck=[], half=2, turn=1, trains=[[["Sea"]], [], []])
    view = ENGINE.view(state)
    assert view["still_to_play"] == [] and not any(p["last_turn_left"] for p in view["players"])
    state, _ = play(state, 1, "t2:1+2", "p:Mill:1")
    view = ENGINE.view(state)
    assert view["final_turns_left"] == [2, 0, 1]
    assert view["still_to_play"] == ["P2", "P0", "P1"]
    state, _ = play(state, 2, "t1:1")
    view = ENGINE.view(state)
    assert view["still_to_play"] == ["P0", "P1"]
    assert [p["last_turn_left"] for p in view["players"]] == [True, True, False]


def test_view_power_emoji_is_the_one_used_in_labels_and_text():
    """One emoji per power: the view's, the labels' and the text board's are the same."""
    state = build(river=["Mill"], trains=[[["Pact", "Sailor"]]])
    emoji = ENGINE.view(state)["power_emoji"]
    assert emoji == {"steam": "🌊", "solar": "☀️"}
    labels = [a.label for a in ENGINE.legal_actions(play(state, 0, "run:1")[0], 0)]
    assert "Run on steam 🌊" in labels and "Run on solar ☀️" in labels
    running, _ = play(state, 0, "run:1", "pw:solar")
    assert "(solar ☀️)" in ENGINE.render_text(running)


def test_view_of_an_arrangement_says_what_is_missing():
    """S6: the pending arrangement shows the card in hand and whether done is possible."""
    state = build(river=RIVER, trains=[[["Journey"]]])
    state, _ = play(state, 0, "t1:2")
    pending = ENGINE.view(state)["pending"]
    assert pending["kind"] == "arrange" and [c["name"] for c in pending["hand"]] == ["Mill"]
    assert pending["can_finish"] is False and pending["problem"] == "place Mill 🌊🍃 first"
    state, _ = play(state, 0, "mv:Mill:1")
    assert ENGINE.view(state)["pending"]["can_finish"] is True
    json.dumps(ENGINE.view(state))


def test_final_places_with_the_score_in_words():
    """The end board: places 1st to last with the breakdown; shared places on full ties."""
    state = build(3, river=[], deck=[], half=2, final=[0], scores=[10, 8, 9],
                  two_stack=1, trains=[[], [["Market"]], []])
    state, _ = play(state, 0, "pass")
    places = ENGINE.view(state)["result"]["places"]
    assert [(p["place"], p["name"], p["total"]) for p in places] == [
        (1, "P1", 12), (2, "P0", 10), (3, "P2", 9)]
    assert places[0]["breakdown"] == "8 points + 4 for 2 Wave tokens = 12; 2 goods left"
    assert places[1]["breakdown"] == "10 points; 0 goods left"
    assert "3rd P2: 9 points; 0 goods left" in ENGINE.render_text(state)


def test_labels_fit_a_button_and_main_choices_are_marked():
    """Labels are at most MAX_LABEL long; ship all and done are the primary choices."""
    state = build(river=["Chance Meeting", "Light Keeper", "Borderland", "Discovery"],
                  trains=[[["Journey", "Market", "Merchant", "Forest"]]])
    for action in ENGINE.legal_actions(state, 0):
        assert len(action.label) <= MAX_LABEL and action.description
    running, _ = play(state, 0, "run:1")
    primary = [a.id for a in ENGINE.legal_actions(running, 0) if a.primary]
    assert primary == ["all"]
    arranging, _ = play(state, 0, "t1:1", "mv:ChanceMeeting:1")
    assert [a.id for a in ENGINE.legal_actions(arranging, 0) if a.primary] == ["done"]


def test_schema_1_saves_still_load():
    """Saves from schema 1 load: a take one placing its card now holds it in hand."""
    state = build(river=RIVER, trains=[[["Journey"]]])
    taking, _ = play(state, 0, "t1:2")
    old = ENGINE.dump(taking)
    old.update(schema=1, pending={"kind": "place", "cards": ["Mill"], "arrange": True})
    loaded = ENGINE.load(json.loads(json.dumps(old)))
    assert isinstance(loaded.pending, Arranging) and [c.name for c in loaded.pending.hand] == [
        "Mill"]
    assert ENGINE.dump(loaded) == ENGINE.dump(taking)
    two, _ = play(build(river=RIVER, trains=[[["Journey"]]]), 0, "t2:1+2")
    old = ENGINE.dump(two)
    old.update(schema=1, pending={"kind": "place", "cards": ["Ace of Moons", "Mill"],
                                  "arrange": False})
    assert isinstance(ENGINE.load(old).pending, Placing)
    arranged, _ = play(taking, 0, "mv:Mill:1")
    old = ENGINE.dump(arranged)
    old.update(schema=1, pending={"kind": "arrange"})
    assert ENGINE.dump(ENGINE.load(old)) == ENGINE.dump(arranged)
    plain = ENGINE.dump(state)
    plain["schema"] = 1
    assert ENGINE.dump(ENGINE.load(plain)) == ENGINE.dump(state)
    assert ENGINE.dump(state)["schema"] == 3


def test_view_lists_the_discard_pile_in_discard_order():
    """What the computer knows, the players can see: the view lists the discard pile's
    cards (key ``discard``), first discarded first, beside ``discard_count``; the text board
    lists them too."""
    state = build(river=RIVER, discard=["Forest"], deck=["Cave", "Battle", "Mountain"],
                  trains=[[["Journey", "Market", "Merchant"], ["Sea", "Castle"]]])
    before = [c.name for c in state.discard]
    assert [c["name"] for c in ENGINE.view(state)["discard"]] == before
    state, _ = play(state, 0, "d:Sea", "run:1", "all")
    view = ENGINE.view(state)
    # S7 the discard, then S8: the shipped cards, then the Wave card burnt for steam
    assert [c["name"] for c in view["discard"]] == [
        *before, "Sea", "Market", "Merchant", "Journey"]
    assert view["discard_count"] == len(view["discard"])
    assert view["discard"][-1] == {"name": "Journey", "rank": "3", "value": None,
                                   "suits": ["Moons", "Waves"]}
    line = ENGINE.render_text(state).split("Discard pile (first discarded first): ")[1]
    assert line.splitlines()[0].endswith("Sea 🌊, Market 🍃🪢, Merchant 🍃🪢, Journey 🌙🌊")
