"""Benchmark: the Steam to Solar computer player against the previous one and a greedy one.

For each table size from 2 to 5 seats, plays ``--games`` games (default 300) with one
seat (moving round the table from game to game) held by the current computer player
(``bot.games.steam.ai``) and every other seat by an opponent:

- ``previous``: the first computer player (``bench/steam_ai_v1.py``), which looks one
  turn ahead and counts Wave tokens at 0.6 until its last turn;
- ``greedy``: takes the points it can score this turn: it runs the train that scores
  most (shipping everything), otherwise takes the cheapest cards and does whatever the
  first offered choice is.

Prints the current player's win rate (shared wins count as wins) with a 95% confidence
interval (Wilson), its mean score against the best opponent's, and the median, p99 and
maximum time of its decisions. Figures only: nothing here is asserted.

Run from the repository root: ``.venv/bin/python bench/steam_ai.py [--games N]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from bench import steam_ai_v1 as ai_v1
from bot.games.steam import ai
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import Arranging, SteamState

Chooser = Callable[[SteamState, int], str]


def greedy(state: SteamState, seat: int) -> str:
    """Run the best-scoring train with everything on it, else take the first take offered."""
    ids = [a.id for a in ENGINE.legal_actions(state, seat) if a.id != "resign"]
    for wanted in ("all", "ship", "pw:steam", "done"):
        if wanted in ids:
            return wanted
    runs = [i for i in ids if i.startswith("run:")]
    if runs:
        return max(runs, key=lambda i: ai.best_run_points(
            [state.players[seat].trains[int(i[4:]) - 1]]))
    plans = [i for i in ids if i.startswith("ar:")]
    if plans:
        return plans[0]
    if isinstance(state.pending, Arranging):
        # eleven cards do not fit: place the taken card, then discard the first one
        wanted = "mv:" if state.pending.hand else "d:"
        return next(i for i in ids if i.startswith(wanted))
    return next((i for i in ids if i.startswith(("t2:", "t1:", "p:", "wv:"))), ids[0])


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate, as percentages."""
    if not games:
        return 0.0, 0.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return 100 * (centre - half), 100 * (centre + half)


def play(seed: int, seats: int, seat: int, opponent: Chooser, times: list[float]
         ) -> tuple[bool, int, int]:
    """Play one game; return (current player won, its score, best other score)."""
    state = ENGINE.new(seed, seats)
    while not ENGINE.is_over(state):
        acting = ENGINE.to_act(state)
        assert acting is not None
        if acting == seat:
            began = time.perf_counter()
            action = ai.choose_action(state, acting)
            times.append(time.perf_counter() - began)
        else:
            action = opponent(state, acting)
        state = ENGINE.apply(state, acting, action).state
    result = ENGINE.result(state)
    assert result is not None
    best_other = max(o.score for o in result.outcomes if o.seat != seat)
    mine = result.outcomes[seat]
    return mine.outcome == "win", mine.score, best_other


def series(name: str, opponent: Chooser, games: int, seed: int, times: list[float]) -> None:
    """Play ``games`` games at each table size against ``opponent`` and print the figures."""
    print(f"Current computer player vs {name}, {games} games per table size (seed {seed})")
    for seats in range(2, 6):
        began = time.perf_counter()
        wins, scores, others = 0, [], []
        for game in range(games):
            won, score, other = play(seed * 1_000_003 + seats * 10_007 + game, seats,
                                     game % seats, opponent, times)
            wins += won
            scores.append(score)
            others.append(other)
        low, high = wilson(wins, games)
        print(f"  {seats} seats: wins {100 * wins / games:.1f}% (95% CI {low:.1f}-{high:.1f}; "
              f"chance {100 / seats:.0f}%), mean score {statistics.mean(scores):.1f} vs best "
              f"other {statistics.mean(others):.1f} ({time.perf_counter() - began:.0f} s)")


def main() -> None:
    """Run both series and print the figures and the decision times."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    print("Steam to Solar, bench/steam_ai.py")
    series("previous (ai_v1)", ai_v1.choose_action, args.games, args.seed, times)
    series("greedy", greedy, args.games, args.seed, times)
    ms = sorted(t * 1000 for t in times)
    print(f"  decisions: {len(ms)}, median {statistics.median(ms):.2f} ms, "
          f"p99 {ms[int(0.99 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
