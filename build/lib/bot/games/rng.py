"""Seeded randomness kept in the game state.

A game stores its seed and how many random draws it has made; every draw gets its own
``random.Random`` derived from both, so a game replays exactly from its seed and its
list of actions, and the state stays a few bytes instead of a Mersenne Twister dump.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(slots=True)
class SeededRandom:
    """A replayable random source: ``seed`` plus the number of ``draws`` made so far."""

    seed: int
    draws: int = 0

    def _next(self) -> random.Random:
        self.draws += 1
        return random.Random(f"{self.seed}/{self.draws}")

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place."""
        self._next().shuffle(items)

    def die(self, sides: int = 6) -> int:
        """Roll one die with ``sides`` sides."""
        return self._next().randint(1, sides)

    def dice(self, count: int, sides: int = 6) -> list[int]:
        """Roll ``count`` dice with ``sides`` sides."""
        rng = self._next()
        return [rng.randint(1, sides) for _ in range(count)]

    def choice(self, items: list[T]) -> T:
        """Pick one of ``items``."""
        return self._next().choice(items)

    def to_json(self) -> list[int]:
        """Return ``[seed, draws]``."""
        return [self.seed, self.draws]

    @classmethod
    def from_json(cls, data: list[int]) -> SeededRandom:
        """Rebuild from :meth:`to_json` output."""
        seed, draws = data
        return cls(int(seed), int(draws))
