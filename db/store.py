"""The SQLite store: the queries the game tables need, over one database file.

This is the zero-setup backend (``DATABASE_PATH``); ``db/postgres.py`` is the other one.
Both implement :class:`db.base.GameStore`. How the file is opened, read and written (two
connections, the writing thread, group commit) is :mod:`db.sqlite_access`.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

import aiosqlite

from db.base import SETTING_COLUMNS, TABLES, setting_changes, settings_row
from db.errors import ChannelBusy, DailyPlayed, StorageError, TooManyOpen, VersionConflict
from db.forget import FORMER_PLAYER, forget_sqlite
from db.ratings import rate_sqlite
from db.retention import prune_sqlite, pruned_in_steps
from db.rows import (
    CHANGED_SINCE_SQL,
    COMPUTER_SEATED,
    GAME_COLUMNS,
    OPEN_IN_GUILD_SQL,
    OPEN_STATUSES,
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
    idle_group,
    idle_sql,
    row_to_game,
    row_to_voter,
    save_time,
    shard_sql,
    to_json,
)
from db.sqlite_access import SqliteAccess
from db.sqlite_file import FileWatch
from db.sqlite_thread import WriterThread

__all__ = [
    "OPEN_STATUSES",
    "ChannelBusy",
    "DailyPlayed",
    "GameRow",
    "ResultRow",
    "StorageError",
    "Store",
    "TooManyOpen",
    "VersionConflict",
    "idle_group",
]

log = logging.getLogger(__name__)

_json = to_json


#: The deadline look reads the index of open games' deadlines (migration 8); SQLite's
#: planner, without statistics, would rather walk every open game by age.
_OPEN_DEADLINES = "games INDEXED BY games_open_by_deadline"
#: How many seats a game has, in the queries over every open game: a seats column that is
#: not a JSON array (a damaged row) counts 0 rather than failing the query for every game.
SEAT_COUNT = ("(CASE WHEN json_valid(seats) AND json_type(seats) = 'array'"
              " THEN json_array_length(seats) ELSE 0 END)")


class Store(SqliteAccess, KeptReads):
    """All SQLite access. Writes are serialised; each save is one transaction.

    Reads go through aiosqlite's thread; writes through the store's own writing thread
    (:mod:`db.sqlite_thread`), in batches (:mod:`db.sqlite_batch`). Nothing touches
    SQLite or the database's files on the event loop's thread (:mod:`db.sqlite_access`).
    """

    backend = "sqlite"

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float],
                 writer: WriterThread, watch: FileWatch) -> None:
        super().__init__(conn, clock, writer, watch)
        #: The rows this process last saved of recently played games (see KeptRows).
        self.kept = KeptRows()

    # -- games ---------------------------------------------------------------------------

    async def create_game(self, new: NewGame, *, max_open: int | None = None) -> GameRow:
        """Insert a new open game; raise ChannelBusy if the channel has one (C3).

        Raise DailyPlayed if ``daily`` is given and the channel already has that day's
        deal. With ``max_open``, raise TooManyOpen when the starter already has that
        many open games in the server: the count and the insert are one statement in
        one write transaction, so creates at once never get past the cap.
        """
        now = self._clock()
        args = (new.guild_id, new.channel_id, new.kind, new.status, new.starter_id,
                _json(new.seats), _json(new.options), int(new.only_starter),
                None if new.state is None else _json(new.state), _json(new.events),
                now, now, new.daily, _json(new.extra))

        insert = ("INSERT INTO games (guild_id, channel_id, kind, status, starter_id, seats,"
                  " options, only_starter, state, version, events, created_at, updated_at,"
                  " daily, extra) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?")
        params: tuple[Any, ...] = args
        if max_open is not None:
            insert += (" WHERE (SELECT count(*) FROM games WHERE starter_id = ? AND guild_id IS ?"
                       " AND status IN ('lobby', 'active')) < ?")
            params = (*args, new.starter_id, new.guild_id, max_open)

        def work(conn: sqlite3.Connection) -> int:
            cursor = conn.execute(insert, params)
            if cursor.rowcount != 1:
                raise TooManyOpen(max_open or 0)
            return int(cursor.lastrowid or 0)

        try:
            game_id = await self._in_transaction(work)
        except sqlite3.IntegrityError:
            existing = await self.open_game_in_channel(new.channel_id)
            if await daily_taken(self.query, existing, new):
                raise DailyPlayed(new.daily) from None
            raise ChannelBusy(existing.id if existing else None) from None
        # The row as stored, without reading it back (deadline and board are still empty).
        game = row_to_game((game_id, *args[:5], args[5], args[6], args[7], args[8], 0, args[9],
                            None, None, None, now, now, new.daily, args[13], None))
        self.kept.keep(game, (args[5], args[6], args[8], args[9], args[13]), now)
        return game

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game with ``game_id``, or None."""
        row = await self._fetchone(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return self.kept.saw(row_to_game(row) if row else None)

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's open game (lobby or active), or None."""
        row = await self._fetchone(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?"
            " AND status IN ('lobby', 'active')",
            (channel_id,),
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
        """Write ``game`` if it is still at ``expected_version``, with its log and results.

        The update, the action-log entry, any results, the people's new ratings (from
        ``ratings``, one per seat of a finished rated game) and the rows of ``voters``
        are one transaction: either all are stored or none. Raise VersionConflict if
        another writer got there first.
        """
        now = save_time(game.updated_at if keep_time else self._clock(), game.updated_at)
        columns = (game.document_text("seats", game.seats),
                   game.document_text("options", game.options), game.state_text(),
                   game.document_text("events", game.events),
                   game.document_text("extra", game.extra))
        seats, options, state, events, extra = columns
        game_args = (game.status, seats, options, state, game.version, events, extra,
                     game.deadline, now, game.id, expected_version, game.updated_at)
        action_args = None if action is None else (
            game.id, game.version, actor_id, _json(action), now
        )
        result_args = [
            (game.id, game.guild_id, r.user_id, game.kind, r.outcome, r.score, _json(r.detail),
             now, game.daily, int(r.together), r.name)
            for r in results
        ]
        voter_args = [v.values(game.id) for v in voters]
        daily_args = daily_takers(game, action, actor_id, voters, now)

        def work(conn: sqlite3.Connection) -> None:
            cursor = conn.execute(
                "UPDATE games SET status = ?, seats = ?, options = ?, state = ?, version = ?,"
                " events = ?, extra = ?, deadline = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND updated_at = ?",
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
                    " detail, at, daily, together, name)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    result_args,
                )
            if ratings and game.guild_id is not None:
                rate_sqlite(conn, game.guild_id, game.kind, ratings, now)
            if voter_args:
                conn.executemany(_SAVE_VOTER, voter_args)
            if daily_args:
                conn.executemany(
                    "INSERT INTO daily_played (user_id, game_id, kind, daily, at)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING", daily_args)

        try:
            await self._in_transaction(work)
        except BaseException:
            self.kept.drop(game.id)
            raise
        since, game.updated_at = game.updated_at, now
        self.kept.keep(game, columns, now, voters, since=since)

    async def voter(self, game_id: int, user_id: int) -> VoterRow | None:
        """Return the member's row of a channel game's voters, or None."""
        row = await self._fetchone(
            f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = ? AND user_id = ?",
            (game_id, user_id))
        return row_to_voter(row) if row else None

    async def voters(self, game_id: int, version: int | None = None) -> list[VoterRow]:
        """Return a game's voters (all, by user id), or one decision's ballots in order."""
        if version is None:
            rows = await self._fetchall(
                f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = ? ORDER BY user_id",
                (game_id,))
        else:
            rows = await self._fetchall(
                f"SELECT {VOTER_COLUMNS} FROM voters WHERE game_id = ? AND version = ?"
                " ORDER BY seq", (game_id, version))
        return [row_to_voter(r) for r in rows]

    async def voters_per_decision(self, game_id: int, versions: Sequence[int],
                                  leaving_out: Sequence[int] = ()) -> dict[int, int]:
        """Return, for each decision at ``versions``, how many of a game's voters (but
        ``leaving_out``) voted last in it: their latest ballot, or else their latest
        decided one, is that decision. Decisions nobody voted last in are left out."""
        wanted = _json(list(versions))
        rows = await self._fetchall(
            "SELECT CASE WHEN version IN (SELECT value FROM json_each(?)) THEN version"
            " ELSE decided END AS last, count(*) FROM voters WHERE game_id = ?"
            " AND (version IN (SELECT value FROM json_each(?))"
            " OR decided IN (SELECT value FROM json_each(?)))"
            " AND user_id NOT IN (SELECT value FROM json_each(?)) GROUP BY last",
            (wanted, game_id, wanted, wanted, _json(list(leaving_out))))
        return {int(last): int(count) for last, count in rows}

    async def set_board(self, game_id: int, channel_id: int,
                        message_id: int) -> tuple[int, int] | None:
        """Remember which message is the game's current board; return the board it
        replaced, ``(channel id, message id)``, or None when there was none.

        The read and the write are one transaction: of two new boards set at once, each
        replaces a different one (the second, the first).
        """
        now = self._clock()

        def work(conn: sqlite3.Connection) -> tuple[int, int] | None:
            old = conn.execute("SELECT board_channel_id, board_message_id FROM games"
                               " WHERE id = ?", (game_id,)).fetchone()
            conn.execute(
                "UPDATE games SET board_channel_id = ?, board_message_id = ?,"
                " board_posted_at = ? WHERE id = ?",
                (channel_id, message_id, now, game_id),
            )
            return board_of(old)

        async with self.kept.board_lock(game_id):
            replaced = await self._in_transaction(work)
            self.kept.board(game_id, channel_id, message_id, now)
        return replaced

    # -- background work -----------------------------------------------------------------

    async def idle_games(
        self,
        cutoffs: dict[str, float],
        *,
        limit: int = 500,
        after_id: int = 0,
        shards: Shards | None = None,
    ) -> list[int]:
        """Return the ids of open games idle since before their group's cutoff.

        ``cutoffs`` maps a group to its cutoff: ``lobby`` (lobbies), ``solo`` (active
        one-seat games), ``multi`` (active games with several seats). At most ``limit``
        ids above ``after_id``, ascending: the caller loads and ends each, then asks for
        the next batch after the last id. Only ids travel, so a sweep of many games never
        holds their states.
        """
        condition, args = idle_sql(cutoffs, SEAT_COUNT)
        where = f"{condition} AND id > ? AND {shard_sql(shards)}"
        # The age index answers "is any game idle?" at once; when some are, walking the
        # table in id order finds a batch without sorting every idle game each time.
        probe = await self._fetchone(
            f"SELECT 1 FROM games INDEXED BY games_open_by_age WHERE {where} LIMIT 1",
            (*args, after_id),
        )
        if probe is None:
            return []
        rows = await self._fetchall(
            f"SELECT id FROM games NOT INDEXED WHERE {where} ORDER BY id LIMIT ?",
            (*args, after_id, limit),
        )
        return [int(r[0]) for r in rows]

    async def due_games(
        self, now: float, limit: int = 100, *, shards: Shards | None = None
    ) -> list[tuple[int, float]]:
        """Return up to ``limit`` open games whose deadline has come, earliest first.

        Each is ``(game id, deadline)``; the deadline index makes this cheap however many
        games are open.
        """
        rows = await self._fetchall(
            f"SELECT id, deadline FROM {_OPEN_DEADLINES} WHERE deadline IS NOT NULL"
            " AND deadline <= ?"
            f" AND status IN ('lobby', 'active') AND {shard_sql(shards)}"
            " ORDER BY deadline LIMIT ?",
            (now, limit),
        )
        return [(int(r[0]), float(r[1])) for r in rows]

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        """Return the earliest deadline of any open game, or None."""
        row = await self._fetchone(
            f"SELECT min(deadline) FROM {_OPEN_DEADLINES} WHERE deadline IS NOT NULL"
            f" AND status IN ('lobby', 'active') AND {shard_sql(shards)}"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def count_open(self, *, shards: Shards | None = None) -> int:
        """Return how many games are open (lobby or active), of ``shards`` only if given."""
        row = await self._fetchone("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')"
                                 f" AND {shard_sql(shards)}")
        return int(row[0])

    async def open_games_in_guild(self, guild_id: int, *, limit: int = 500,
                                  after_id: int = 0) -> list[int]:
        """Return the ids (ascending, above ``after_id``, at most ``limit``) of the open
        games of a server."""
        rows = await self._fetchall(OPEN_IN_GUILD_SQL, (guild_id, after_id, limit))
        return [int(r[0]) for r in rows]

    async def active_multiseat_ids(self, *, waiting: bool = False,
                                   shards: Shards | None = None) -> list[int]:
        """Return the ids of running games with more than one seat; with ``waiting``,
        only those with a deadline."""
        timed = " AND deadline IS NOT NULL" if waiting else ""
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE status = 'active' AND {SEAT_COUNT} > 1{timed}"
            f" AND {shard_sql(shards)}"
        )
        return [int(r[0]) for r in rows]

    async def computer_seated_ids(self, *, shards: Shards | None = None,
                                  since: float | None = None) -> list[int]:
        """Return the ids of running games with more than one seat of which one may be
        played by a computer (see :data:`db.rows.COMPUTER_SEATED`), newest change first;
        with ``since``, only those saved at or after it."""
        rows = await self._fetchall(
            f"SELECT id FROM games WHERE status = 'active' AND {COMPUTER_SEATED}"
            f" AND {SEAT_COUNT} > 1 AND {shard_sql(shards)} AND updated_at >= ?"
            " ORDER BY updated_at DESC", (-1.0 if since is None else since,)
        )
        return [int(r[0]) for r in rows]

    async def changed_since(self, since: float, *, limit: int = 500,
                            shards: Shards | None = None) -> list[int]:
        """Return the ids of up to ``limit`` games with a board, open or ended, saved at
        or after ``since``, newest change first. The index by status and age answers it
        (migration 1): only those recent games are read, however many there are."""
        rows = await self._fetchall(
            CHANGED_SINCE_SQL.format(games="games INDEXED BY games_open_by_age",
                                     shards=shard_sql(shards)),
            (since, limit),
        )
        return [int(r[0]) for r in rows]

    # -- history -------------------------------------------------------------------------

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
        sql = ("SELECT game_id, guild_id, user_id, kind, outcome, score, detail, at, together"
               " FROM results")
        args: tuple[Any, ...] = ()
        if user_id is not None:
            sql += " WHERE user_id = ?"
            args = (user_id,)
        rows = await self._fetchall(sql + " ORDER BY id", args)
        keys = ("game_id", "guild_id", "user_id", "kind", "outcome", "score", "detail", "at",
                "together")
        out = [dict(zip(keys, r, strict=True)) for r in rows]
        for item in out:
            item["detail"] = json.loads(item["detail"])
            item["together"] = bool(item["together"])
        return out

    async def forget_player(self, user_id: int, former: str = FORMER_PLAYER) -> int:
        """Delete ``user_id``'s results and own settings, and leave nothing of them in
        finished games.

        In every finished game they sat at, started, voted in, acted in (a lobby they
        joined and left, or were removed from) or have a result of, each stored JSON
        document (seats, options, state, events, table data, logged actions) is scrubbed
        of their id and names (:mod:`db.forget`), the log's ``actor_id`` and the starter
        become empty, and other players' result details lose their names too. Games
        still being played keep the seat until they end, so the table can go on. Returns
        how many results were deleted. All of it is one transaction on the writing
        thread.
        """
        self.kept.drop()
        return await self._in_transaction(
            lambda conn: forget_sqlite(conn, user_id, former))

    async def prune_finished(self, before: float, limit: int = 500) -> int:
        """Drop the state, events, table data, voters and action log of up to ``limit``
        games that finished before ``before`` (a table closed or expired while still a
        lobby, which never had a state, too); results stay. Return how many games were
        pruned.

        It goes :data:`db.retention.PRUNE_STEP` games per transaction, each a write of its
        own, so a long action log never holds the database for long and clicks go in
        between.
        """
        self.kept.drop()
        return await pruned_in_steps(
            lambda step: self._in_transaction(partial(prune_sqlite, before=before, limit=step)),
            limit)

    async def count_rows(self) -> dict[str, int]:
        """Return how many rows each table holds."""
        counts = {}
        for table in TABLES:
            row = await self._fetchone(f"SELECT count(*) FROM {table}")
            counts[table] = int(row[0])
        return counts

    # -- server settings -----------------------------------------------------------------

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the settings a server has set (NULL columns left out)."""
        row = await self._fetchone(
            f"SELECT {', '.join(SETTING_COLUMNS)} FROM server_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return settings_row(row)

    async def set_server_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Store ``changes`` for a server (None: back to the default); return its settings."""
        stored = setting_changes(changes)
        now = self._clock()

        def work(conn: sqlite3.Connection) -> Any:
            conn.execute("INSERT INTO server_settings (guild_id, updated_at) VALUES (?, ?)"
                         " ON CONFLICT (guild_id) DO NOTHING", (guild_id, now))
            sets = "".join(f", {column} = ?" for column in stored)
            conn.execute(f"UPDATE server_settings SET updated_at = ?{sets} WHERE guild_id = ?",
                         (now, *stored.values(), guild_id))
            return conn.execute(
                f"SELECT {', '.join(SETTING_COLUMNS)} FROM server_settings WHERE guild_id = ?",
                (guild_id,),
            ).fetchone()

        return settings_row(await self._in_transaction(work))
    # -- a member's own settings ----------------------------------------------------------

    async def turn_pings(self, user_id: int) -> bool | None:
        """Return whether ``user_id`` chose to be pinged on their turn (None: no choice)."""
        row = await self._fetchone(
            "SELECT turn_pings FROM member_settings WHERE user_id = ?", (user_id,))
        return None if row is None else bool(row[0])

    async def set_turn_pings(self, user_id: int, pings: bool) -> None:
        """Store whether ``user_id`` is pinged on their turn."""
        now = self._clock()
        await self._in_transaction(lambda conn: conn.execute(
            "INSERT INTO member_settings (user_id, turn_pings, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET turn_pings = excluded.turn_pings,"
            " updated_at = excluded.updated_at",
            (user_id, int(pings), now),
        ))

    # -- meta ----------------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        """Return a stored fact, or None."""
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact."""
        await self._in_transaction(lambda conn: conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        ))

    async def first_meta(self, key: str, value: str) -> str:
        """Store ``value`` for ``key`` unless a value is stored already; return the one
        stored (the first writer's, whichever process wrote first)."""
        await self._in_transaction(lambda conn: conn.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            (key, value),
        ))
        stored = await self.get_meta(key)
        return value if stored is None else stored

    async def drop_meta_before(self, prefix: str, before: str) -> int:
        """Delete the facts whose key starts with ``prefix`` (a range of the key's index)
        and whose value sorts before ``before``; return how many."""
        end = prefix[:-1] + chr(ord(prefix[-1]) + 1)
        return int(await self._in_transaction(lambda conn: conn.execute(
            "DELETE FROM meta WHERE key >= ? AND key < ? AND value < ?",
            (prefix, end, before)).rowcount))

    async def release_daily(self, game_id: int) -> None:
        """Let an ended daily game nobody saw no longer hold its channel's day."""
        await self._in_transaction(lambda conn: conn.execute(
            "UPDATE games SET daily = NULL, state = NULL WHERE id = ?"
            " AND status NOT IN ('lobby', 'active')",
            (game_id,)))


#: Writes a member's row of a game's voters, replacing the one it had.
_SAVE_VOTER = (
    "INSERT INTO voters (game_id, user_id, name, version, decided, action, label, at, seq)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO UPDATE SET"
    " name = excluded.name, version = excluded.version, decided = excluded.decided,"
    " action = excluded.action, label = excluded.label, at = excluded.at, seq = excluded.seq"
)
