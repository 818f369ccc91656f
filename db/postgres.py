"""The PostgreSQL store (``DATABASE_URL=postgresql://...``), through an asyncpg pool.

Same interface and guarantees as the SQLite store (:class:`db.base.GameStore`): a save
is one transaction with a compare-and-swap on the version, ruling C3 and the daily deal
are unique indexes, and connection failures or timeouts come out as StorageError.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from db.base import SETTING_COLUMNS, TABLES, setting_changes, settings_row
from db.errors import ChannelBusy, DailyPlayed, StorageError, TooManyOpen, VersionConflict
from db.forget import (
    FORMER_PLAYER,
    GAME_DOCUMENTS,
    scrub_game,
    scrub_logged,
    scrub_text_column,
    seats_needle,
)
from db.pg_batch import SaveQueue
from db.pg_migrate import pg_migrate
from db.pg_outage import Outage
from db.ratings import Rating, new_ratings, rated_people
from db.rows import (
    CHANGED_SINCE_SQL,
    COMPUTER_SEATED,
    GAME_COLUMNS,
    OPEN_IN_GUILD_SQL,
    VOTER_COLUMNS,
    GameRow,
    KeptReads,
    KeptRows,
    NewGame,
    RatedSeat,
    ResultRow,
    Shards,
    VoterRow,
    board_of,
    daily_takers,
    idle_sql,
    row_to_game,
    row_to_voter,
    save_time,
    settings_only,
    shard_sql,
)
from db.rows import to_json as _json

#: Seconds any one statement (or waiting for a pooled connection) may take.
TIMEOUT = 5.0

_NAMED = re.compile(r"(?<![:\w]):([A-Za-z_]\w*)")
_QMARK = re.compile(r"\?")

#: Failures that mean "the database cannot be used right now".
#: Errors of a connection that died under a request: a read is tried once more.
_LOST = (
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    asyncpg.PostgresConnectionError,
    asyncpg.AdminShutdownError,
    ConnectionError,
)
log = logging.getLogger(__name__)

#: Longest wait for the pool's connections to close at a stop before they are cut.
CLOSE_SECONDS = 5.0
#: Pause before that second try, while the pool replaces the dead connection.
RECONNECT_PAUSE = 0.05

_UNAVAILABLE = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.InternalClientError,
    OSError,
    asyncio.TimeoutError,
)


def named_to_numbered(sql: str, params: dict[str, Any]) -> tuple[str, list[Any]]:
    """Turn ``:name`` parameters into PostgreSQL's ``$1, $2...``; return the SQL and args.

    Meant for the store's own queries: a ``:word`` inside a string literal would be taken
    for a parameter too, so such queries pass values as parameters instead.
    """
    order: list[str] = []

    def number(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in order:
            order.append(name)
        return f"${order.index(name) + 1}"

    return _NAMED.sub(number, sql), [params[name] for name in order]


def qmarks_to_numbered(sql: str) -> str:
    """Turn ``?`` parameters into ``$1, $2...`` (for SQL written for both backends)."""
    counter = iter(range(1, 10_000))
    return _QMARK.sub(lambda _m: f"${next(counter)}", sql)



_UPDATE = (
    "UPDATE games SET status = $1, seats = $2, options = $3, state = $4,"
    " version = $5, events = $6, extra = $7, deadline = $8, updated_at = $9"
    " WHERE id = $10 AND version = $11 AND updated_at = $12"
)
"""A game's compare-and-swap save: it changes one row, or none when another writer won."""

#: The first key of the advisory lock a capped create takes (the second is a hash of
#: the server and the starter), so that creates of one starter count one at a time.
_CAP_LOCK = 0x7AB1E02

#: How many finished games one pruning transaction empties.
PRUNE_STEP = 10

#: The finished games whose data is still kept, in the words of the partial index
#: ``games_finished_unpruned`` (migration 14); see the SQLite store's.
UNPRUNED = ("status IN ('over', 'abandoned', 'expired')"
            " AND (state IS NOT NULL OR events <> '[]')")



class PostgresStore(KeptReads):
    """All PostgreSQL access, through a small pool of connections."""

    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float]) -> None:
        self._pool = pool
        self._clock = clock
        self.url = ""
        #: The rows this process last saved of recently played games (see KeptRows).
        self.kept = KeptRows()
        self._saves = SaveQueue(lambda: self.acquire(write=True, transaction=False))
        #: Whether the server is out of reach now (logged once when it starts and ends).
        self.outage = Outage()
        #: Why the last write failed for want of the database, or None when it was stored.
        self.last_failure: str | None = None

    @classmethod
    async def open(
        cls, url: str, clock: Callable[[], float], *, max_size: int = 10
    ) -> PostgresStore:
        """Connect to ``url`` and bring the schema up to date; return the store.

        The migration runs first, on a connection of its own without the pool's
        :data:`TIMEOUT`: it waits as long as another process is migrating the same
        database, and a long step (an index built on a big table) is not cut short.
        Raise StorageError when the server cannot be reached or the migration fails,
        and SchemaTooNew when the database is newer than this code.
        """
        try:
            conn = await asyncpg.connect(url, timeout=TIMEOUT, command_timeout=None)
        except _UNAVAILABLE as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        except ValueError:  # its words may repeat the password: not shown
            raise StorageError("cannot connect to PostgreSQL: its URL cannot be read") from None
        try:
            await pg_migrate(conn)
        except _UNAVAILABLE as exc:
            conn.terminate()
            raise StorageError(f"cannot bring the PostgreSQL schema up to date: "
                               f"{str(exc) or type(exc).__name__}") from exc
        except BaseException:
            conn.terminate()  # cancelled or refused: no round trip to say goodbye
            raise
        try:
            await conn.close(timeout=TIMEOUT)
        except _UNAVAILABLE:  # migrated already: a goodbye not answered changes nothing
            conn.terminate()
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=max_size, command_timeout=TIMEOUT, timeout=TIMEOUT
            )
        except _UNAVAILABLE as exc:
            raise StorageError(f"cannot connect to PostgreSQL: {exc}") from exc
        store = cls(pool, clock)
        store.url = url
        store.outage.watch_pool()
        return store

    @property
    def pool(self) -> asyncpg.Pool:
        """The underlying pool (for maintenance and tests)."""
        return self._pool

    async def close(self) -> None:
        """Close every connection once the ones in use are released, for at most
        :data:`CLOSE_SECONDS`; then cut them (a server that stopped answering, as in a
        failover, would hold a stop until the process is killed)."""
        self.outage.unwatch_pool()
        try:
            await asyncio.wait_for(self._pool.close(), CLOSE_SECONDS)
        except TimeoutError:
            log.warning("PostgreSQL did not answer the close within %.0f s: connections cut",
                        CLOSE_SECONDS)
            self._pool.terminate()

    async def health_problem(self) -> str | None:
        """Return why the store cannot save right now, or None when it can: the server
        out of reach, the last write refused, or a read not answered."""
        if self.outage.since is not None:
            return f"PostgreSQL is out of reach: {self.outage.reason}"
        if self.last_failure is not None:
            return f"the last write was refused: {self.last_failure}"
        try:
            await self._fetch("SELECT 1")
        except StorageError as exc:
            return f"the database cannot be read: {exc}"
        return None

    @asynccontextmanager
    async def acquire(self, *, write: bool = False,
                      transaction: bool | None = None) -> AsyncIterator[asyncpg.Connection]:
        """Lend a pooled connection for a read, or a ``write`` (in a transaction unless
        ``transaction`` is false: a single statement is one by itself); errors become
        StorageError, except the ones the store's callers handle. A write's outcome is
        what the store's health reports."""
        try:
            async with self._pool.acquire(timeout=TIMEOUT) as conn:
                if not (write if transaction is None else transaction):
                    yield conn
                else:
                    async with conn.transaction():
                        yield conn
        except (VersionConflict, ChannelBusy, DailyPlayed, TooManyOpen,
                asyncpg.UniqueViolationError):
            self.outage.answered()
            raise
        except _UNAVAILABLE as exc:
            if not isinstance(exc, asyncpg.PostgresError) or isinstance(exc, _LOST):
                self.outage.failed(exc)
            if write:
                self.last_failure = str(exc) or type(exc).__name__
            raise StorageError(str(exc) or type(exc).__name__) from exc
        self.outage.answered()
        if write:
            self.last_failure = None

    async def _fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        """Run a read; a connection lost under it (a server restart) is replaced once."""
        try:
            async with self.acquire() as conn:
                return list(await conn.fetch(sql, *args))
        except StorageError as exc:
            if not isinstance(exc.__cause__, _LOST):
                raise
        await asyncio.sleep(RECONNECT_PAUSE)
        async with self.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    async def _fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        rows = await self._fetch(sql, *args)
        return rows[0] if rows else None

    async def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one read-only portable query with ``:name`` parameters; return its rows."""
        text, args = named_to_numbered(sql, params or {})
        return [tuple(row) for row in await self._fetch(text, *args)]

    # -- games ---------------------------------------------------------------------------

    async def create_game(self, new: NewGame, *, max_open: int | None = None) -> GameRow:
        """Insert a new open game; raise ChannelBusy (C3) or DailyPlayed.

        With ``max_open``, raise TooManyOpen when the starter already has that many open
        games in the server: the create first takes an advisory lock of that starter in
        that server, so creates at once count and insert one after the other.
        """
        now = self._clock()
        sql = ("INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats,"
               " options, only_starter, state, version, events, created_at, updated_at,"
               " daily, extra) SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11,"
               " $11, $12, $13")
        args: list[Any] = [new.guild_id, new.channel_id, new.kind, new.status, new.starter_id,
                           _json(new.seats), _json(new.options), int(new.only_starter),
                           None if new.state is None else _json(new.state), _json(new.events),
                           now, new.daily, _json(new.extra)]
        if max_open is not None:
            sql += (" WHERE (SELECT count(*) FROM games WHERE starter_id = $5"
                    " AND guild_id IS NOT DISTINCT FROM $1"
                    " AND status IN ('lobby', 'active')) < $14")
            args.append(max_open)
        try:
            async with self.acquire(write=True) as conn:
                if max_open is not None:
                    await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))",
                                       _CAP_LOCK, f"{new.guild_id}:{new.starter_id}")
                row = await conn.fetchrow(f"{sql} RETURNING {GAME_COLUMNS}", *args)
                if row is None:
                    raise TooManyOpen(max_open or 0)
        except asyncpg.UniqueViolationError as exc:
            if "daily" in (exc.constraint_name or ""):
                raise DailyPlayed(new.daily) from None
            existing = await self.open_game_in_channel(new.channel_id)
            raise ChannelBusy(existing.id if existing else None) from None
        assert row is not None
        game = row_to_game(row)
        self.kept.keep(game, (row["seats"], row["options"], row["state"], row["events"],
                              row["extra"]), game.updated_at)
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game with ``game_id``, or None."""
        row = await self._fetchrow(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        return self.kept.saw(row_to_game(row) if row else None)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's open game (lobby or active), or None."""
        row = await self._fetchrow(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1"
            " AND status IN ('lobby', 'active')",
            channel_id,
        )
        return self.kept.saw(row_to_game(row) if row else None)

    async def save_game(
        self,
        game: GameRow,
        expected_version: int,
        *,
        action: dict[str, Any] | None = None,
        actor_id: int | None = None,
        results: Sequence[ResultRow] = (),
        ratings: Sequence[RatedSeat] = (),
        voters: Sequence[VoterRow] = (),
    ) -> None:
        """Write ``game`` if it is still at ``expected_version``, with its log, results,
        the people's new ratings and the rows of ``voters``, in one transaction; raise
        VersionConflict if another writer got there first."""
        now = save_time(self._clock(), game.updated_at)
        columns = (game.document_text("seats", game.seats),
                   game.document_text("options", game.options), game.state_text(),
                   game.document_text("events", game.events),
                   game.document_text("extra", game.extra))
        try:
            await self._save(game, expected_version, now, columns, action, actor_id, results,
                             ratings, voters)
        except BaseException:
            self.kept.drop(game.id)
            raise
        since, game.updated_at = game.updated_at, now
        self.kept.keep(game, columns, now, voters, since=since)

    async def _save(
        self, game: GameRow, expected_version: int, now: float, columns: Sequence[str | None],
        action: dict[str, Any] | None, actor_id: int | None, results: Sequence[ResultRow],
        ratings: Sequence[RatedSeat] = (),
        voters: Sequence[VoterRow] = (),
    ) -> None:
        seats, options, state, events, extra = columns
        voter_rows = tuple(v.values(game.id) for v in voters)
        daily_rows = daily_takers(game, action, actor_id, voters, now)
        game_args = (game.status, seats, options, state, game.version, events, extra,
                     game.deadline, now, game.id, expected_version, game.updated_at)
        if not results and not ratings:  # a move: one statement, shared with saves queued meanwhile
            await self._saves.save((
                game.id, game.status, seats, options, state, game.version, events, extra,
                game.deadline, now, expected_version, game.updated_at, actor_id,
                None if action is None else _json(action), voter_rows, tuple(daily_rows),
            ))
            return
        async with self.acquire(write=True) as conn:
            status = await conn.execute(_UPDATE, *game_args)
            if status != "UPDATE 1":
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            if action is not None:
                await conn.execute(
                    "INSERT INTO actions (game_id, seq, actor_id, action, at)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    game.id, game.version, actor_id, _json(action), now,
                )
            await conn.executemany(
                "INSERT INTO results (game_id, guild_id, user_id, kind, outcome, score,"
                " detail, at, daily, together, name)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
                [(game.id, game.guild_id, r.user_id, game.kind, r.outcome, r.score,
                  _json(r.detail), now, game.daily, int(r.together), r.name)
                 for r in results],
            )
            if ratings and game.guild_id is not None:
                await _rate(conn, game.guild_id, game.kind, ratings, now)
            if voter_rows:
                await conn.executemany(_SAVE_VOTER, voter_rows)
            if daily_rows:
                await conn.executemany(
                    "INSERT INTO daily_played (user_id, game_id, kind, daily, at)"
                    " VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING", daily_rows)

    async def voter(self, game_id: int, user_id: int) -> VoterRow | None:
        """Return the member's row of a channel game's voters, or None."""
        row = await self._fetchrow(
            f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = $1 AND user_id = $2",
            game_id, user_id)
        return row_to_voter(tuple(row)) if row else None

    async def voters(self, game_id: int, version: int | None = None) -> list[VoterRow]:
        """Return a game's voters (all, by user id), or one decision's ballots in order."""
        if version is None:
            rows = await self._fetch(
                f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = $1 ORDER BY user_id",
                game_id)
        else:
            rows = await self._fetch(
                f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = $1 AND version = $2"
                " ORDER BY seq", game_id, version)
        return [row_to_voter(tuple(r)) for r in rows]

    async def voters_per_decision(self, game_id: int, versions: Sequence[int],
                                  leaving_out: Sequence[int] = ()) -> dict[int, int]:
        """Return, for each decision at ``versions``, how many of a game's voters (but
        ``leaving_out``) voted last in it: their latest ballot, or else their latest
        decided one, is that decision. Decisions nobody voted last in are left out."""
        rows = await self._fetch(
            "SELECT CASE WHEN version = ANY($2::integer[]) THEN version ELSE decided END"
            " AS last, count(*) FROM voters WHERE game_id = $1"
            " AND (version = ANY($2::integer[]) OR decided = ANY($2::integer[]))"
            " AND user_id <> ALL($3::bigint[]) GROUP BY last",
            game_id, list(versions), list(leaving_out))
        return {int(r[0]): int(r[1]) for r in rows}

    async def set_board(self, game_id: int, channel_id: int,
                        message_id: int) -> tuple[int, int] | None:
        """Remember which message is the game's current board; return the board it
        replaced, ``(channel id, message id)``, or None when there was none.

        One statement reads the old board (the row locked) and writes the new one: of
        two new boards set at once, each replaces a different one (the second, the first).
        """
        async with self.kept.board_lock(game_id):
            return await self._set_board(game_id, channel_id, message_id)

    async def _set_board(self, game_id: int, channel_id: int,
                         message_id: int) -> tuple[int, int] | None:
        now = self._clock()
        async with self.acquire(write=True) as conn:
            old = await conn.fetchrow(
                "UPDATE games AS g SET board_channel_id = $1, board_message_id = $2,"
                " board_posted_at = $3 FROM (SELECT id, board_channel_id, board_message_id"
                " FROM games WHERE id = $4 FOR UPDATE) AS old WHERE g.id = old.id"
                " RETURNING old.board_channel_id, old.board_message_id",
                channel_id, message_id, now, game_id,
            )
        self.kept.board(game_id, channel_id, message_id, now)
        return board_of(old)

    # -- background work -----------------------------------------------------------------

    async def idle_games(
        self,
        cutoffs: dict[str, float],
        *,
        limit: int = 500,
        after_id: int = 0,
        shards: Shards | None = None,
    ) -> list[int]:
        """Return the ids (ascending, above ``after_id``, at most ``limit``) of open games
        idle since before their group's cutoff; see the SQLite store for the groups."""
        condition, args = idle_sql(cutoffs, "seat_count(seats)")
        rows = await self._fetch(
            qmarks_to_numbered(
                f"SELECT id FROM games WHERE {condition} AND id > ? AND {shard_sql(shards)}"
                " ORDER BY id LIMIT ?"
            ),
            *args, after_id, limit,
        )
        return [int(r[0]) for r in rows]

    async def due_games(
        self, now: float, limit: int = 100, *, shards: Shards | None = None
    ) -> list[tuple[int, float]]:
        """Return up to ``limit`` open games whose deadline has come, earliest first."""
        rows = await self._fetch(
            "SELECT id, deadline FROM games WHERE deadline IS NOT NULL AND deadline <= $1"
            f" AND status IN ('lobby', 'active') AND {shard_sql(shards)}"
            " ORDER BY deadline LIMIT $2",
            now, limit,
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        """Return the earliest deadline of any open game, or None."""
        row = await self._fetchrow(
            "SELECT min(deadline) FROM games WHERE deadline IS NOT NULL"
            f" AND status IN ('lobby', 'active') AND {shard_sql(shards)}"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def count_open(self, *, shards: Shards | None = None) -> int:
        """Return how many games are open (lobby or active), of ``shards`` only if given."""
        row = await self._fetchrow("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')"
                                 f" AND {shard_sql(shards)}")
        return int(row[0]) if row else 0

    async def open_games_in_guild(self, guild_id: int, *, limit: int = 500,
                                  after_id: int = 0) -> list[int]:
        """Return the ids (ascending, above ``after_id``, at most ``limit``) of the open
        games of a server."""
        rows = await self._fetch(qmarks_to_numbered(OPEN_IN_GUILD_SQL), guild_id, after_id,
                                 limit)
        return [int(r[0]) for r in rows]

    async def active_multiseat_ids(self, *, waiting: bool = False,
                                   shards: Shards | None = None) -> list[int]:
        """Return the ids of running games with more than one seat; with ``waiting``,
        only those with a deadline."""
        timed = " AND deadline IS NOT NULL" if waiting else ""
        rows = await self._fetch(
            f"SELECT id FROM games WHERE status = 'active'{timed}"
            f" AND seat_count(seats) > 1 AND {shard_sql(shards)}"
        )
        return [int(r[0]) for r in rows]

    async def computer_seated_ids(self, *, shards: Shards | None = None) -> list[int]:
        """Return the ids of running games with more than one seat of which one may be
        played by a computer (see :data:`db.rows.COMPUTER_SEATED`), newest change first."""
        rows = await self._fetch(
            f"SELECT id FROM games WHERE status = 'active' AND {COMPUTER_SEATED}"
            f" AND seat_count(seats) > 1 AND {shard_sql(shards)} ORDER BY updated_at DESC"
        )
        return [int(r[0]) for r in rows]

    async def changed_since(self, since: float, *, limit: int = 500,
                            shards: Shards | None = None) -> list[int]:
        """Return the ids of up to ``limit`` games with a board, open or ended, saved at
        or after ``since``, newest change first (the index by status and age answers
        it)."""
        rows = await self._fetch(
            qmarks_to_numbered(CHANGED_SINCE_SQL.format(games="games",
                                                        shards=shard_sql(shards))),
            since, limit,
        )
        return [int(r[0]) for r in rows]

    # -- history -------------------------------------------------------------------------

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""
        rows = await self._fetch(
            "SELECT seq, actor_id, action, at FROM actions WHERE game_id = $1 ORDER BY seq",
            game_id,
        )
        return [
            {"seq": seq, "actor_id": actor, "action": json.loads(action), "at": at}
            for seq, actor, action, at in rows
        ]

    async def results(self, user_id: int | None = None) -> list[dict[str, Any]]:
        """Return stored results, optionally for one user, oldest first."""
        sql = ("SELECT game_id, guild_id, user_id, kind, outcome, score, detail, at, together"
               " FROM results")
        rows = await (self._fetch(sql + " ORDER BY id") if user_id is None
                      else self._fetch(sql + " WHERE user_id = $1 ORDER BY id", user_id))
        keys = ("game_id", "guild_id", "user_id", "kind", "outcome", "score", "detail", "at",
                "together")
        out = [dict(zip(keys, tuple(r), strict=True)) for r in rows]
        for item in out:
            item["detail"] = json.loads(item["detail"])
            item["together"] = bool(item["together"])
        return out

    async def forget_player(self, user_id: int, former: str = FORMER_PLAYER) -> int:
        """Delete ``user_id``'s results and own settings, and leave nothing of them in
        the finished games they sat at, started, voted or acted in (a lobby they left)
        or have a result of, their action logs and other results; see the SQLite store.
        One transaction."""
        self.kept.drop()
        documents = ", ".join(GAME_DOCUMENTS)
        assignments = ", ".join(f"{c} = coalesce(${i}, {c})"
                                for i, c in enumerate(GAME_DOCUMENTS, start=1))
        async with self.acquire(write=True) as conn:
            games = await conn.fetch(
                f"SELECT id, {documents} FROM games WHERE status NOT IN ('lobby', 'active')"
                " AND (strpos(seats, $1) > 0 OR strpos(extra, $2) > 0 OR starter_id = $3"
                " OR id IN (SELECT game_id FROM voters WHERE user_id = $3)"
                " OR id IN (SELECT game_id FROM actions WHERE actor_id = $3)"
                " OR id IN (SELECT game_id FROM results WHERE user_id = $3))"
                " FOR UPDATE",
                seats_needle(user_id), str(user_id), user_id,
            )
            names: set[str] = set()
            for game_id, *raw in games:
                voted = {str(r[0]) for r in await conn.fetch(
                    "SELECT name FROM voters WHERE game_id = $1 AND user_id = $2",
                    game_id, user_id)}
                logged = [(int(seq), actor, action) for seq, actor, action in await conn.fetch(
                    "SELECT seq, actor_id, action FROM actions WHERE game_id = $1", game_id)]
                found, new = scrub_game(raw, user_id, former, voted, logged)
                names |= found
                await conn.execute("DELETE FROM voters WHERE game_id = $1 AND user_id = $2",
                                   game_id, user_id)
                if any(text is not None for text in new):
                    await conn.execute(
                        f"UPDATE games SET {assignments} WHERE id = ${len(new) + 1}",
                        *new, game_id)
                changed = [(text, game_id, seq) for seq, _actor, action in logged
                           if (text := scrub_logged(action, user_id, found, former))]
                if changed:
                    await conn.executemany(
                        "UPDATE actions SET action = $1 WHERE game_id = $2 AND seq = $3",
                        changed)
                await conn.execute(
                    "UPDATE actions SET actor_id = NULL WHERE game_id = $1 AND actor_id = $2",
                    game_id, user_id)
            status = await conn.execute("DELETE FROM results WHERE user_id = $1", user_id)
            await conn.execute("DELETE FROM member_settings WHERE user_id = $1", user_id)
            await conn.execute("DELETE FROM daily_played WHERE user_id = $1", user_id)
            await conn.execute("DELETE FROM ratings WHERE user_id = $1", user_id)
            for game_id, *_raw in games:  # the other players' results of those games only
                rows = await conn.fetch("SELECT id, detail FROM results WHERE game_id = $1",
                                        game_id)
                details = [(text, rid) for rid, detail in rows
                           if (text := scrub_text_column(detail, user_id, names, former))]
                if details:
                    await conn.executemany("UPDATE results SET detail = $1 WHERE id = $2",
                                           details)
            await conn.execute(
                "UPDATE games SET starter_id = 0 WHERE starter_id = $1"
                " AND status NOT IN ('lobby', 'active')", user_id,
            )
        return int(status.split()[-1])

    async def prune_finished(self, before: float, limit: int = 500) -> int:
        """Drop the state, events, table data, voters and action log of up to ``limit``
        games that finished before ``before`` (tables closed while still a lobby too),
        :data:`PRUNE_STEP` games per transaction; results stay. Return how many games
        were pruned."""
        self.kept.drop()
        pruned = 0
        while pruned < limit:
            step = min(PRUNE_STEP, limit - pruned)
            done = await self._prune(before, step)
            pruned += done
            if done < step:
                break
        return pruned

    async def _prune(self, before: float, limit: int) -> int:
        async with self.acquire(write=True) as conn:
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

    async def count_rows(self) -> dict[str, int]:
        """Return how many rows each table holds."""
        return {
            table: int((await self._fetchrow(f"SELECT count(*) FROM {table}"))[0])  # type: ignore[index]
            for table in TABLES
        }

    # -- meta ----------------------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the settings a server has set (NULL columns left out)."""
        row = await self._fetchrow(
            f"SELECT {', '.join(SETTING_COLUMNS)} FROM server_settings WHERE guild_id = $1",
            guild_id,
        )
        return settings_row(row)

    async def set_server_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Store ``changes`` for a server (None: back to the default); return its settings."""
        stored = setting_changes(changes)
        now = self._clock()
        sets = "".join(f", {column} = ${i}" for i, column in enumerate(stored, start=3))
        async with self.acquire(write=True) as conn:
            await conn.execute("INSERT INTO server_settings (guild_id, updated_at)"
                               " VALUES ($1, $2) ON CONFLICT (guild_id) DO NOTHING",
                               guild_id, now)
            row = await conn.fetchrow(
                f"UPDATE server_settings SET updated_at = $2{sets} WHERE guild_id = $1"
                f" RETURNING {', '.join(SETTING_COLUMNS)}",
                guild_id, now, *stored.values(),
            )
        return settings_row(row)
    async def turn_pings(self, user_id: int) -> bool | None:
        """Return whether ``user_id`` chose to be pinged on their turn (None: no choice)."""
        row = await self._fetchrow(
            "SELECT turn_pings FROM member_settings WHERE user_id = $1", user_id)
        return None if row is None else bool(row[0])

    async def set_turn_pings(self, user_id: int, pings: bool) -> None:
        """Store whether ``user_id`` is pinged on their turn."""
        async with self.acquire(write=True) as conn:
            await conn.execute(
                "INSERT INTO member_settings (user_id, turn_pings, updated_at)"
                " VALUES ($1, $2, $3) ON CONFLICT (user_id) DO UPDATE SET"
                " turn_pings = excluded.turn_pings, updated_at = excluded.updated_at",
                user_id, int(pings), self._clock(),
            )

    async def get_meta(self, key: str) -> str | None:
        """Return a stored fact, or None."""
        row = await self._fetchrow("SELECT value FROM meta WHERE key = $1", key)
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact."""
        async with self.acquire(write=True) as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                key, value,
            )

    async def release_daily(self, game_id: int) -> None:
        """Let an ended daily game nobody saw no longer hold its channel's day."""
        async with self.acquire(write=True) as conn:
            await conn.execute(
                "UPDATE games SET daily = NULL, state = NULL WHERE id = $1"
                " AND status NOT IN ('lobby', 'active')", game_id)


#: Writes a member's row of a game's voters, replacing the one it had.
_SAVE_VOTER = (
    "INSERT INTO voters (game_id, user_id, name, version, decided, action, label, at, seq)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (game_id, user_id) DO UPDATE"
    " SET name = excluded.name, version = excluded.version, decided = excluded.decided,"
    " action = excluded.action, label = excluded.label, at = excluded.at, seq = excluded.seq"
)


async def _rate(conn: asyncpg.Connection, guild_id: int, kind: str,
                seats: Sequence[RatedSeat], now: float) -> None:
    """Update the people's ratings after a rated game (inside the save's transaction).

    Each person's row is made first and then locked, so two games ending at once for the
    same person update it one after the other.
    """
    people = rated_people(seats)
    if not people:
        return
    await conn.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT DO NOTHING",
        [(guild_id, kind, user, Rating().mu, Rating().sigma, now) for user in people],
    )
    rows = await conn.fetch(
        "SELECT user_id, mu, sigma, games FROM ratings WHERE guild_id = $1 AND kind = $2"
        " AND user_id = ANY($3::bigint[]) ORDER BY user_id FOR UPDATE",
        guild_id, kind, people,
    )
    current = {int(r[0]): Rating(float(r[1]), float(r[2]), int(r[3])) for r in rows}
    await conn.executemany(
        "UPDATE ratings SET mu = $4, sigma = $5, games = $6, updated_at = $7"
        " WHERE guild_id = $1 AND kind = $2 AND user_id = $3",
        [(guild_id, kind, user, r.mu, r.sigma, r.games, now)
         for user, r in new_ratings(current, seats).items()],
    )
