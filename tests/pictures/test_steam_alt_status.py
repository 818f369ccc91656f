"""Steam to Solar's alt text says what the picture's status line shows: the power a train
is being run on ("runs train 1 on solar") and the sunny cards set aside (S2)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.registry import engine
from bot.pictures import describe, steam
from bot.pictures.alt import LIMIT
from bot.pictures.endings import ending
from tests.pictures.widest import _cards, steam_view


def _status_line(view: dict[str, Any]) -> str:
    """The words of the picture's status line (drawn in one text box under the river)."""
    c = steam.board(view, ending("steam", view, "active"))
    lines = [what.removeprefix("text:") for what, _ in c.boxes
             if what.startswith("text:") and ("runs train" in what or "aside" in what)]
    assert len(lines) == 1, lines
    return lines[0]


def _running(power: str | None, sunny: list[str]) -> dict[str, Any]:
    view = steam_view(3)
    view["pending"] = {"kind": "run", "seat": 1, "train": 1, "power": power, "step": "wave"}
    view["sunny_aside"] = _cards(sunny)
    view["final_round"] = False
    return view


def test_a_run_on_a_power_and_the_sunny_cards_are_said_as_drawn() -> None:
    """The picture's "X runs train 1 on solar · 2 sunny cards aside", in the alt text."""
    view = _running("solar", ["Mountain", "Discovery"])
    drawn = _status_line(view)
    # the line is too long whole: the name is cut, never what the player does
    assert drawn.startswith("王小明") and drawn.endswith(
        " runs train 1 on solar · 2 sunny cards aside"), drawn
    text = describe("steam", view, "active")
    assert "王小明 (老师) is running train 1 on solar." in text
    assert "2 sunny cards aside." in text
    assert len(text) <= LIMIT


@pytest.mark.parametrize("power", ["steam", "solar"])
def test_the_power_follows_the_run(power: str) -> None:
    """Steam or solar, the alt names the power the train runs on."""
    text = describe("steam", _running(power, []), "active")
    assert f"is running train 1 on {power}." in text
    assert "sunny" not in text  # none aside: neither the picture nor the alt says so


def test_a_run_before_its_power_is_chosen_names_no_power() -> None:
    """Before the power is chosen, neither the picture nor the alt names one."""
    text = describe("steam", _running(None, []), "active")
    assert "is running train 1." in text


def test_a_real_first_half_says_its_four_sunny_cards() -> None:
    """S2: the four sunny cards wait aside through the first half."""
    game = engine("steam")
    state = game.new(3, 3, {})
    view = game.view(state)
    assert len(view["sunny_aside"]) == 4
    text = describe("steam", view, "active")
    assert "4 sunny cards aside." in text
