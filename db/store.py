"""The store: one aiosqlite connection, the few queries the game tables need."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from db.migrate import migrate

#: Statuses of a game that still occupies its channel (ruling C3).
OPEN_STATUSES = ("lobby", "active")

_BUSY_TIMEOUT_MS = 1500

_T = TypeVar("_T")


class StorageError(Exception):
    """The database cannot be written or read right now (locked, read-only, broken)."""


class ChannelBusy(Exception):
    """The channel already has an open game (ruling C3)."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(f"channel already has open game {game_id}")
        self.game_id = game_id


class DailyPlayed(Exception):
    """The channel already played this day's daily deal of this kind."""


class VersionConflict(Exception):
    """The game moved on since it was loaded (compare-and-swap failed)."""


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@dataclass(slots=True)
class GameRow:
    """One game as stored: who, where, which state, which board message."""

    id: int
    guild_id: int | None
    channel_id: int
    kind: str
    status: str
    starter_id: int
    seats: list[dict[str, Any]]
    options: dict[str, Any]
    only_starter: bool
    state: dict[str, Any] | None
    version: int
    events: list[str]
    board_channel_id: int | None
    board_message_id: int | None
    board_posted_at: float | None
    created_at: float
    updated_at: float
    daily: str | None = None
    raw_state: str | None = field(default=None, repr=False)
    #: The table's own data beside the engine's state: votes, players, timers, notices.
    extra: dict[str, Any] = field(default_factory=dict)
    #: When the game next needs the bot without a click (a vote window, a turn timer).
    deadline: float | None = None

    @property
    def is_open(self) -> bool:
        """Whether the game still occupies its channel."""
        return self.status in OPEN_STATUSES


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One player's result of a finished game."""

    user_id: int
    outcome: str
    score: int
    detail: dict[str, Any]
    #: Whether the result is shared by a group that played a channel game together (C5).
    together: bool = False


_GAME_COLUMNS = (
    "id, guild_id, channel_id, kind, status, starter_id, seats, options, only_starter, "
    "state, version, events, board_channel_id, board_message_id, board_posted_at, "
    "created_at, updated_at, daily, extra, deadline"
)


def _row_to_game(row: Sequence[Any]) -> GameRow:
    raw_state = row[9]
    try:
        state = json.loads(raw_state) if raw_state is not None else None
    except ValueError:
        state = None
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        kind=row[3],
        status=row[4],
        starter_id=row[5],
        seats=json.loads(row[6]),
        options=json.loads(row[7]),
        only_starter=bool(row[8]),
        state=state,
        version=row[10],
        events=json.loads(row[11]),
        board_channel_id=row[12],
        board_message_id=row[13],
        board_posted_at=row[14],
        created_at=row[15],
        updated_at=row[16],
        daily=row[17],
        raw_state=raw_state,
        extra=json.loads(row[18]),
        deadline=row[19],
    )


class Store:
    """All database access. Writes are serialised; each save is one transaction."""

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float]) -> None:
        self._conn = conn
        self._clock = clock
        self._write = asyncio.Lock()
        self.path: str = ""

    @classmethod
    async def open(cls, path: str | Path, clock: Callable[[], float]) -> Store:
        """Open (creating if needed) the database at ``path`` and bring its schema up to date."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = NORMAL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await migrate(conn)
        except BaseException:
            await conn.close()
            raise
        store = cls(conn, clock)
        store.path = str(path)
        return store

    @property
    def connection(self) -> aiosqlite.Connection:
        """The underlying connection (for maintenance and tests)."""
        return self._conn

    async def close(self) -> None:
        """Close the connection once pending writes are done."""
        async with self._write:
            await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Run the block as one write transaction (serialised with every other write).

        Commits at the end of the block and rolls back on an error; sqlite errors come out
        as StorageError.
        """
        async with self._write:
            try:
                await self._conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from exc
            except BaseException:  # cancelled: the queued BEGIN may still run; undo it
                with suppress(sqlite3.Error, ValueError):
                    await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
            try:
                yield self._conn
                await self._conn.execute("COMMIT")
            except BaseException as exc:
                with suppress(sqlite3.Error):
                    await self._conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.IntegrityError | VersionConflict | ChannelBusy):
                    raise
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(str(exc)) from exc
                raise

    async def _in_transaction(self, work: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run ``work`` inside BEGIN IMMEDIATE ... COMMIT on aiosqlite's thread, in one trip.

        Every awaited aiosqlite call is a hand-off to its thread and back; a save made
        of BEGIN, UPDATE, INSERT and COMMIT took four (see docs/performance.md). Here the
        whole transaction is one call, through aiosqlite's queue (``_execute``), so it
        runs in order with every other statement on the connection.
        """

        def transaction() -> _T:
            conn = self._conn._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from exc
            try:
                result = work(conn)
                conn.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
                raise
            return result

        async with self._write:
            try:
                return await self._conn._execute(transaction)  # type: ignore[no-any-return]
            except (sqlite3.IntegrityError, VersionConflict, ChannelBusy, StorageError):
                raise
            except sqlite3.Error as exc:
                raise StorageError(str(exc)) from exc

    async def _fetchone(self, sql: str, args: Iterable[Any] = ()) -> Any:
        rows = await self._fetchall(sql, args)
        return rows[0] if rows else None

    async def _fetchall(self, sql: str, args: Iterable[Any] = ()) -> list[Any]:
        try:
            return list(await self._conn.execute_fetchall(sql, tuple(args)))
        except sqlite3.Error as exc:
            raise StorageError(str(exc)) from exc

    # -- games ---------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        kind: str,
        status: str,
        starter_id: int,
        seats: list[dict[str, Any]],
        options: dict[str, Any],
        only_starter: bool,
        state: dict[str, Any] | None,
        events: list[str],
        daily: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> GameRow:
        """Insert a new open game; raise ChannelBusy if the channel has one (C3).

        Raise DailyPlayed if ``daily`` is given and the channel already has that day's deal.
        """
        now = self._clock()
        try:
            async with self.transaction() as conn:
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats,"
                    " options, only_starter, state, version, events, created_at, updated_at,"
                    " daily, extra) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)",
                    (
                        guild_id,
                        channel_id,
                        kind,
                        status,
                        starter_id,
                        _json(seats),
                        _json(options),
                        int(only_starter),
                        None if state is None else _json(state),
                        _json(events),
                        now,
                        now,
                        daily,
                        _json(extra or {}),
                    ),
                )
                game_id = cursor.lastrowid
        except sqlite3.IntegrityError as exc:
            if "daily" in str(exc):
                raise DailyPlayed(daily) from None
            existing = await self.open_game_in_channel(channel_id)
            raise ChannelBusy(existing.id if existing else None) from None
        game = await self.get_game(int(game_id or 0))
        assert game is not None
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game with ``game_id``, or None."""
        row = await self._fetchone(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _row_to_game(row) if row else None

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's open game (lobby or active), or None."""
        row = await self._fetchone(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ?"
            " AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return _row_to_game(row) if row else None

    async def save_game(
        self,
        game: GameRow,
        expected_version: int,
        *,
        action: dict[str, Any] | None = None,
        actor_id: int | None = None,
        results: Sequence[ResultRow] = (),
    ) -> None:
        """Write ``game`` if it is still at ``expected_version``, with its log and results.

        The update, the action-log entry and any results are one transaction: either all
        are stored or none. Raise VersionConflict if another writer got there first.
        """
        now = self._clock()
        game_args = (
            game.status,
            _json(game.seats),
            _json(game.options),
            game.raw_state if game.state is None else _json(game.state),
            game.version,
            _json(game.events),
            _json(game.extra),
            game.deadline,
            now,
            game.id,
            expected_version,
        )
        action_args = None if action is None else (
            game.id, game.version, actor_id, _json(action), now
        )
        result_args = [
            (game.id, game.guild_id, r.user_id, game.kind, r.outcome, r.score, _json(r.detail),
             now, game.daily, int(r.together))
            for r in results
        ]

        def work(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE games SET status = ?, seats = ?, options = ?, state = ?, version = ?,"
                " events = ?, extra = ?, deadline = ?, updated_at = ? WHERE id = ? AND version = ?",
                game_args,
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"game {game.id} is no longer at version {expected_version}")
            if action_args is not None:
                conn.execute(
                    "INSERT INTO actions (game_id, seq, actor_id, action, at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    action_args,
                )
            if result_args:
                conn.executemany(
                    "INSERT INTO results (game_id, guild_id, user_id, kind, outcome, score,"
                    " detail, at, daily, together) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    result_args,
                )

        await self._in_transaction(work)
        game.updated_at = now

    async def set_board(self, game_id: int, channel_id: int, message_id: int) -> None:
        """Remember which message is the game's current board."""
        now = self._clock()
        async with self.transaction() as conn:
            await conn.execute(
                "UPDATE games SET board_channel_id = ?, board_message_id = ?, board_posted_at = ?"
                " WHERE id = ?",
                (channel_id, message_id, now, game_id),
            )

    async def idle_games(self, cutoffs: dict[str, float]) -> list[GameRow]:
        """Return open games idle since before their cutoff; ``cutoffs`` maps a group to it.

        Groups: ``lobby`` (lobbies), ``solo`` (active one-seat games), ``multi`` (active
        games with several seats).
        """
        rows = await self._fetchall(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE status IN ('lobby', 'active')"
            " AND updated_at < ?",
            (max(cutoffs.values()),),
        )
        games = [_row_to_game(r) for r in rows]
        return [g for g in games if g.updated_at < cutoffs[idle_group(g)]]

    async def due_games(self, now: float, limit: int = 100) -> list[tuple[int, float]]:
        """Return up to ``limit`` open games whose deadline has come, earliest first.

        Each is ``(game id, deadline)``; the deadline index makes this cheap however many
        games are open.
        """
        rows = await self._fetchall(
            "SELECT id, deadline FROM games WHERE deadline IS NOT NULL AND deadline <= ?"
            " AND status IN ('lobby', 'active') ORDER BY deadline LIMIT ?",
            (now, limit),
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def next_deadline(self) -> float | None:
        """Return the earliest deadline of any open game, or None."""
        row = await self._fetchone(
            "SELECT min(deadline) FROM games WHERE deadline IS NOT NULL"
            " AND status IN ('lobby', 'active')"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def count_open(self) -> int:
        """Return how many games are open (lobby or active)."""
        row = await self._fetchone("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')")
        return int(row[0])

    async def active_multiseat_ids(self) -> list[int]:
        """Return the ids of running games with more than one seat."""
        rows = await self._fetchall(
            "SELECT id FROM games WHERE status = 'active' AND json_array_length(seats) > 1"
        )
        return [int(r[0]) for r in rows]

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""
        rows = await self._fetchall(
            "SELECT seq, actor_id, action, at FROM actions WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [
            {"seq": seq, "actor_id": actor, "action": json.loads(action), "at": at}
            for seq, actor, action, at in rows
        ]

    async def results(self, user_id: int | None = None) -> list[dict[str, Any]]:
        """Return stored results, optionally for one user, oldest first."""
        sql = "SELECT game_id, guild_id, user_id, kind, outcome, score, detail, at FROM results"
        args: tuple[Any, ...] = ()
        if user_id is not None:
            sql += " WHERE user_id = ?"
            args = (user_id,)
        rows = await self._fetchall(sql + " ORDER BY id", args)
        keys = ("game_id", "guild_id", "user_id", "kind", "outcome", "score", "detail", "at")
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for item in out:
            item["detail"] = json.loads(item["detail"])
        return out

    # -- meta ----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """Return a stored fact, or None."""
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact."""
        async with self.transaction() as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


def idle_group(game: GameRow) -> str:
    """Return the housekeeping group of a game: ``lobby``, ``solo`` or ``multi``."""
    if game.status == "lobby":
        return "lobby"
    return "solo" if len(game.seats) <= 1 else "multi"
