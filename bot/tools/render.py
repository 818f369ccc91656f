"""``python -m bot render GAME --seed N [--moves K] --out FILE.png``: draw a board without Discord.

Plays ``K`` moves with the engine's computer player (every seat) from seed ``N``, then
writes the board's picture. ``--moves`` defaults to 0 (the opening board); a game that
ends sooner stops there and is drawn as over.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.games.protocol import Engine
from bot.games.registry import ENGINES, engine
from bot.pictures import render_board


def play(game: Engine, seed: int, seats: int, moves: int) -> tuple[Any, int]:
    """Play up to ``moves`` computer moves from ``seed``; return the state and moves made."""
    state = game.new(seed, seats, {})
    for made in range(moves):
        seat = game.to_act(state)
        if seat is None:
            return state, made
        state = game.apply(state, seat, game.computer_action(state, seat)).state
    return state, moves


def parser() -> argparse.ArgumentParser:
    """Return the command's argument parser."""
    p = argparse.ArgumentParser(
        prog="python -m bot render",
        description="Draw a board's picture to a PNG file, without Discord.")
    p.add_argument("game", choices=sorted(ENGINES), help="which game to draw")
    p.add_argument("--seed", type=int, default=1, help="the deal's seed (default 1)")
    p.add_argument("--moves", type=int, default=0, help="computer moves to play first")
    p.add_argument("--seats", type=int, default=None,
                   help="seats (default: the fewest the game allows, at least 2 for Steam)")
    p.add_argument("--out", type=Path, required=True, help="the PNG file to write")
    return p


def main(args: list[str]) -> int:
    """Run the command; return an exit code."""
    reader = parser()
    options = reader.parse_args(args)
    game = engine(options.game)
    seats = (options.seats if options.seats is not None
             else max(game.min_seats, 2 if game.max_seats > 1 else 1))
    if not game.min_seats <= seats <= game.max_seats:
        places = (f"{game.min_seats} seat{'s' * (game.min_seats != 1)}"
                  if game.min_seats == game.max_seats
                  else f"{game.min_seats} to {game.max_seats} seats")
        reader.error(f"{options.game} is played at {places}, not {seats}")
    state, made = play(game, options.seed, seats, max(0, options.moves))
    over = game.is_over(state)
    png = render_board(options.game, game.view(state), status="over" if over else "active")
    try:
        options.out.write_bytes(png)
    except OSError as exc:
        print(f"could not write {options.out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    ending = "game over" if over else "game on"
    print(f"{options.out}: {options.game} seed {options.seed}, {made} moves, {ending}, "
          f"{len(png) / 1024:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
