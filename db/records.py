"""Player records: per-game statistics, server leaderboards and forgetting a player.

Everything is computed from the ``results`` table (one row per human player of a finished
game) by single SQL queries, so the figures are always current and nothing is cached.
The ranking of each game is described in docs/records.md.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, TypeVar

from db.base import GameStore
from db.forget import FORMER_PLAYER, json_or, seats_needle
from db.retention import UNPRUNED
from db.rows import readable

#: How many lines a board reads beyond its top: a damaged line left out of the top is
#: filled from them.
DAMAGED_SLACK = 5

#: A board's line: a :class:`Standing` or a :class:`RatingStanding`.
_Placed = TypeVar("_Placed", "Standing", "RatingStanding")

#: How each game ranks its players: by best single game, or by wins then average score.
RANKED_BY_WINS = frozenset({"steam"})

_BEST_ORDER = "best DESC, reached, user_id"
_WINS_ORDER = "won DESC, average DESC, played, user_id"


@dataclass(frozen=True, slots=True)
class GameStats:
    """One player's record in one game."""

    kind: str
    played: int
    won: int
    best_score: int
    current_streak: int
    best_streak: int
    #: Of ``played`` and ``won``: the games played together by a channel group (C5).
    played_together: int = 0
    won_together: int = 0

    @property
    def played_solo(self) -> int:
        """Games the player finished on their own (not shared by a group)."""
        return self.played - self.played_together

    @property
    def won_solo(self) -> int:
        """Wins of the games the player finished on their own."""
        return self.won - self.won_together


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's line on a leaderboard; ``detail`` is that of their best game."""

    place: int
    user_id: int
    played: int
    won: int
    best_score: int
    average_score: float
    detail: dict[str, Any]
    #: The name they last played under in the server (None: not known).
    name: str | None = None


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """The top of a leaderboard, the asker's own line when below it, and how many ranked."""

    top: list[Standing]
    mine: Standing | None
    players: int


async def _rows(store: GameStore, sql: str, args: dict[str, Any]) -> list[Any]:
    return await store.query(sql, args)


_STATS_SQL = """
WITH mine AS (
    SELECT kind, outcome, score, together,
           SUM(CASE WHEN outcome <> 'win' THEN 1 ELSE 0 END)
               OVER (PARTITION BY kind ORDER BY at, id) AS breaks
    FROM results
    WHERE user_id = :user AND guild_id = :guild
      AND (CAST(:kind AS TEXT) IS NULL OR kind = :kind)
), runs AS (
    SELECT kind, breaks, SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS wins
    FROM mine GROUP BY kind, breaks
)
SELECT m.kind, COUNT(*), SUM(CASE WHEN m.outcome = 'win' THEN 1 ELSE 0 END), MAX(m.score),
       (SELECT r.wins FROM runs r WHERE r.kind = m.kind ORDER BY r.breaks DESC LIMIT 1),
       (SELECT MAX(r.wins) FROM runs r WHERE r.kind = m.kind),
       SUM(CASE WHEN m.together <> 0 THEN 1 ELSE 0 END),
       SUM(CASE WHEN m.together <> 0 AND m.outcome = 'win' THEN 1 ELSE 0 END)
FROM mine m
GROUP BY m.kind
ORDER BY m.kind
"""


async def player_stats(
    store: GameStore, guild_id: int, user_id: int, kind: str | None = None
) -> list[GameStats]:
    """Return ``user_id``'s record in each game they finished in the server (or in ``kind``).

    A streak is a run of consecutive wins in time order; a loss or a draw ends it. The
    current streak is the run that ends with the player's latest game.
    """
    rows = await _rows(store, _STATS_SQL, {"user": user_id, "guild": guild_id, "kind": kind})
    return readable(rows, lambda r: GameStats(str(r[0]), *(int(v) for v in r[1:])),
                    lambda r: f"result of member {user_id} ({r[0]}, server {guild_id})")


_BOARD_SQL = """
WITH players AS (
    SELECT r.user_id, COUNT(*) AS played, SUM(CASE WHEN r.outcome = 'win' THEN 1 ELSE 0 END) AS won,
           AVG(r.score) AS average, MAX(r.score) AS best
    FROM results r
    WHERE r.guild_id = :guild AND r.kind = :kind AND {period}
    GROUP BY r.user_id
), reached AS (
    SELECT p.*,
           (SELECT MIN(r.at) FROM results r
            WHERE r.guild_id = :guild AND r.kind = :kind AND r.user_id = p.user_id
              AND r.score = p.best AND {period}) AS reached
    FROM players p
), ranked AS (
    SELECT *, ROW_NUMBER() OVER (ORDER BY {order}) AS place, COUNT(*) OVER () AS players
    FROM reached
)
SELECT place, user_id, played, won, best, average, players,
       (SELECT r.detail FROM results r
        WHERE r.guild_id = :guild AND r.kind = :kind AND r.user_id = ranked.user_id
          AND r.score = ranked.best AND {period}
        ORDER BY r.at, r.id LIMIT 1) AS detail,
       {name}
FROM ranked WHERE place <= :size OR user_id = :asker ORDER BY place
"""

#: The name a listed member last played under in the server (their latest named result).
_LAST_NAME = (
    "(SELECT n.name FROM results n WHERE n.user_id = ranked.user_id"
    " AND n.guild_id = :guild AND n.name IS NOT NULL ORDER BY n.at DESC, n.id DESC LIMIT 1)"
)

_SINCE = "r.at >= :since"
#: A daily leaderboard counts one result of each member for that day's deal, wherever
#: (in whichever server or channel) it was played: that of the first game they took part
#: in (``daily_played``: moved, voted or clicked) that is still open or has a result for
#: them. A deal rehearsed in one game and played again in another counts as first
#: played; a member whose first game is still open is not listed until it ends. Results
#: stored before members' games were noted count the game started first.
_FIRST_PLAYED = (
    "SELECT p.game_id FROM daily_played p JOIN games g ON g.id = p.game_id"
    " WHERE p.user_id = r.user_id AND p.kind = r.kind AND p.daily = r.daily"
    " AND (g.status IN ('lobby', 'active') OR EXISTS (SELECT 1 FROM results y"
    " WHERE y.game_id = p.game_id AND y.user_id = p.user_id))"
    " ORDER BY p.at, p.game_id LIMIT 1"
)
_DAILY = (
    "r.daily = :daily AND r.id = CASE WHEN EXISTS (SELECT 1 FROM daily_played q"
    " WHERE q.user_id = r.user_id AND q.kind = r.kind AND q.daily = r.daily)"
    f" THEN (SELECT x.id FROM results x WHERE x.user_id = r.user_id AND x.game_id = ("
    f"{_FIRST_PLAYED}) ORDER BY x.id LIMIT 1)"
    " ELSE (SELECT f.id FROM results f"
    " WHERE f.user_id = r.user_id AND f.kind = r.kind AND f.daily = r.daily"
    " ORDER BY f.game_id IS NULL, f.game_id, f.id LIMIT 1) END"
)


async def leaderboard(
    store: GameStore,
    guild_id: int,
    kind: str,
    *,
    asker_id: int,
    since: float = 0.0,
    daily: str | None = None,
    size: int = 10,
) -> Leaderboard:
    """Return the server's leaderboard of ``kind``: the top ``size`` and the asker's line.

    Only results from ``since`` (a unix time) on count, and with ``daily`` only those of
    that day's daily deal. Players are ranked by their best game, or for games in
    :data:`RANKED_BY_WINS` by wins then average score.
    """
    order = _WINS_ORDER if kind in RANKED_BY_WINS else _BEST_ORDER
    sql = _BOARD_SQL.format(order=order, period=_SINCE if daily is None else _DAILY,
                            name=_LAST_NAME)
    args = {"guild": guild_id, "kind": kind, "since": since, "daily": daily,
            "size": size + DAMAGED_SLACK, "asker": asker_id}
    rows = await _rows(store, sql, args)
    standings = readable(rows, lambda r: Standing(
        int(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[4]), float(r[5]),
        json_or(r[7], dict, f"result detail of member {r[1]} ({kind}, server {guild_id})"),
        r[8]), lambda r: f"result of member {r[1]} ({kind}, server {guild_id})")
    top, mine = _board(_renumbered(standings, rows), size, asker_id)
    return Leaderboard(top, mine, int(rows[0][6]) if rows else 0)


def _renumbered(standings: list[_Placed], rows: list[Any]) -> list[_Placed]:
    """Return a board's ``standings`` with the places of the ``rows`` left out as
    unreadable (damaged: see :func:`db.rows.readable`) taken out of the numbering, so
    no place is skipped."""
    kept = {s.place for s in standings}
    gone = sorted(int(r[0]) for r in rows if int(r[0]) not in kept)
    if not gone:
        return standings
    return [replace(s, place=s.place - sum(1 for g in gone if g < s.place))
            for s in standings]


def _board(standings: list[_Placed], size: int,
           asker_id: int) -> tuple[list[_Placed], _Placed | None]:
    """Return a board's top ``size`` lines, and the asker's line when below them (the
    rows read beyond the top, :data:`DAMAGED_SLACK`, fill places of damaged ones)."""
    top = [s for s in standings if s.place <= size]
    mine = next((s for s in standings if s.place > size and s.user_id == asker_id), None)
    return top, mine


async def count_results(store: GameStore, user_id: int) -> int:
    """Return how many results ``user_id`` has, in every server."""
    rows = await _rows(store, "SELECT COUNT(*) FROM results WHERE user_id = :user",
                       {"user": user_id})
    return int(rows[0][0])


async def forget_player(store: GameStore, user_id: int) -> int:
    """Delete every result of ``user_id`` (every server, every game); return how many.

    Other players' results of the same games stay. In finished games the member's seats
    are renamed "a former player" and lose their user id, and their id leaves the action
    logs; games still being played keep their seat until they end.
    """
    return await store.forget_player(user_id, FORMER_PLAYER)


@dataclass(frozen=True, slots=True)
class Traces:
    """What else of a member is stored beside their results: what /forget-me deletes or
    scrubs (``rated``, ``chose``, ``finished``) and what it has to leave for now
    (``playing``)."""

    #: They have a rating (in some server and game).
    rated: bool
    #: They chose whether turn notices ping them.
    chose: bool
    #: A finished game holds them: one they have a result of, or one whose seats,
    #: starter, ballots, action log (a lobby they joined and left) or table data hold
    #: their id (the games forgetting scrubs).
    finished: bool
    #: A game still open (a lobby, a game being played) holds their id the same way.
    playing: bool

    @property
    def deletable(self) -> bool:
        """Whether forgetting them now would delete or scrub anything (results aside)."""
        return self.rated or self.chose or self.finished


#: Whether games of some statuses (``{status}``) hold the member, as the store's
#: forgetting picks them: the looks by index first (results, which only finished games
#: have, ballots, the action log), then one walk of those games that stops at the first
#: one holding them (their seat, the starter, the table data). CASE tries each look only
#: while the ones before it found nothing.
_HELD = """CASE
    WHEN {results} THEN 1
    WHEN EXISTS (SELECT 1 FROM voters v JOIN games g ON g.id = v.game_id
                 WHERE v.user_id = :user AND g.status {status}) THEN 1
    WHEN EXISTS (SELECT 1 FROM actions a JOIN games g ON g.id = a.game_id
                 WHERE a.actor_id = :user AND g.status {status}) THEN 1
    WHEN EXISTS (SELECT 1 FROM games g WHERE g.status {status}
                 AND (g.starter_id = :user OR g.seats LIKE :seats ESCAPE '!'
                      OR g.extra LIKE :text ESCAPE '!')) THEN 1
    ELSE 0 END"""

_TRACES_SQL = """
SELECT CASE WHEN EXISTS (SELECT 1 FROM ratings WHERE user_id = :user) THEN 1 ELSE 0 END,
       CASE WHEN EXISTS (SELECT 1 FROM member_settings WHERE user_id = :user)
            THEN 1 ELSE 0 END,
       {finished},
       {playing}
""".format(
    finished=_HELD.format(status="NOT IN ('lobby', 'active')", results=(
        "EXISTS (SELECT 1 FROM results WHERE user_id = :user AND game_id IS NOT NULL)")),
    playing=_HELD.format(status="IN ('lobby', 'active')", results="1 = 0"))


def _like_escaped(text: str) -> str:
    """Return ``text`` as a LIKE pattern matching it anywhere (``!`` escapes)."""
    for special in ("!", "%", "_"):
        text = text.replace(special, "!" + special)
    return f"%{text}%"


async def traces(store: GameStore, user_id: int) -> Traces:
    """Return what of ``user_id`` is stored beside their results (one query).

    The looks by index (ratings, the ping choice, results, ballots, the action log) are
    cheap; a member none of them finds costs one walk of the games, which stops at the
    first game holding them (about 70 ms per 100,000 finished games on SQLite when
    none does).
    """
    rows = await _rows(store, _TRACES_SQL, {
        "user": user_id, "seats": _like_escaped(seats_needle(user_id)),
        "text": _like_escaped(str(user_id))})
    rated, chose, finished, playing = (bool(value) for value in rows[0])
    return Traces(rated=rated, chose=chose, finished=finished, playing=playing)


_BOARDS_SQL = f"""
SELECT id, CASE WHEN starter_id = :user THEN 1 ELSE 0 END FROM games
WHERE {UNPRUNED} AND board_message_id IS NOT NULL
  AND (starter_id = :user OR seats LIKE :seats ESCAPE '!' OR extra LIKE :text ESCAPE '!'
       OR id IN (SELECT game_id FROM voters WHERE user_id = :user)
       OR id IN (SELECT game_id FROM actions WHERE actor_id = :user))
ORDER BY id DESC LIMIT :limit"""


async def boards_naming(store: GameStore, user_id: int,
                        limit: int = 500) -> list[tuple[int, bool]]:
    """Return the finished games with a board that may name ``user_id`` (those /forget-me
    scrubs), newest first, ``limit`` at most, each with whether they started it; not a
    game retention emptied (its board can no longer be drawn: it stays as it was)."""
    rows = await _rows(store, _BOARDS_SQL, {
        "user": user_id, "seats": _like_escaped(seats_needle(user_id)),
        "text": _like_escaped(str(user_id)), "limit": limit})
    return [(int(game_id), bool(started)) for game_id, started in rows]


#: After this many rated games a rating counts as settled rather than provisional.
SETTLED_GAMES = 10


@dataclass(frozen=True, slots=True)
class RatingStanding:
    """One player's line on a rating leaderboard (or in /stats): OpenSkill's estimate
    ``mu``, its uncertainty ``sigma`` and the rated games it counts."""

    place: int
    user_id: int
    mu: float
    sigma: float
    games: int
    #: The name they last played under in the server (None: not known).
    name: str | None = None

    @property
    def rating(self) -> float:
        """The conservative rating shown: ``mu - 3 sigma``."""
        return self.mu - 3.0 * self.sigma

    @property
    def settled(self) -> bool:
        """Whether enough games are counted for the rating to be trusted."""
        return self.games >= SETTLED_GAMES


@dataclass(frozen=True, slots=True)
class RatingBoard:
    """The top of a rating leaderboard, the asker's line when below it, how many rated."""

    top: list[RatingStanding]
    mine: RatingStanding | None
    players: int


_RATING_BOARD_SQL = """
WITH ranked AS (
    SELECT user_id, mu, sigma, games,
           ROW_NUMBER() OVER (ORDER BY mu - 3 * sigma DESC, games DESC, user_id) AS place,
           COUNT(*) OVER () AS players
    FROM ratings WHERE guild_id = :guild AND kind = :kind
)
SELECT place, user_id, mu, sigma, games, players, {name} FROM ranked
WHERE place <= :size OR user_id = :asker ORDER BY place
"""


async def rating_board(
    store: GameStore, guild_id: int, kind: str, *, asker_id: int, size: int = 10
) -> RatingBoard:
    """Return the server's rating leaderboard of ``kind``: the top ``size`` by the
    conservative rating (``mu - 3 sigma``), and the asker's line when below them."""
    rows = await _rows(store, _RATING_BOARD_SQL.format(name=_LAST_NAME),
                       {"guild": guild_id, "kind": kind, "size": size + DAMAGED_SLACK,
                        "asker": asker_id})
    standings = readable(rows, lambda r: RatingStanding(
        int(r[0]), int(r[1]), float(r[2]), float(r[3]), int(r[4]), r[6]),
        lambda r: f"rating of member {r[1]} ({kind}, server {guild_id})")
    top, mine = _board(_renumbered(standings, rows), size, asker_id)
    return RatingBoard(top, mine, int(rows[0][5]) if rows else 0)


async def player_ratings(
    store: GameStore, guild_id: int, user_id: int
) -> dict[str, RatingStanding]:
    """Return ``user_id``'s rating in each rated game of the server, by kind (their place
    among the server's rated players included, ties broken as the leaderboard breaks
    them: more games first, then the lower user id)."""
    rows = await _rows(store, """
        SELECT r.kind, r.mu, r.sigma, r.games,
               (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id
                  AND o.kind = r.kind AND (o.mu - 3 * o.sigma > r.mu - 3 * r.sigma
                    OR (o.mu - 3 * o.sigma = r.mu - 3 * r.sigma
                        AND (o.games > r.games
                             OR (o.games = r.games AND o.user_id < r.user_id))))) + 1
        FROM ratings r WHERE r.user_id = :user AND r.guild_id = :guild
    """, {"user": user_id, "guild": guild_id})
    return dict(readable(rows, lambda r: (str(r[0]), RatingStanding(
        int(r[4]), user_id, float(r[1]), float(r[2]), int(r[3]))),
        lambda r: f"rating of member {user_id} ({r[0]}, server {guild_id})"))
