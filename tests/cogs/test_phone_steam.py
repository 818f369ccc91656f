"""Steam to Solar boards fit a phone: with the picture, the text wraps to at most 30 lines."""

from __future__ import annotations

import random

from bot.games.steam.engine import ENGINE
from cogs.base import PHONE_LINES as MAX_LINES
from cogs.base import embed_lines
from cogs.steam import SteamCog
from tests.support import loaded

WIDTH = 38


def test_every_steam_board_fits_thirty_phone_lines():
    """Boards of 200 random games of 2 to 5 seats (every step) fit in 30 wrapped lines."""
    cog = SteamCog(None)
    rng = random.Random(7)
    longest = 0
    boards = 0
    for seed in range(200):
        seats = 2 + seed % 4
        names = [f"Player {i + 1} with a long name" for i in range(seats)]
        state = ENGINE.new(seed, seats, {"names": names})
        while True:
            game = loaded(ENGINE, state, seats=seats)
            game.pictured = True
            longest = max(longest, embed_lines(cog.embed(game)))
            boards += 1
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)
            actions = ENGINE.legal_actions(state, seat)
            action = (ENGINE.computer_action(state, seat) if rng.random() < 0.7
                      else rng.choice(actions).id)
            state = ENGINE.apply(state, seat, action).state
    print(f"\n{boards} Steam to Solar boards: longest {longest} lines at {WIDTH} characters")
    assert longest <= MAX_LINES
