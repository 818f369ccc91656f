"""PostgreSQL: a save whose answer is lost (the connection dropped, or the command timed
out, as the server committed it) is looked for before it is called failed. One stored
is a save like any other, so the player is not told "nothing was changed" about a move
that happened, and whatever follows it (a computer's turn, a vote's decision) is shown;
one not stored is refused as before."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest

from bot.table.errors import Unavailable
from bot.table.service import Tables
from db.errors import StorageError
from db.pg_batch import SAVE_MANY
from db.postgres import PostgresStore
from tests.support import ALICE, BOB, Clock

pytestmark = pytest.mark.sqlite_only  # each test opens its PostgreSQL store itself

LOST = "connection was closed in the middle of operation"


class _Answers:
    """A pooled connection whose save statement (``SAVE_MANY``) runs or not, and whose
    answer is then lost: the failure comes after the commit, or before the statement."""

    def __init__(self, conn: asyncpg.Connection, *, committed: bool) -> None:
        self._conn = conn
        self._committed = committed

    def __getattr__(self, name: str) -> Any:
        return getattr(self._conn, name)

    async def fetch(self, sql: str, *args: Any) -> list[Any]:
        if sql != SAVE_MANY:
            return list(await self._conn.fetch(sql, *args))
        if self._committed:
            await self._conn.fetch(sql, *args)
        raise asyncpg.ConnectionDoesNotExistError(LOST)


@contextlib.asynccontextmanager
async def _tables(url: str) -> AsyncIterator[tuple[Tables, PostgresStore]]:
    clock, seeds = Clock(), iter(range(1, 10**6))
    store = await PostgresStore.open(url, clock)
    try:
        yield Tables(store, clock=clock, seeds=lambda: next(seeds)), store
    finally:
        await store.close()


def _losing(store: PostgresStore, *, committed: bool, commits: bool = False) -> None:
    """Make the store's writes lose their answers: the group save's (``committed``:
    after it was committed), and with ``commits`` every write transaction's, after its
    commit (a game's end, with its results)."""
    real = store.acquire

    @contextlib.asynccontextmanager
    async def acquire(**kw: Any) -> AsyncIterator[Any]:
        async with real(**kw) as conn:
            yield _Answers(conn, committed=committed)
        if commits and kw.get("write") and kw.get("transaction") is not False:
            raise StorageError(LOST, sent=True) from asyncpg.ConnectionDoesNotExistError(LOST)

    store.acquire = acquire  # type: ignore[method-assign]


async def test_a_move_stored_before_its_answer_was_lost_is_a_move(pg_url: str) -> None:
    """Bob's move is committed, then the connection drops: the move stands, once in the
    log, and the next move follows it."""
    async with _tables(pg_url) as (tables, store):
        game = await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE,
                                  mode="fast")
        _losing(store, committed=True)
        play = await tables.act(game.id, 0, BOB, "add1")
        assert play.game.row.version == 1
        assert [a["seq"] for a in await store.actions(game.id)] == [1]
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 1
        play = await tables.act(game.id, 1, ALICE, "add1")
        assert [a["seq"] for a in await store.actions(game.id)] == [1, 2]


async def test_a_move_never_stored_is_refused_and_changes_nothing(pg_url: str) -> None:
    """The connection drops before the statement: the player is told nothing changed,
    and nothing did."""
    async with _tables(pg_url) as (tables, store):
        game = await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE,
                                  mode="fast")
        _losing(store, committed=False)
        with pytest.raises(Unavailable):
            await tables.act(game.id, 0, BOB, "add1")
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 0
        assert await store.actions(game.id) == []


async def test_a_games_end_stored_before_its_answer_was_lost_ends_it(pg_url: str) -> None:
    """The move that ends a game writes its results in a transaction of its own; that
    commit's answer is lost: the game has ended, with one result each."""
    async with _tables(pg_url) as (tables, store):
        game = await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE,
                                  mode="fast")
        version = 0
        while True:
            loaded = await tables.load(game.id)
            if loaded.view()["count"] >= 9:
                break
            version = (await tables.act(game.id, version, ALICE, "add1")).game.row.version
        _losing(store, committed=True, commits=True)
        play = await tables.act(game.id, version, ALICE, "add1")
        assert not play.game.row.is_open
        stored = await store.get_game(game.id)
        assert stored is not None and stored.status == "over"
        assert [r["user_id"] for r in await store.results()] == [ALICE.user_id]


async def test_a_save_that_found_no_connection_is_not_looked_for(pg_url: str) -> None:
    """No connection could be had (the pool timed out): nothing was sent, so the player
    is told at once, without a read that would wait as long again."""
    async with _tables(pg_url) as (tables, store):
        game = await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE,
                                  mode="fast")
        reads: list[str] = []
        real_fetch = store._fetch

        async def fetch(sql: str, *args: Any) -> list[Any]:
            reads.append(sql)
            return await real_fetch(sql, *args)

        class NoConnections:
            """The pool, lending no connection."""

            @contextlib.asynccontextmanager
            async def acquire(self, timeout: float) -> AsyncIterator[Any]:
                raise TimeoutError
                yield  # (a generator, for the context manager)

        store._fetch = fetch  # type: ignore[method-assign]
        pool, store._pool = store._pool, NoConnections()  # type: ignore[assignment]
        try:
            with pytest.raises(Unavailable):
                await tables.act(game.id, 0, BOB, "add1")
        finally:
            store._pool = pool
        assert reads == []
        stored = await store.get_game(game.id)
        assert stored is not None and stored.version == 0


async def test_a_start_stored_before_its_answer_was_lost_is_started(pg_url: str) -> None:
    """A game's create is committed, then the connection drops: the start stands (the
    starter is not told "nothing was changed" of a game that then holds the channel),
    and a start never stored is refused as before, the channel left free."""
    async with _tables(pg_url) as (tables, store):
        real = store.acquire

        @contextlib.asynccontextmanager
        async def lost_before(**kw: Any) -> AsyncIterator[Any]:
            if kw.get("write"):
                raise StorageError(LOST, sent=True) from asyncpg.ConnectionDoesNotExistError(
                    LOST)
            async with real(**kw) as conn:
                yield conn

        store.acquire = lost_before  # type: ignore[method-assign]
        with pytest.raises(Unavailable):
            await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE, mode="fast")
        store.acquire = real  # type: ignore[method-assign]
        assert await store.open_game_in_channel(800) is None
        _losing(store, committed=True, commits=True)
        game = await tables.start("toy", guild_id=1, channel_id=800, starter=ALICE,
                                  mode="fast")
        store.acquire = real  # type: ignore[method-assign]
        stored = await store.open_game_in_channel(800)
        assert stored is not None and stored.id == game.id and stored.status == "active"
        assert (await tables.act(game.id, 0, BOB, "add1")).game.row.version == 1
