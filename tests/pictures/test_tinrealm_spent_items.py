"""An item used up for today, this fight or good is marked wherever the items are listed:
struck through on the picture's pack line (as on the text board), "(spent)" in its alt
text and in Rules & details (a pale ▫️ beside the name could not be seen on Discord's
light theme, and the picture did not mark it at all)."""

from __future__ import annotations

from typing import Any

from bot.games.tinrealm.engine import ENGINE
from bot.pictures import tinrealm
from bot.pictures.alt import describe
from bot.pictures.canvas import MARGIN
from bot.pictures.endings import ending
from tests.cogs.board_messages import board_renderer, played


def _view(*items: tuple[str, bool]) -> dict[str, Any]:
    view = dict(ENGINE.view(ENGINE.new(1, 1, {"preset": "easy"})))
    view["items"] = [{"name": name, "ready": ready, "text": "x"} for name, ready in items]
    return view


def _struck(c: Any, name: str) -> bool:
    """Whether the pack's ``name`` has a row of the muted colour right across it."""
    (box,) = [b for what, b in c.boxes if what == f"text:{name}"]
    muted = tuple(c.theme.muted)
    for row in range(box[1], box[3]):
        line = [c.image.getpixel((x, row))[:3] for x in range(box[0] + 2, box[2] - 2)]
        if sum(p == muted for p in line) > 0.95 * len(line):
            return True
    return False


def test_the_picture_strikes_the_spent_items_and_the_alt_says_so() -> None:
    view = _view(("Rope", True), ("Lantern", False))
    c = tinrealm.board(view, ending("tinrealm", view, "active"))
    words = [what for what, _ in c.boxes if what.startswith("text:")]
    assert words[-3:] == ["text:Rope", "text: · ", "text:Lantern"]
    assert _struck(c, "Lantern") and not _struck(c, "Rope")
    assert "Pack: Rope, Lantern (spent)." in describe("tinrealm", view, "active")


def test_a_long_pack_names_whole_items_then_counts_the_rest() -> None:
    """Five items do not fit one line: as many as fit whole, then "+2"; a spent item
    among them is struck, never cut short of its mark."""
    view = _view(("Throwing Axe", False), ("Buckler", True), ("Grapple Line", False),
                 ("Salve Jar", True), ("Waybread Tin", True))
    c = tinrealm.board(view, ending("tinrealm", view, "active"))
    words = [what for what, _ in c.boxes if what.startswith("text:")]
    assert words[-6:] == ["text:Throwing Axe", "text: · ", "text:Buckler", "text: · ",
                          "text:Grapple Line", "text: +2"]
    assert _struck(c, "Throwing Axe") and _struck(c, "Grapple Line")
    assert not _struck(c, "Buckler")
    (pack,) = [b for what, b in c.boxes if what == "text:Pack:"]
    line = [b for what, b in c.boxes if what.startswith("text:") and b[1] == pack[1]]
    assert len(line) == 7 and max(b[2] for b in line) <= c.width - MARGIN


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
