"""Benchmark: the memory a kept game's engine state takes, beside its state's text.

``python -m bench.kept_states [--moves 40] [--copies 200]``, from the repository root.

A kept row (``db.rows.KeptRows``) holds the engine's state object its save wrote, so the
next click does not load the state again. For a game of each kind (Steam to Solar at
four seats) played ``--moves`` random legal moves in, this loads ``--copies`` copies of
the state's JSON document and of the engine's state object under tracemalloc and prints
the bytes of one copy of each, and the length of the state's stored text: what keeping
the object costs, against keeping the document too, for each of the 4,096 kept games.
"""

from __future__ import annotations

import argparse
import json
import random
import tracemalloc
from typing import Any

from bench.common import table
from bot.games import registry

#: The games measured: kind, seats, options.
GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("tinker", 1, {}),
    ("tinrealm", 1, {"preset": "easy"}),
    ("steam", 4, {"names": ["Ann", "Bo", "Cy", "Di"]}),
)


def _allocated(make: Any, copies: int) -> tuple[float, list[Any]]:
    """Return the bytes one of ``copies`` results of ``make()`` holds, and the results."""
    tracemalloc.start()
    try:
        before = tracemalloc.take_snapshot()
        made = [make(index) for index in range(copies)]
        after = tracemalloc.take_snapshot()
    finally:
        tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return grown / copies, made


def measure(moves: int, copies: int, seed: int = 3) -> list[tuple[str, int, float, float]]:
    """Return, per game: kind, the state's text length, bytes of its document and of
    its engine state object."""
    found = []
    for kind, seats, options in GAMES:
        engine = registry.engine(kind)
        rng = random.Random(seed)
        state = engine.new(seed, seats, options)
        for _ in range(moves):
            if engine.is_over(state):
                break
            seat = engine.to_act(state)
            state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)).id
                                 ).state
        text = json.dumps(engine.dump(state), separators=(",", ":"), ensure_ascii=False)
        document, documents = _allocated(lambda _i, text=text: json.loads(text), copies)
        engine_state, _ = _allocated(lambda i, documents=documents, engine=engine:
                                     engine.load(documents[i]), copies)
        found.append((kind, len(text), document, engine_state))
    return found


def main(argv: list[str] | None = None) -> int:
    """Measure and print the memory of a kept state."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves into each game (40)")
    parser.add_argument("--copies", type=int, default=200, help="copies measured (200)")
    args = parser.parse_args(argv)
    rows = measure(args.moves, args.copies)
    print(f"A kept game's state, {args.moves} moves in (tracemalloc, {args.copies} copies):\n")
    print(table(["game", "stored text bytes", "JSON document bytes", "engine state bytes"],
                [[kind, text, f"{document:,.0f}", f"{state:,.0f}"]
                 for kind, text, document, state in rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
