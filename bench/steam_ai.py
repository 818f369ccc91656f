"""Benchmark: the Steam to Solar computer player's levels, and Normal against older players.

For each table size from 2 to 5 seats, plays ``--games`` games (default 300) with one
seat (moving round the table from game to game) held by the player measured and every
other seat by an opponent. The series (``--series``, repeatable; default all):

- ``hard``: Hard (``bot.games.steam.hard``: Normal plus endgame rollouts) against Normal
  in every other seat;
- ``easy``: Easy (``bot.games.steam.easy``, a newcomer's game) against Normal;
- ``previous``: Normal (``bot.games.steam.ai``) against the first computer player
  (``bench/steam_ai_v1.py``), which looks one turn ahead and counts Wave tokens at 0.6
  until its last turn;
- ``greedy``: Normal against a greedy player that takes the points it can score this
  turn: it runs the train that scores most (shipping everything), otherwise takes the
  cheapest cards and does whatever the first offered choice is.

Prints the measured player's win rate (shared wins count as wins) with a 95% confidence
interval (Wilson), its loss rate, its mean score against the best opponent's, and the
CPU time of its decisions (``time.process_time`` of the process that plays the game:
median, p99, maximum), for Hard also over its rollout decisions alone. Figures only:
nothing here is asserted. ``--workers N`` plays the games in N processes.

Run from the repository root:
``.venv/bin/python -m bench.steam_ai [--games N] [--series hard] [--workers 2]``.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench import steam_ai_v1 as ai_v1
from bot.games.steam import ai, easy, hard
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


#: Each series: (its title, the player measured, the opponent in every other seat).
SERIES: dict[str, tuple[str, Chooser, Chooser]] = {
    "hard": ("Hard vs Normal", hard.choose_action, ai.choose_action),
    "easy": ("Easy vs Normal", easy.choose_action, ai.choose_action),
    "previous": ("Normal vs previous (ai_v1)", ai.choose_action, ai_v1.choose_action),
    "greedy": ("Normal vs greedy", ai.choose_action, greedy),
}


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a win rate, as percentages."""
    if not games:
        return 0.0, 0.0
    z = 1.96
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return 100 * (centre - half), 100 * (centre + half)


@dataclass
class Cell:
    """One series at one table size: wins, scores and decision times of the measured seat."""

    games: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    others: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    rollout_times: list[float] = field(default_factory=list)

    def add(self, other: Cell) -> None:
        """Merge another part of the same cell."""
        self.games += other.games
        self.wins += other.wins
        self.scores += other.scores
        self.others += other.others
        self.times += other.times
        self.rollout_times += other.rollout_times


def play(seed: int, seats: int, seat: int, player: Chooser, opponent: Chooser, cell: Cell
         ) -> None:
    """Play one game with ``player`` in ``seat``, adding it to ``cell``."""
    state = ENGINE.new(seed, seats)
    while not ENGINE.is_over(state):
        acting = ENGINE.to_act(state)
        assert acting is not None
        if acting == seat:
            endgame = player is hard.choose_action and hard.in_endgame(state)
            began = time.process_time()
            action = player(state, acting)
            spent = time.process_time() - began
            cell.times.append(spent)
            if endgame:
                cell.rollout_times.append(spent)
        else:
            action = opponent(state, acting)
        state = ENGINE.apply(state, acting, action).state
    result = ENGINE.result(state)
    assert result is not None
    cell.games += 1
    cell.wins += result.outcomes[seat].outcome == "win"
    cell.scores.append(result.outcomes[seat].score)
    cell.others.append(max(o.score for o in result.outcomes if o.seat != seat))


def _part(job: tuple[str, int, int, int, int]) -> tuple[str, int, Cell]:
    """Games ``first``..``stop``-1 of one series at one table size (a unit of work)."""
    name, seats, seed, first, stop = job
    _, player, opponent = SERIES[name]
    cell = Cell()
    for game in range(first, stop):
        play(seed * 1_000_003 + seats * 10_007 + game, seats, game % seats, player, opponent,
             cell)
    return name, seats, cell


def _ms(times: list[float]) -> str:
    if not times:
        return "no decisions"
    ms = sorted(t * 1000 for t in times)
    return (f"{len(ms)} decisions, CPU median {statistics.median(ms):.2f} ms, "
            f"p99 {ms[int(0.99 * (len(ms) - 1))]:.2f} ms, max {ms[-1]:.2f} ms")


def report(name: str, seats: int, cell: Cell, spent: float) -> None:
    """Print one cell's figures."""
    low, high = wilson(cell.wins, cell.games)
    rate = 100 * cell.wins / cell.games
    print(f"  {seats} seats: wins {rate:.1f}% (95% CI {low:.1f}-{high:.1f}; share "
          f"{100 / seats:.0f}%), losses {100 - rate:.1f}%, mean score "
          f"{statistics.mean(cell.scores):.1f} vs best other {statistics.mean(cell.others):.1f}"
          f", {cell.games} games ({spent:.0f} s)")
    print(f"    its decisions: {_ms(cell.times)}")
    if name == "hard":
        print(f"    its rollout decisions (endgame): {_ms(cell.rollout_times)}")


def main() -> None:
    """Run the chosen series and print their figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="games per table size")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--series", action="append", choices=tuple(SERIES),
                        help="series to play (repeatable; default all)")
    parser.add_argument("--seats", type=int, action="append", choices=(2, 3, 4, 5),
                        help="table sizes (repeatable; default 2 to 5)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in")
    parser.add_argument("--samples", type=int, default=hard.SAMPLES,
                        help="Hard: orders of the deck played out per decision")
    parser.add_argument("--candidates", type=int, default=hard.CANDIDATES,
                        help="Hard: start moves played out per decision")
    args = parser.parse_args()
    hard.SAMPLES, hard.CANDIDATES = args.samples, args.candidates
    chosen = args.series or list(SERIES)
    sizes = args.seats or [2, 3, 4, 5]
    print("Steam to Solar, bench/steam_ai.py "
          f"(hard: endgame at a deck of {hard.ENDGAME_DECK} or fewer, {hard.SAMPLES} orders, "
          f"up to {hard.CANDIDATES} start moves played out)", flush=True)
    chunks = max(1, args.workers) * 2
    for name in chosen:
        print(f"{SERIES[name][0]}, {args.games} games per table size (seed {args.seed})",
              flush=True)
        for seats in sizes:
            began = time.perf_counter()
            bounds = [args.games * i // chunks for i in range(chunks + 1)]
            jobs = [(name, seats, args.seed, bounds[i], bounds[i + 1]) for i in range(chunks)]
            cell = Cell()
            if args.workers > 1:
                with ProcessPoolExecutor(args.workers) as pool:
                    for _, _, part in pool.map(_part, jobs):
                        cell.add(part)
            else:
                for job in jobs:
                    cell.add(_part(job)[2])
            report(name, seats, cell, time.perf_counter() - began)


if __name__ == "__main__":
    main()
