"""One game played locally: in the terminal, or as JSON lines for programs.

Both loops share :class:`Seating`, which deals the game and lets computer seats move
(with ``engine.computer_action``) until a person must choose or the game is over.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, TextIO

from bot.games.protocol import Action, Engine, IllegalAction, Result

QUIT = "q"


@dataclass
class Seating:
    """A game being played: the engine, its seed and seats, and which seats are computers."""

    engine: Engine
    kind: str
    seed: int
    seats: int
    bots: frozenset[int]
    options: Mapping[str, Any]
    state: Any = field(init=False)

    def __post_init__(self) -> None:
        self.state = self.engine.new(self.seed, self.seats, dict(self.options))

    def to_act(self) -> int | None:
        """Return the seat that must choose now, or None once the game is over."""
        return self.engine.to_act(self.state)

    def apply(self, seat: int, action_id: str) -> list[str]:
        """Apply ``action_id`` for ``seat``; return its events (IllegalAction if refused)."""
        step = self.engine.apply(self.state, seat, action_id)
        self.state = step.state
        return list(step.events)

    def run_bots(self) -> list[str]:
        """Let computer seats act until a person must choose or the game ends."""
        events: list[str] = []
        while (seat := self.to_act()) is not None and seat in self.bots:
            action_id = self.engine.computer_action(self.state, seat)
            label = _label(self.engine, self.state, seat, action_id)
            events.append(f"Seat {seat} (computer): {label}")
            events.extend(self.apply(seat, action_id))
        return events


def _label(engine: Engine, state: Any, seat: int, action_id: str) -> str:
    return next((a.label for a in engine.legal_actions(state, seat) if a.id == action_id),
                action_id)


def result_json(result: Result | None) -> dict[str, Any] | None:
    """Return a Result as plain JSON data (None stays None)."""
    if result is None:
        return None
    return {
        "summary": result.summary,
        "outcomes": [{"seat": o.seat, "outcome": o.outcome, "score": o.score,
                      "detail": dict(o.detail)} for o in result.outcomes],
    }


def _line(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def play_json(seating: Seating, stdin: TextIO, stdout: TextIO) -> int:
    """Run the JSON line protocol (docs/play.md); return 0 at the end or at end of input."""
    engine = seating.engine
    events = seating.run_bots()
    while True:
        seat = seating.to_act()
        legal = [] if seat is None else engine.legal_actions(seating.state, seat)
        state_line = _line({
            "game": seating.kind,
            "seed": seating.seed,
            "options": dict(seating.options),
            "view": engine.view(seating.state),
            "legal": [{"id": a.id, "label": a.label} for a in legal],
            "to_act": seat,
            "events": events,
            "over": engine.is_over(seating.state),
            "result": result_json(engine.result(seating.state)),
        })
        stdout.write(state_line)
        stdout.flush()
        if seat is None:
            return 0
        while True:
            answer = stdin.readline()
            if not answer:
                return 0
            try:
                events = seating.apply(seat, answer.strip())
            except IllegalAction as exc:
                stdout.write(_line({"error": str(exc)}) + state_line)
                stdout.flush()
                continue
            break
        events += seating.run_bots()


def play_terminal(seating: Seating, stdin: TextIO, stdout: TextIO) -> int:
    """Play with numbered choices typed at the keyboard; ``q`` or end of input quits."""
    engine = seating.engine
    print(f"{engine.title}, seed {seating.seed}", file=stdout)
    events = seating.run_bots()
    while True:
        for event in events:
            print(f"  * {event}", file=stdout)
        print("", file=stdout)
        print(engine.render_text(seating.state), file=stdout)
        seat = seating.to_act()
        if seat is None:
            result = engine.result(seating.state)
            assert result is not None, "a finished game has a result"
            print(f"Result: {result.summary}", file=stdout)
            return 0
        legal = engine.legal_actions(seating.state, seat)
        for number, action in enumerate(legal, 1):
            print(f"  {number}. {action.label}", file=stdout)
        who = f"Seat {seat}, your" if seating.seats > 1 else "Your"
        while True:
            stdout.write(f"{who} choice (1-{len(legal)}, {QUIT} quits): ")
            stdout.flush()
            answer = stdin.readline()
            if not stdin.isatty():
                stdout.write(answer if answer.endswith("\n") else answer + "\n")
            if not answer or answer.strip().lower() == QUIT:
                print("Bye.", file=stdout)
                return 0
            chosen = _pick(answer.strip(), legal)
            if chosen is not None:
                break
            print(f"Not a choice: {answer.strip()!r}. Type a number from 1 to {len(legal)}, "
                  f"or {QUIT} to quit.", file=stdout)
        events = seating.apply(seat, chosen) + seating.run_bots()


def _pick(answer: str, legal: list[Action]) -> str | None:
    """Return the action id for a typed number or id, or None if it is not a choice."""
    if answer.isdigit() and 1 <= int(answer) <= len(legal):
        return legal[int(answer) - 1].id
    return answer if answer in {a.id for a in legal} else None
