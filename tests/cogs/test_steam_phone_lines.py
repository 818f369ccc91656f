"""Steam to Solar boards keep their lines to one phone line each with the longest names:
a running turn timer, the final round and an away seat's title."""

from __future__ import annotations

import random
from dataclasses import replace

from bot.table.data import TurnTimer
from bot.table.loaded import LoadedGame
from cogs.steam import SteamCog
from tests.cogs.board_messages import (
    PHONE_BUDGET,
    board_renderer,
    message,
    need_preview,
    phone_heights,
    played,
)
from tests.cogs.test_board_heights import LONG_NAMES


def _timed(game: LoadedGame) -> LoadedGame:
    """Return ``game`` with the turn timer of the seat to act running."""
    seat = game.to_act()
    assert seat is not None
    game.data.timer = TurnTimer(seat=seat, at=1_800_000_120.0)
    return game


def _tallest(games: list[LoadedGame], images: bool) -> tuple[int, str]:
    """Return the tallest board's height at phone width and its text."""
    items = [message(board_renderer(images), g, one_line_vote=True) for g in games]
    heights = phone_heights(need_preview(), items)
    worst = heights.index(max(heights))
    embed = items[worst].json["embeds"][0]
    return heights[worst], f"{embed.get('title')}\n{embed.get('description')}"


def test_five_seats_with_a_running_turn_timer_fit_one_phone_screen() -> None:
    """Five people with 32-letter names play with a turn timer: the board says when the
    turn runs out, and still fits one phone screen, pictures on and off."""
    games = [g for g in played("steam", 6, seed=11, names=LONG_NAMES, seats=5)
             if g.row.status == "active"]
    sample = [_timed(g) for g in random.Random(32).sample(games, 60)]
    for images in (True, False):
        height, text = _tallest(sample, images)
        assert "turn timer <t:" in text or images
        assert height <= PHONE_BUDGET, f"pictures {images}: {height} px\n{text}"


def _final_rounds() -> list[LoadedGame]:
    """Return boards of the final round of five-seat games of 32-letter names."""
    return [g for seed in (11, 12, 13)
            for g in played("steam", 4, seed=seed, names=LONG_NAMES, seats=5)
            if g.row.status == "active" and g.view()["final_round"]]


def test_the_final_round_at_five_long_names_fits_one_phone_screen() -> None:
    """Pictures off, in the final round: the players' lines and "⏳ Final round · to play:
    …" name each seat in a phone line, with or without a running turn timer, and
    the board fits 600 px."""
    games = _final_rounds()
    assert games
    for timer in (False, True):
        shown = [_timed(g) if timer else g for g in games]
        height, text = _tallest(shown, False)
        assert height <= PHONE_BUDGET, f"timer {timer}: {height} px\n{text}"


def test_the_final_round_line_names_who_is_still_to_play() -> None:
    """The final round's line names the players still to play, cut to share one line
    (those beyond its room counted, "+1")."""
    game = next(g for g in _final_rounds() if len(g.view()["still_to_play"]) > 1)
    line = next(line for line in (SteamCog(None).embed(game).description or "").split("\n")
                if line.startswith("⏳ Final round"))
    first = game.view()["still_to_play"][0]
    assert first[:4] in line, line


def test_an_away_seat_to_play_keeps_the_players_name_in_the_title() -> None:
    """"Carol of the Bells" is away and a computer plays her turn: the title still says
    it is Carol's turn recognisably, and that she is away, on one phone line."""
    game = next(g for g in played("steam", 4, seed=3, seats=3)
                if g.row.status == "active" and g.to_act() == 2)
    game.seats = [replace(s, away=(i == 2), computer=False) for i, s in enumerate(game.seats)]
    title = SteamCog(None).embed(game).title or ""
    assert "Carol of" in title and "away" in title, title


def test_the_final_round_names_everyone_still_to_play_where_they_fit() -> None:
    """Short names are all named ("Ann, Bob, Cy"), none counted; a long name beside
    short ones takes the room they leave, and only names past the room are counted."""
    from bot.text.widths import shown_width
    from cogs.steam_words import LINE_ROOM, NAME_LEAST, _final_round

    assert _final_round(["Ann", "Bob", "Cy"]) == "⏳ Final round · to play: Ann, Bob, Cy."
    line = _final_round(["Al", "Bartholomew Fitzgerald-Worthington"])
    assert line.startswith("⏳ Final round · to play: Al, Bartholo") and "+" not in line
    long = _final_round(["W" * 30, "M" * 30, "Q" * 30])
    assert long.endswith(" +1.") or long.endswith(" +2.")
    for text in (line, long):
        assert shown_width(text) <= LINE_ROOM
    shown = long.removeprefix("⏳ Final round · to play: ").rsplit(" +", 1)[0].split(", ")
    assert all(shown_width(name) >= NAME_LEAST for name in shown)
