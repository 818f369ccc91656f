"""Moving house: SQLite to PostgreSQL with nothing lost, and the online SQLite backup."""

from __future__ import annotations

import sqlite3

import asyncpg
import pytest

from bot.games import registry
from db.base import STARTED_KEY
from db.errors import NotEmpty
from db.moving import backup_sqlite, copy_sqlite_to_postgres
from db.postgres import PostgresStore
from db.rows import NewGame, ResultRow
from db.store import Store
from tests.support import Clock

pytestmark = pytest.mark.sqlite_only  # copies between the two backends itself

KINDS = {"tinker": 1, "tinrealm": 1, "steam": 3}


async def _fill(store: Store) -> None:
    """Open and finished games of each kind, with action logs and results."""
    channel = 0
    for kind, seats in KINDS.items():
        engine = registry.engine(kind)
        for finish in (False, True):
            channel += 1
            state = engine.new(channel, seats)
            game = await store.create_game(NewGame(
                guild_id=1, channel_id=channel, kind=kind, status="active", starter_id=10,
                seats=[{"user_id": 10 + i, "name": f"P{i}", "computer": i > 0}
                       for i in range(seats)],
                options={}, only_starter=False, state=engine.dump(state), events=["start"]))
            moves = 0
            while not engine.is_over(state) and (finish or moves < 5):
                seat = engine.to_act(state)
                action = engine.computer_action(state, seat)
                state = engine.apply(state, seat, action).state
                expected = game.version
                game.version += 1
                game.state = engine.dump(state)
                results = []
                if engine.is_over(state):
                    game.status = "over"
                    results = [ResultRow(10, "win", 3, {"k": kind}, together=True)]
                await store.save_game(game, expected, action={"id": action}, actor_id=10,
                                      results=results)
                moves += 1
    await store.set_meta("commands", "hash")
    await store.set_meta(STARTED_KEY, "1700000000")


async def test_copy_keeps_every_row_and_every_state_replays(tmp_path, pg_url):
    """Counts of every table match; every game's state loads and dumps the same. A bot
    started once on the empty PostgreSQL before the move left only its notes (its start,
    being alive, the commands synced, its shards): the move is not refused for them, and
    the source's own notes are copied over them."""
    path = tmp_path / "old.db"
    store = await Store.open(path, Clock())
    await _fill(store)
    source_counts = await store.count_rows()
    await store.close()

    early = await PostgresStore.open(pg_url, Clock())  # a start before the move: its notes
    for key, value in ((STARTED_KEY, "1800000000"), ("alive", "1800000060"),
                       ("commands:global", "abc"), ("shard_layout", "1")):
        await early.set_meta(key, value)
    await early.close()
    counts = await copy_sqlite_to_postgres(path, pg_url)
    assert counts == source_counts and counts["actions"] > 10

    source = await Store.open(path, Clock())
    target = await PostgresStore.open(pg_url, Clock())
    try:
        assert await target.count_open() == await source.count_open() == 3
        for game_id in range(1, counts["games"] + 1):
            old, new = await source.get_game(game_id), await target.get_game(game_id)
            assert new is not None and old is not None and new.raw_state == old.raw_state
            engine = registry.engine(new.kind)
            assert engine.dump(engine.load(new.state)) == old.state
            assert await target.actions(game_id) == await source.actions(game_id)
        assert await target.results() == await source.results()
        fresh = await target.create_game(NewGame(
            guild_id=1, channel_id=99, kind="tinker", status="active", starter_id=1,
            seats=[], options={}, only_starter=False, state=None, events=[]))
        assert fresh.id == counts["games"] + 1
        with pytest.raises(NotEmpty, match="not empty"):
            await copy_sqlite_to_postgres(path, pg_url)
    finally:
        await source.close()
        await target.close()


async def test_backup_is_a_consistent_copy(tmp_path):
    """The online backup holds the same rows as the live database."""
    path = tmp_path / "live.db"
    store = await Store.open(path, Clock())
    try:
        await _fill(store)
        await backup_sqlite(path, tmp_path / "copy.db")
        with sqlite3.connect(tmp_path / "copy.db") as copy:
            games = copy.execute("SELECT count(*) FROM games").fetchone()[0]
            actions = copy.execute("SELECT count(*) FROM actions").fetchone()[0]
        counts = await store.count_rows()
        assert (games, actions) == (counts["games"], counts["actions"])
    finally:
        await store.close()


async def test_backup_leaves_out_the_space_retention_freed(tmp_path):
    """Rows deleted since (as retention deletes them) leave free pages in the live file,
    which SQLite keeps; the backup is compact, and opens as the same database (schema
    version and rows)."""
    path = tmp_path / "live.db"
    store = await Store.open(path, Clock())
    try:
        await _fill(store)
        await store.connection.execute(
            "CREATE TABLE padding AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL"
            " SELECT i + 1 FROM n WHERE i < 20000) SELECT randomblob(200) AS b FROM n")
        await store.connection.execute("DROP TABLE padding")
        await backup_sqlite(path, tmp_path / "copy.db")
    finally:
        await store.close()
    with sqlite3.connect(path) as live, sqlite3.connect(tmp_path / "copy.db") as copy:
        assert live.execute("PRAGMA freelist_count").fetchone()[0] > 500
        assert copy.execute("PRAGMA freelist_count").fetchone()[0] == 0
        assert (copy.execute("PRAGMA user_version").fetchone()
                == live.execute("PRAGMA user_version").fetchone())
        assert (copy.execute("SELECT count(*) FROM actions").fetchone()
                == live.execute("SELECT count(*) FROM actions").fetchone())
    assert (tmp_path / "copy.db").stat().st_size < path.stat().st_size / 4


async def test_copy_into_a_schema_of_the_users_own(tmp_path, empty_url):
    """A database set up with a schema named after its user (PostgreSQL's advice for a
    shared server: the search path puts the bot's tables there) is copied into too."""
    source = await Store.open(tmp_path / "bot.db", Clock())
    await source.create_game(NewGame(
        guild_id=1, channel_id=2, kind="toy", status="active", starter_id=3,
        seats=[{"user_id": 3, "name": "A"}], options={}, only_starter=False,
        state={"count": 0}, events=["start"]))
    await source.close()
    conn = await asyncpg.connect(empty_url)
    try:
        await conn.execute("CREATE SCHEMA AUTHORIZATION CURRENT_USER")
    finally:
        await conn.close()
    assert (await copy_sqlite_to_postgres(tmp_path / "bot.db", empty_url))["games"] == 1
    store = await PostgresStore.open(empty_url, Clock())
    try:
        assert await store.open_game_in_channel(2) is not None
        tables = await store.query("SELECT table_schema FROM information_schema.tables"
                                   " WHERE table_name = 'games'")
        assert [r[0] for r in tables] != ["public"]
    finally:
        await store.close()
