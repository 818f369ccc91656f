"""Tin Realm's picture names its map cards whole, on two lines where one would cut them,
names its tableau's cards whole at their size (a long word broken with a hyphen), and its
title line gives the adventurer room before the game's name."""

from __future__ import annotations

from typing import Any

from bot.games.tinrealm.content import load_content
from bot.pictures import tinrealm as tinrealm_picture
from bot.pictures.canvas import MIN_TEXT, Canvas
from bot.pictures.cards import two_lines
from bot.pictures.endings import Ending
from bot.pictures.script import width
from tests.pictures.conftest import play


def _texts(c: Canvas) -> list[str]:
    """Every line of text drawn on ``c``."""
    return [what[5:] for what, _ in c.boxes if what.startswith("text:")]


def _map_texts(c: Canvas) -> list[str]:
    """The text drawn between the title line and the tableau's title: the map's names."""
    texts = [(what[5:], box) for what, box in c.boxes if what.startswith("text:")]
    top = next(box[1] for text, box in texts if text.startswith("day "))
    bottom = next(box[1] for text, box in texts if text.startswith("Today"))
    return [text for text, box in texts if top + 40 < box[1] < bottom - 10]


def _board(seed: int = 0, moves: int = 12, **changes: Any) -> Canvas:
    game, state = play("tinrealm", seed, moves)
    view = {**game.view(state), **changes}
    return tinrealm_picture.board(view, Ending("active"))


def test_every_map_card_of_the_standard_map_is_named_whole() -> None:
    """"Oakinshelm Gate", the journey's end, read "Oakinshel…" under its three nodes; each
    map card's name is now drawn whole, split over two lines where it must be."""
    game, state = play("tinrealm", 0, 12)
    view = game.view(state)
    names = [card["name"] for card in view["map"]]
    assert names == ["Greywater Road", "Thornwood", "Saltmere Flats", "Oakinshelm Gate"]
    drawn = _map_texts(tinrealm_picture.board(view, Ending("active")))
    assert drawn == ["Greywater", "Road", "Thornwood", "Saltmere", "Flats", "Oakinshelm",
                     "Gate"], drawn
    for lines in (["Greywater", "Road"], ["Thornwood"], ["Saltmere", "Flats"],
                  ["Oakinshelm", "Gate"]):
        assert all(line in drawn for line in lines), (lines, drawn)


def test_the_map_band_grows_a_line_only_when_a_name_needs_two() -> None:
    """A map whose names all fit one line keeps the one-line band; the standard map's
    band is one line taller."""
    game, state = play("tinrealm", 0, 12)
    view = game.view(state)
    short = [{**card, "name": card["name"].split()[0][:6]} for card in view["map"]]
    assert tinrealm_picture.board({**view, "map": short}, Ending("active")).bottom \
        == tinrealm_picture.board(view, Ending("active")).bottom - tinrealm_picture.LINE


def test_a_name_too_long_even_for_two_lines_is_cut_not_overlapping() -> None:
    """A custom map card's name longer than two lines is cut with "…", each line inside
    its room."""
    game, state = play("tinrealm", 0, 12)
    view = game.view(state)
    long = [dict(card) for card in view["map"]]
    long[1]["name"] = "The Endless Thornwood of Seven Sorrows and Nine Rivers"
    c = tinrealm_picture.board({**view, "map": long}, Ending("active"))
    drawn = _map_texts(c)
    assert "The Endles…" in drawn and "Seven Sorr…" in drawn
    step = (c.width - 2 * 16 - tinrealm_picture.NODE_ICON) / 11
    assert all(width(t, MIN_TEXT) <= 3 * step - 6 for t in drawn)


def test_the_title_line_names_the_game_and_the_adventurer_where_both_fit() -> None:
    """A short race and class fit beside "Tin Realm"; a long one takes the line alone
    (the alt text and the message name the game); before one is chosen the line is the
    game's name."""
    both = _texts(_board(race="Marshkin", **{"class": "Warden"}))
    assert "Tin Realm" in both and "Marshkin Warden" in both
    alone = _texts(_board(race="Stoneborn", **{"class": "Pathfinder"}))
    assert "Stoneborn Pathfinder" in alone and "Tin Realm" not in alone
    game, state = play("tinrealm", 0, 0)
    before = _texts(tinrealm_picture.board(game.view(state), Ending("active")))
    assert "Tin Realm" in before and "choosing an adventurer" not in before


def test_the_title_never_runs_into_the_day_label() -> None:
    """However long the adventurer's name, the title ends before "day N of 7" begins."""
    c = _board(race="Stoneborn of the Deep Mountain Halls", **{"class": "Pathfinder"})
    boxes = {what[5:]: box for what, box in c.boxes if what.startswith("text:")}
    day = next(box for text, box in boxes.items() if text.startswith("day "))
    title = next(box for text, box in boxes.items() if text.startswith("Stoneborn"))
    assert title[2] + 16 <= day[0]


def test_two_lines_balances_the_split_and_cuts_a_word_too_long() -> None:
    """The split that makes the longer line shortest is chosen; a word wider than the
    room is cut with "…"; a name that fits stays one line."""
    assert two_lines("Old Toll Bridge", 120, 30, bold=True) == ["Old Toll", "Bridge"]
    assert two_lines("Thornwood", 400, 30) == ["Thornwood"]
    [line] = two_lines("Oakinshelmgateway", 100, 30)
    assert line.endswith("…") and width(line, 30) <= 100


def _letters(text: str) -> str:
    """The letters of ``text`` in order: without spaces, hyphens and soft hyphens."""
    return "".join(ch for ch in text if ch not in " -\u00ad")


def _tableau_board(tableau: list[dict[str, Any]]) -> Canvas:
    """A board of a game under way whose tableau is ``tableau`` (no card here or on top)."""
    game, state = play("tinrealm", 7, 30)
    view = {**game.view(state), "tableau": tableau, "top_card": None, "location": None}
    return tinrealm_picture.board(view, Ending("active"))


def _card_texts(c: Canvas) -> list[tuple[str, tuple[float, float, float, float]]]:
    """The names' lines drawn on the tableau's cards, with their boxes."""
    cards = [box for what, box in c.boxes if what == "card"]
    return [(what[5:], box) for what, box in c.boxes if what.startswith("text:")
            and any(card[0] <= box[0] and box[2] <= card[2] and card[1] <= box[1] <= card[3]
                    for card in cards)]


def test_every_exploration_card_is_named_whole_at_the_names_size() -> None:
    """"Gullwater Bank", "Copperleaf Glade" and "Stormcrag Ledge" were drawn at 18 to 20
    px (some 7 px on a phone) to keep their long words whole: every shipped card's name
    is now drawn at NAME (24 px), a word too long for a line broken with a hyphen
    between syllables ("Copper-", "leaf", "Glade"), every letter kept."""
    content = load_content()
    cards = [{"id": card.id, "name": card.name, "icons": list(card.icons),
              "edges": [card.left, card.right]} for card in content.exploration.values()]
    names = {card["name"] for card in cards}
    assert {"Gullwater Bank", "Copperleaf Glade", "Stormcrag Ledge"} <= names
    for at in range(0, len(cards), 5):
        c = _tableau_board(cards[at:at + 5])
        assert min(c.sizes) == tinrealm_picture.NAME  # the cards' lettering, none smaller
        drawn = [text for text, _ in _card_texts(c)]
        assert not [t for t in drawn if "…" in t], drawn
        assert _letters("".join(drawn)) == _letters("".join(
            card["name"] for card in cards[at:at + 5])), drawn
        assert c.covered == []
    assert width("Copperleaf", tinrealm_picture.NAME, True) > tinrealm_picture.NAME_ROOM
    assert tinrealm_picture.name_lines("Copperleaf Glade") == (24, ("Copper-", "leaf", "Glade"))
    assert tinrealm_picture.name_lines("Stormcrag Ledge") == (24, ("Storm-", "crag", "Ledge"))
    for name in names:
        size, lines = tinrealm_picture.name_lines(name)
        assert size == tinrealm_picture.NAME, name
        assert _letters("".join(lines)) == _letters(name), (name, lines)
        assert all(width(line, size, True) <= tinrealm_picture.NAME_ROOM for line in lines)


#: Names a custom content file may give, 30 letters long or near it, in several scripts.
LONG_CUSTOM = ("The Endless Thornwood of Seven", "Стормкрагский Уступ Старого Моста",
               "Ωμέγα Παπαδόπουλος και Φίλοι", "銅葉の森の奥深くにある古い礼拝堂と鐘楼の跡地",
               "ضفة نهر النوارس المنسية القديمة", "पुराने तांबे के पत्तों का जंगल",
               "Supercalifragilisticexpialidocious", "WWWWW MMMMM WWWWW MMMMM WWWWW",
               "Copper\u00adleafish Gladeworth")


def _per_card(c: Canvas) -> list[tuple[list[tuple[float, ...]], list[tuple[float, ...]]]]:
    """Each card's name lines and icons (edge marks aside), as their boxes."""
    found = []
    for what, card in c.boxes:
        if what != "card":
            continue
        inside = [(w, box) for w, box in c.boxes if card[0] <= box[0] and box[2] <= card[2]
                  and card[1] <= box[1] and box[3] <= card[3] + 1]
        found.append(([box for w, box in inside if w.startswith("text:")],
                      [box for w, box in inside if w.startswith("icon:")
                       and not w.startswith("icon:edge:")]))
    return found


def test_long_custom_names_are_drawn_whole_and_clear_of_the_icons() -> None:
    """A custom content file's names of 30 letters, in Latin, Cyrillic, Greek, Japanese,
    Arabic and Devanagari letters, are drawn whole (no "…", every letter), at NAME where
    six lines hold them, each card's icons under its name; the row's cards grow to hold
    the longest."""
    for icons, edges in ((["enemy", "water", "loot"], ["skull", "mountain"]),
                         (["loot", "trap"], ["forest", "none"])):
        for start in range(0, len(LONG_CUSTOM), 4):
            names = LONG_CUSTOM[start:start + 4]
            c = _tableau_board([{"name": name, "icons": icons, "edges": edges}
                                for name in names])
            assert c.covered == []
            assert outside_canvas(c) == []
            texts = _card_texts(c)
            assert not [t for t, _ in texts if "…" in t], texts
            drawn = [t for t, _ in texts]
            for name in names:
                lines = tinrealm_picture.name_lines(name)[1]
                assert _letters("".join(lines)) == _letters(name), (name, lines)
                assert all(line in drawn for line in lines), (name, lines, drawn)
            # the last line a line's height at least above the card's icons, as the
            # second of two is on the usual face
            for lines_drawn, icons_drawn in _per_card(c):
                tops = sorted(box[1] for box in lines_drawn)
                pitch = ((tops[-1] - tops[0]) / (len(tops) - 1) if len(tops) > 1
                         else tinrealm_picture.NAME + 2)
                assert len(icons_drawn) == len(icons)
                assert tops[-1] + pitch <= min(box[1] for box in icons_drawn)
    for name in LONG_CUSTOM:
        if name != "WWWWW MMMMM WWWWW MMMMM WWWWW":
            assert tinrealm_picture.name_lines(name)[0] == tinrealm_picture.NAME, name


def outside_canvas(c: Canvas) -> list[str]:
    """What was drawn past the canvas's edges."""
    return [what for what, box in c.boxes
            if box[0] < 0 or box[1] < 0 or box[2] > c.width or box[3] > c.image.height]


def test_a_name_longer_than_six_lines_takes_a_smaller_size_and_stays_whole() -> None:
    """A name no six lines hold at NAME takes a smaller size, and past the smallest as
    many lines as it needs: still whole."""
    size, lines = tinrealm_picture.name_lines("WWWWW MMMMM WWWWW MMMMM WWWWW")
    assert size < tinrealm_picture.NAME and len(lines) <= tinrealm_picture.NAME_LINES
    huge = "Thornwood " * 20
    size, lines = tinrealm_picture.name_lines(huge)
    assert size == min(tinrealm_picture.NAME_SIZES)
    assert _letters("".join(lines)) == _letters(huge)
    c = _tableau_board([{"name": huge, "icons": ["loot"], "edges": []}])
    assert outside_canvas(c) == [] and c.covered == []


def test_a_third_line_keeps_the_card_height_where_the_icons_fit_beside_the_marks() -> None:
    """Under a name of three lines the icons go beside the edge marks, as large as fits
    between them (Copperleaf Glade's at full size, Stormcrag Ledge's smaller), and the
    cards keep CARD_H; only where they do not fit (three icons between two marks) do they
    go under the name and the row's cards grow."""
    content = load_content()
    shipped = [{"name": card.name, "icons": list(card.icons), "edges": [card.left, card.right]}
               for card in content.exploration.values()]
    c = _tableau_board([card for card in shipped if card["name"] in (
        "Copperleaf Glade", "Stormcrag Ledge", "Mossy Ford")])
    assert {box[3] - box[1] for what, box in c.boxes if what == "card"} == {
        tinrealm_picture.CARD_H}
    sizes = {what: box[2] - box[0] for what, box in c.boxes if what.startswith("icon:")
             and not what.startswith("icon:edge:")}
    assert sizes["icon:campsite"] == tinrealm_picture.ICON  # Copperleaf Glade's
    assert sizes["icon:enemy"] == min(tinrealm_picture.ICONS_BESIDE)  # Stormcrag Ledge's
    crowded = {"name": "Copperleaf Glade", "icons": ["enemy", "water", "loot"],
               "edges": ["skull", "mountain"]}
    c = _tableau_board([shipped[0], crowded])
    heights = {box[3] - box[1] for what, box in c.boxes if what == "card"}
    laid = tinrealm_picture.face(crowded["name"], 3, ("skull", "mountain"))
    assert not laid.beside and heights == {laid.height} and laid.height > tinrealm_picture.CARD_H
