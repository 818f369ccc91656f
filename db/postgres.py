"""The PostgreSQL store (``DATABASE_URL=postgresql://...``), through an asyncpg pool.

Same interface and guarantees as the SQLite store (:class:`db.base.GameStore`): a save
is one transaction with a compare-and-swap on the version, ruling C3 and the daily deal
are unique indexes, and connection failures or timeouts come out as StorageError (how
the pool is reached and its failures told: :mod:`db.pg_access`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from typing import Any

import asyncpg

from db.base import SETTING_COLUMNS, TABLES, setting_changes, settings_row
from db.errors import ChannelBusy, DailyPlayed, StorageError, TooManyOpen, VersionConflict
from db.forget import FORMER_PLAYER, forget_postgres
from db.pg_access import LOST_ANSWERS, PgAccess
from db.pg_batch import SaveQueue
from db.pg_params import qmarks_to_numbered
from db.ratings import rate_postgres
from db.retention import prune_postgres, pruned_in_steps
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
    daily_taken,
    daily_takers,
    idle_sql,
    row_to_game,
    row_to_voter,
    save_time,
    shard_sql,
)
from db.rows import to_json as _json

log = logging.getLogger(__name__)

_UPDATE = (
    "UPDATE games SET status = $1, seats = $2, options = $3, state = $4,"
    " version = $5, events = $6, extra = $7, deadline = $8, updated_at = $9"
    " WHERE id = $10 AND version = $11 AND updated_at = $12"
)
"""A game's compare-and-swap save: it changes one row, or none when another writer won."""

_LANDED = (
    "SELECT 1 FROM games AS g WHERE g.id = $1 AND ((g.version = $2 AND g.updated_at = $3)"
    " OR EXISTS (SELECT 1 FROM actions AS a WHERE a.game_id = $1 AND a.seq = $2"
    " AND a.at = $3)) FOR UPDATE"
)
"""Whether a game's save made at $3 for version $2 is stored: its row is as it wrote it,
or its log entry is there (the game moved on since). FOR UPDATE waits for a save still
being committed."""

#: The first key of the advisory lock a capped create takes (the second is a hash of
#: the server and the starter), so that creates of one starter count one at a time.
_CAP_LOCK = 0x7AB1E02


class PostgresStore(PgAccess, KeptReads):
    """All PostgreSQL access, through a small pool of connections (:mod:`db.pg_access`)."""

    backend = "postgresql"

    def __init__(self, pool: asyncpg.Pool, clock: Callable[[], float]) -> None:
        super().__init__(pool, clock)
        #: The rows this process last saved of recently played games (see KeptRows).
        self.kept = KeptRows()
        self._saves = SaveQueue(lambda: self.acquire(write=True, transaction=False))

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
        except StorageError as exc:
            row = await self._created(new, now, exc)
            if row is None:
                raise
        except asyncpg.UniqueViolationError:
            existing = await self.open_game_in_channel(new.channel_id)
            if await daily_taken(self.query, existing, new):
                raise DailyPlayed(new.daily) from None
            raise ChannelBusy(existing.id if existing else None) from None
        assert row is not None
        game = row_to_game(row)
        self.kept.keep(game, (row["seats"], row["options"], row["state"], row["events"],
                              row["extra"]), game.updated_at)
        return game

    async def _created(self, new: NewGame, now: float,
                       failed: StorageError) -> asyncpg.Record | None:
        """The game a create made at ``now`` stored, though it ``failed`` with the
        connection lost or timed out (the database may have committed it before its
        answer was lost); None when it is not stored or the database cannot say."""
        if not (failed.sent and isinstance(failed.__cause__, LOST_ANSWERS)):
            return None
        try:
            row = await self._fetchrow(
                f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND starter_id = $2"
                " AND kind = $3 AND created_at = $4 AND version = 0", new.channel_id,
                new.starter_id, new.kind, now)
        except StorageError:
            return None
        if row is not None:
            log.warning("the answer to the start of game %s was lost, but it is stored: %s",
                        row["id"], failed)
        return row

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
        keep_time: bool = False,
    ) -> None:
        """Write ``game`` if it is still at ``expected_version``, with its log, results,
        the people's new ratings and the rows of ``voters``, in one transaction; raise
        VersionConflict if another writer got there first."""
        now = save_time(game.updated_at if keep_time else self._clock(), game.updated_at)
        columns = (game.document_text("seats", game.seats),
                   game.document_text("options", game.options), game.state_text(),
                   game.document_text("events", game.events),
                   game.document_text("extra", game.extra))
        try:
            await self._save(game, expected_version, now, columns, action, actor_id, results,
                             ratings, voters)
        except StorageError as exc:
            if not await self._landed(game, now, exc):
                self.kept.drop(game.id)
                raise
        except BaseException:
            self.kept.drop(game.id)
            raise
        since, game.updated_at = game.updated_at, now
        self.kept.keep(game, columns, now, voters, since=since)

    async def _landed(self, game: GameRow, now: float, failed: StorageError) -> bool:
        """Whether a save of ``game`` made at ``now`` is stored after all, though it
        ``failed`` with the connection lost or timed out: the database may have committed
        it before its answer was lost. False when the database cannot say either."""
        if not (failed.sent and isinstance(failed.__cause__, LOST_ANSWERS)):
            return False  # (refused, or never sent: no connection to be had)
        try:
            landed = bool(await self._fetch(_LANDED, game.id, game.version, now))
        except StorageError:
            return False
        if landed:
            log.warning("the answer to a save of game %s was lost, but the save is stored: "
                        "%s", game.id, failed)
        return landed

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
                await rate_postgres(conn, game.guild_id, game.kind, ratings, now)
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

    async def computer_seated_ids(self, *, shards: Shards | None = None,
                                  since: float | None = None) -> list[int]:
        """Return the ids of running games with more than one seat of which one may be
        played by a computer (see :data:`db.rows.COMPUTER_SEATED`), newest change first;
        with ``since``, only those saved at or after it."""
        rows = await self._fetch(
            f"SELECT id FROM games WHERE status = 'active' AND {COMPUTER_SEATED}"
            f" AND seat_count(seats) > 1 AND {shard_sql(shards)} AND updated_at >= $1"
            " ORDER BY updated_at DESC", -1.0 if since is None else since,
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
        async with self.acquire(write=True) as conn:
            return await forget_postgres(conn, user_id, former)

    async def prune_finished(self, before: float, limit: int = 500) -> int:
        """Drop the state, events, table data, voters and action log of up to ``limit``
        games that finished before ``before`` (tables closed while still a lobby too),
        :data:`db.retention.PRUNE_STEP` games per transaction; results stay. Return how
        many games were pruned."""
        self.kept.drop()
        return await pruned_in_steps(lambda step: self._prune(before, step), limit)

    async def _prune(self, before: float, limit: int) -> int:
        """Empty up to ``limit`` games finished before ``before`` in one transaction;
        return how many."""
        async with self.acquire(write=True) as conn:
            return await prune_postgres(conn, before, limit)

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

    async def first_meta(self, key: str, value: str) -> str:
        """Store ``value`` for ``key`` unless a value is stored already; return the one
        stored (the first writer's, whichever process wrote first)."""
        async with self.acquire(write=True) as conn:
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING",
                key, value,
            )
        stored = await self.get_meta(key)
        return value if stored is None else stored

    async def drop_meta_before(self, prefix: str, before: str) -> int:
        """Delete the facts whose key starts with ``prefix`` and whose value sorts before
        ``before`` (in byte order); return how many."""
        # (byte order, whatever the database's collation: under en_US ":" and ";" do not
        # sort by their codes)
        async with self.acquire(write=True) as conn:
            done = await conn.execute(
                "DELETE FROM meta WHERE starts_with(key, $1) AND value COLLATE \"C\" < $2",
                prefix, before)
        return int(str(done).rsplit(" ", 1)[-1] or 0)

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
