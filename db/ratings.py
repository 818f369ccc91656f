"""Ratings: each person's OpenSkill (Plackett-Luce) rating per game and server.

A finished rated game hands the store one :class:`~db.rows.RatedSeat` per seat; the
store reads the people's ratings, computes the new ones here and writes them in the
same transaction as the game's results. Computer players take part with the fixed
rating their seat carries and are never written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from db.rows import RatedSeat

#: A new player's rating: OpenSkill's defaults (mu 25, sigma 25/3).
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3.0

_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)


@dataclass(frozen=True, slots=True)
class Rating:
    """A person's rating: the estimate ``mu``, its uncertainty ``sigma``, games counted."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure shown as the rating: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma


def rated_people(seats: Sequence[RatedSeat]) -> list[int]:
    """Return the people whose rating a game with ``seats`` changes (none when fewer
    than two seats took part), each once."""
    if len(seats) < 2:
        return []
    return sorted({s.user_id for s in seats if s.user_id is not None})


def new_ratings(current: Mapping[int, Rating], seats: Sequence[RatedSeat]) -> dict[int, Rating]:
    """Return the people's ratings after a game with ``seats`` (``current`` holds the
    stored ones; a person missing from it starts at the default)."""
    people = rated_people(seats)
    if not people:
        return {}
    teams = []
    for seat in seats:
        if seat.user_id is None:
            teams.append([_MODEL.rating(mu=seat.mu, sigma=seat.sigma)])
        else:
            before = current.get(seat.user_id, Rating())
            teams.append([_MODEL.rating(mu=before.mu, sigma=before.sigma)])
    rated = _MODEL.rate(teams, ranks=[float(s.rank) for s in seats])
    after: dict[int, Rating] = {}
    for seat, (rating,) in zip(seats, rated, strict=True):
        if seat.user_id is not None and seat.user_id not in after:
            games = current.get(seat.user_id, Rating()).games + 1
            after[seat.user_id] = Rating(float(rating.mu), float(rating.sigma), games)
    return after
