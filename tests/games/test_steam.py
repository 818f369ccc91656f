"""Steam to Solar: setup, the river, taking and rearranging (S1-S7), and the protocol.

Running trains and tokens are in test_steam_run.py, the end of the game and resigning in
test_steam_end.py, random games in test_steam_props.py, the computer player in
test_steam_ai.py. States are hand-built with ``build`` (test_steam_build.py).
"""

from __future__ import annotations

import json
import re

import pytest

from bot.games.protocol import MAX_ACTION_ID, BrokenState, Engine, GameError, IllegalAction
from bot.games.registry import engine
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import SUNNY
from tests.games.test_steam_build import build, ids, names, play

RIVER = ["Ace of Moons", "Mill", "Savage", "Sailor"]
DECK = ["Forest", "Cave", "Market", "Battle"]


def test_engine_satisfies_the_protocol_and_is_registered():
    """The registry's "steam" engine is ENGINE and follows the Engine protocol."""
    assert engine("steam") is ENGINE
    assert isinstance(ENGINE, Engine)
    assert (ENGINE.kind, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == (
        "steam", "Steam to Solar", 2, 5)
    assert [o.name for o in ENGINE.options] == ["start_seat", "names", "deck", "levels",
                                               "people"]


def test_s1_forty_card_deck():
    """S1: the 36 basic cards and the 4 Pawns are in play; no Excuse, no Courts."""
    state = ENGINE.new(1, 3)
    cards = names(state.deck + state.river + state.sunny)
    assert len(cards) == len(set(cards)) == 40
    assert not set(cards) & {"Excuse", "Consul", "Rite", "Island", "Window"}
    assert {"Harvest", "Watchman", "Light Keeper", "Borderland"} <= set(cards)


def test_s2_sunny_cards_set_aside():
    """S2: the four sunny cards wait aside; the first half uses the other 36."""
    state = ENGINE.new(2, 2)
    assert set(names(state.sunny)) == {"Ace of Suns", "Bard", "Harvest", "Light Keeper"}
    assert len(state.deck) + len(state.river) == 36
    assert not set(state.deck + state.river) & set(SUNNY)
    assert [c["name"] for c in ENGINE.view(state)["sunny_aside"]] == names(state.sunny)


def test_s3_start_seat_random_or_chosen_and_five_points():
    """S3: the start seat is drawn from the seed unless chosen; everyone starts with 5."""
    starts = {ENGINE.new(seed, 4).turn for seed in range(40)}
    assert starts == {0, 1, 2, 3}
    assert ENGINE.new(7, 4).turn == ENGINE.new(7, 4).turn
    state = ENGINE.new(7, 4, {"start_seat": 2})
    assert state.turn == state.start == 2
    assert [p.score for p in state.players] == [5, 5, 5, 5]


def test_s3_names_option_and_defaults():
    """Names come from option "names"; the default is Seat 1, Seat 2, ..."""
    assert [p.name for p in ENGINE.new(1, 3).players] == ["Seat 1", "Seat 2", "Seat 3"]
    state = ENGINE.new(1, 2, {"names": ["Ann", "Bob"]})
    assert [p["name"] for p in ENGINE.view(state)["players"]] == ["Ann", "Bob"]


@pytest.mark.parametrize(("seats", "options"), [
    (1, {}), (6, {}), (2, {"names": ["Ann"]}), (2, {"names": ["Ann", " "]}),
    (3, {"start_seat": 3}), (2, {"start_seat": "0"}), (2, {"colour": "red"}),
])
def test_bad_options_are_refused(seats, options):
    """A seat count outside 2-5 or a bad option raises a readable GameError."""
    with pytest.raises(GameError):
        ENGINE.new(1, seats, options)


def test_s3_cannot_pay_more_points_than_you_have():
    """S3: with 1 point, only takes costing at most 1 are offered."""
    state = build(river=RIVER, scores=[1, 5])
    takes = [i for i in ids(state) if i.startswith("t")]
    assert takes == ["t2:1+2", "t2:1+3", "t2:2+3", "t1:1", "t1:2", "t1:3"]
    broke = build(river=RIVER, scores=[0, 5])
    assert [i for i in ids(broke) if i.startswith("t")] == ["t2:1+2", "t1:1", "t1:2"]


def test_s4_river_costs_in_the_view():
    """S4: the river positions cost 0, 0, 1, 2, position 1 furthest from the deck."""
    state = build(river=RIVER)
    assert [(c["name"], c["cost"]) for c in ENGINE.view(state)["river"]] == [
        ("Ace of Moons", 0), ("Mill", 0), ("Savage", 1), ("Sailor", 2)]


def test_s4_costs_fixed_at_the_start_and_river_slides_and_refills():
    """S4: taking positions 2 and 4 costs 0 + 2; the rest slide and refill at the end."""
    state = build(river=RIVER, deck=DECK)
    state, events = play(state, 0, "t2:2+4")
    assert state.players[0].score == 3 and state.players[0].paid == 2
    assert names(state.river) == ["Ace of Moons", "Savage", "Forest", "Cave"]
    assert names(state.deck) == ["Market", "Battle"]
    assert "pay 2" in events[0]


def test_s4_take_one_from_position_three_costs_one():
    """S4: taking one card from position 3 costs 1; the card after it slides up."""
    state, _ = play(build(river=RIVER, deck=DECK), 0, "t1:3")
    assert state.players[0].score == 4
    assert names(state.river) == ["Ace of Moons", "Mill", "Sailor", "Forest"]


def test_s4_short_river_take_what_is_there():
    """S4: with one card left in the river, taking two takes that one card."""
    state = build(river=["Mill"], deck=[], half=2, final=[0, 1])
    assert [i for i in ids(state) if i.startswith("t")] == ["t2:1", "t1:1"]
    state, events = play(state, 0, "t2:1")
    assert state.river == [] and names(state.players[0].trains[0]) == ["Mill"]
    assert "(the only place for it)" in events[-1]
    assert state.turn == 1


def test_s5_take_two_and_place_each():
    """S5: taking two pays both and places each card: a new train or an existing one."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey"]]])
    state, _ = play(state, 0, "t2:1+3")
    assert state.pending is not None and state.turn == 0
    assert ids(state)[:2] == ["p:AMoons:1", "p:AMoons:n"]
    state, _ = play(state, 0, "p:AMoons:n")
    assert [i for i in ids(state) if i.startswith("p:")] == ["p:Savage:1", "p:Savage:2"]
    state, _ = play(state, 0, "p:Savage:1")
    assert [names(t) for t in state.players[0].trains] == [["Journey", "Savage"],
                                                           ["Ace of Moons"]]
    assert state.players[0].score == 4 and state.pending is None and state.turn == 1


def test_s5_a_placement_with_one_possible_place_happens_by_itself():
    """S5: with no train the first card starts one by itself; the second is asked."""
    state, events = play(build(river=RIVER, deck=DECK), 0, "t2:1+3")
    assert [names(t) for t in state.players[0].trains] == [["Ace of Moons"]]
    assert events[-1] == "P0 puts Ace of Moons 🌙 on a new train (the only place for it)."
    assert [i for i in ids(state) if i.startswith("p:")] == ["p:Savage:1", "p:Savage:n"]


def test_s5_train_limits_on_placing():
    """S5: a full train (5 cards) takes no more; a third train cannot be started."""
    full = ["Ace of Leaves", "End", "Chance Meeting", "Merchant", "Origin"]
    state = build(river=RIVER, deck=DECK, trains=[[full, ["Journey"]]])
    state, events = play(state, 0, "t2:1+2")
    assert [names(t) for t in state.players[0].trains][1] == ["Journey", "Ace of Moons", "Mill"]
    assert sum("on train 2 (the only place for it)" in e for e in events) == 2 and state.turn == 1


def test_s5_a_card_that_cannot_be_placed_cannot_be_taken():
    """S5: with room for one card take two is not offered; take one (S6) still is."""
    five = ["Ace of Leaves", "End", "Chance Meeting", "Merchant", "Origin"]
    four = ["Ace of Wyrms", "Calamity", "Betrayal", "Darkness"]
    state = build(river=RIVER, deck=DECK, trains=[[five, four]])
    takes = [i for i in ids(state) if i.startswith("t")]
    assert takes == ["t1:1", "t1:2", "t1:3", "t1:4"]
    state = build(river=RIVER, deck=DECK, trains=[[five, [*four, "Soldier"]]])
    assert [i for i in ids(state) if i.startswith("t")] == ["t1:1", "t1:2", "t1:3", "t1:4"]
    assert "d:Merchant" in ids(state)


def trains_of(state, seat=0):
    """Return a seat's trains as lists of card names."""
    return [names(t) for t in state.players[seat].trains]


def test_s6_take_one_then_rearrange_until_done():
    """S6: take one, place it, move cards between trains or to a new train, then done."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey", "Darkness"]]])
    state, _ = play(state, 0, "t1:2")
    assert names(state.pending.hand) == ["Mill"] and "done" not in ids(state)
    state, _ = play(state, 0, "mv:Mill:1")
    assert state.turn == 0 and "done" in ids(state)
    state, _ = play(state, 0, "mv:Darkness:n")
    assert trains_of(state) == [["Journey", "Mill"], ["Darkness"]]
    assert "mv:Mill:n" not in ids(state)
    state, _ = play(state, 0, "mv:Darkness:1")
    assert trains_of(state) == [["Journey", "Mill", "Darkness"]]
    state, events = play(state, 0, "done")
    assert state.turn == 1 and state.pending is None
    assert events == ["P0 is done rearranging: train 1 Journey 🌙🌊, Mill 🌊🍃, Darkness 🌊🐉."]


def test_s6_moving_the_last_card_of_a_train_removes_it():
    """S6: a train emptied by a move is gone."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey"], ["Darkness"]]])
    state, _ = play(state, 0, "t1:1", "mv:AMoons:2", "mv:Journey:2")
    assert trains_of(state) == [["Darkness", "Ace of Moons", "Journey"]]


FIVE = ["Ace of Leaves", "End", "Chance Meeting", "Merchant", "Origin"]
FOUR = ["Ace of Wyrms", "Calamity", "Betrayal", "Darkness"]


def test_s6_only_the_result_respects_the_limits_two_full_trains_swap():
    """S6 (revised): on the way a train may hold 6 cards; two full trains swap cards."""
    state = build(river=RIVER, deck=DECK, trains=[[FIVE, FOUR]])
    state, _ = play(state, 0, "t1:1", "mv:AMoons:1")
    assert len(state.players[0].trains[0]) == 6 and "done" not in ids(state)
    assert ENGINE.view(state)["pending"]["problem"] == "train 1 has 6 cards; at most 5"
    state, _ = play(state, 0, "mv:End:2")
    assert "done" in ids(state)
    state, _ = play(state, 0, "mv:Darkness:1", "mv:Origin:2")
    assert [len(t) for t in state.players[0].trains] == [5, 5]
    assert "Darkness" in trains_of(state)[0] and "End" in trains_of(state)[1]
    state, _ = play(state, 0, "done")
    assert state.turn == 1


def test_s6_done_only_within_the_limits_a_full_table_discards():
    """S6 + S7: with 10 cards a take one is allowed; done waits until a discard."""
    state = build(river=RIVER, deck=DECK, trains=[[FIVE, [*FOUR, "Soldier"]]])
    state, _ = play(state, 0, "t1:1", "mv:AMoons:1")
    assert "done" not in ids(state) and not [i for i in ids(state) if i.startswith("ar:")]
    state, _ = play(state, 0, "d:End")
    assert "done" in ids(state) and [i for i in ids(state) if i.startswith("ar:")]
    state, _ = play(state, 0, "done")
    assert state.turn == 1 and [len(t) for t in state.players[0].trains] == [5, 5]


def test_s6_a_suggested_arrangement_is_one_click():
    """S6: a plan arranges every card at once within the limits and ends the turn."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey", "Darkness"], ["Sea"]]])
    state, _ = play(state, 0, "t1:1")
    plans = [a for a in ENGINE.legal_actions(state, 0) if a.id.startswith("ar:")]
    assert 1 <= len(plans) <= 3 and all(a.group == "plan" for a in plans)
    assert all(re.fullmatch(r"ar:[0-9a-f]+", a.id) for a in plans)
    state, events = play(state, 0, plans[0].id)
    assert state.turn == 1 and state.pending is None
    cards = sorted(c for t in trains_of(state) for c in t)
    assert cards == ["Ace of Moons", "Darkness", "Journey", "Sea"]
    assert "arranges their trains" in events[0]


def test_s6_the_only_card_goes_on_a_new_train_by_itself():
    """S6: with no train, the taken card's only place is a new train: the take ends."""
    state, events = play(build(river=RIVER, deck=DECK), 0, "t1:2")
    assert trains_of(state) == [["Mill"]] and state.turn == 1
    assert "by itself" in events[-1]


def test_s7_discard_at_any_point_of_your_turn_does_not_end_it():
    """S7: discarding at the start, while placing, arranging or running keeps the turn."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey", "Betrayal"], ["End"]]])
    state, events = play(state, 0, "d:End")
    assert state.turn == 0 and state.pending is None
    assert trains_of(state) == [["Journey", "Betrayal"]]
    assert names(state.discard)[-1] == "End" and "discards" in events[0]
    state, _ = play(state, 0, "t1:1", "d:Betrayal", "mv:AMoons:1", "d:Journey", "done")
    assert trains_of(state) == [["Ace of Moons"]]
    assert state.turn == 1


def test_s7_discards_offered_before_a_take_two_ends_by_itself():
    """S7: while placing the last card of a take two, discards are offered."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey", "Betrayal"]]])
    state, _ = play(state, 0, "t2:1+2", "p:AMoons:n")
    assert "d:Betrayal" in ids(state) and "d:AMoons" in ids(state)
    state, _ = play(state, 0, "d:Betrayal", "p:Mill:1")
    assert trains_of(state) == [["Journey", "Mill"], ["Ace of Moons"]] and state.turn == 1


def test_s7_only_the_seat_to_act_discards():
    """S7: discards belong to your own turn; another seat sees only resign."""
    state = build(river=RIVER, trains=[[], [["Journey"]]])
    assert ids(state, 1) == ["resign"]
    with pytest.raises(IllegalAction, match="P0's turn"):
        ENGINE.apply(state, 1, "d:Journey")


def test_action_ids_are_short_ascii_with_groups_and_labels():
    """Every id is short ASCII from [A-Za-z0-9_.:+-], has a group and a readable label."""
    state = build(river=RIVER, deck=DECK, trains=[[["Chance Meeting", "Light Keeper"]]])
    states = [state, play(state, 0, "t1:1")[0], play(state, 0, "run:1")[0]]
    for s in states:
        for action in ENGINE.legal_actions(s, 0):
            assert re.fullmatch(rf"[A-Za-z0-9_.:+-]{{1,{MAX_ACTION_ID}}}", action.id)
            assert action.group and action.label
    assert "Take Ace of Moons 🌙 + rearrange (free)" in [
        a.label for a in ENGINE.legal_actions(state, 0)]


@pytest.mark.parametrize("action_id", ["", "t2:1+1", "t9:1", "p:Mill:1", "run:1", "done",
                                       "mv:Mill:2", "ship", "d:Mill", "pass", "nonsense"])
def test_illegal_or_unknown_ids_are_refused_and_change_nothing(action_id):
    """An id that is not legal now raises IllegalAction; the state is unchanged."""
    state = build(river=RIVER, deck=DECK, trains=[[["Journey"]]])
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction, match="not possible now"):
        ENGINE.apply(state, 0, action_id)
    assert ENGINE.dump(state) == before


def test_out_of_range_seat_and_finished_game_are_refused():
    """A seat that does not exist, or any move once the game is over, is refused."""
    state = build(river=RIVER)
    with pytest.raises(IllegalAction, match="no seat 7"):
        ENGINE.apply(state, 7, "t1:1")
    assert ENGINE.legal_actions(state, 7) == []
    over, _ = play(state, 1, "resign")
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(over, 0, "t1:1")


def test_view_has_the_documented_fields_and_is_json():
    """The view carries the documented fields; cards have name, rank, value and suits."""
    state = build(3, river=RIVER, deck=DECK, trains=[[["Journey", "Darkness"]], [["Sea"]]],
                  turn=1)
    state, _ = play(state, 1, "t2:1+2")
    view = ENGINE.view(state)
    json.dumps(view)
    for key in ("half", "deck_count", "river", "discard_count", "sunny_aside", "players",
                "turn", "final_round", "pending", "over", "result"):
        assert key in view
    assert view["turn"] == 1 and view["half"] == 1 and view["deck_count"] == 2
    assert view["pending"]["kind"] == "place"
    assert [c["name"] for c in view["pending"]["cards"]] == ["Ace of Moons", "Mill"]
    player = view["players"][0]
    assert {"name", "score", "trains", "tokens", "resigned"} <= set(player)
    assert player["trains"][0][0] == {
        "name": "Journey", "rank": "3", "value": None, "suits": ["Moons", "Waves"]}
    assert view["river"][0]["cost"] == 0 and view["over"] is False and view["result"] is None


def test_render_text_shows_the_board():
    """The text board shows the half, the river with costs, the players and their trains."""
    state = build(river=RIVER, trains=[[["Journey", "Darkness"]]])
    text = ENGINE.render_text(state)
    assert "first half" in text and "[4] Sailor 🌊🍃 (2)" in text
    assert "> P0: 5 points" in text and "train 1: Journey 🌙🌊, Darkness 🌊🐉" in text
    placing, _ = play(state, 0, "t1:1")
    assert ("P0 is rearranging their trains (place Ace of Moons 🌙 first)."
            in ENGINE.render_text(placing))


def test_render_text_works_at_every_step_of_computer_games():
    """The text board can be drawn at every position of whole games, whatever is pending
    (taking two leaves cards being placed; S5)."""
    pending = set()
    for seed in range(20):
        state = ENGINE.new(seed, 3, {})
        while not ENGINE.is_over(state):
            assert ENGINE.render_text(state)
            if state.pending is not None:
                pending.add(type(state.pending).__name__)
            seat = ENGINE.to_act(state)
            state = ENGINE.apply(state, seat, ENGINE.computer_action(state, seat)).state
        assert ENGINE.render_text(state)
    assert "Placing" in pending


@pytest.mark.parametrize("damage", [
    lambda d: d.update(schema=99),
    lambda d: d["river"].append(d["deck"][0]),
    lambda d: d["deck"].pop(),
    lambda d: d["players"][0].update(score=9),
    lambda d: d["players"][0]["trains"].append(["Nothing"]),
    lambda d: d.update(half=3),
    lambda d: d.update(pending={"kind": "run", "train": 0, "power": "solar", "ship": [],
                                "confirmed": False}),
    lambda d: d.update(pending={"kind": "fly"}),
    lambda d: d.pop("players"),
    lambda d: d.update(turn="0"),
    lambda d: d["players"][0].update(resigned=True),
    lambda d: d.update(final=[1, 1]),
])
def test_load_refuses_bad_data(damage):
    """Loading a damaged save raises BrokenState (schema, cards, points, pending...)."""
    data = ENGINE.dump(build(river=RIVER, trains=[[["Journey", "Darkness"]]]))
    damage(data)
    with pytest.raises(BrokenState):
        ENGINE.load(data)
