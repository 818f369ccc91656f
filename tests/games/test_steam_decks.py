"""Steam to Solar: the two decks of ruling S1 (revised) and their sunny cards (S2).

The 36 basic cards plus the 4 Pawns by default, or plus the 4 Courts as a table option
(``deck``: ``pawns`` or ``courts``). Random games with both decks are in
test_steam_props.py.
"""

from __future__ import annotations

import json

import pytest

from bot.games.protocol import BrokenState, GameError
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import COURTS, DECK_SUNNY, PAWNS
from tests.games.test_steam_build import build, names, play

PAWN_NAMES = {"Harvest", "Watchman", "Light Keeper", "Borderland"}
COURT_NAMES = {"Consul", "Rite", "Island", "Window"}


def _all_cards(state) -> list[str]:
    return names(state.deck + state.river + state.sunny)


def test_s1_the_pawns_are_the_default_deck():
    """S1 (revised): without the option, and with ``deck: pawns``, the table plays the 36
    basic cards and the 4 Pawns; the view and the text board say so."""
    for options in ({}, {"deck": "pawns"}, {"deck": None}):
        state = ENGINE.new(3, 2, options)
        cards = _all_cards(state)
        assert len(cards) == len(set(cards)) == 40
        assert set(cards) >= PAWN_NAMES and not set(cards) & (COURT_NAMES | {"Excuse"})
        assert state.deck_kind == PAWNS
        view = ENGINE.view(state)
        assert view["deck_kind"] == "pawns"
        assert view["deck_text"].startswith("The 36 basic cards and the 4 Pawns (Harvest, ")
    assert "Deck: The 36 basic cards and the 4 Pawns" in ENGINE.render_text(state)


def test_s1_the_courts_deck_is_a_table_option():
    """S1 (revised): ``deck: courts`` plays the 36 basic cards and the 4 Courts instead;
    no Pawn, no Excuse. The view and the text board name the deck."""
    state = ENGINE.new(3, 4, {"deck": "courts"})
    cards = _all_cards(state)
    assert len(cards) == len(set(cards)) == 40
    assert set(cards) >= COURT_NAMES and not set(cards) & (PAWN_NAMES | {"Excuse"})
    assert sum(1 for c in state.deck + state.river + state.sunny if c.is_basic) == 36
    view = ENGINE.view(state)
    json.dumps(view)
    assert view["deck_kind"] == "courts"
    assert view["deck_text"] == (
        "The 36 basic cards and the 4 Courts (Consul, Rite, Island, Window); set aside for "
        "the first half: Ace of Suns, Bard, Island, Window.")
    assert ("Deck: The 36 basic cards and the 4 Courts (Consul, Rite, Island, Window)"
            in ENGINE.render_text(state))


def test_s2_the_courts_sunny_cards_are_island_and_window():
    """S2 (revised): with the Courts the sunny cards are the Ace of Suns, the Bard, Island
    and Window; the first half plays the other 36 (Consul and Rite among them)."""
    state = ENGINE.new(5, 3, {"deck": "courts"})
    assert names(state.sunny) == ["Ace of Suns", "Bard", "Island", "Window"]
    first_half = names(state.deck + state.river)
    assert len(first_half) == 36 and {"Consul", "Rite"} <= set(first_half)
    assert not set(first_half) & {"Ace of Suns", "Bard", "Island", "Window"}
    assert [c["name"] for c in ENGINE.view(state)["sunny_aside"]] == names(state.sunny)


def test_s2_the_pawns_sunny_cards_are_harvest_and_light_keeper():
    """S2: with the Pawns the sunny cards are the Ace of Suns, the Bard, Harvest and Light
    Keeper (each deck's two three-suited cards with a Sun)."""
    state = ENGINE.new(5, 3)
    assert names(state.sunny) == ["Ace of Suns", "Bard", "Harvest", "Light Keeper"]
    for kind in (PAWNS, COURTS):
        three = [c for c in DECK_SUNNY[kind] if len(c.suits) == 3]
        assert len(three) == 2 and all("Suns" in c.suits for c in three)


def test_s2_the_courts_sunny_cards_join_the_second_half():
    """S9 with the Courts (S2): when the first half ends, Island, Window, the Ace of Suns
    and the Bard are shuffled into the new deck with the discard pile."""
    state = build(river=["Ace of Moons", "Mill"], deck=[], deck_kind=COURTS,
                  discard=["Forest"], trains=[[["Consul"]]])
    assert names(state.sunny) == ["Ace of Suns", "Bard", "Island", "Window"]
    state, events = play(state, 0, "t2:1+2", "p:AMoons:n", "p:Mill:1")
    assert state.half == 2 and state.sunny == []
    in_play = set(names(state.deck + state.river))
    assert {"Ace of Suns", "Bard", "Island", "Window"} <= in_play
    assert any("first half is over" in e for e in events)


def test_s1_a_court_runs_like_any_card():
    """S1, S8 with the Courts: Consul (Moons, Waves, Knots) alone is a train that runs on
    steam, shipping its Knot and burning itself; Island (Suns, Waves, Wyrms) gives both
    powers."""
    state = build(river=["Ace of Moons", "Mill", "Savage", "Sailor"], deck_kind=COURTS,
                  trains=[[["Consul"], ["Island", "Rite"]]])
    assert {"run:1", "run:2"} <= {a.id for a in ENGINE.legal_actions(state, 0)}
    ran, _ = play(state, 0, "run:1", "all")
    assert ran.players[0].score == 6 and "Consul" in names(ran.discard)
    both, _ = play(state, 0, "run:2")
    assert {a.id for a in ENGINE.legal_actions(both, 0)} >= {"pw:steam", "pw:solar"}


def test_s1_a_bad_deck_option_is_refused():
    """S1: the option takes only ``pawns`` or ``courts``."""
    for bad in ("excuse", "Courts", 1):
        with pytest.raises(GameError, match="deck"):
            ENGINE.new(1, 2, {"deck": bad})


def test_s1_the_deck_is_saved_and_checked_on_load():
    """S1: the dump carries the deck (schema 3); a Courts save loads back as the Courts,
    and a save whose cards are not its deck's 40 is refused."""
    state = ENGINE.new(9, 3, {"deck": "courts"})
    data = json.loads(json.dumps(ENGINE.dump(state)))
    assert data["schema"] == 3 and data["deck_kind"] == "courts"
    loaded = ENGINE.load(data)
    assert loaded.deck_kind == COURTS and ENGINE.dump(loaded) == data
    wrong = {**data, "deck_kind": "pawns"}
    with pytest.raises(BrokenState, match="40 cards"):
        ENGINE.load(wrong)
    with pytest.raises(BrokenState, match="deck"):
        ENGINE.load({**data, "deck_kind": "crowns"})
    courts = ENGINE.dump(build(river=["Consul", "Mill"], deck_kind=COURTS))
    courts["river"] = ["Watchman", "Mill"]
    with pytest.raises(BrokenState, match="40 cards of the courts deck"):
        ENGINE.load(courts)


@pytest.mark.parametrize("deck", [PAWNS, COURTS])
def test_s1_computer_games_with_either_deck_end_at_every_level(deck):
    """S1 and the levels: whole games of computer players (Easy, Normal and Hard at one
    table) end with either deck, every choice legal."""
    state = ENGINE.new(21, 3, {"deck": deck, "levels": ["easy", "normal", "hard"]})
    steps = 0
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)
        action = ENGINE.computer_action(state, seat)
        assert action in {a.id for a in ENGINE.legal_actions(state, seat)}
        state = ENGINE.apply(state, seat, action).state
        steps += 1
        assert steps < 2_000
    assert ENGINE.result(state) is not None
