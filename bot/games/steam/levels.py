"""Steam to Solar: the computer player's three levels, one per seat.

- ``easy`` (``easy.py``): a newcomer's game, greedy and blind to the other players;
- ``normal`` (``ai.py``): the computer player as it has always been, and the default;
- ``hard`` (``hard.py``): Normal, plus endgame rollouts over the deck's public contents.

The level of each seat is kept in the state (``Player.level``, option ``levels`` of
``new``); a saved state from before the levels loads with every seat at ``normal``.
"""

from __future__ import annotations

from bot.games.protocol import GameError
from bot.games.steam import ai, easy, hard
from bot.games.steam.state import EASY, HARD, LEVELS, NORMAL, SteamState


def computer_choice(state: SteamState, seat: int, level: str = NORMAL) -> str:
    """Return the action id the computer player of ``level`` takes for ``seat``."""
    if level == NORMAL:
        return ai.choose_action(state, seat)
    if level == HARD:
        return hard.choose_action(state, seat)
    if level == EASY:
        return easy.choose_action(state, seat)
    raise GameError(f"Unknown computer level {level!r}: one of {', '.join(LEVELS)}.")
