"""The engine protocol: the one shape every game follows.

The table, the terminal player, the simulations and the computer players are written
once against this protocol. An engine is a stateless object whose methods take and
return plain state objects; all randomness comes from the seed kept in the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

State = TypeVar("State")

#: Longest action id an engine may use; it travels inside a Discord custom_id.
#: Ids use only ASCII letters, digits and ``_.:+-``.
MAX_ACTION_ID = 40

#: Longest action label: a button stays readable on a phone.
MAX_LABEL = 40

#: Longest label of a select option (Discord's limit).
MAX_OPTION = 100


class GameError(Exception):
    """A domain error whose message a player can read."""


class IllegalAction(GameError):
    """The action is not legal in this state; the state is unchanged."""


class BrokenState(GameError):
    """Stored state that cannot be loaded (bad data or an unknown schema version)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One legal choice: a short stable ``id`` and a ``label`` a player reads.

    ``label`` fits a button (at most :data:`MAX_LABEL` characters); ``description`` says
    what the choice does where a board has room for it (a select option's description,
    the embed); ``primary`` marks the main choice of a decision; ``option`` is the label
    in full for a select option (at most :data:`MAX_OPTION` characters) where ``label``
    had to leave something out to fit a button, else "".
    """

    id: str
    label: str
    group: str = ""
    description: str = ""
    primary: bool = False
    option: str = ""

    def __post_init__(self) -> None:
        if not 0 < len(self.id) <= MAX_ACTION_ID:
            raise ValueError(f"action id {self.id!r} must be 1-{MAX_ACTION_ID} characters")


@dataclass(frozen=True, slots=True)
class Outcome:
    """How one seat finished: ``win``, ``loss`` or ``draw``, a score and details."""

    seat: int
    outcome: str
    score: int
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Result:
    """The end of a game: a one-line summary and one outcome per seat."""

    summary: str
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class Step:
    """What applying an action gives: the new state and the events that happened."""

    state: Any
    events: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option a game takes at start (for commands and the terminal player)."""

    name: str
    description: str
    default: Any
    choices: tuple[Any, ...] = ()


@runtime_checkable
class Engine(Protocol[State]):
    """The questions every game answers (modelled on OpenSpiel's game API)."""

    kind: str
    title: str
    schema_version: int
    min_seats: int
    max_seats: int
    options: tuple[OptionSpec, ...]

    def new(self, seed: int, seats: int = 1, options: Mapping[str, Any] | None = None) -> State:
        """Return a new game for ``seats`` seats, dealt from ``seed``."""
        ...

    def to_act(self, state: State) -> int | None:
        """Return the seat that must choose next, or None when the game is over."""
        ...

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Return the actions ``seat`` may take now (empty when it is not their turn)."""
        ...

    def apply(self, state: State, seat: int, action_id: str) -> Step:
        """Apply ``action_id`` for ``seat``; raise IllegalAction and change nothing if illegal."""
        ...

    def view(self, state: State) -> dict[str, Any]:
        """Return the public view: plain JSON-able data, what a board shows."""
        ...

    def is_over(self, state: State) -> bool:
        """Return whether the game has ended."""
        ...

    def result(self, state: State) -> Result | None:
        """Return the result once the game is over, else None."""
        ...

    def dump(self, state: State) -> dict[str, Any]:
        """Return the state as compact JSON-able data carrying ``schema``."""
        ...

    def load(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`dump` output; raise BrokenState on bad data."""
        ...

    def render_text(self, state: State) -> str:
        """Return the board as plain text for the terminal."""
        ...

    def computer_action(self, state: State, seat: int) -> str:
        """Return the id of a sensible legal action for a computer player in ``seat``."""
        ...
