"""Benchmark: the Steam to Solar computer player against random legal players.

Plays ``--games`` games (default 600) with 2, 3 and 4 seats in turn; one seat (moving
round the table from game to game) is the computer player. The others are "random"
players, picking uniformly among their legal actions (never resigning), and then, in a
second series, "tidy random" players, which also pick at random but never discard or
cancel when anything else is legal (a tougher baseline). Prints the computer player's
win rate (shared wins count as wins) per table size and the time of its decisions.

Run from the repository root: ``.venv/bin/python bench/steam_ai.py [--games N]``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict

from bot.games.steam.engine import ENGINE


def random_choice(chooser: random.Random, ids: list[str], tidy: bool) -> str:
    """Pick a legal id at random; a tidy player avoids discards and cancels if it can."""
    if tidy:
        kept = [i for i in ids if not i.startswith(("d:", "cancel"))]
        ids = kept or ids
    return chooser.choice(ids)


def play(
    seed: int, seats: int, ai_seat: int, tidy: bool, times: list[float]
) -> tuple[bool, int, int]:
    """Play one game; return (computer won, its score, best other score)."""
    chooser = random.Random(seed)
    state = ENGINE.new(seed, seats)
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)
        assert seat is not None
        if seat == ai_seat:
            start = time.perf_counter()
            action = ENGINE.computer_action(state, seat)
            times.append(time.perf_counter() - start)
        else:
            ids = [a.id for a in ENGINE.legal_actions(state, seat) if a.id != "resign"]
            action = random_choice(chooser, ids, tidy)
        state = ENGINE.apply(state, seat, action).state
    result = ENGINE.result(state)
    assert result is not None
    outcomes = result.outcomes
    best_other = max(o.score for o in outcomes if o.seat != ai_seat)
    return outcomes[ai_seat].outcome == "win", outcomes[ai_seat].score, best_other


def series(games: int, seed: int, tidy: bool, times: list[float]) -> None:
    """Play ``games`` games against one kind of opponent and print the win rates."""
    wins: dict[int, list[bool]] = defaultdict(list)
    scores: dict[int, list[int]] = defaultdict(list)
    others: dict[int, list[int]] = defaultdict(list)
    began = time.perf_counter()
    for game in range(games):
        seats = 2 + game % 3
        won, score, other = play(seed * 1_000_003 + game, seats, game % seats, tidy, times)
        wins[seats].append(won)
        scores[seats].append(score)
        others[seats].append(other)
    kind = "tidy random" if tidy else "random"
    print(f"Computer player vs {kind} legal players, {games} games "
          f"(seed {seed}, {time.perf_counter() - began:.1f} s)")
    for seats in sorted(wins):
        rate = 100 * sum(wins[seats]) / len(wins[seats])
        print(f"  {seats} seats: {len(wins[seats])} games, computer wins {rate:.1f}% "
              f"(chance {100 / seats:.0f}%), mean score {statistics.mean(scores[seats]):.1f} "
              f"vs best other {statistics.mean(others[seats]):.1f}")
    total = sum(sum(w) for w in wins.values())
    print(f"  all: computer wins {100 * total / games:.1f}%")


def main() -> None:
    """Run both series and print the figures and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    print("Steam to Solar, bench/steam_ai.py")
    series(args.games, args.seed, False, times)
    series(args.games, args.seed, True, times)
    times.sort()
    ms = [t * 1000 for t in times]
    print(f"  decisions: {len(ms)}, median {statistics.median(ms):.2f} ms, "
          f"p99 {ms[int(0.99 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
