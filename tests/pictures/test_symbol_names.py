"""A display name made only of characters no picture font has ("𓀀𓀁𓀂", "𒐫𒐫𒐫", "🫩🫩") is
drawn "?" wherever Steam to Solar's picture names a player: in its row, and in the lines
that join names with words (the end banner, the status line), where a whole line folded
at once left such a name out ("wins with 9", "places")."""

from __future__ import annotations

import pytest

from bot.pictures import steam as steam_picture
from bot.pictures.endings import Ending, ending
from bot.pictures.script import MISSING, fold
from bot.text.names import safe_name
from tests.cogs.board_messages import played
from tests.pictures.widest import steam_view

#: Names of characters none of the picture's fonts draws (Egyptian hieroglyphs,
#: cuneiform, an emoji newer than Noto Emoji).
UNDRAWN = ("𓀀𓀁𓀂", "𒐫𒐫𒐫", "🫩🫩")


@pytest.mark.parametrize("name", UNDRAWN)
def test_the_winner_without_a_drawn_letter_is_named_on_the_end_banner(name: str) -> None:
    """The banner reads "? wins with 0" and "? 0 · Bob 0", not "wins with 0" and
    "0 · Bob 0"; the alt text keeps the name as it is."""
    assert fold(name) == MISSING  # what the player's row draws
    for game in played("steam", 3, seed=3, names=tuple(safe_name(n) for n in
                                                       (name, "Bob", "Carol")), seats=2):
        if game.row.status != "over":
            continue
        view = game.view()
        winners = [o["seat"] for o in view["result"]["outcomes"] if o["outcome"] == "win"]
        if winners != [0]:
            continue
        drawn = ending("steam", view, "over", drawn=True)
        assert fold(drawn.headline).startswith(f"{MISSING} wins"), drawn
        assert fold(drawn.detail).startswith(f"{MISSING} "), drawn
        assert " · Bob " in fold(drawn.detail), drawn
        spoken = ending("steam", view, "over", drawn=False)
        assert spoken.headline.startswith(f"{name} wins"), spoken
        assert drawn.spoken == (spoken.headline, spoken.detail)
        return
    pytest.fail("no game of the sample was won by the first seat")


@pytest.mark.parametrize("name", UNDRAWN)
def test_the_player_placing_without_a_drawn_letter_is_named_on_the_status_line(
        name: str) -> None:
    """The status line reads "? places · final round", not "places · final round"."""
    c = steam_picture.board(steam_view(3, ("Alice", name, "Carol")), Ending("active"))
    lines = [what[5:] for what, _ in c.boxes if what.startswith("text:")]
    status = [line for line in lines if "places" in line]
    assert status and all(fold(line).startswith(f"{MISSING} places") for line in status), lines
