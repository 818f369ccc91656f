"""Steam to Solar: half time (S9), the end (S11-S13) and resigning."""

from __future__ import annotations

import pytest

from bot.games.protocol import IllegalAction
from bot.games.steam.engine import ENGINE
from tests.games.test_steam_build import build, ids, names, play

RIVER = ["Ace of Moons", "Mill", "Savage", "Sailor"]


def test_s9_half_time_when_the_river_cannot_be_refilled():
    """S9: the river stays; sunny cards + discard become the deck; the river is refilled."""
    state = build(3, river=RIVER, deck=["Forest"], discard=["Cave", "Market"], turn=1)
    state, events = play(state, 1, "t2:1+2")
    assert state.half == 2 and state.sunny == [] and state.discard == []
    assert names(state.river)[:3] == ["Savage", "Sailor", "Forest"] and len(state.river) == 4
    drawable = set(names(state.deck + state.river[3:]))
    assert drawable >= {"Ace of Suns", "Bard", "Harvest", "Light Keeper"}
    assert len(state.deck) + len(state.river) + 1 == 40 - sum(
        len(p.train_cards()) for p in state.players)
    assert state.final is None
    assert "P2 starts the second half" in events[-2] and "(the only place for it)" in events[-1]
    state, _ = play(state, 1, "p:Mill:1")
    assert state.turn == 2


def test_s9_half_time_shuffle_follows_the_seed():
    """S9: the second-half deck is shuffled from the game's seed (same seed, same deck)."""
    decks = [
        names(play(build(river=RIVER, deck=[], seed=seed), 0, "t1:1")[0].deck)
        for seed in (5, 5, 6)
    ]
    assert decks[0] == decks[1] != decks[2]


def final_round_state():
    """Three seats, second half, empty deck: the next take triggers the end."""
    return build(3, river=RIVER, deck=[], half=2, turn=1)


def test_s11_take_that_cannot_be_refilled_triggers_the_final_round():
    """S11: in the second half, a take the river cannot refill starts the final round."""
    state, events = play(final_round_state(), 1, "t2:1+2")
    assert state.final == [2, 0, 1]
    assert ENGINE.view(state)["final_round"] is True
    assert any("final round" in e for e in events)


def test_s11_each_player_one_more_turn_ending_with_the_trigger():
    """S11: after the trigger, the next player, then the others, then the trigger play once."""
    state, _ = play(final_round_state(), 1, "t2:1+2", "p:Mill:1")
    assert state.turn == 2
    state, _ = play(state, 2, "t1:1")
    assert (state.turn, state.final) == (0, [0, 1])
    state, _ = play(state, 0, "t2:1")
    assert (state.turn, state.final) == (1, [1]) and not state.river
    state, _ = play(state, 1, "run:1", "sh:Mill", "ship")
    assert state.over and ENGINE.to_act(state) is None
    assert ENGINE.legal_actions(state, 0) == []


def test_s11_only_one_trigger():
    """S11: takes during the final round do not restart it."""
    state, _ = play(final_round_state(), 1, "t2:1+2", "p:Mill:1")
    state, _ = play(state, 2, "t2:1+2", "p:Sailor:1")
    assert state.final == [0, 1]


def finished(scores, trains=(), two=None, one=None):
    """A two-seat game on its very last turn (seat 0, nothing to do), then passed."""
    state = build(2, river=[], deck=[], half=2, final=[0], scores=scores, trains=trains,
                  two_stack=two, one_stack=one)
    return play(state, 0, "pass")[0]


def test_s12_final_score_adds_two_per_wave_token():
    """S12: final score = points + 2 per Wave token; the higher total wins."""
    state = finished([10, 8], two=1)
    result = ENGINE.result(state)
    assert [(o.outcome, o.score) for o in result.outcomes] == [("loss", 10), ("win", 12)]
    assert result.outcomes[1].detail == {
        "points": 8, "tokens": 2, "goods_left": 0, "resigned": False}
    assert result.summary == "P1 wins with 12."


def test_s12_tie_broken_by_goods_left_on_trains():
    """S12: tied scores: most goods symbols still on the trains wins."""
    state = finished([10, 10], trains=[[["Market"]], [["End"]]])
    assert [o.outcome for o in ENGINE.result(state).outcomes] == ["win", "loss"]


def test_s12_summary_says_goods_left_broke_the_tie():
    """S12: a tie on the score broken by goods left says so, with the goods left: the
    winner's, then the most of those who had the score and lost."""
    state = finished([10, 10], trains=[[["Market"]], [["End"]]])
    result = ENGINE.result(state)
    assert result.summary == "P0 wins with 10, on goods left (2 to 1)."
    assert ENGINE.view(state)["result"]["summary"] == result.summary
    beaten = build(3, river=[], deck=[], half=2, final=[0], scores=[9, 9, 9],
                   trains=[[["Market"]], [["Merchant"]], [["Mill"]]])
    shared = ENGINE.result(play(beaten, 0, "pass")[0])
    assert [o.outcome for o in shared.outcomes] == ["win", "win", "loss"]
    assert shared.summary == "P0 and P1 share the win with 9, on goods left (2 to 1)."
    untied = ENGINE.result(finished([10, 8], trains=[[["Market"]], [["End"]]]))
    assert untied.summary == "P0 wins with 10."


def test_s12_full_tie_shares_the_win():
    """S12: same score and same goods left: the win is shared."""
    state = finished([9, 7], one=1)
    result = ENGINE.result(state)
    assert [o.outcome for o in result.outcomes] == ["win", "win"]
    assert result.summary == "P0 and P1 share the win with 9."
    assert ENGINE.view(state)["result"]["summary"] == result.summary


def test_result_is_none_while_playing():
    """There is no result before the game is over."""
    assert ENGINE.result(build(river=RIVER)) is None


def test_s13_pass_only_with_no_legal_move():
    """S13: pass is offered only with an empty river and no runnable train."""
    stuck = build(river=[], deck=[], half=2, final=[0, 1], trains=[[["Market"]]])
    assert ids(stuck) == ["pass", "d:Market", "resign"]
    runnable = build(river=[], deck=[], half=2, final=[0, 1], trains=[[["Journey", "Market"]]])
    assert "pass" not in ids(runnable) and "run:1" in ids(runnable)
    assert "pass" not in ids(build(river=["Mill"], deck=[], half=2, final=[0, 1]))
    passed, events = play(stuck, 0, "pass")
    assert passed.turn == 1 and events == ["P0 has no move and passes."]


def test_resign_out_of_turn_discards_trains_and_skips_the_seat():
    """A seat may resign out of turn: trains discarded, tokens returned, skipped later."""
    state = build(3, river=RIVER, trains=[[], [["Journey", "Cave"]]], half=2, two_stack=1)
    assert ids(state, 1) == ["resign"]
    state, events = play(state, 1, "resign")
    assert events == ["P1 resigns."]
    assert state.players[1].resigned and state.players[1].trains == []
    assert state.two_stack == 1 and names(state.discard)[-2:] == ["Journey", "Cave"]
    assert state.turn == 0 and ENGINE.legal_actions(state, 1) == []
    with pytest.raises(IllegalAction, match="resigned"):
        ENGINE.apply(state, 1, "resign")
    state, _ = play(state, 0, "t1:1")
    assert state.turn == 2


def test_resign_while_placing_discards_the_taken_cards():
    """The seat to act may resign mid-action; cards in hand go to the discard pile."""
    state = build(3, river=RIVER, trains=[[["Sea"]]])
    state, _ = play(state, 0, "t2:1+2", "resign")
    assert names(state.discard)[-3:] == ["Ace of Moons", "Mill", "Sea"]
    assert state.pending is None and state.turn == 1


def test_resign_leaving_one_player_ends_the_game():
    """With fewer than two players left the game ends; the resigned player loses."""
    state, events = play(build(2, river=RIVER, scores=[1, 20]), 1, "resign")
    assert state.over
    result = ENGINE.result(state)
    assert [o.outcome for o in result.outcomes] == ["win", "loss"]
    assert result.summary == "P0 wins: everyone else resigned."
    assert result.outcomes[1].detail["resigned"] is True
    assert events[-1] == "Game over. P0 wins: everyone else resigned."


def test_game_ended_by_another_resignation_mid_take_discards_the_cards_in_hand():
    """If the last opponent resigns while you hold taken cards, those cards are discarded."""
    state, _ = play(build(2, river=RIVER, trains=[[["Sea"]]]), 0, "t2:1+2")
    state, _ = play(state, 1, "resign")
    assert state.over and state.pending is None
    assert names(state.discard)[-2:] == ["Ace of Moons", "Mill"]


def test_resign_in_the_final_round_removes_the_last_turn():
    """A player resigning in the final round gives up their last turn; the round goes on."""
    state, _ = play(final_round_state(), 1, "t2:1+2", "p:Mill:1")
    state, _ = play(state, 0, "resign")
    assert state.final == [2, 1] and state.turn == 2
    state, _ = play(state, 2, "resign")
    assert state.over


def test_s10_the_game_ends_once_every_person_has_resigned() -> None:
    """With option ``people``, the game ends when the last person resigns, the computer
    players ranked by their points as they stand; the people rank last, as S10 has a
    resigned player score nothing. Without it every seat counts as a person."""
    from bot.games.steam.engine import ENGINE

    state = ENGINE.new(3, 4, {"people": [0, 2], "start_seat": 0})
    state = ENGINE.apply(state, 0, "resign").state
    assert not ENGINE.is_over(state)
    step = ENGINE.apply(state, 2, "resign")
    assert ENGINE.is_over(step.state)
    assert any("Every person at the table has resigned" in e for e in step.events)
    result = ENGINE.result(step.state)
    assert result is not None
    outcomes = {o.seat: o.outcome for o in result.outcomes}
    assert outcomes[0] == outcomes[2] == "loss"
    dumped = ENGINE.dump(step.state)
    assert [p.get("person", True) for p in dumped["players"]] == [True, False, True, False]
    again = ENGINE.load(dumped)
    assert [p.person for p in again.players] == [True, False, True, False]
    everyone = ENGINE.apply(ENGINE.new(3, 4, {"start_seat": 0}), 0, "resign").state
    assert not ENGINE.is_over(ENGINE.apply(everyone, 2, "resign").state)


def test_s9_the_rules_page_says_the_second_half_deck_as_the_engine_makes_it():
    """S9: the sunny cards and the discard pile make the second half's deck; the rules
    page players read says both, not the sunny cards alone."""
    from cogs.steam import RULES

    halves = dict(RULES)["Two halves"]
    assert "sunny cards and the discard pile are shuffled into the new deck" in halves


def test_s6_an_arrangement_left_unfinished_by_the_end_keeps_only_what_fits():
    """S6 counts only a finished arrangement: a game ended by another seat's resignation
    while a six-card train is being arranged discards the cards past the fifth, so the
    final trains (and their goods left, S12's tie-break) keep the limits."""
    state = build(2, river=RIVER, trains=[[["Sea", "Forest", "Desert", "Mountain", "Market"]]])
    state, _ = play(state, 0, "t1:1", "mv:AMoons:1")
    assert [len(t) for t in state.players[0].trains] == [6]
    state, events = play(state, 1, "resign")
    assert state.over and [len(t) for t in state.players[0].trains] == [5]
    assert names(state.discard)[-1:] == ["Ace of Moons"]
    assert "P0 discards Ace of Moons 🌙: the trains did not fit at the end." in events
    assert ENGINE.dump(ENGINE.load(ENGINE.dump(state))) == ENGINE.dump(state)
