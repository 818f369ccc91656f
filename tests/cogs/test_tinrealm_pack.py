"""Tin Realm's text board (pictures off) says what the adventurer carries: the items by
name after who they are, on the same phone line, those left out for room counted ("+1"),
those used up for now marked ▫️."""

from __future__ import annotations

from bot.text.widths import shown_width
from cogs.tinrealm import BOLD_SLACK, DESCRIPTION_LETTERS
from tests.cogs.board_messages import board_renderer, played


def test_the_text_board_names_the_items_carried_on_the_adventurers_line() -> None:
    renderer = board_renderer(False).renderers["tinrealm"]
    seen = 0
    for game in played("tinrealm", 6, seed=3):
        if game.state is None or game.row.status != "active":
            continue
        items = game.view()["items"]
        if not items or not game.view().get("class"):
            continue
        text = renderer.embed(game).description or ""
        (line,) = [line for line in text.split("\n") if "🎒" in line]
        who, pack = line.split(" · 🎒 ", 1)
        assert who.startswith("**") and who.endswith("**")
        names = [i["name"] for i in items]
        head, plus, count = pack.rpartition(" +")
        left = int(count) if plus and count.isdigit() else 0
        listed = head if left else pack
        shown = names[:len(names) - left]
        assert shown  # at least the first item, cut if its name is long
        for name in shown[:-1]:
            assert name in listed
        last = shown[-1]
        cut = listed.rsplit(" · ", 1)[-1].rstrip("…").removeprefix("🎒 ")
        assert last in listed or (listed.endswith("…") and last.startswith(cut[:3]))
        for item in items:
            if item["name"] in shown[:-1] and not item.get("ready"):
                assert f"{item['name']} ▫️" in listed
        assert shown_width(line.replace("**", "")) <= DESCRIPTION_LETTERS + BOLD_SLACK
        seen += 1
    assert seen > 20
