"""Journeys logged by the rules' edition 1 (until 5 December 2026: a sure blow dealt 1
to any foe, a trap guard was spent on a trap with nothing to take, two cards resolved
their icons in their printed order) replay and share as they were played, and so does a
journey under way when the bot was upgraded, its first moves by edition 1.

The two logs were played by the engine of that release (its last commit, dba4179)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.protocol import GameError
from bot.games.tinrealm import combat, journey
from bot.games.tinrealm.content import EDITION, first_edition
from bot.games.tinrealm.engine import ENGINE
from bot.table.replay import NoReplay, ReplayRequest, rebuild
from tests.games.tinrealm.helpers import C

#: Two journeys as edition 1's release logged them.
LOGS = json.loads((Path(__file__).parent / "data" / "first_edition.json").read_text())
#: A journey played to its end by edition 1: its final state and its logged moves.
ENDED = LOGS["ended"]
#: A journey twelve moves in under edition 1, as its row and log were left.
UNDER_WAY = LOGS["under_way"]


def _request(state: dict, moves: list) -> ReplayRequest:
    return ReplayRequest(1, "tinrealm", state, 1, {}, tuple(tuple(m) for m in moves), "over")


def test_edition_1_is_todays_cards_by_the_first_rules() -> None:
    """Edition 1 changes the sure blow against the undead (no bane), the two cards'
    icon order, and nothing else of the cards."""
    first = first_edition(C)
    assert (C.edition, first.edition) == (EDITION, 1)
    assert first.exploration["mossy-ford"].icons == ("water", "loot")
    assert first.exploration["fallow-barrow"].icons == ("encounter", "enemy", "loot")
    changed = [k for k in C.exploration if C.exploration[k] != first.exploration[k]]
    assert sorted(changed) == ["fallow-barrow", "mossy-ford"]
    state = ENGINE.new(3, 1, {})
    state.race = "cinderfolk"
    wisp = C.enemies["lantern-wisp"]
    assert wisp.undead
    assert combat.sure_damage(C, state, wisp) == 2
    assert combat.sure_damage(first, state, wisp) == 1


def test_edition_1_spent_a_trap_guard_on_a_trap_with_nothing_to_take() -> None:
    """An energy trap springs with no energy left and the Grapple Line ready: today it
    finds nothing to take and the line is kept; edition 1 spent the line on it."""
    assert C.exploration["hollow-oak"].trap.kind == "energy"
    for content, spent in ((C, []), (first_edition(C), ["grapple-line"])):
        state = ENGINE.new(3, 1, {})
        state.race, state.energy, state.items = "marshkin", 0, ["grapple-line"]
        state.result_card = "hollow-oak"
        journey._trap(content, state, [])
        assert state.spent_today == spent, content.edition


def _ends_as_stored_today(state: dict, moves: list) -> bool:
    """Whether today's rules alone play ``moves`` to ``state``."""
    played = ENGINE.new(ENGINE.load(state).rng.seed, 1, {})
    try:
        for seat, action in moves:
            played = ENGINE.apply(played, seat, action).state
    except GameError:
        return False
    return ENGINE.dump(played) == ENGINE.dump(ENGINE.load(state))


def test_a_journey_ended_under_edition_1_replays_as_it_was_played() -> None:
    """Read by today's rules its moves do not lead to how it ended; read by edition 1's
    they do, and the replay's last state is the one stored."""
    assert not _ends_as_stored_today(ENDED["state"], ENDED["moves"])
    states = rebuild(_request(ENDED["state"], ENDED["moves"]))
    assert ENGINE.dump(states[-1]) == ENGINE.dump(ENGINE.load(ENDED["state"]))


def test_a_journey_under_way_at_the_upgrade_replays_once_ended() -> None:
    """A journey twelve moves into edition 1 is played to its end by today's engine:
    the replay reads its first moves by edition 1 and the rest by today's rules, at the
    move where they part."""
    state, moves = ENGINE.load(UNDER_WAY["state"]), list(UNDER_WAY["moves"])
    while not ENGINE.is_over(state):
        action = ENGINE.computer_action(state, 0)
        state = ENGINE.apply(state, 0, action).state
        moves.append([0, action])
    states = rebuild(_request(ENGINE.dump(state), moves))
    assert ENGINE.dump(states[-1]) == ENGINE.dump(state)
    assert len(states) == len(moves) + 1


def test_a_log_that_leads_elsewhere_by_every_reading_is_refused() -> None:
    """A log that does not end as stored, however it is read, is still refused."""
    moves = [list(m) for m in ENDED["moves"][:-1]]
    with pytest.raises(NoReplay):
        rebuild(_request(ENDED["state"], moves))
