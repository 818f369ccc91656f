"""A game's seats, typed: who sits in each one, as the ``seats`` column stores it.

The column holds a JSON list with one object per seat. :meth:`Seat.from_json` reads one
such object (as any version of this code wrote it) and :meth:`Seat.to_json` writes it
back exactly as it is stored today: ``user_id``, ``name`` and ``computer`` always; a
computer player's ``level`` when it has one; ``away`` only while a computer plays the
seat for an absent person; and any keys this code does not know, unchanged, after them.

A computer player is known by its ``computer`` flag, never by its name (a person may be
called "Ada (computer)").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

#: The keys :class:`Seat` reads into its own fields; every other key is kept in ``other``.
KNOWN_KEYS = ("user_id", "name", "computer", "level", "away")


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game: a person (``user_id``) or a computer player (``computer``)."""

    #: The person's Discord user id; None for a computer player (or a forgotten member).
    user_id: int | None = None
    #: The name shown for the seat (the member's name when they sat down).
    name: str = ""
    #: Whether a computer player holds the seat.
    computer: bool = False
    #: A computer player's level (``easy``, ``normal``, ``hard``); None when none was set.
    level: str | None = None
    #: Whether a computer plays the seat of this absent person until they click again.
    away: bool = False
    #: Keys this code does not know, kept as read so that saving loses nothing.
    other: dict[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def person(cls, user_id: int, name: str) -> Seat:
        """Return the seat of the member ``user_id`` called ``name``."""
        return cls(user_id=user_id, name=name)

    @classmethod
    def computer_player(cls, name: str, level: str) -> Seat:
        """Return a computer player's seat, its level kept with it."""
        return cls(name=name, computer=True, level=level)

    @property
    def is_person(self) -> bool:
        """Whether a person holds the seat (not a computer player, and not forgotten)."""
        return not self.computer and bool(self.user_id)

    def holds(self, user_id: int) -> bool:
        """Whether the person ``user_id`` sits here (a computer seat holds nobody)."""
        return not self.computer and self.user_id == user_id

    def with_away(self, away: bool) -> Seat:
        """Return this seat with its ``away`` flag set to ``away``."""
        return replace(self, away=away)

    def with_level(self, level: str) -> Seat:
        """Return this seat with the computer level ``level``."""
        return replace(self, level=level)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Seat:
        """Read one stored seat object; a missing key gets its default, and keys this code
        does not know are kept in ``other``. Raise TypeError or ValueError when a known key
        holds what no version of this code wrote (a user id that is not a number)."""
        if not isinstance(data, Mapping):
            raise TypeError("a seat is not an object")
        user = data.get("user_id")
        if isinstance(user, bool) or not (user is None or isinstance(user, int | str)):
            raise TypeError(f"a seat's user id is {type(user).__name__}")
        level = data.get("level")
        name = data.get("name")
        return cls(
            user_id=None if user is None else int(user),
            name="" if name is None else str(name),
            computer=bool(data.get("computer")),
            level=None if level is None else str(level),
            away=bool(data.get("away")),
            other={k: v for k, v in data.items() if k not in KNOWN_KEYS},
        )

    def to_json(self) -> dict[str, Any]:
        """Return the seat as the ``seats`` column stores it (see the module docstring)."""
        out: dict[str, Any] = {"user_id": self.user_id, "name": self.name,
                               "computer": self.computer}
        if self.level is not None:
            out["level"] = self.level
        if self.away:
            out["away"] = True
        out.update(self.other)
        return out


def seats_from_json(data: Iterable[Mapping[str, Any]]) -> list[Seat]:
    """Read a stored ``seats`` list (see :meth:`Seat.from_json`)."""
    return [Seat.from_json(s) for s in data]


def seats_to_json(seats: Iterable[Seat]) -> list[dict[str, Any]]:
    """Return ``seats`` as the ``seats`` column stores them."""
    return [s.to_json() for s in seats]
