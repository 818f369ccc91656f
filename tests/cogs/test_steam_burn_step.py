"""Choosing the Wave card steam burns (S8) on the board: the Wave cards and the discards
share one select, each option saying what it loses, so the step fits one phone screen
at five seats with the longest names, pictures on and off. As buttons, the engine's
labels ("Burn Journey 🌙🌊, losing its 🌙") wrapped a phone line each."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from bot.boards.layout import BoardButton, BoardSelect
from bot.games.steam.engine import ENGINE
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
from tests.games.test_steam_build import build, play
from tests.support import loaded

RIVER = ["Ace of Moons", "Sea", "End", "Calamity"]
#: Three Wave cards beside two goods cards: steam must be told which Wave card burns.
TRAIN = ["Journey", "Lunatic", "Discovery", "Savage", "Chance Meeting"]
OTHERS = [["Mountain", "Penitent", "Diplomat", "Betrayal", "Darkness"],
          ["Soldier", "Author", "Desert", "Origin", "Forest"],
          ["Sailor", "Battle", "Market", "Castle", "Mill"], ["Cave", "Pact", "Bard"]]
#: Seeds of random five-seat games whose Wave steps were the tallest boards (up to
#: 698 px without pictures, 639 px with them, before the select).
SEEDS = (6, 10, 25)


def _burn_step(pictured: bool, seats: int = 2, events: list[str] | None = None) -> LoadedGame:
    """P0 runs train 1 on steam and ships every goods card: the Wave card step."""
    state = build(seats, river=RIVER, half=2,
                  trains=[[TRAIN, OTHERS[0]], *[[t] for t in OTHERS[1:seats]]])
    for player, name in zip(state.players, LONG_NAMES, strict=False):
        player.name = name
    state, moved = play(state, 0, "run:1", "pw:steam", "all")
    assert {a.group for a in ENGINE.legal_actions(state, 0)} >= {"wave", "discard"}
    game = loaded(ENGINE, state, seats=seats, events=moved if events is None else events)
    game.seats = [replace(s, name=LONG_NAMES[i], computer=False)
                  for i, s in enumerate(game.seats)]
    game.pictured = pictured
    return game


def test_s8_the_wave_cards_and_the_discards_share_one_select() -> None:
    """The Wave card to burn heads the select, named by its card; its description says
    what it loses. No Wave card is a button; Cancel stays on the controls' row."""
    items = SteamCog(None).items(_burn_step(pictured=True))
    selects = [i for i in items if isinstance(i, BoardSelect)]
    assert [s.placeholder for s in selects] == ["Burn a Wave card, or a discard…"]
    options = selects[0].options
    assert [(o.value, o.label) for o in options[:3]] == [
        ("wv:Journey", "Burn Journey 🌙🌊"), ("wv:Lunatic", "Burn Lunatic 🌙🌊"),
        ("wv:Discovery", "Burn Discovery ☀️🌊")]
    # Lunatic 🌙🌊 and Discovery ☀️🌊 stay: a locomotive and power, so nothing more is said
    assert options[0].description == "Burn Journey 🌙🌊, losing its 🌙."
    assert all(o.value.startswith("d:") for o in options[3:]) and len(options) == 3 + 10
    buttons = [i for i in items if isinstance(i, BoardButton)]
    assert [b.label for b in buttons] == ["Cancel", "Resign"]
    assert len({b.row for b in buttons}) == 1


def test_s8_the_built_burn_step_at_five_seats_fits_one_phone_screen() -> None:
    """Five seats of 32-letter names, full trains, a long footer: at most 600 px."""
    shown = []
    for pictured in (True, False):
        game = _burn_step(pictured, seats=5, events=[
            "An event line long enough to fill the footer of the board, twice over."] * 6)
        shown.append(message(board_renderer(pictured), game))
    heights = phone_heights(need_preview(), shown)
    assert max(heights) <= PHONE_BUDGET, heights


@cache
def _played_burn_steps() -> tuple[LoadedGame, ...]:
    """Every board at the Wave card step of six random five-seat games a seed."""
    found = []
    for seed in SEEDS:
        for game in played("steam", 6, seed, names=LONG_NAMES, seats=5):
            seat = None if game.row.status != "active" else game.to_act()
            if seat is not None and any(a.group == "wave" for a in game.legal_actions(seat)):
                found.append(game)
    return tuple(found)


def test_s8_every_played_burn_step_at_five_seats_fits_one_phone_screen() -> None:
    """The Wave steps of random games at five seats with the longest names (computers,
    away seats, votes and announcements among them), pictures on and off."""
    games = _played_burn_steps()
    assert len(games) >= 5
    preview = need_preview()
    for images in (True, False):
        items = [message(board_renderer(images), g, one_line_vote=True) for g in games]
        heights = phone_heights(preview, items)
        assert max(heights) <= PHONE_BUDGET, (images, heights)
