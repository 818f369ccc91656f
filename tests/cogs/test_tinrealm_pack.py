"""Tin Realm's text board (pictures off) says what the adventurer carries: the items by
name after who they are, on the same phone line, those left out for room counted ("+1"),
those used up for now struck through (~~Lantern~~: a pale ▫️ after the name could not be
seen on Discord's light theme, and words such as "(spent)" left too little room for the
name)."""

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
        (struck,) = [line for line in text.split("\n") if "🎒" in line]
        line = struck.replace("~~", "")
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
        assert last in listed or (listed.endswith("…") and last.startswith(cut[:4]))
        for item in items[:len(shown)]:
            if item["name"] in shown[:-1]:
                assert (f"~~{item['name']}~~" in struck) is not bool(item.get("ready"))
        marked = struck.split(" +")[0].endswith("~~")
        assert marked is not bool(items[len(shown) - 1].get("ready")), (struck, items)
        unready += not items[0].get("ready")
        assert shown_width(line.replace("**", "")) <= DESCRIPTION_LETTERS + BOLD_SLACK
        seen += 1
    assert seen > 20 and unready > 0


def test_the_pack_marks_the_items_used_up_and_counts_those_left_out() -> None:
    """With room, every item by name, those used up for now struck through; without, the
    first and how many more ("+2"), its name cut and still struck. The mark costs no
    room: at the narrowest line a board has (17.5 letters after a Stoneborn Pathfinder)
    a spent first item keeps as many letters as a ready one. (A board's line has room
    for about one item after who the adventurer is, so the boards above rarely show a
    second.)"""
    items = [{"name": "Rope", "ready": True}, {"name": "Lantern", "ready": False},
             {"name": "Holy Water", "ready": True}]
    assert _pack({"items": items}, 60) == "🎒 Rope · ~~Lantern~~ · Holy Water"
    assert _pack({"items": items}, 20) == "🎒 Rope · ~~Lantern~~ +1"
    assert _pack({"items": items}, 17) == "🎒 Rope +2"
    waybread = [{"name": "Waybread Tin", "ready": False}, *items]
    assert _pack({"items": waybread}, 17.5) == "🎒 ~~Waybread…~~ +3"  # cut, still struck
    ready = [{"name": "Waybread Tin", "ready": True}, *items]
    assert _pack({"items": ready}, 17.5) == "🎒 Waybread… +3"
    assert shown_width(_pack({"items": waybread}, 17.5).replace("~~", "")) <= 17.5
    assert _pack({"items": []}, 60) == ""
