"""Benchmark: each engine's speed, in complete games per second on one core.

For every engine in the registry whose module imports (the others are listed as
skipped), plays games from consecutive seeds with the fewest seats the engine allows
(at least two for a multi-seat game) in two ways: every seat picking uniformly among
its legal actions but never resigning ("random"), and every seat played by the engine's
own computer player ("computer", as ``python -m bot play --simulate`` does). Each way
runs for a few CPU-seconds; a game still going after ``--max-actions`` actions counts as
stuck.

Run from the repository root: ``python -m bench.engines [--seconds 3]``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from bench.common import machine, table
from bot.games import registry
from bot.games.protocol import Engine

RESIGN = "resign"
"""The action id multi-seat engines use for resigning (a random player never resigns)."""

Chooser = Callable[[Engine, Any, int, random.Random], str]


def random_action(engine: Engine, state: Any, seat: int, chooser: random.Random) -> str:
    """Pick one of the seat's legal actions uniformly, resigning only if nothing else is legal."""
    legal = engine.legal_actions(state, seat)
    playing = [a for a in legal if a.id != RESIGN] or legal
    return chooser.choice(playing).id


def computer_action(engine: Engine, state: Any, seat: int, chooser: random.Random) -> str:
    """Let the engine's computer player choose."""
    return engine.computer_action(state, seat)


def play(engine: Engine, seed: int, seats: int, choose: Chooser, max_actions: int) -> int | None:
    """Play one game from ``seed``; return its number of actions, or None if it got stuck."""
    chooser = random.Random(seed)
    state = engine.new(seed, seats, {})
    for actions in range(max_actions):
        seat = engine.to_act(state)
        if seat is None:
            return actions
        state = engine.apply(state, seat, choose(engine, state, seat, chooser)).state
    return None


def measure(engine: Engine, choose: Chooser, seconds: float, max_actions: int) -> list[object]:
    """Play for about ``seconds``; return games/s, actions/s, actions per game, stuck games."""
    seats = max(engine.min_seats, min(2, engine.max_seats))
    lengths: list[int] = []
    stuck = 0
    began = time.process_time()
    seed = 1
    while time.process_time() - began < seconds or (not lengths and not stuck):
        length = play(engine, seed, seats, choose, max_actions)
        if length is None:
            stuck += 1
        else:
            lengths.append(length)
        seed += 1
    spent = time.process_time() - began
    games = len(lengths) + stuck
    return [f"{games / spent:.1f}", f"{sum(lengths) / spent:.0f}",
            f"{sum(lengths) / max(1, len(lengths)):.1f}", stuck]


def main(argv: list[str] | None = None) -> int:
    """Run the engine benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0,
                        help="CPU seconds per engine and way of playing (default 3)")
    parser.add_argument("--max-actions", type=int, default=20_000)
    args = parser.parse_args(argv)
    print(f"Engines, complete games per CPU-second, one core.\n{machine()}\n")
    rows = []
    for kind in registry.ENGINES:
        try:
            engine = registry.engine(kind)
        except Exception as exc:  # an engine that does not import yet is skipped, not fatal
            print(f"skipped {kind}: its module does not import ({type(exc).__name__}: {exc})")
            continue
        seats = max(engine.min_seats, min(2, engine.max_seats))
        for way, choose in (("random", random_action), ("computer", computer_action)):
            rows.append([kind, seats, way,
                         *measure(engine, choose, args.seconds, args.max_actions)])
    print(table(["engine", "seats", "players", "games/s", "actions/s", "actions per game",
                 "stuck games"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
