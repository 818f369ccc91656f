"""Steam to Solar's player rows: the ``away`` and ``resigned`` tags keep inside the name
column, clear of the green frame of a train that can run, and read whole at any score.

(The row is what the alt text's "Points: … away …, resigned" sentence describes.)
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.boards.render import picture_view
from bot.games.steam.engine import ENGINE as STEAM
from bot.pictures import describe, steam
from bot.pictures.canvas import MARGIN, Canvas, clear_layers
from bot.pictures.endings import ending
from bot.table.seating import COMPUTER_SUFFIX
from tests.pictures.widest import steam_view
from tests.support import loaded

Box = tuple[float, float, float, float]

#: The space kept between a tag and the frame of the row's first train.
CLEAR = 8


def _board(score: Any) -> Canvas:
    """Five seats, every train able to run (so framed); seat 2 away, seat 3 resigned."""
    clear_layers()
    view = steam_view(5)
    for player in view["players"]:
        player["score"] = score
    return steam.board(view, ending("steam", view, "active"))


def _in_row(box: Box, row: Box) -> bool:
    return row[1] <= box[1] and box[3] <= row[3]


@pytest.mark.parametrize("score", [5, 12, 91, 100, 999, "?"])
def test_tags_stand_clear_of_the_first_trains_frame(score: Any) -> None:
    """Whatever the points, each tag ends 8 px or more left of its row's first frame."""
    c = _board(score)
    tags = [box for what, box in c.boxes if what == "tag"]
    frames = [box for what, box in c.boxes if what == "frame" and box[2] - box[0] > 200]
    assert len(tags) == 2 and frames
    for tag in tags:
        first = min((f for f in frames if _in_row(tag, f)), key=lambda f: f[0])
        assert tag[0] >= MARGIN + 10
        assert tag[2] + CLEAR <= first[0], (tag, first)


@pytest.mark.parametrize("score", [5, 12, 91, 100, 999])
def test_both_tags_read_whole(score: int) -> None:
    """Up to three-digit points, neither tag is cut with an ellipsis: beside two Wave
    tokens the away tag reads "💤" (the text board's mark for away) where "away" would
    not fit whole."""
    words = [what for what, _ in _board(score).boxes if what.startswith("text:")]
    assert "text:away" in words or "text:💤" in words
    assert "text:resigned" in words
    assert not any(what.endswith("…") for what in words if "away" in what or "💤" in what)


def test_away_reads_as_a_word_where_it_fits() -> None:
    """Without tokens (the first half) and at two-digit points, the tag says "away"."""
    clear_layers()
    view = steam_view(5)
    for player in view["players"]:
        player["score"], player["tokens"] = 42, 0
    words = [what for what, _ in steam.board(view, ending("steam", view, "active")).boxes]
    assert "text:away" in words and "text:💤" not in words


def test_a_resigned_seat_shows_its_tag_in_place_of_points() -> None:
    """S10: a resigned player scores nothing; the row says "resigned", not their points."""
    c = _board(42)
    tag = next(box for what, box in c.boxes if what == "tag" and box[2] - box[0] > 120)
    beside = [what for what, box in c.boxes
              if what.startswith("text:") and box[1] < tag[3] and tag[1] < box[3]
              and box[0] < MARGIN + steam.LEFT]
    assert beside == ["text:resigned"]
    assert sum(what == "text:42" for what, _ in c.boxes) == 4  # the other four seats


def test_a_computer_players_row_names_it_whole_and_tags_it() -> None:
    """A computer player's row shows its short name whole ("Dynamo", not "Dynamo (c…"),
    the lobby's " (computer)" given to a tag (🤖 where the word does not fit), as the
    alt text says "computer"; a person's row has no such tag."""
    clear_layers()
    view = steam_view(5)
    for player in view["players"]:
        player.pop("away", None)
        player.pop("resigned", None)
    for seat, name in ((1, "Dynamo"), (2, "Brass")):
        view["players"][seat].update(name=name, computer=True)
    c = steam.board(view, ending("steam", view, "active"))
    words = [what.removeprefix("text:") for what, _ in c.boxes if what.startswith("text:")]
    assert "Dynamo" in words and "Brass" in words
    assert sum(what == "tag" for what, _ in c.boxes) == 2  # and none on a person's row
    alt = describe("steam", view, "active")
    assert "Dynamo" in alt and alt.count("computer") >= 2


def test_the_board_gives_computer_players_their_short_name_and_mark() -> None:
    """The table marks its computer seats for the picture: the name without the lobby's
    " (computer)", and a ``computer`` flag; a person's seat is left as it is."""
    game = loaded(STEAM, STEAM.new(1, 3, {"names": ["Alice", "Ada (computer)", "Bob"]}),
                  seats=3)
    game.seats = [replace(s, name=n, computer=n.endswith(COMPUTER_SUFFIX)) for s, n in
                  zip(game.seats, ("Alice", "Ada (computer)", "Bob"), strict=True)]
    players = picture_view(game)["players"]
    assert [(p["name"], bool(p.get("computer"))) for p in players] == [
        ("Alice", False), ("Ada", True), ("Bob", False)]


def test_a_computer_named_like_a_person_keeps_its_whole_name() -> None:
    """A person called Ada sits beside the lobby's "Ada (computer)": the computer keeps its
    whole name in the picture (and so in the banner and the alt text), so that the two
    are told apart; Brass, named like nobody, is shortened."""
    names = ["Ada", "Ada (computer)", "Brass (computer)"]
    game = loaded(STEAM, STEAM.new(1, 3, {"names": names}), seats=3)
    game.seats = [replace(s, name=n, computer=n.endswith(COMPUTER_SUFFIX))
                  for s, n in zip(game.seats, names, strict=True)]
    assert [p["name"] for p in picture_view(game)["players"]] == [
        "Ada", "Ada (computer)", "Brass"]
