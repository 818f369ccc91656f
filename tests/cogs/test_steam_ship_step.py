"""Running a train step by step on the board (S8): the confirm says what it ships and
scores, the description names the cards chosen, and the board fits a phone screen."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.boards.layout import BoardButton, BoardSelect, phone_lines
from bot.games.steam.engine import ENGINE
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

TRAIN = ["Huntress", "Ace of Waves", "Savage", "Ace of Leaves", "Ace of Wyrms"]
RIVER = ["Ace of Moons", "Sea", "End", "Calamity"]


def _board(*moves: str, pictured: bool) -> tuple[LoadedGame, list[Any]]:
    """P0 runs train 1 on steam and chooses goods cards (``moves``): the board's game and
    its components."""
    state, events = play(build(2, river=RIVER, trains=[[TRAIN]]), 0, "run:1", *moves)
    game = loaded(ENGINE, state, seats=2, events=events)
    game.pictured = pictured
    return game, SteamCog(None).items(game)


def _ship(items: list[Any]) -> BoardButton:
    return next(i for i in items if isinstance(i, BoardButton) and i.custom_id.endswith(":ship"))


@pytest.mark.parametrize("pictured", [True, False], ids=["picture", "text"])
def test_s8_the_confirm_says_what_it_ships_and_scores(pictured: bool) -> None:
    """S8: the confirm keeps the engine's label ("Ship 1 card for 2") while its row of
    buttons stays one phone line, else says it short ("Ship 2 · 3 pts"); it was "Ship"."""
    game, items = _board("sh:Savage", pictured=pictured)
    engine = next(a.label for a in game.legal_actions(0) if a.id == "ship")
    assert _ship(items).label == engine == "Ship 1 card for 2"
    game, items = _board("sh:Savage", "sh:ALeaves", pictured=pictured)
    assert _ship(items).label == "Ship 2 · 3 pts"
    game, items = _board("sh:Savage", "sh:ALeaves", "sh:AWyrms", pictured=pictured)
    assert _ship(items).label == "Ship 3 · 4 pts"
    row = [i for i in items if isinstance(i, BoardButton) and i.row == _ship(items).row]
    assert [b.label for b in row] == ["Ship 3 · 4 pts", "Cancel", "Resign"]
    assert phone_lines(row) == 1


def test_s8_the_description_names_the_cards_chosen() -> None:
    """S8: with the picture (which shows the train, not the choice) the description names
    the cards chosen; without it, the run's line names them with their suits."""
    game, _ = _board(pictured=True)
    assert SteamCog(None).embed(game).description is None  # nothing chosen yet
    game, _ = _board("sh:Savage", "sh:ALeaves", pictured=True)
    assert SteamCog(None).embed(game).description == "Shipping: Savage, Ace of Leaves."
    game, _ = _board("sh:Savage", pictured=False)
    text = SteamCog(None).embed(game).description or ""
    assert "Running train 1 on steam. Shipping: Savage 🍃🐉\n" in text


def test_s8_shipping_and_discarding_share_one_select() -> None:
    """The goods cards to ship and the discards (S7) share one select, so the confirm's
    longer label takes no row more than before."""
    _, items = _board("sh:Savage", pictured=True)
    selects = [i for i in items if isinstance(i, BoardSelect)]
    assert len(selects) == 1
    assert selects[0].placeholder == "Cards to ship, or a discard…"
    assert [o.value for o in selects[0].options] == [
        "all", "sh:Savage", "sh:ALeaves", "sh:AWyrms",
        "d:Huntress", "d:AWaves", "d:Savage", "d:ALeaves", "d:AWyrms"]


#: The goods cards with the longest names, and the other seats' full trains.
LONGEST = ["Chance Meeting", "Borderland", "Watchman", "Light Keeper", "Merchant"]
OTHERS = [["Mountain", "Penitent", "Diplomat", "Betrayal", "Darkness"],
          ["Soldier", "Author", "Desert", "Origin", "Savage"],
          ["Sailor", "Battle", "Forest", "Market", "Castle"], ["Cave", "Mill", "Pact", "Bard"]]


def test_s8_the_longest_shipment_at_five_seats_fits_one_phone_screen() -> None:
    """Five seats named as long as Discord allows, five goods cards of the longest names
    chosen one by one: the board, pictures on and off, is at most 600 px on a phone."""
    state = build(5, river=RIVER, half=2, trains=[[LONGEST], *[[t] for t in OTHERS]])
    for player, name in zip(state.players, LONG_NAMES, strict=True):
        player.name = name
    moves = ["pw:steam", *(f"sh:{n.replace(' ', '')}" for n in LONGEST)]
    state, events = play(state, 0, "run:1", *moves)
    events = ["An event line long enough to fill the footer of the board, twice over."] * 6
    shown = []
    for pictured in (True, False):
        game = loaded(ENGINE, state, seats=5, events=events)
        game.seats = [replace(s, name=LONG_NAMES[i], computer=False)
                      for i, s in enumerate(game.seats)]
        game.pictured = pictured
        shown.append(message(board_renderer(pictured), game))
    labels = [c.get("label") for row in shown[0].json["components"] for c in row["components"]]
    assert "Ship 5 · 10 pts" in labels
    heights = phone_heights(need_preview(), shown)
    assert max(heights) <= PHONE_BUDGET, heights
