"""Steam to Solar's player rows: the ``away`` and ``resigned`` tags keep inside the name
column, clear of the green frame of a train that can run, and read whole at any score.

(The row is what the alt text's "Points: … away …, resigned" sentence describes.)
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.pictures import steam
from bot.pictures.canvas import MARGIN, Canvas, clear_layers
from bot.pictures.endings import ending
from tests.pictures.widest import steam_view

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
