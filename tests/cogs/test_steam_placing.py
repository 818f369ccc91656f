"""S5: with two cards taken, the place buttons ("Train 1", "New train") place the first;
the text board and the picture say which card that is and which comes after it."""

from __future__ import annotations

from bot.games.steam.engine import ENGINE
from bot.games.steam.state import Placing
from tests.cogs.board_messages import board_renderer
from tests.support import loaded, steam_until


def _two_to_place() -> object:
    return steam_until(lambda s: isinstance(s.pending, Placing) and len(s.pending.cards) == 2,
                       seats=2)


def test_s5_the_text_board_names_the_card_the_buttons_place() -> None:
    state = _two_to_place()
    first, second = state.pending.cards  # type: ignore[attr-defined]
    game = loaded(ENGINE, state, seats=2)
    text = board_renderer(False).renderers["steam"].embed(game).description or ""
    (line,) = [line for line in text.split("\n") if line.startswith("Placing:")]
    now, then = line.split("** now, then ")
    assert now.startswith(f"Placing: **{first.name}") and second.name not in now
    assert then.startswith(second.name) and then.endswith(".")


def test_s5_the_picture_draws_then_between_the_card_placed_now_and_the_next() -> None:
    from bot.pictures import steam as steam_picture
    from bot.pictures.endings import ending

    state = _two_to_place()
    view = ENGINE.view(state)
    c = steam_picture.board(view, ending("steam", view, "active"))
    status = next(b for w, b in c.boxes if w.startswith("text:") and w.endswith(" places"))
    row = [(w, b) for w, b in c.boxes if w in ("card", f"text:{steam_picture.THEN}")
           and b[1] <= status[3] and status[1] <= b[3]]
    assert [w for w, _ in sorted(row, key=lambda item: item[1][0])] == [
        "card", f"text:{steam_picture.THEN}", "card"]
