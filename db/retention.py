"""Retention: finished games emptied of what they no longer need, a few at a time.

A game finished before the retention cutoff (a table closed or expired while still a
lobby, which never had a state, too) loses its state, events, voters, action log and
daily takers, and its table data keeps only how the table played
(:func:`db.rows.settings_only`); results stay. Each store goes :data:`PRUNE_STEP` games
per transaction (:func:`pruned_in_steps`), each a write of its own, so a long action log
never holds the database for long and clicks go in between: :func:`prune_sqlite` on the
SQLite store's writing thread, :func:`prune_postgres` on a pooled connection.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from db.rows import settings_only

if TYPE_CHECKING:
    import asyncpg

#: How many finished games one pruning transaction empties.
PRUNE_STEP = 10

#: The finished games whose data is still kept: the ones with a state, and the tables
#: closed or expired while still a lobby (no state) whose events are not emptied yet.
#: Pruning empties both, so a pruned game is never picked again. The words are those of
#: the partial index ``games_finished_unpruned`` (migration 13 on SQLite, 14 on
#: PostgreSQL), which the pick reads: SQLite's planner, without statistics, would rather
#: walk every finished game in the index of games by status and age (pruned ones too)
#: and sort them, on every sweep.
UNPRUNED = ("status IN ('over', 'abandoned', 'expired')"
            " AND (state IS NOT NULL OR events <> '[]')")
_UNPRUNED_GAMES = "games INDEXED BY games_finished_unpruned"


async def pruned_in_steps(step: Callable[[int], Awaitable[int]], limit: int) -> int:
    """Empty up to ``limit`` games by ``step`` (one transaction emptying at most the
    games it is given, answering how many it did), :data:`PRUNE_STEP` at a time, until
    a step finds fewer; return how many games were emptied."""
    pruned = 0
    while pruned < limit:
        size = min(PRUNE_STEP, limit - pruned)
        done = await step(size)
        pruned += done
        if done < size:
            break
    return pruned


def prune_sqlite(conn: sqlite3.Connection, before: float, limit: int) -> int:
    """Empty up to ``limit`` games finished before ``before``; return how many."""
    ids = [r[0] for r in conn.execute(
        f"SELECT id FROM {_UNPRUNED_GAMES} WHERE {UNPRUNED} AND updated_at < ?"
        " ORDER BY updated_at LIMIT ?",
        (before, limit),
    )]
    if not ids:
        return 0
    marks = ", ".join("?" * len(ids))
    conn.execute(f"DELETE FROM actions WHERE game_id IN ({marks})", ids)
    conn.execute(f"DELETE FROM voters WHERE game_id IN ({marks})", ids)
    conn.execute(f"DELETE FROM daily_played WHERE game_id IN ({marks})", ids)
    kept = conn.execute(f"SELECT id, extra FROM games WHERE id IN ({marks})", ids).fetchall()
    conn.executemany(
        "UPDATE games SET state = NULL, events = '[]', extra = ? WHERE id = ?",
        [(settings_only(extra), game_id) for game_id, extra in kept],
    )
    return len(ids)


async def prune_postgres(conn: asyncpg.Connection, before: float, limit: int) -> int:
    """Empty up to ``limit`` games finished before ``before``, inside the transaction of
    ``conn``; return how many. Games another transaction holds are left for later."""
    ids = [r[0] for r in await conn.fetch(
        f"SELECT id FROM games WHERE {UNPRUNED} AND updated_at < $1"
        " ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED",
        before, limit,
    )]
    if ids:
        await conn.execute("DELETE FROM actions WHERE game_id = ANY($1::bigint[])", ids)
        await conn.execute("DELETE FROM voters WHERE game_id = ANY($1::bigint[])", ids)
        await conn.execute("DELETE FROM daily_played WHERE game_id = ANY($1::bigint[])",
                           ids)
        kept = await conn.fetch(
            "SELECT id, extra FROM games WHERE id = ANY($1::bigint[])", ids)
        await conn.executemany(
            "UPDATE games SET state = NULL, events = '[]', extra = $1 WHERE id = $2",
            [(settings_only(row["extra"]), row["id"]) for row in kept],
        )
    return len(ids)
