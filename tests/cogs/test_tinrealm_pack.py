"""Tin Realm's text board (pictures off) says what the adventurer carries: the items by
name after who they are, on the same phone line, those left out for room counted ("+1"),
those used up for now marked "(spent)" in words (a pale ▫️ could not be seen on Discord's
light theme)."""

from __future__ import annotations

from bot.text.widths import shown_width
from cogs.tinrealm import BOLD_SLACK, DESCRIPTION_LETTERS, _pack
from tests.cogs.board_messages import board_renderer, played


def test_the_text_board_names_the_items_carried_on_the_adventurers_line() -> None:
    renderer = board_renderer(False).renderers["tinrealm"]
    seen = unready = 0
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
        bare = listed.removesuffix(" (spent)")  # a name cut keeps its mark after the cut
        cut = bare.rsplit(" · ", 1)[-1].rstrip("…").removeprefix("🎒 ")
        assert last in listed or (bare.endswith("…") and last.startswith(cut[:3]))
        for item in items[:len(shown)]:
            if item["name"] in shown[:-1] and not item.get("ready"):
                assert f"{item['name']} (spent)" in listed
        marked = listed.endswith(" (spent)")
        assert marked is not bool(items[len(shown) - 1].get("ready")), (listed, items)
        unready += not items[0].get("ready")
        assert shown_width(line.replace("**", "")) <= DESCRIPTION_LETTERS + BOLD_SLACK
        seen += 1
    assert seen > 20 and unready > 0


def test_the_pack_marks_the_items_used_up_and_counts_those_left_out() -> None:
    """With room, every item by name, those used up for now marked "(spent)"; without, the
    first and how many more ("+2"), its name cut before its mark rather than the mark
    (a used-up item shown as ready). (A board's line has room for about one
    item after who the adventurer is, so the boards above rarely show a second.)"""
    items = [{"name": "Rope", "ready": True}, {"name": "Lantern", "ready": False},
             {"name": "Holy Water", "ready": True}]
    assert _pack({"items": items}, 60) == "🎒 Rope · Lantern (spent) · Holy Water"
    assert _pack({"items": items}, 20) == "🎒 Rope +2"
    assert _pack({"items": items[1:]}, 18) == "🎒 Lant… (spent) +1"  # cut, still marked
    assert shown_width(_pack({"items": items[1:]}, 18)) <= 18
    assert _pack({"items": []}, 60) == ""
