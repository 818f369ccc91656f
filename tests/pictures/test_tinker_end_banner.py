"""The ending banner of a Tinker board says the whole result (T10) under its headline,
within the banner's room at phone width."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.games.protocol import Action
from bot.games.tinker.engine import ENGINE
from bot.pictures import tinker
from bot.pictures.canvas import BANNER_ROOM, MIN_TEXT
from bot.pictures.endings import ending
from bot.pictures.script import width


def _finished(seed: int, pick: Callable[[Any, list[Action]], str]) -> dict[str, Any]:
    """The view of a game of ``seed`` played to its end, each move chosen by ``pick``."""
    state = ENGINE.new(seed)
    while not ENGINE.is_over(state):
        state = ENGINE.apply(state, 0, pick(state, ENGINE.legal_actions(state, 0))).state
    return ENGINE.view(state)


def _computer(state: Any, _actions: list[Action]) -> str:
    return ENGINE.computer_action(state, 0)


def _last(_state: Any, actions: list[Action]) -> str:
    return actions[-1].id


def test_t10_tinker_banner_says_cleared_chips_and_score_within_its_room() -> None:
    """T10: won and lost games read "Locations n/13 · chips left c · score s" whole in
    the banner, drawn under a headline that is not repeated."""
    for seed, pick in ((9, _computer), (2, _computer), (2, _last), (4, _last)):
        view = _finished(seed, pick)
        outcome = view["result"]["outcomes"][0]
        detail = outcome["detail"]
        end = ending("tinker", view, "over")
        assert end.detail == (f"Locations {detail['locations_cleared']}/13 · chips left "
                              f"{detail['chips_left']} · score {outcome['score']}")
        assert end.headline not in end.detail
        assert width(end.detail, MIN_TEXT) <= BANNER_ROOM
        drawn = [what[5:] for what, _ in tinker.board(view, end).boxes
                 if what.startswith("text:")]
        assert end.detail in drawn
