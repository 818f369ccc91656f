"""The games saved since a time, open or ended (their boards are shown again after a
start): only those, newest first, read through the index by status and age among 100,000
games of every status. Both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.pg_params import qmarks_to_numbered
from db.rows import CHANGED_SINCE_SQL
from tests.support import ALICE, Clock, open_tables

#: 100,000 games with a board, saved long ago (``updated_at`` 1 to 100,000), a fifth
#: of each status.
FILL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    " INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, options,"
    " state, events, extra, created_at, updated_at, board_channel_id, board_message_id)"
    " SELECT 1, i, 'toy', CASE i % 5 WHEN 0 THEN 'lobby' WHEN 1 THEN 'active'"
    " WHEN 2 THEN 'over' WHEN 3 THEN 'abandoned' ELSE 'expired' END,"
    " 7, '[]', '{}', NULL, '[]', '{}', i, i, i, i FROM n"
)


async def _plan(store: Any, since: float) -> str:
    """Return the plan of the query as the store runs it."""
    if store.backend == "sqlite":
        sql = CHANGED_SINCE_SQL.format(games="games INDEXED BY games_open_by_age",
                                       shards="1 = 1")
        rows = await store.connection.execute_fetchall("EXPLAIN QUERY PLAN " + sql,
                                                       (since, 500))
        return "\n".join(str(r[3]) for r in rows)
    sql = CHANGED_SINCE_SQL.format(games="games", shards="1 = 1")
    async with store.acquire() as conn:
        await conn.execute("ANALYZE games")
        rows = await conn.fetch("EXPLAIN " + qmarks_to_numbered(sql), since, 500)
    return "\n".join(str(r[0]) for r in rows)


async def test_only_the_games_saved_since_come_read_from_the_age_index(tmp_path: Path) -> None:
    """Among 100,000 games saved long ago, the four saved since the time come, newest
    first, the one that ended too; one without a board does not. Only the recent rows
    of the index by status and age are read: no scan of the table or of the index."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        store = tables.store
        await store.connection.execute(FILL, (100_000,))
        since = clock()
        recent = []
        for channel in (-1, -2, -3):
            clock.advance(1)
            game = await tables.start("toy", guild_id=1, channel_id=channel, starter=ALICE)
            await tables.set_board(game, channel, 1000 + channel)
            recent.append(game.id)
        clock.advance(1)
        await tables.start("toy", guild_id=1, channel_id=-4, starter=ALICE)  # no board
        ended = await tables.start("toy", guild_id=1, channel_id=-5, starter=ALICE)
        await tables.set_board(ended, -5, 995)
        await tables.abandon(-5, ALICE)
        assert not (await tables.load(ended.id)).row.is_open
        recent.append(ended.id)
        assert await store.changed_since(since) == recent[::-1]
        assert await store.changed_since(since, limit=2) == recent[:1:-1]
        assert await store.changed_since(clock() + 1) == []
        plan = await _plan(store, since)
        assert "games_open_by_age" in plan, plan
        if store.backend == "sqlite":  # a search of the index, not a scan of it
            assert "SEARCH games USING INDEX games_open_by_age" in plan, plan
            assert "SCAN" not in plan.replace("USE TEMP B-TREE", ""), plan
        else:  # a range of the index by age, no scan of the table
            assert "Seq Scan" not in plan and "updated_at >=" in plan, plan
