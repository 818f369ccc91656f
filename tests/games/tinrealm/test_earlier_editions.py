"""Journeys logged by earlier editions of the rules replay and share as they were played,
and so does a journey under way when the bot was upgraded, its first moves by the
earlier edition: edition 2 (5 December 2026, 12:53 to 15:35 UTC: a sure blow dealt 1 to
any foe, a trap guard was spent on a trap with nothing to take, two cards resolved their
icons in their printed order) and edition 1 (2 to 5 December: the same, and a Buckler
was kept when the helm brought a hit to 0).

The logs were played by the engines of those releases (commits dba4179 and d97ac69)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.games.protocol import GameError
from bot.games.tinrealm import combat, journey
from bot.games.tinrealm.content import EDITION, edition
from bot.games.tinrealm.engine import ENGINE
from bot.table.replay import NoReplay, ReplayRequest, rebuild
from tests.games.tinrealm.helpers import C

#: Journeys as the releases of editions 2 and 1 logged them.
LOGS = json.loads((Path(__file__).parent / "old_logs" / "earlier_editions.json").read_text())
#: A journey played to its end by edition 2: its final state and its logged moves.
ENDED = LOGS["edition_2_ended"]
#: A journey twelve moves in under edition 2, as its row and log were left.
UNDER_WAY = LOGS["edition_2_under_way"]
#: A journey played to its end by edition 1, where a Buckler was kept (seed 42).
BUCKLER_KEPT = LOGS["edition_1_ended"]
#: A journey under way at the upgrade to edition 3: its first moves played by the release
#: of edition 2, the rest by that of edition 3, before braces existed (seed 57).
UPGRADED_BEFORE_BRACES = LOGS["edition_2_then_3_before_braces"]


def _request(state: dict, moves: list) -> ReplayRequest:
    return ReplayRequest(1, "tinrealm", state, 1, {}, tuple(tuple(m) for m in moves), "over")


def test_edition_2_is_todays_cards_by_its_rules() -> None:
    """Edition 2 changes the sure blow against the undead (no bane), the two cards'
    icon order, and nothing else of the cards."""
    first = edition(C, 2)
    assert (C.edition, first.edition) == (EDITION, 2)
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


def test_edition_2_spent_a_trap_guard_on_a_trap_with_nothing_to_take() -> None:
    """An energy trap springs with no energy left and the Grapple Line ready: today it
    finds nothing to take and the line is kept; edition 2 spent the line on it."""
    assert C.exploration["hollow-oak"].trap.kind == "energy"
    for content, spent in ((C, []), (edition(C, 2), ["grapple-line"])):
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


@pytest.mark.parametrize("log", [ENDED, BUCKLER_KEPT], ids=["edition 2", "edition 1"])
def test_a_journey_ended_under_an_earlier_edition_replays_as_it_was_played(log) -> None:
    """Read by today's rules its moves do not lead to how it ended; read by its
    edition's they do, and the replay's last state is the one stored."""
    assert not _ends_as_stored_today(log["state"], log["moves"])
    states = rebuild(_request(log["state"], log["moves"]))
    assert ENGINE.dump(states[-1]) == ENGINE.dump(ENGINE.load(log["state"]))
    assert len(states) == len(log["moves"]) + 1


def test_edition_1_kept_the_buckler_when_the_helm_brought_a_hit_to_0() -> None:
    """The journey of edition 1 reads apart from edition 2 only at a hit the helm
    brought to 0 with a Buckler ready (edition 1 kept the Buckler)."""
    state = ENGINE.new(BUCKLER_KEPT["state"]["rng"][0], 1, {})
    for seat, action in BUCKLER_KEPT["moves"]:
        first = ENGINE.apply_by_edition(1, state, seat, action)
        second = ENGINE.apply_by_edition(2, state, seat, action)
        if ENGINE.dump(first.state) != ENGINE.dump(second.state):
            assert any("Buckler spent" in line for line in second.events), second.events
            assert not any("Buckler" in line for line in first.events), first.events
            return
        state = first.state
    raise AssertionError("the two editions never read the journey apart")


def test_a_journey_under_way_at_the_upgrade_replays_once_ended() -> None:
    """A journey twelve moves into edition 2 is played to its end by today's engine:
    the replay reads its first moves by edition 2 and the rest by today's rules, at the
    move where they part."""
    state, moves = ENGINE.load(UNDER_WAY["state"]), list(UNDER_WAY["moves"])
    while not ENGINE.is_over(state):
        action = ENGINE.computer_action(state, 0)
        state = ENGINE.apply(state, 0, action).state
        moves.append([0, action])
    states = rebuild(_request(ENGINE.dump(state), moves))
    assert ENGINE.dump(states[-1]) == ENGINE.dump(state)
    assert len(states) == len(moves) + 1


def test_a_journey_upgraded_to_edition_3_before_braces_replays() -> None:
    """Its first moves read by edition 2, the rest as edition 3 played before braces
    (R7: a brace now waiting went on by itself), end as stored; the replay finds that
    reading, though neither edition alone nor today's rules after the upgrade do."""
    log = UPGRADED_BEFORE_BRACES
    state = ENGINE.new(ENGINE.load(log["state"]).rng.seed, 1, {})
    for index, (seat, action) in enumerate(log["moves"]):
        state = (ENGINE.apply_by_edition(2, state, seat, action) if index < log["upgrade"]
                 else ENGINE.apply_logged(state, seat, action)).state
    assert ENGINE.dump(ENGINE.settle_logged(state)) == ENGINE.dump(ENGINE.load(log["state"]))
    assert not _ends_as_stored_today(log["state"], log["moves"])
    states = rebuild(_request(log["state"], log["moves"]))
    assert ENGINE.dump(states[-1]) == ENGINE.dump(ENGINE.load(log["state"]))
    assert len(states) == len(log["moves"]) + 1


def test_a_log_that_leads_elsewhere_by_every_reading_is_refused() -> None:
    """A log that does not end as stored, however it is read, is still refused."""
    moves = [list(m) for m in ENDED["moves"][:-1]]
    with pytest.raises(NoReplay):
        rebuild(_request(ENDED["state"], moves))
