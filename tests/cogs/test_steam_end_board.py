"""The end board when goods left broke a tie on the score (S12): the embed says so, with
the picture and without, and the board fits a phone screen."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.steam.engine import ENGINE
from bot.pictures.endings import ending
from bot.table import turnlog
from bot.table.loaded import LoadedGame
from cogs.steam import SteamCog
from tests.cogs.board_messages import (
    PHONE_BUDGET,
    board_renderer,
    message,
    need_preview,
    phone_heights,
)
from tests.cogs.test_board_heights import LONG_NAMES
from tests.games.test_steam_build import build, play
from tests.support import loaded


def _over(seats: int, scores: list[int], trains: list[list[list[str]]]) -> LoadedGame:
    """The last turn of the final round (P0 takes the last river card): the ended game."""
    state = build(seats, river=["Ace of Moons"], deck=[], half=2, scores=scores, turn=0,
                  final=[0], trains=trains)
    state, events = play(state, 0, "t2:1", "p:AMoons:n")
    assert state.over
    return loaded(ENGINE, state, seats=seats, events=events, status="over")


@pytest.mark.parametrize("pictured", [True, False], ids=["picture", "text"])
def test_s12_the_end_board_says_goods_left_broke_the_tie(pictured: bool) -> None:
    """S12: both on 7, P1 wins on goods left (3 to 1): the embed says so (it said only
    "P1 wins with 7."), and the picture's banner lists P1 first."""
    game = _over(2, [7, 7], [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]]])
    game.pictured = pictured
    text = SteamCog(None).embed(game).description or ""
    assert text.startswith("🏁 **P1 wins with 7, on goods left (3 to 1).**")
    if not pictured:
        assert "**1st** P1: 7 — 7 points; 3 goods left" in text
        assert text.index("P1: 7") < text.index("P0: 7")
    end = ending("steam", game.view(), "over")
    assert end.headline == "P1 wins on goods left"
    assert end.detail.startswith("P1 7 · P0 7")


def test_s12_the_longest_names_tied_at_five_seats_fit_one_phone_screen() -> None:
    """Five seats named as long as Discord allows, all on 7, the win on goods left: the end
    board, pictures on and off, is at most 600 px on a phone."""
    game = _over(5, [7] * 5, [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]],
                              [["Ace of Wyrms"]], [["Soldier"]], [["Market"]]])
    assert game.state is not None
    for player, name in zip(game.state.players, LONG_NAMES, strict=True):
        player.name = name
    game.seats = [replace(s, name=LONG_NAMES[i]) for i, s in enumerate(game.seats)]
    summary = game.view()["result"]["summary"]
    assert summary == f"{LONG_NAMES[1]} wins with 7, on goods left (3 to 2)."
    shown = []
    for pictured in (True, False):
        game.pictured = pictured
        shown.append(message(board_renderer(pictured), game))
    heights = phone_heights(need_preview(), shown)
    assert max(heights) <= PHONE_BUDGET, heights


@pytest.mark.parametrize("pictured", [True, False], ids=["picture", "text"])
def test_the_result_is_said_once_in_the_text(pictured: bool) -> None:
    """The end board's text leads with the result; its footer gives the last moves
    without saying the result again (a phone line or two fewer with long names)."""
    game = _over(2, [7, 7], [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]]])
    game.pictured = pictured
    assert any(e.startswith("Game over. P1 wins") for e in game.row.events)
    embed = SteamCog(None).embed(game)
    assert (embed.description or "").startswith("🏁 **P1 wins with 7")
    assert "P1 wins" not in (embed.footer.text or "")


def test_the_five_seat_end_board_keeps_the_last_turn_in_its_footer() -> None:
    """At five seats the footer has two phone lines: the result, which the text leads
    with, takes none of them, so the last turn (the final move) still shows, however
    long the winner's name makes the result."""
    game = _over(5, [7] * 5, [[["Ace of Knots"]], [["Savage", "Ace of Leaves"]],
                              [["Ace of Wyrms"]], [["Soldier"]], [["Market"]]])
    game.seats = [replace(s, name=LONG_NAMES[i]) for i, s in enumerate(game.seats)]
    summary = f"Game over. {LONG_NAMES[1]} wins with 7, on goods left (3 to 2)."
    turnlog.note_move(game.data, 0, [f"{LONG_NAMES[0]} takes Ace of Moons 🌙 (free).",
                                     summary], ended=True)
    footer = (SteamCog(None).embed(game).footer.text or "").split("\n")
    assert "… takes Ace of Moons" in footer[0], footer
    assert not any(line.startswith("Game over") for line in footer), footer


def test_a_five_seat_table_ended_by_a_resignation_says_its_result_once() -> None:
    """Five seats, the table ended (one by a resignation among them): the footer gives
    the last turns, never a cut copy of the result the text leads with ("… resigns ·
    Game over. Dave…")."""
    from cogs.steam_words import GAME_OVER
    from tests.cogs.board_messages import played

    boards = board_renderer(False)
    ends = [g for g in played("steam", 10, seed=3, seats=5) if g.row.status == "over"]
    assert any(" resigns" in e for g in ends for e in g.row.events)
    footers = [boards.drawing.render(g, picture=b"")["embed"].footer.text or "" for g in ends]
    assert not [f for f in footers if GAME_OVER in f]
