"""An item used up for today, this fight or good is said "(spent)" in words wherever the
items are listed: the picture's pack line, its alt text, the text board and Rules &
details (a pale ▫️ beside the name could not be seen on Discord's light theme, and the
picture did not mark it at all)."""

from __future__ import annotations

from typing import Any

from bot.games.tinrealm.engine import ENGINE
from bot.pictures import tinrealm
from bot.pictures.alt import describe
from bot.pictures.endings import ending
from tests.cogs.board_messages import board_renderer, played


def _view() -> dict[str, Any]:
    view = dict(ENGINE.view(ENGINE.new(1, 1, {"preset": "easy"})))
    view["items"] = [{"name": "Rope", "ready": True, "text": "x"},
                     {"name": "Lantern", "ready": False, "text": "y"}]
    return view


def test_the_picture_and_its_alt_say_which_items_are_spent() -> None:
    view = _view()
    c = tinrealm.board(view, ending("tinrealm", view, "active"))
    lines = [what for what, _ in c.boxes if what.startswith("text:Pack:")]
    assert lines == ["text:Pack: Rope, Lantern (spent)"]
    assert "Pack: Rope, Lantern (spent)." in describe("tinrealm", view, "active")


def test_rules_and_details_say_spent_in_words() -> None:
    renderer = board_renderer(False).renderers["tinrealm"]
    seen = 0
    for game in played("tinrealm", 12, seed=5):
        if game.state is None or not any(not i["ready"] for i in game.view()["items"]):
            continue
        (section,) = renderer.card_sections(game)
        items = dict(section.fields)["Items"]
        for item in game.view()["items"]:
            mark = f"✅ **{item['name']}**:" if item["ready"] \
                else f"**{item['name']}** (spent):"
            assert mark in items, items
        assert "▫" not in items + renderer.legend(game)
        seen += 1
    assert seen
