"""Tin Realm's map track keeps its road visible on a long map: on sixteen nodes (a custom
map of four 4-space sides, or the hard preset) the nodes' discs shrink so that the gold
road of the journey so far shows between every two of them; the default map's twelve
nodes keep their full-size discs."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

from bot.games.registry import engine
from bot.pictures import tinrealm
from bot.pictures.canvas import MARGIN, WIDTH
from bot.pictures.endings import ending

GOLD = (170, 140, 80)
"""The road already travelled."""


def _travelled(sides: list[int]) -> dict[str, Any]:
    """The view of a journey on a custom map of ``sides``, played to its end by the
    computer player (its road travelled to the last node)."""
    game = engine("tinrealm")
    state = game.new(5, 1, {"sides": sides, "preset": "custom"})
    while not game.is_over(state):
        state = game.apply(state, 0, game.computer_action(state, 0)).state
    view = dict(game.view(state))
    assert [len(card["nodes"]) for card in view["map"]] == sides
    return view


def _road_between_nodes(view: dict[str, Any]) -> list[int]:
    """Draw the board; return, for every two neighbouring nodes up to the furthest one,
    how many pixels of gold road show on the track's row between their centres."""
    c = tinrealm.board(view, ending("tinrealm", view, "over"))
    image: Image.Image = c.image.convert("RGB")
    row = max(range(image.height),
              key=lambda y: sum(image.getpixel((x, y)) == GOLD for x in range(image.width)))
    nodes = sum(len(card["nodes"]) for card in view["map"])
    step = tinrealm._step(WIDTH, nodes)
    centres = [MARGIN + tinrealm.NODE_ICON / 2 + i * step for i in range(nodes)]
    furthest = min(nodes - 1, int(view["furthest"]))
    return [sum(image.getpixel((x, row)) == GOLD
                for x in range(round(centres[i]), round(centres[i + 1])))
            for i in range(furthest)]


@pytest.mark.parametrize("sides", [[4, 4, 4, 4], [4, 3, 4, 3]], ids=["4444", "4343"])
def test_the_road_shows_between_every_two_nodes_of_a_long_map(sides: list[int]) -> None:
    view = _travelled(sides)
    road = _road_between_nodes(view)
    assert len(road) == sum(sides) - 1  # the whole road travelled
    assert min(road) >= 10, road


def test_the_default_map_keeps_full_size_discs() -> None:
    twelve = tinrealm._step(WIDTH, 12)
    assert tinrealm._disc(twelve) == (tinrealm.NODE_RADIUS, tinrealm.NODE_MARK) == (22, 30)
    radius, mark = tinrealm._disc(tinrealm._step(WIDTH, 16))
    assert tinrealm._step(WIDTH, 16) - 2 * radius >= tinrealm.ROAD
    assert 0 < mark < 30 and mark <= 2 * radius - 8  # the mark stays inside its disc
    road = _road_between_nodes(_travelled([3, 3, 3, 3]))
    assert min(road) >= 10, road
