"""Shared helpers: scripted dice, ready-made adventurers and short ways to act."""

from __future__ import annotations

from bot.games.rng import SeededRandom
from bot.games.tinrealm import journey
from bot.games.tinrealm.engine import ENGINE
from bot.games.tinrealm.state import TinState

C = ENGINE.content()


def scripted(*rolls: int) -> SeededRandom:
    """A random source whose dice come from ``rolls`` in order; shuffles keep the order."""
    queue = list(rolls)

    class Scripted(SeededRandom):
        def die(self, sides: int = 6) -> int:
            self.draws += 1
            return queue.pop(0)

        def dice(self, count: int, sides: int = 6) -> list[int]:
            self.draws += 1
            return [queue.pop(0) for _ in range(count)]

        def shuffle(self, items: list) -> None:
            self.draws += 1

        def choice(self, items: list):
            self.draws += 1
            return items[0]

    return Scripted(0)


def hero(
    race: str = "stoneborn", klass: str = "warden", seed: int = 1, preset: str = "easy"
) -> TinState:
    """A new game with race and class chosen, waiting on the first decision."""
    state = ENGINE.new(seed, options={"preset": preset})
    state = ENGINE.apply(state, 0, f"race:{race}").state
    return ENGINE.apply(state, 0, f"class:{klass}").state


def act(state: TinState, *action_ids: str) -> tuple[TinState, list[str]]:
    """Apply actions in order; return the last state and every event."""
    events: list[str] = []
    for action_id in action_ids:
        step = ENGINE.apply(state, 0, action_id)
        state = step.state
        events += step.events
    return state, events


def ids(state: TinState) -> list[str]:
    """The ids of the legal actions."""
    return [a.id for a in ENGINE.legal_actions(state, 0)]


def run(state: TinState, *tasks: str) -> list[str]:
    """Put ``tasks`` at the head of the queue and run the automatic ones; return events."""
    state.queue[0:0] = list(tasks)
    log: list[str] = []
    journey.advance(C, state, log)
    return log


def fight(
    enemy: str, *rolls: int, race: str = "stoneborn", klass: str = "warden", **stats: object
) -> tuple[TinState, list[str]]:
    """A hero with ``stats`` set, scripted dice, and a combat with ``enemy`` begun."""
    state = hero(race, klass)
    state.rng = scripted(*rolls)
    for name, value in stats.items():
        setattr(state, name, value)
    return state, run(state, f"fight:{enemy}")


def placing(state: TinState, tableau: list[str], location: str) -> TinState:
    """Arrange ``state`` to wait on placing ``location`` next to ``tableau``."""
    state.tableau = list(tableau)
    state.location = location
    state.result_card = None
    others = [i for i in sorted(C.exploration) if i not in tableau and i != location]
    keep = len(C.exploration) - 2 * (len(tableau) + 1)
    state.deck, state.discard = others[:keep], others[keep:]
    state.queue = ["place"]
    return state


def deciding(state: TinState, *top: str) -> TinState:
    """Arrange ``state`` to wait on a decision with ``top`` cards on top of a fresh deck."""
    state.deck = list(top) + [i for i in sorted(C.exploration) if i not in top]
    state.tableau, state.discard = [], []
    state.queue = ["decide"]
    return state


def ended_journey(end: str) -> TinState:
    """The first easy journey, played by the computer, that ends ``end`` (won, dead, or
    out of time)."""
    for seed in range(300):
        state = ENGINE.new(seed, 1, {"preset": "easy"})
        while not ENGINE.is_over(state):
            state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
        if ENGINE.view(state)["end"] == end:
            return state
    raise AssertionError(f"no easy journey of 300 ends {end!r}")
