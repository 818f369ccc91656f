"""Tin Realm's picture names its map cards whole, on two lines where one would cut them,
and its title line gives the adventurer room before the game's name."""

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


def test_every_exploration_card_is_named_whole_on_its_tableau_card() -> None:
    """"Gullwater Bank", "Copperleaf Glade" and "Stormcrag Ledge" read "Gullwa…",
    "Copper…" and "Stormc…" on their tableau cards: a word too long for a card at the
    names' size now takes a smaller size, never below the smallest of NAME_SIZES."""
    content = load_content()
    cards = [{"id": card.id, "name": card.name, "icons": list(card.icons),
              "edges": [card.left, card.right]} for card in content.exploration.values()]
    assert {"Gullwater Bank", "Copperleaf Glade", "Stormcrag Ledge"} <= {
        c["name"] for c in cards}
    game, state = play("tinrealm", 7, 30)
    view = game.view(state)
    for at in range(0, len(cards), 5):
        shown = cards[at:at + 5]
        drawn = _texts(tinrealm_picture.board({**view, "tableau": shown, "top_card": None},
                                              Ending("active")))
        assert not [t for t in drawn if "…" in t and not t.startswith("Pack")], drawn
        for card in shown:
            assert all(word in " ".join(drawn).split() for word in card["name"].split()), \
                (card["name"], drawn)
    room = tinrealm_picture.CARD_W - 8
    assert width("Copperleaf", tinrealm_picture.NAME, True) > room  # too long at 24
    assert min(tinrealm_picture.NAME_SIZES) >= 18
