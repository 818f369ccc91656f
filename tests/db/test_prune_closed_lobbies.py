"""Retention of tables closed or expired while still a lobby: they never had a state,
and are pruned after RETENTION_DAYS like every finished game, once; the sweep finds
them through a partial index, not by reading every game. Both backends."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import db.retention
from bot.table.lobby import LOBBY_CANCEL, LOBBY_JOIN
from tests.support import ALICE, BOB, Clock, open_tables

DAY = 86400.0


async def test_closed_and_expired_lobbies_are_pruned_once_past_retention(tmp_path: Path) -> None:
    """A lobby its host closed and one the sweeper ended as idle lose their events,
    table data and action log after retention (their row and seats stay), and are not
    picked again; a lobby still open keeps everything."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        closed = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=ALICE)
        v = (await tables.act(closed.id, 0, BOB, LOBBY_JOIN)).game.row.version
        await tables.act(closed.id, v, ALICE, LOBBY_CANCEL)
        idle = await tables.open_lobby("toy", guild_id=1, channel_id=6, host=ALICE)
        await tables.act(idle.id, 0, BOB, LOBBY_JOIN)
        clock.advance(3600)

        async def ended(_game: Any) -> None:
            return None

        assert await tables.expire_idle({"lobby": clock.now - 60}, ended) == 1
        still_open = await tables.open_lobby("toy", guild_id=1, channel_id=7, host=ALICE)
        await tables.act(still_open.id, 0, BOB, LOBBY_JOIN)
        store = tables.store
        assert [(await store.get_game(g.id)).status for g in (closed, idle)] == [  # type: ignore[union-attr]
            "abandoned", "expired"]

        assert await store.prune_finished(clock.now - 30 * DAY) == 0
        clock.advance(31 * DAY)
        assert await store.prune_finished(clock.now - 30 * DAY) == 2
        assert await store.prune_finished(clock.now - 30 * DAY) == 0
        for game in (closed, idle):
            row = await store.get_game(game.id)
            assert row is not None and row.state is None
            assert (row.events, row.extra) == ([], {})
            assert await store.actions(game.id) == []
            assert [s["name"] for s in row.seats] == ["Alice", "Bob"]
        kept = await store.get_game(still_open.id)
        assert kept is not None and kept.events == ["Alice opened a table.", "Bob joined."]
        assert len(await store.actions(still_open.id)) == 1


GAMES = 100_000
#: 100,000 finished games already pruned, in one statement both backends run.
FILL = (
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    " INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats, options,"
    " state, events, extra, created_at, updated_at)"
    " SELECT 1, i, 'toy', 'over', 7, '[]', '{}', NULL, '[]', '{}', i, i FROM n"
)


async def _plan(store: Any, before: float) -> str:
    """Return the query plan of the sweep's pick, as the store runs it."""
    if store.backend == "sqlite":
        seen: list[str] = []
        await store.writer.run(lambda conn: conn.set_trace_callback(seen.append))
        try:
            await store.prune_finished(before, limit=1)
        finally:
            await store.writer.run(lambda conn: conn.set_trace_callback(None))
        (pick,) = [sql for sql in seen if sql.startswith("SELECT id FROM games")]
        rows = await store.connection.execute_fetchall("EXPLAIN QUERY PLAN " + pick)
        return "\n".join(str(r[3]) for r in rows)
    async with store.acquire() as conn:
        await conn.execute("ANALYZE games")
        rows = await conn.fetch(
            f"EXPLAIN SELECT id FROM games WHERE {db.retention.UNPRUNED} AND updated_at < $1"
            " ORDER BY updated_at LIMIT $2 FOR UPDATE SKIP LOCKED", before, 10)
    return "\n".join(str(r[0]) for r in rows)


async def test_the_sweep_reads_the_unpruned_games_only_among_100000(tmp_path: Path) -> None:
    """Among 100,000 finished games already pruned, the sweep's pick searches the partial
    index of unpruned finished games (no walk of the games, no sort) and finds the old
    closed lobby and the old finished game, not the recent one."""
    clock = Clock(10_000_000.0)
    async with open_tables(tmp_path / "t.db", clock) as tables:
        store = tables.store
        await store.connection.execute(FILL, (GAMES,))
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=-1, host=ALICE)
        await tables.act(lobby.id, 0, ALICE, LOBBY_CANCEL)
        played = await tables.start("toy", guild_id=1, channel_id=-2, starter=ALICE)
        await tables.act(played.id, played.row.version, ALICE, "add1")
        await tables.abandon(-2, ALICE)
        clock.advance(40 * DAY)
        recent = await tables.open_lobby("toy", guild_id=1, channel_id=-3, host=ALICE)
        await tables.act(recent.id, 0, ALICE, LOBBY_CANCEL)
        before = clock.now - 30 * DAY

        started = time.perf_counter()
        assert await store.prune_finished(before) == 2
        assert await store.prune_finished(before) == 0
        took = time.perf_counter() - started
        assert took < 5.0, took  # a generous bound: the plan below is the real check
        plan = await _plan(store, before)
        print(plan)
        assert "games_finished_unpruned" in plan, plan
        assert "SCAN" not in plan and "Seq Scan" not in plan and "TEMP B-TREE" not in plan, plan
        for game in (lobby, played):
            row = await store.get_game(game.id)
            assert row is not None and row.events == [] and row.state is None
        row = await store.get_game(recent.id)
        assert row is not None and row.events != []
        assert len(await store.actions(recent.id)) == 1


def test_both_backends_pick_with_the_words_of_the_index() -> None:
    """The pick's condition is the partial index's, word for word, on both backends (a
    planner uses a partial index only for a condition it can prove implies the index's)."""
    for folder, number in (("migrations", "0013"), ("pg_migrations", "0014")):
        (script,) = Path(db.retention.__file__).parent.joinpath(folder).glob(f"{number}_*.sql")
        text = " ".join(script.read_text().split())
        assert f"WHERE {db.retention.UNPRUNED};" in text, script


async def test_retention_keeps_how_a_finished_table_played(tmp_path: Path) -> None:
    """A finished game's table data loses every name, vote and move at retention, but
    keeps how the table played (its mode, vote window, turn timer, notices), which Play
    again opens the next game with. Both backends."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=5, starter=ALICE,
                                  mode="fast", window=90)
        await tables.act(game.id, game.row.version, ALICE, "add1")
        await tables.abandon(5, ALICE)
        store = tables.store
        before = await store.get_game(game.id)
        assert before is not None and set(before.extra) > {"mode", "window"}, before.extra
        clock.advance(31 * DAY)
        assert await store.prune_finished(clock.now - 30 * DAY) == 1
        row = await store.get_game(game.id)
        assert row is not None and row.state is None and row.events == []
        assert row.extra == {"mode": "fast", "window": 90}
