"""Which finished games change ratings, the seats' ranks, and the computer players'
fixed ratings.

A seated game of a rated kind changes the rating of each person in it, as long as it
had at least two seats (people, or a person and computer players). Ranks come from the
final standings: the winners first, then by final score (then goods left, as the end
board places them); equal standings share a rank; players who resigned rank last, all
alike, and so do people whose seat a computer was playing at the end (they walked away:
the computer's play is not theirs to be rated on). Computer players take part with a
fixed rating by level and never change (:data:`COMPUTER_RATINGS`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bot.games.protocol import Outcome
from bot.table.seats import Seat
from db.rows import RatedSeat

#: The games whose finished seated games change ratings.
RATED_KINDS = frozenset({"steam"})

#: Each computer level's fixed rating, ``(mu, sigma)``. A new person starts at OpenSkill's
#: 25 ± 8.3; Normal sits at that middle, Easy and Hard a little over half a new player's
#: sigma below and above it, and a small sigma (2) says their strength is known, so
#: playing them moves a person's rating without the computers' own ever changing.
COMPUTER_RATINGS: Mapping[str, tuple[float, float]] = {
    "easy": (20.0, 2.0),
    "normal": (25.0, 2.0),
    "hard": (30.0, 2.0),
}

#: The rating of a computer seat whose level this code does not know.
UNKNOWN_LEVEL = "normal"


#: Figures of a result's detail that break equal scores, the higher first, as the end
#: board places them (Steam to Solar's S12: goods left).
TIE_BREAKS = ("goods_left",)


def _standing(outcome: Any) -> tuple[int, ...]:
    """Sort key of a seat's final standing: winners first, then by score and the tie
    breaks, highest first; everyone who resigned or walked away last, all alike."""
    if outcome.detail.get("resigned") or outcome.detail.get("away"):
        return (1,)
    breaks = (-int(outcome.detail.get(name) or 0) for name in TIE_BREAKS)
    return (0, int(outcome.outcome != "win"), -int(outcome.score), *breaks)


def seat_ranks(outcomes: Sequence[Any]) -> dict[int, int]:
    """Return each seat's rank (1 is first; equal standings share the rank of the first
    of them, so ties of two at the top are both 1 and the next is 3)."""
    keys = [_standing(o) for o in outcomes]
    return {o.seat: 1 + sum(k < key for k in keys) for o, key in zip(outcomes, keys, strict=True)}


def rated_seats(kind: str, seats: Sequence[Seat],
                outcomes: Iterable[Any]) -> list[RatedSeat]:
    """Return the rated seats of a finished game (none when its kind is not rated, it has
    fewer than two seats, or nobody in it is a person)."""
    if kind not in RATED_KINDS:
        return []
    known = [walked_away(o) if seats[o.seat].away else o
             for o in outcomes if 0 <= o.seat < len(seats)]
    if len(known) < 2:
        return []
    ranks = seat_ranks(known)
    rated = []
    for outcome in known:
        seat = seats[outcome.seat]
        rank = ranks[outcome.seat]
        if seat.computer or seat.user_id is None:
            level = str(seat.level)
            mu, sigma = COMPUTER_RATINGS.get(level, COMPUTER_RATINGS[UNKNOWN_LEVEL])
            rated.append(RatedSeat(rank, None, mu, sigma))
        else:
            rated.append(RatedSeat(rank, seat.user_id))
    if all(s.user_id is None for s in rated):
        return []
    return rated


def walked_away(outcome: Any) -> Outcome:
    """The outcome of a person whose seat a computer was playing at the end: a loss
    scoring 0, as for a person who left a game ended unfinished (the computer's play is
    not theirs: it counts in no average or best score), its detail marked ``away`` with
    the seat's final score as ``computer_score``."""
    return Outcome(outcome.seat, "loss", 0,
                   {**outcome.detail, "away": True, "computer_score": outcome.score})
