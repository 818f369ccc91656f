"""A right-to-left name cut to fit a picture's line keeps its isolate closed after the
"…": what follows it on the line (scores, "wins with", the status's words) is drawn in
its own order, not inside the name's right-to-left run."""

from __future__ import annotations

from bot.boards.render import picture_view
from bot.pictures import canvas, steam
from bot.pictures.endings import ending
from bot.pictures.script import FSI, PDI, runs
from bot.text.names import safe_name
from tests.cogs.board_messages import played

ARABIC = "محمد بن عبد الله بن عبد المطلب ا"  # 32 characters, Discord's longest name
NAMES = ["Wolfeschlegelsteinhausenbergerdo", "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW", ARABIC,
         "Christopher Robinson", "עבדאללה בן עבד אל מוטאליב"]


def _drawn(line: str) -> list[str]:
    """The runs of ``line`` in the order they are drawn, left to right."""
    return [r.text.strip() for r in runs(line) if r.text.strip()]


def _before(line: str, first: str, then: str) -> bool:
    drawn = _drawn(line)
    return (next(i for i, t in enumerate(drawn) if first in t)
            < next(i for i, t in enumerate(drawn) if then in t))


def test_a_cut_keeps_the_isolate_closed_after_its_ellipsis() -> None:
    cut = canvas.fit(safe_name(ARABIC), 30, 200, True)
    assert cut.count(FSI) == cut.count(PDI) == 1 and cut.endswith("…" + PDI)


def test_the_end_banner_and_the_status_line_keep_their_order() -> None:
    """A five-seat table to its end: the headline names the winner before "wins", the
    scores line keeps each score beside its name, and a middle status line keeps its
    words after the name."""
    games = list(played("steam", 1, seed=3, names=[safe_name(n) for n in NAMES], seats=5))
    end = ending("steam", picture_view(games[-1]), "over")
    assert _before(end.headline, "محمد", "wins"), _drawn(end.headline)
    assert _before(end.detail.split("\n")[0], "محمد", "Wolfe"), _drawn(end.detail)
    game = games[len(games) // 2]
    board = steam.board(picture_view(game), ending("steam", picture_view(game), "active"))
    lines = [box[0][5:] for box in board.boxes if "rearranges" in box[0]]
    assert lines and all(_before(line, "محمد", "rearranges") for line in lines), lines


def test_an_ordinary_arabic_name_leaves_the_scores_after_it_in_place() -> None:
    """Five seats, a 17-letter Arabic name first: cut on the banner's scores line, it
    leaves every score after it where it belongs."""
    names = ["عبد الرحمن الشمري", "Christopher Robinson", "Alexandra Papadopoulou",
             "Maximilian Hoffmann", "Bob"]
    players = [{"seat": i, "name": safe_name(n)} for i, n in enumerate(names)]
    places = [{"seat": i, "total": 20 - i, "goods_left": 0} for i in range(5)]
    outcomes = [{"seat": i, "outcome": "win" if i == 0 else "loss", "score": 20 - i}
                for i in range(5)]
    view = {"over": True, "players": players,
            "result": {"places": places, "outcomes": outcomes}}
    first = ending("steam", view, "over").detail.split("\n")[0]
    assert _before(first, "عبد", "Christopher"), _drawn(first)
