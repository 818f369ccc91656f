"""What a Steam to Solar train can do: run on steam or solar, and the points its goods make."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

GOODS = ("Leaves", "Wyrms", "Knots")
"""The suits that are goods."""


@dataclass(frozen=True, slots=True)
class TrainReport:
    """A train's powers, whether it has a Moon and goods, and the points of shipping all."""

    powers: tuple[str, ...]
    moon: bool
    goods: int
    points: int

    @property
    def runnable(self) -> bool:
        """Whether the train can run now (a Moon, a power and a good)."""
        return self.moon and bool(self.powers) and self.goods > 0

    def label(self) -> str:
        """A short line: ``steam · 5 pts`` when it runs, else what it needs."""
        if self.runnable:
            unit = "pt" if self.points == 1 else "pts"
            return f"{'/'.join(self.powers)} · {self.points} {unit}"
        needs = [w for w, missing in (("Moon", not self.moon), ("power", not self.powers),
                                      ("goods", not self.goods)) if missing]
        return "needs " + ", ".join(needs)


def good_points(count: int) -> int:
    """Points for shipping ``count`` goods of one kind: n, plus 1 for each beyond the second."""
    return count + max(0, count - 2)


def report(train: Sequence[Mapping[str, Any]]) -> TrainReport:
    """Return what ``train`` (cards as view data) can run and the points of shipping all goods."""
    suits: list[set[Any]] = [
        set(found) if isinstance(found := card.get("suits"), list) else set()
        for card in train if isinstance(card, Mapping)]
    every = set().union(*suits) if suits else set()
    powers = tuple(p for p, suit in (("steam", "Waves"), ("solar", "Suns")) if suit in every)
    counts = {g: sum(g in s for s in suits) for g in GOODS}
    return TrainReport(powers, "Moons" in every, sum(counts.values()),
                       sum(good_points(n) for n in counts.values()))
