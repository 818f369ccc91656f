"""Benchmark: the cost of board pictures, per game.

Plays seeded games of each kind (the engine's computer player, or random legal moves
with ``--random``) and draws the board after every move with the cache emptied, so every
board is drawn from scratch, as after a move. Prints the median, p99 and max time per
board, the largest and median PNG sizes, and then the cache's effect: the same boards
asked again at once (as a repost or a refused stale click does) come from the cache;
the last column is the median time of such a hit (hashing the view's JSON).

Run from the repository root: ``python -m bench.pictures [--games 20] [--random]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from bench.common import machine, percentile, table
from bot.games import registry
from bot.pictures import CACHE, render_board

SEATS = {"tinker": 1, "steam": 3, "tinrealm": 1}
"""Seats per game for the benchmark."""


def views(kind: str, seed: int, pick_random: bool, max_moves: int = 2000) -> list[tuple[Any, str]]:
    """Return (view, status) for every board of one game from ``seed``."""
    game = registry.engine(kind)
    state = game.new(seed, SEATS[kind], {})
    chooser = random.Random(seed)
    boards = [(game.view(state), "active")]
    for _ in range(max_moves):
        seat = game.to_act(state)
        if seat is None:
            break
        if pick_random:
            legal = [a.id for a in game.legal_actions(state, seat) if a.id != "resign"]
            action = chooser.choice(legal)
        else:
            action = game.computer_action(state, seat)
        state = game.apply(state, seat, action).state
        boards.append((game.view(state), "over" if game.is_over(state) else "active"))
    return boards


def measure(kind: str, games: int, pick_random: bool) -> list[object]:
    """Draw every board of ``games`` games; return one table row of figures."""
    boards = [b for seed in range(games) for b in views(kind, seed, pick_random)]
    times: list[float] = []
    hits: list[float] = []
    sizes: list[int] = []
    for view, status in boards:
        CACHE.clear()
        start = time.perf_counter()
        png = render_board(kind, view, status=status)
        middle = time.perf_counter()
        again = render_board(kind, view, status=status)
        hits.append((time.perf_counter() - middle) * 1000)
        times.append((middle - start) * 1000)
        sizes.append(len(png))
        assert again is png, "the second ask of the same board must come from the cache"
    return [kind, len(boards), f"{statistics.median(times):.1f}", f"{percentile(times, 0.99):.1f}",
            f"{max(times):.1f}", f"{statistics.median(sizes) / 1024:.1f}",
            f"{max(sizes) / 1024:.1f}", f"{statistics.median(hits):.2f}"]


def main() -> None:
    """Parse the arguments, run every game, print the table."""
    parser = argparse.ArgumentParser(description="Board picture cost per game.")
    parser.add_argument("--games", type=int, default=20, help="games per kind (default 20)")
    parser.add_argument("--random", action="store_true", help="random legal moves instead")
    args = parser.parse_args()
    # Warm the fonts and the icon and face caches once, as a running bot has them.
    for kind in SEATS:
        render_board(kind, views(kind, 999, args.random, 5)[-1][0])
    rows = [measure(kind, args.games, args.random) for kind in SEATS]
    print(machine())
    print(f"{args.games} games per kind, {'random legal moves' if args.random else 'computer'}"
          " players, every board drawn with the cache empty\n")
    print(table(["game", "boards", "median ms", "p99 ms", "max ms", "median KB", "max KB",
                 "cache hit ms"], rows))


if __name__ == "__main__":
    main()
