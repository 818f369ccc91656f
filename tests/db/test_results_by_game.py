"""/forget-me reads the results of every finished game a member played, one game at a
time, inside the write transaction that holds every other save back (SQLite): each
game's results are read by their own index, not by a walk of every result kept.
Both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.forget import RESULTS_OF_GAME_SQL
from db.pg_params import qmarks_to_numbered
from tests.support import open_tables

#: 100,000 results of 20,000 games in one statement both backends run.
FILL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    " INSERT INTO results (game_id, guild_id, user_id, kind, outcome, score, detail, at)"
    " SELECT NULL, 1, i % 997, 'toy', 'win', 1, '{}', i FROM n"
)


async def _plan(store: Any) -> str:
    """Return the query plan of one game's results, as /forget-me runs it."""
    if store.backend == "sqlite":
        rows = await store.connection.execute_fetchall(
            "EXPLAIN QUERY PLAN " + RESULTS_OF_GAME_SQL, (5,))
        return "\n".join(str(r[3]) for r in rows)
    async with store.acquire() as conn:
        await conn.execute("ANALYZE results")
        rows = await conn.fetch("EXPLAIN " + qmarks_to_numbered(RESULTS_OF_GAME_SQL), 5)
    return "\n".join(str(r[0]) for r in rows)


async def test_a_games_results_are_read_by_their_index(tmp_path: Path) -> None:
    """Among 100,000 results, one game's are found through ``results_by_game``."""
    async with open_tables(tmp_path / "t.db") as tables:
        store = tables.store
        await store.connection.execute(FILL, (100_000,))
        plan = await _plan(store)
        assert "results_by_game" in plan, plan
