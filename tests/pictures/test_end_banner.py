"""The ending banner of a Steam to Solar board says who won, with how much, and every
score, whatever the length of the players' names."""

from __future__ import annotations

from typing import Any

import pytest

from bot.pictures import steam
from bot.pictures.alt import describe
from bot.pictures.canvas import BANNER_ROOM, HEADLINE, MIN_TEXT
from bot.pictures.endings import ending
from bot.pictures.script import width
from tests.cogs.test_board_heights import LONG_NAMES


def _over(names: tuple[str, ...]) -> dict[str, Any]:
    """The view of a finished game: the first seat wins with 14, the others follow."""
    scores = [14, 9, 3, 1, 0][:len(names)]
    return {"over": True,
            "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
            "result": {"outcomes": [{"seat": seat, "score": score,
                                     "outcome": "win" if seat == 0 else "loss"}
                                    for seat, score in enumerate(scores)],
                       "places": [{"seat": seat, "total": score, "goods_left": 0}
                                  for seat, score in enumerate(scores)]}}


def test_long_names_leave_the_banner_its_score_and_every_score() -> None:
    """Five players with 32-letter names (Japanese, capitals, emoji) finish: the banner
    still reads "… wins with 14", and the lines below it each player's score in place
    order, on two lines (three places, then two), the names shortened with "…" to make
    room."""
    names = (LONG_NAMES[2], LONG_NAMES[4], LONG_NAMES[0], LONG_NAMES[1], LONG_NAMES[3])
    view = _over(names)
    end = ending("steam", view, "over")
    assert end.headline.endswith(" wins with 14") and "…" in end.headline
    assert end.headline.startswith(names[0][:4])
    assert width(end.headline, HEADLINE, True) <= BANNER_ROOM
    lines = end.detail.split("\n")
    assert len(lines) == 2 and all(width(line, MIN_TEXT) <= BANNER_ROOM for line in lines)
    assert [[part.rsplit(" ", 1)[1] for part in line.split(" · ")] for line in lines] == [
        ["14", "9", "3"], ["1", "0"]]
    c = steam.board(view, end)
    drawn = [what[5:] for what, _ in c.boxes if what.startswith("text:")]
    assert end.headline in drawn and all(line in drawn for line in lines)


def test_names_that_start_alike_are_told_apart_on_two_lines() -> None:
    """Five players whose names all start "Sam": on one line every name would be cut to
    "Sa…"; on two lines each is whole or keeps enough to be told apart, and the alt text
    (the whole detail) names them all whole."""
    names = ("Sam (mod)", "Samantha", "Sam_the_Great", "Samuel", "Sammy")
    end = ending("steam", _over(names), "over")
    lines = end.detail.split("\n")
    assert len(lines) == 2, end.detail
    shown = [part.rsplit(" ", 1)[0] for line in lines for part in line.split(" · ")]
    assert len(set(shown)) == 5 and all(len(name.rstrip("…")) >= 5 for name in shown), shown
    assert sum(name in shown for name in names) >= 4, shown
    assert end.whole_detail == " · ".join(
        f"{name} {score}" for name, score in zip(names, (14, 9, 3, 1, 0), strict=True))


def test_three_short_names_keep_one_line() -> None:
    """A detail line that fits whole stays one line."""
    end = ending("steam", _over(("Alice", "Bob", "Carol")), "over")
    assert "\n" not in end.detail


def test_short_names_stay_whole() -> None:
    """Players with everyday names read them whole in the banner."""
    end = ending("steam", _over(("Alice", "Bob", "Carol")), "over")
    assert (end.headline, end.detail) == ("Alice wins with 14", "Alice 14 · Bob 9 · Carol 3")


def test_the_spoken_ending_measures_nothing(monkeypatch) -> None:
    """The alt text of an ended board (worked out on the event loop with the board) says
    the ending with every name whole and loads or measures no font: a Japanese or emoji
    name would otherwise load font after font there."""
    names = (LONG_NAMES[2], LONG_NAMES[4], LONG_NAMES[0])

    def measured(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a font was measured")

    for name in ("fit", "width"):
        monkeypatch.setattr(f"bot.pictures.endings.{name}", measured)
    spoken = ending("steam", _over(names), "over", drawn=False)
    assert spoken.headline == f"{names[0]} wins with 14"
    assert spoken.detail == f"{names[0]} 14 · {names[1]} 9 · {names[2]} 3"
    tinker = {"over": True, "result": {"outcomes": [{
        "seat": 0, "score": 1303, "outcome": "win",
        "detail": {"locations_cleared": 13, "chips_left": 3}}]}}
    assert ending("tinker", tinker, "over", drawn=False).detail == (
        "Locations 13/13 · chips left 3 · score 1303")
    with pytest.raises(AssertionError, match="a font was measured"):
        ending("steam", _over(names), "over")
    assert describe("steam", _over(names), "over").startswith(
        f"Steam to Solar board. {names[0]} wins with 14. {names[0]} 14 · {names[1]} 9")
