"""The open games saved since a time (their boards are shown again after a start): only
those, newest first, read through the index of open games by age among 100,000 open
games. Both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.postgres import qmarks_to_numbered
from db.rows import CHANGED_SINCE_SQL
from tests.support import ALICE, Clock, open_tables

#: 100,000 open games with a board, saved long ago (``updated_at`` 1 to 100,000).
FILL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    " INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, options,"
    " state, events, extra, created_at, updated_at, board_channel_id, board_message_id)"
    " SELECT 1, i, 'toy', 'active', 7, '[]', '{}', NULL, '[]', '{}', i, i, i, i FROM n"
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
    """Among 100,000 open games saved long ago, the three saved since the time come,
    newest first; one without a board and an ended one do not."""
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
        assert await store.changed_since(since) == recent[::-1]
        assert await store.changed_since(since, limit=2) == recent[:0:-1]
        assert await store.changed_since(clock() + 1) == []
        plan = await _plan(store, since)
        assert "games_open_by_age" in plan, plan
