"""A server's open games, found by the server a page at a time (when the bot is removed
from it): only that server's open games, read through their own index. Both backends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from db.pg_params import qmarks_to_numbered
from db.rows import OPEN_IN_GUILD_SQL
from tests.support import ALICE, BOB, open_tables

#: 100,000 games in one statement both backends run: every 50th open, each in a server
#: of its own; the others finished, in server 1.
FILL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    " INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, options,"
    " state, events, extra, created_at, updated_at)"
    " SELECT CASE WHEN i % 50 = 0 THEN i + 1 ELSE 1 END, i, 'toy',"
    " CASE WHEN i % 50 = 0 THEN 'active' ELSE 'over' END,"
    " 7, '[]', '{}', NULL, '[]', '{}', i, i FROM n"
)


async def test_a_servers_open_games_come_by_id_a_page_at_a_time(tmp_path: Path) -> None:
    """Games and lobbies still open in server 1 come in id order, a page after the last
    id of the one before; its ended games and another server's open game do not."""
    async with open_tables(tmp_path / "t.db") as tables:
        first = await tables.start("toy", guild_id=1, channel_id=11, starter=ALICE)
        ended = await tables.start("toy", guild_id=1, channel_id=12, starter=ALICE)
        await tables.abandon(12, ALICE)
        elsewhere = await tables.start("toy", guild_id=2, channel_id=21, starter=BOB)
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=13, host=BOB)
        last = await tables.start("toy", guild_id=1, channel_id=14, starter=BOB)
        store = tables.store
        wanted = [first.id, lobby.id, last.id]
        assert await store.open_games_in_guild(1) == wanted
        page = await store.open_games_in_guild(1, limit=2)
        rest = await store.open_games_in_guild(1, limit=2, after_id=page[-1])
        assert (page, rest) == (wanted[:2], wanted[2:])
        assert await store.open_games_in_guild(1, after_id=last.id) == []
        assert await store.open_games_in_guild(2) == [elsewhere.id]
        assert await store.open_games_in_guild(3) == []
        assert ended.id not in wanted


async def _plan(store: Any) -> str:
    """Return the query plan of a page of server 1's open games, as the store runs it."""
    if store.backend == "sqlite":
        rows = await store.connection.execute_fetchall(
            "EXPLAIN QUERY PLAN " + OPEN_IN_GUILD_SQL, (1, 0, 100))
        return "\n".join(str(r[3]) for r in rows)
    async with store.acquire() as conn:
        await conn.execute("ANALYZE games")
        rows = await conn.fetch("EXPLAIN " + qmarks_to_numbered(OPEN_IN_GUILD_SQL), 1, 0, 100)
    return "\n".join(str(r[0]) for r in rows)


async def test_a_servers_open_games_are_read_from_their_index_among_100000(
        tmp_path: Path) -> None:
    """Among 98,000 finished games of the same server and 2,000 open games of other
    servers, its two open games are found by the index of open games by server (no walk
    of the games, no sort)."""
    async with open_tables(tmp_path / "t.db") as tables:
        store = tables.store
        await store.connection.execute(FILL, (100_000,))
        one = await tables.start("toy", guild_id=1, channel_id=-1, starter=ALICE)
        two = await tables.open_lobby("toy", guild_id=1, channel_id=-2, host=BOB)
        assert await store.open_games_in_guild(1) == [one.id, two.id]
        plan = await _plan(store)
        assert "games_open_by_guild" in plan, plan
        assert "SORT" not in plan.upper() and "TEMP B-TREE" not in plan.upper(), plan
