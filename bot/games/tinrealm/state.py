"""The state of one Tin Realm game: plain data holding card ids, never card objects.

A game is a queue of tasks. The task at the head of ``queue`` is what the game waits
for when it needs a choice (``race``, ``class``, ``decide``, ``camp``, ``offer:<id>``,
``fight:<id>``, ``place``, and ``brace``: a pause to eat or use an item before a harm the
result card has shown, ahead of the task that brings it); the other tasks
(``icon:<kind>``, ``discard``, ``dawn``) run by themselves. An empty queue means the game
is over, and ``end`` says how.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.games.rng import SeededRandom

#: Most food an adventurer can carry.
FOOD_CAP = 5
#: The sundial's last day; the game is lost when it ends.
LAST_DAY = 7
#: Locations in a day (twelve exploration cards, two per location).
LOCATIONS_PER_DAY = 6


@dataclass(slots=True)
class Fight:
    """A combat in progress: the enemy's id, its health now and at the start, items spent."""

    enemy: str
    health: int
    start_health: int
    spent: list[str] = field(default_factory=list)

    def copy(self) -> Fight:
        """Return an independent copy."""
        return Fight(self.enemy, self.health, self.start_health, list(self.spent))


@dataclass(slots=True)
class TinState:
    """Everything about one game; ``end`` is "", "won", "dead" or "time".

    ``supper`` is true when the game ended at a supper (R9), after the sundial advanced:
    the day that ended is then ``day - 1``.
    """

    rng: SeededRandom
    sides: list[int]
    preset: str
    content_path: str | None
    race: str | None = None
    klass: str | None = None
    health: int = 0
    max_health: int = 0
    energy: int = 0
    max_energy: int = 0
    food: int = 0
    poison: int = 0
    favor: int = 0
    day: int = 1
    node: int = 0
    furthest: int = 0
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    tableau: list[str] = field(default_factory=list)
    location: str | None = None
    result_card: str | None = None
    queue: list[str] = field(default_factory=list)
    fight: Fight | None = None
    items: list[str] = field(default_factory=list)
    spent_today: list[str] = field(default_factory=list)
    dice: list[int] = field(default_factory=list)
    end: str = ""
    supper: bool = False

    def copy(self) -> TinState:
        """Return an independent copy (apply never changes the state it was given)."""
        return TinState(
            type(self.rng)(self.rng.seed, self.rng.draws),
            list(self.sides),
            self.preset,
            self.content_path,
            self.race,
            self.klass,
            self.health,
            self.max_health,
            self.energy,
            self.max_energy,
            self.food,
            self.poison,
            self.favor,
            self.day,
            self.node,
            self.furthest,
            list(self.deck),
            list(self.discard),
            list(self.tableau),
            self.location,
            self.result_card,
            list(self.queue),
            self.fight.copy() if self.fight else None,
            list(self.items),
            list(self.spent_today),
            list(self.dice),
            self.end,
            self.supper,
        )

    @property
    def waiting_for(self) -> str:
        """The task the game waits on ("" when over)."""
        return self.queue[0] if self.queue else ""

    @property
    def at_night(self) -> bool:
        """Whether the game ended at a supper, the sundial already past the day that
        ended (R9); saved games from before ``supper`` was kept show it as day 8."""
        return self.supper or self.day > LAST_DAY

    @property
    def location_in_day(self) -> int:
        """Which location of the day (1-6) is being decided or resolved."""
        return min(len(self.tableau) + 1, LOCATIONS_PER_DAY)
