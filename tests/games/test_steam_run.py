"""Steam to Solar: running trains (S8) and the Wave tokens (S10)."""

from __future__ import annotations

import pytest

from bot.games.protocol import IllegalAction
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import can_run
from tests.games.test_steam_build import build, ids, names, play

RIVER = ["Ace of Knots", "Painter", "Castle", "Windfall"]


def trains_of(state, seat=0):
    """Return a seat's trains as lists of card names."""
    return [names(t) for t in state.players[seat].trains]


@pytest.mark.parametrize("train", [
    ["Mill", "Market"],          # no Moon
    ["Forest", "Market"],        # no power
    ["Journey", "Ace of Moons"],  # no goods
])
def test_s8_run_needs_moon_power_and_goods(train):
    """S8: a train without a Moon, without power or without goods cannot run."""
    state = build(river=RIVER, trains=[[train]])
    assert not [i for i in ids(state) if i.startswith("run:")]


def test_s8_run_offered_and_steam_chosen_by_itself():
    """S8: a train with a Moon, a Wave and a goods symbol runs; steam is its only power."""
    state = build(river=RIVER, trains=[[["Journey", "Market"]]])
    assert "run:1" in ids(state)
    state, _ = play(state, 0, "run:1")
    assert state.pending.power == "steam"
    assert ids(state) == ["all", "sh:Market", "cancel", "d:Journey", "d:Market", "resign"]


def test_s8_with_both_powers_the_player_chooses():
    """S8: a train with a Wave and a Sun asks which power to use."""
    state = build(river=RIVER, trains=[[["Pact", "Sailor"]]])
    state, _ = play(state, 0, "run:1")
    assert ids(state)[:3] == ["pw:steam", "pw:solar", "cancel"]
    assert ENGINE.view(state)["pending"]["step"] == "power"
    state, _ = play(state, 0, "pw:solar")
    assert state.pending.power == "solar"


def test_s8_ship_toggles_and_needs_at_least_one_card():
    """S8: goods cards are toggled to ship; confirming needs at least one."""
    state = build(river=RIVER, trains=[[["Journey", "Market", "Merchant"]]])
    state, _ = play(state, 0, "run:1")
    assert "ship" not in ids(state)
    state, _ = play(state, 0, "sh:Market", "sh:Merchant")
    assert names(state.pending.ship) == ["Market", "Merchant"]
    assert "ship" in ids(state)
    labels = {a.id: a.label for a in ENGINE.legal_actions(state, 0)}
    assert labels["sh:Market"].startswith("Don't ship")
    assert labels["ship"] == "Ship 2 cards for 4"
    state, _ = play(state, 0, "sh:Market")
    assert names(state.pending.ship) == ["Merchant"]


@pytest.mark.parametrize(("ship", "points"), [
    (["Ace of Wyrms"], 1),
    (["Ace of Wyrms", "Calamity"], 2),
    (["Ace of Wyrms", "Calamity", "Darkness"], 4),
    (["Ace of Wyrms", "Calamity", "Darkness", "Battle"], 7),
])
def test_s8_scoring_per_good_kind(ship, points):
    """S8: n goods of a kind score n plus 1 for each beyond the second (3 give 4, 4 give 6)."""
    train = ["Journey", "Ace of Wyrms", "Calamity", "Darkness", "Battle"]
    state = build(river=RIVER, trains=[[train]])
    steps = ["run:1", *(f"sh:{n.replace('Ace of ', 'A')}" for n in ship), "ship"]
    if "Darkness" not in ship:
        steps.append("wv:Journey")
    state, events = play(state, 0, *steps)
    assert state.players[0].score == 5 + points and state.players[0].scored == points
    assert f"scores {points}." in events[0]


def test_s8_shipped_cards_are_discarded_and_a_shipped_wave_covers_steam():
    """S8: shipped cards go to the discard; a shipped Wave card is the steam card."""
    state = build(river=RIVER, trains=[[["Journey", "Mill", "Ace of Waves", "Forest"]]])
    state, _ = play(state, 0, "run:1", "sh:Mill", "ship")
    assert trains_of(state) == [["Journey", "Ace of Waves", "Forest"]]
    assert names(state.discard)[-1:] == ["Mill"] and state.turn == 1


def test_s8_steam_with_one_wave_card_burns_it():
    """S8 (the text's example): a lone Wave card is discarded for steam even if not shipped."""
    state = build(river=RIVER, trains=[[["Ace of Moons", "Origin", "Ace of Leaves"]]])
    state, events = play(state, 0, "run:1", "sh:ALeaves", "ship")
    assert trains_of(state) == [["Ace of Moons"]]
    assert names(state.discard)[-2:] == ["Ace of Leaves", "Origin"]
    assert state.players[0].score == 6 and "Origin 🌊🍃 is burnt for steam." in events


def test_s8_steam_with_several_wave_cards_the_player_picks():
    """S8: with several Wave cards and none shipped, the player picks the one to burn."""
    state = build(river=RIVER, trains=[[["Journey", "Ace of Waves", "Ace of Leaves"]]])
    state, _ = play(state, 0, "run:1", "sh:ALeaves", "ship")
    assert ids(state)[:3] == ["wv:Journey", "wv:AWaves", "cancel"]
    assert ENGINE.view(state)["pending"]["step"] == "wave"
    state, _ = play(state, 0, "wv:AWaves")
    assert trains_of(state) == [["Journey"]]
    assert state.players[0].score == 6


def test_s8_solar_keeps_the_sun_card_unless_shipped():
    """S8 (the text's example): solar discards a Sun/Wyrm card only if it is shipped."""
    train = ["Ace of Moons", "Desert", "Ace of Wyrms"]
    kept, _ = play(build(river=RIVER, trains=[[train]]), 0, "run:1", "sh:AWyrms", "ship")
    assert trains_of(kept) == [["Ace of Moons", "Desert"]]
    assert can_run(kept.players[0].trains[0])
    shipped, _ = play(build(river=RIVER, trains=[[train]]), 0, "run:1", "sh:Desert", "ship")
    assert trains_of(shipped) == [["Ace of Moons", "Ace of Wyrms"]]


def test_s8_shipping_every_card_removes_the_train():
    """S8: a train whose cards are all discarded is gone; train 2 becomes train 1."""
    state = build(river=RIVER, trains=[[["Watchman", "Light Keeper"], ["Ace of Moons"]]])
    state, _ = play(state, 0, "run:1", "pw:steam", "sh:Watchman", "sh:LightKeeper", "ship")
    assert trains_of(state) == [["Ace of Moons"]]
    assert state.players[0].score == 5 + 3


def test_s8_cancel_leaves_everything_as_it_was():
    """A run may be cancelled before it resolves; nothing has changed."""
    state = build(river=RIVER, trains=[[["Journey", "Ace of Waves", "Ace of Leaves"]]])
    ran, _ = play(state, 0, "run:1", "sh:ALeaves", "ship", "cancel")
    assert ENGINE.dump(ran) == ENGINE.dump(state)


def test_s7_discard_during_a_run_keeps_the_run():
    """S7: a discard in the middle of a run keeps the run when the train still can run."""
    state = build(river=RIVER, trains=[[["End"], ["Journey", "Market", "Forest"]]])
    state, _ = play(state, 0, "run:2", "sh:Forest", "d:End")
    assert state.pending.train == 0 and names(state.pending.ship) == ["Forest"]
    state, _ = play(state, 0, "d:Forest")
    assert state.pending.ship == [] and "ship" not in ids(state)
    state, _ = play(state, 0, "all")
    assert trains_of(state) == [] and state.players[0].score == 7 and state.turn == 1


def test_s7_discard_that_stops_the_train_calls_the_run_off():
    """S7: discarding the train's only Moon calls the run off; the turn goes on."""
    state = build(river=RIVER, trains=[[["Journey", "Market"]]])
    state, events = play(state, 0, "run:1", "d:Journey")
    assert state.pending is None and state.turn == 0
    assert "the run is called off" in events[-1]
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "ship")


def test_ship_all_goods_is_one_click():
    """S8: "all" ships every goods card at once, and says what it burns and loses."""
    state = build(river=RIVER, trains=[[["Ace of Moons", "Sailor", "Forest", "Market"]]])
    state, _ = play(state, 0, "run:1", "sh:Forest")
    action = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "ship")
    assert action.description == (
        "Ships Forest for 1; burns Sailor 🌊🍃, losing its 🍃; no power left.")
    everything = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "all")
    assert everything.primary and everything.label == "Ship all 3 goods cards for 5"
    state, _ = play(state, 0, "all")
    assert trains_of(state) == [["Ace of Moons"]] and state.players[0].score == 10


def steam_state(two=None, one=None, half=2, seats=3, seat=0):
    """A second-half state where ``seat`` can run Journey + Market on steam."""
    trains = [[] for _ in range(seats)]
    trains[seat] = [["Journey", "Market"]]
    return build(seats, river=RIVER, trains=trains, half=half, turn=seat,
                 two_stack=two, one_stack=one)


def run_steam(state):
    """Run train 1 on steam shipping Market, for the seat to act."""
    return play(state, state.turn, "run:1", "sh:Market", "ship")


def test_s10_first_steam_run_takes_the_stack_of_two():
    """S10: the first steam runner of the second half takes the stack of two."""
    state, events = run_steam(steam_state())
    assert (state.two_stack, state.one_stack) == (0, None)
    assert state.tokens(0) == 2 and "P0 takes the Wave token stack of two." in events


def test_s10_previous_holder_takes_the_stack_of_one():
    """S10: taking the stack of two gives its holder the stack of one, from whoever had it."""
    state, _ = run_steam(steam_state(two=1, one=2))
    assert (state.two_stack, state.one_stack) == (0, 1)
    assert [state.tokens(s) for s in range(3)] == [2, 1, 0]


def test_s10_holder_of_one_taking_two_passes_one_to_the_old_holder():
    """S10: the holder of the stack of one who takes the two hands the one on."""
    state, _ = run_steam(steam_state(two=2, one=0))
    assert (state.two_stack, state.one_stack) == (0, 2)


def test_s10_holder_of_two_keeps_it():
    """S10: running steam while holding the stack of two changes nothing."""
    state, _ = run_steam(steam_state(two=0, one=1))
    assert (state.two_stack, state.one_stack) == (0, 1)


def test_s10_no_tokens_in_the_first_half_or_for_solar():
    """S10: tokens are for steam runs in the second half only."""
    first, _ = run_steam(steam_state(half=1))
    assert (first.two_stack, first.one_stack) == (None, None)
    solar = build(3, river=RIVER, trains=[[["Diplomat", "Market"]]], half=2)
    solar, _ = play(solar, 0, "run:1", "sh:Market", "ship")
    assert (solar.two_stack, solar.one_stack) == (None, None)


def test_s10_a_resigned_player_keeps_the_stack_until_someone_takes_it():
    """S10: resigning keeps the stack of two; a steam run takes it, they get the one."""
    state = steam_state(two=1, one=2)
    state, _ = play(state, 1, "resign")
    assert (state.two_stack, state.one_stack) == (1, 2) and state.tokens(1) == 2
    state, events = run_steam(state)
    assert (state.two_stack, state.one_stack) == (0, 1)
    assert "P1 takes the Wave token stack of one." in events


def test_s10_a_resigned_player_receives_the_single_stack_as_anyone_would():
    """S10: the holder of the one who runs steam hands the one to the resigned holder."""
    state = steam_state(two=2, one=0)
    state, _ = play(state, 2, "resign")
    state, _ = run_steam(state)
    assert (state.two_stack, state.one_stack) == (0, 2)
    assert state.two_stack != state.one_stack


def test_s10_a_resigned_player_scores_nothing_and_comes_last():
    """S10, S12: tokens held by a resigned player count for nobody; they place last."""
    state = build(3, river=[], deck=[], half=2, final=[0], scores=[6, 4, 9],
                  two_stack=2, one_stack=1)
    state, _ = play(state, 2, "resign")
    state, _ = play(state, 0, "pass")
    result = ENGINE.result(state)
    assert [o.score for o in result.outcomes] == [6, 6, 0]
    assert result.outcomes[2].detail == {
        "points": 9, "tokens": 2, "goods_left": 0, "resigned": True}
    places = ENGINE.view(state)["result"]["places"]
    assert [(p["ordinal"], p["name"]) for p in places] == [
        ("1st", "P0"), ("1st", "P1"), ("3rd", "P2")]
    assert places[1]["breakdown"] == "4 points + 2 for 1 Wave token = 6; 0 goods left"
    assert places[2]["breakdown"].startswith("resigned: scores nothing")


def test_s8_run_in_one_go_says_its_points_and_equals_the_steps():
    """S8: "Run train 1 on steam · ship all · 4 pts" runs, ships every goods card, burns
    the lone Wave card and scores what the steps score, in one action."""
    state = build(river=RIVER, trains=[[["Journey", "Market", "Merchant"]]])
    actions = {a.id: a for a in ENGINE.legal_actions(state, 0)}
    assert actions["go:1:steam"].label == "Run train 1 on steam · ship all · 4 pts"
    assert "Journey" in actions["go:1:steam"].description
    whole, whole_events = play(state, 0, "go:1:steam")
    steps, step_events = play(state, 0, "run:1", "all")
    assert ENGINE.dump(whole) == ENGINE.dump(steps)
    assert whole_events == step_events
    assert whole.players[0].score == 9 and whole.turn == 1


def test_s8_run_in_one_go_for_each_power():
    """S8: a train with a Wave and a Sun offers a one-go run on each; solar burns nothing."""
    state = build(river=RIVER, trains=[[["Pact", "Sailor"]]])
    runs = [i for i in ids(state) if i.startswith("go:")]
    assert runs == ["go:1:steam", "go:1:solar"]
    whole, _ = play(state, 0, "go:1:solar")
    steps, _ = play(state, 0, "run:1", "pw:solar", "all")
    assert ENGINE.dump(whole) == ENGINE.dump(steps)


def test_s8_run_in_one_go_names_the_wave_card_to_burn():
    """S8, S10: with two Wave cards left after shipping, there is one one-go run per Wave
    card; each burns the card it names and, in the second half, takes the stack of two."""
    state = build(river=RIVER, trains=[[["Journey", "Ace of Waves", "Market"]]], half=2)
    runs = {a.id: a for a in ENGINE.legal_actions(state, 0) if a.id.startswith("go:")}
    assert set(runs) == {"go:1:steam:Journey", "go:1:steam:AWaves"}
    assert "Ace of Waves" in runs["go:1:steam:AWaves"].label
    assert "stack of two" in runs["go:1:steam:AWaves"].description
    whole, _ = play(state, 0, "go:1:steam:AWaves")
    steps, _ = play(state, 0, "run:1", "all", "wv:AWaves")
    assert ENGINE.dump(whole) == ENGINE.dump(steps)
    assert trains_of(whole) == [["Journey"]] and whole.two_stack == 0


def test_s8_run_in_one_go_refused_when_not_offered():
    """S8: a one-go run of a train that cannot run, or with a power it lacks, is refused."""
    state = build(river=RIVER, trains=[[["Journey", "Market"]]])
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "go:1:solar")
    with pytest.raises(IllegalAction):
        ENGINE.apply(state, 0, "go:2:steam")


@pytest.mark.parametrize(("two", "half", "takes"), [
    (None, 2, True), (1, 2, True), (0, 2, False), (None, 1, False)])
def test_s10_the_power_choice_promises_the_stack_of_two_only_to_who_takes_it(
        two, half, takes):
    """S10: choosing steam power says the stack of two is taken only in the second half
    and not to the player who holds it already."""
    state = build(3, river=RIVER, trains=[[["Mountain", "Sailor"]], [], []], half=half,
                  turn=0, two_stack=two, one_stack=None if two is None else 2)
    state, _ = play(state, 0, "run:1")
    steam = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "pw:steam")
    said = "Steam burns one Wave card; you take the Wave token stack of two."
    assert steam.description == (said if takes else "Steam burns one Wave card.")
