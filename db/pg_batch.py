"""Group commit for the PostgreSQL store: saves queued meanwhile go as one statement.

A click's save is a compare-and-swap update of its game row and one action-log entry.
Alone, it is one statement: one round trip, one transaction. Saves that arrive while a
statement is out wait for it and then go together, as arrays (``unnest``), in one
statement again: each game row is updated only if it is still at the version and
``updated_at`` its caller read, each log entry and each row of the game's voters (a
channel vote's ballot) is written only with its game row, and the statement answers the
ids it saved; a caller whose id is missing lost the race
(VersionConflict). Callers are answered after the statement committed.

A batch holds each game at most once (a second save of the same game waits for the
next batch). A batch the database rejects for a value (a constraint) is tried again a
save at a time, so one bad save cannot fail the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

import asyncpg

from db.batches import Batcher, give_up, settle
from db.errors import StorageError, VersionConflict

#: What the database answers when a value is wrong (a constraint, a bad value): the fault
#: of one save, not of the server.
_REJECTED = (asyncpg.IntegrityConstraintViolationError, asyncpg.DataError)

SAVE_MANY = """
WITH input AS (
    SELECT * FROM unnest(
        $1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::integer[],
        $7::text[], $8::text[], $9::float8[], $10::float8[], $11::integer[], $12::float8[],
        $13::bigint[], $14::text[]
    ) AS i (id, status, seats, options, state, version, events, extra, deadline, now,
            expected, read_at, actor_id, action)
), saved AS (
    UPDATE games AS g SET status = i.status, seats = i.seats, options = i.options,
        state = i.state, version = i.version, events = i.events, extra = i.extra,
        deadline = i.deadline, updated_at = i.now
    FROM input AS i
    WHERE g.id = i.id AND g.version = i.expected AND g.updated_at = i.read_at
    RETURNING g.id
), logged AS (
    INSERT INTO actions (game_id, seq, actor_id, action, at)
    SELECT i.id, i.version, i.actor_id, i.action, i.now
    FROM input AS i JOIN saved AS s ON s.id = i.id
    WHERE i.action IS NOT NULL
), voted AS (
    INSERT INTO voters (game_id, user_id, name, version, decided, action, label, at, seq)
    SELECT v.game_id, v.user_id, v.name, v.version, v.decided, v.action, v.label, v.at, v.seq
    FROM unnest(
        $15::bigint[], $16::bigint[], $17::text[], $18::integer[], $19::integer[],
        $20::text[], $21::text[], $22::float8[], $23::integer[]
    ) AS v (game_id, user_id, name, version, decided, action, label, at, seq)
    JOIN saved AS s ON s.id = v.game_id
    ON CONFLICT (game_id, user_id) DO UPDATE SET name = excluded.name,
        version = excluded.version, decided = excluded.decided, action = excluded.action,
        label = excluded.label, at = excluded.at, seq = excluded.seq
), noted AS (
    INSERT INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT d.user_id, d.game_id, d.kind, d.daily, d.at
    FROM unnest($24::bigint[], $25::bigint[], $26::text[], $27::text[], $28::float8[])
        AS d (user_id, game_id, kind, daily, at)
    JOIN saved AS s ON s.id = d.game_id
    ON CONFLICT DO NOTHING
)
SELECT id FROM saved
"""
"""Saves many games (compare-and-swap each), their log entries, voters' rows and the
members who took part in daily games; answers the saved ids."""

#: One save's values, in SAVE_MANY's column order: id, status, seats, options, state,
#: version, events, extra, deadline, now, expected version, updated_at as read, actor
#: id, action JSON (None for a save without a log entry); then, optionally, the rows of
#: the game's voters to write, each in the ``voters`` table's column order, and the rows
#: of ``daily_played`` (user id, game id, kind, daily, at) to add.
Save = tuple[Any, ...]

#: How many of a save's values are SAVE_MANY's per-game columns.
_GAME_VALUES = 14
#: How many columns a row of ``voters`` has, and one of ``daily_played``.
_VOTER_VALUES = 9
_DAILY_VALUES = 5


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Return ``rows`` (of ``width`` values each) as one array per column."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [
        [] for _ in range(width)]


def _arguments(saves: Sequence[Save]) -> list[list[Any]]:
    """Return SAVE_MANY's arguments for ``saves``: each per-game column as an array,
    then each ``voters`` column and each ``daily_played`` column as an array of every
    save's rows."""
    games = [list(column) for column in zip(*(v[:_GAME_VALUES] for v in saves), strict=True)]
    voters = [row for v in saves for row in (v[_GAME_VALUES] if len(v) > _GAME_VALUES else ())]
    daily = [row for v in saves
             for row in (v[_GAME_VALUES + 1] if len(v) > _GAME_VALUES + 1 else ())]
    return [*games, *_columns(voters, _VOTER_VALUES), *_columns(daily, _DAILY_VALUES)]

Acquire = Callable[[], AbstractAsyncContextManager[asyncpg.Connection]]


class SaveQueue(Batcher[Save]):
    """Sends queued saves to PostgreSQL, as many per statement as are waiting."""

    def __init__(self, acquire: Acquire) -> None:
        super().__init__()
        self._acquire = acquire

    async def save(self, values: Save) -> None:
        """Store one save; raise VersionConflict when its game moved on meanwhile."""
        await self.submit(values)

    def next_batch(self) -> list[tuple[Save, asyncio.Future[Any]]]:
        """Take the queued saves that go next: in order, each game once, max_batch at most."""
        batch: list[tuple[Save, asyncio.Future[Any]]] = []
        rest: list[tuple[Save, asyncio.Future[Any]]] = []
        games: set[int] = set()
        for item in self._pending:
            game_id = item[0][0]
            if game_id in games or len(batch) >= self.max_batch:
                rest.append(item)
            else:
                games.add(game_id)
                batch.append(item)
        self._pending = rest
        return batch

    async def run_batch(self, batch: Sequence[tuple[Save, asyncio.Future[Any]]]) -> None:
        """Send one batch as one statement and answer every one of its callers."""
        try:
            async with self._acquire() as conn:
                rows = await conn.fetch(SAVE_MANY, *_arguments([v for v, _ in batch]))
        except Exception as exc:
            rejected = isinstance(exc.__cause__ if isinstance(exc, StorageError) else exc,
                                  _REJECTED)
            if rejected and len(batch) > 1:  # find the save at fault: each alone
                for item in batch:
                    await self.run_batch([item])
                return
            give_up(batch, exc)  # out of reach, or this save's own fault: nothing was saved
            return
        except BaseException as exc:
            give_up(batch, exc)
            raise
        saved = {row[0] for row in rows}
        for values, future in batch:
            settle(future, error=None if values[0] in saved else VersionConflict(
                f"game {values[0]} is no longer at version {values[10]}"
            ))
