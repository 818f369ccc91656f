"""A count of one reads in the singular where players meet it: an ended Tinker board's
headline, Steam's score breakdown and /help's server line."""

from __future__ import annotations

from dataclasses import replace

from bot.games.decktet import SUITS, card
from bot.games.steam.score import breakdown
from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinker.state import LOCATIONS, Phase
from bot.table.settings import ServerSettings
from tests.cogs.board_messages import played


def test_t10_a_world_saved_with_one_chip_left_says_one_chip() -> None:
    """T10: the ending's headline counts the chips left, one in the singular."""
    state = TINKER.new(7, 1, {})
    state.phase, state.won = Phase.OVER, True
    state.cleared, state.locations = [card(n) for n in LOCATIONS], []
    state.chips = dict.fromkeys(SUITS, 0)
    state.chips[SUITS[0]] = 1
    result = TINKER.result(state)
    assert result is not None and result.summary.endswith("cleared, 1 chip left.")


def test_steam_breakdown_of_one_point_and_one_token() -> None:
    """The ended board's lines: "1 point", a resigned seat's "1 Wave token"."""
    game = list(played("steam", 1, seed=4, seats=3))[-1]
    state = game.state
    state.players[0].score = 1
    state.one_stack = state.two_stack = None
    assert breakdown(state, 0).startswith("1 point; ")
    state.players[2].resigned, state.players[2].score, state.one_stack = True, 1, 2
    assert breakdown(state, 2) == "resigned: scores nothing (1 point, 1 Wave token)"


def test_help_says_one_open_game_each() -> None:
    """A server that allows one open game a member reads so in /help."""
    assert "1 open game each" in replace(ServerSettings(), max_open_games=1).summary()
    assert "5 open games each" in ServerSettings().summary()
