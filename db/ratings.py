"""Ratings: each person's OpenSkill (Plackett-Luce) rating per game and server.

A finished rated game hands the store one :class:`~db.rows.RatedSeat` per seat; the
store's save reads the people's ratings, computes the new ones and writes them here
(:func:`rate_sqlite`, :func:`rate_postgres`), in the same transaction as the game's
results. Computer players take part with the fixed rating their seat carries and are
never written.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from openskill.models import PlackettLuce

from db.rows import RatedSeat, readable

if TYPE_CHECKING:
    import asyncpg

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


def rate_sqlite(conn: sqlite3.Connection, guild_id: int, kind: str, seats: Sequence[RatedSeat],
                now: float) -> None:
    """Update the people's ratings after a rated game (inside the save's transaction)."""
    people = rated_people(seats)
    if not people:
        return
    marks = ", ".join("?" * len(people))
    # a rating that cannot be read (a damaged row) counts as none: it starts again
    current = dict(readable(conn.execute(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ?"
        f" AND user_id IN ({marks})", (guild_id, kind, *people)),
        lambda r: (int(r[0]), Rating(float(r[1]), float(r[2]), int(r[3]))),
        lambda r: f"rating of member {r[0]} ({kind}, server {guild_id})"))
    conn.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET"
        " mu = excluded.mu, sigma = excluded.sigma, games = excluded.games,"
        " updated_at = excluded.updated_at",
        [(guild_id, kind, user, r.mu, r.sigma, r.games, now)
         for user, r in new_ratings(current, seats).items()],
    )


async def rate_postgres(conn: asyncpg.Connection, guild_id: int, kind: str,
                        seats: Sequence[RatedSeat], now: float) -> None:
    """Update the people's ratings after a rated game (inside the save's transaction).

    Each person's row is made first and then locked, so two games ending at once for the
    same person update it one after the other.
    """
    people = rated_people(seats)
    if not people:
        return
    await conn.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT DO NOTHING",
        [(guild_id, kind, user, Rating().mu, Rating().sigma, now) for user in people],
    )
    rows = await conn.fetch(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = $1 AND kind = $2"
        " AND user_id = ANY($3::bigint[]) ORDER BY user_id FOR UPDATE",
        guild_id, kind, people,
    )
    current = {int(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    await conn.executemany(
        "UPDATE ratings SET mu = $4, sigma = $5, games = $6, updated_at = $7"
        " WHERE guild_id = $1 AND kind = $2 AND user_id = $3",
        [(guild_id, kind, user, r.mu, r.sigma, r.games, now)
         for user, r in new_ratings(current, seats).items()],
    )
