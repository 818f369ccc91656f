"""Simulations: many games with ``engine.computer_action`` in every seat, summarised.

Generic over the protocol: it counts each seat's ``Outcome.outcome`` and its scores.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.protocol import Engine, Outcome


@dataclass
class SeatTally:
    """What one seat did over many games."""

    outcomes: Counter[str] = field(default_factory=Counter)
    scores: list[int] = field(default_factory=list)

    def add(self, outcome: Outcome) -> None:
        """Count one game's outcome for this seat."""
        self.outcomes[outcome.outcome] += 1
        self.scores.append(outcome.score)

    def summary(self) -> dict[str, Any]:
        """Return games, outcome counts, win rate and score mean/min/max."""
        games = len(self.scores)
        return {
            "games": games,
            "outcomes": dict(sorted(self.outcomes.items())),
            "win_rate": round(self.outcomes["win"] / games, 4),
            "score_mean": round(sum(self.scores) / games, 2),
            "score_min": min(self.scores),
            "score_max": max(self.scores),
        }


def play_out(engine: Engine, seed: int, seats: int, options: Mapping[str, Any]) -> Any:
    """Play one game from ``seed`` with the computer in every seat; return the final state."""
    state = engine.new(seed, seats, dict(options))
    while (seat := engine.to_act(state)) is not None:
        state = engine.apply(state, seat, engine.computer_action(state, seat)).state
    return state


def simulate(
    engine: Engine, games: int, first_seed: int, seats: int, options: Mapping[str, Any],
    *, as_json: bool = False,
) -> str:
    """Play ``games`` games from seeds ``first_seed``... and return the summary text."""
    tallies = [SeatTally() for _ in range(seats)]
    for seed in range(first_seed, first_seed + games):
        result = engine.result(play_out(engine, seed, seats, options))
        assert result is not None, "a finished game has a result"
        for outcome in result.outcomes:
            tallies[outcome.seat].add(outcome)
    per_seat = [tally.summary() for tally in tallies if tally.scores]
    if as_json:
        return json.dumps({"game": engine.kind, "games": games, "first_seed": first_seed,
                           "options": dict(options), "seats": per_seat},
                          sort_keys=True, separators=(",", ":"))
    settings = ", ".join(f"{name}={value}" for name, value in options.items()) or "none"
    lines = [f"{engine.title}: {games} games, seeds {first_seed}-{first_seed + games - 1}, "
             f"options: {settings}"]
    for seat, row in enumerate(per_seat):
        counts = ", ".join(f"{name} {count}" for name, count in row["outcomes"].items())
        lines.append(f"seat {seat}: win rate {row['win_rate']:.1%} ({counts}); score mean "
                     f"{row['score_mean']}, min {row['score_min']}, max {row['score_max']}")
    return "\n".join(lines)
