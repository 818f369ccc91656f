"""The store interface: what the table, the sweeper and the records ask of a database.

Two backends implement it: SQLite (``db/store.py``, the zero-setup default) and
PostgreSQL (``db/postgres.py``). Both keep the same rules: a save is one transaction
(compare-and-swap on the version and the last save's time, the action log entry and any
results), ruling C3 and the daily deal are unique indexes, and every connection or
timeout failure comes out as :class:`~db.errors.StorageError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from db.rows import GameRow, NewGame, RatedSeat, ResultRow, Shards, VoterRow

#: Every table, in the order a copy fills them (parents first).
TABLES = ("games", "voters", "actions", "results", "ratings", "meta", "server_settings",
          "member_settings", "daily_played")

#: The ``meta`` key a bot writes at each start (when, unix seconds): a database that takes
#: no writes stops the start then, not at the first move. It says nothing a copy keeps.
STARTED_KEY = "started_at"

#: The columns of ``server_settings`` a server may set (NULL: the bot's default).
SETTING_COLUMNS = ("vote_window_seconds", "threads", "notice_grace_seconds", "pictures",
                   "max_open_games")
#: The settings stored as 0 or 1 and read back as booleans.
SETTING_FLAGS = ("threads", "pictures")


@runtime_checkable
class GameStore(Protocol):
    """All database access the bot needs; see the module docstring for the guarantees."""

    #: ``"sqlite"`` or ``"postgresql"``.
    backend: str

    async def close(self) -> None:
        """Close the database once pending writes are done."""

    async def health_problem(self) -> str | None:
        """Return why the store cannot save right now (its file is gone, the last write
        was refused, the server is out of reach), or None when it can."""

    async def create_game(self, new: NewGame, *, max_open: int | None = None) -> GameRow:
        """Insert a new open game; raise ChannelBusy (C3) or DailyPlayed.

        With ``max_open``, raise TooManyOpen when ``starter_id`` already has that many
        open games in ``guild_id``; the count and the insert are one atomic step.
        """

    async def get_game(self, game_id: int) -> GameRow | None:
        """Return the game with ``game_id``, or None."""

    def kept_board(self, game_id: int) -> tuple[int | None, int | None] | None:
        """Return the board of a game this process keeps, as (channel id, message id),
        or None when it keeps none of the game (no read)."""

    def kept_game(self, game_id: int) -> GameRow | None:
        """Return the open game as this process last saved it (no read), or None.

        Only for a change that ends in :meth:`save_game`: its compare-and-swap on the
        version and ``updated_at`` refuses the save if anything wrote the game since.
        """

    def kept_voters(self, game_id: int) -> dict[int, VoterRow]:
        """Return the rows of the game's voters that this process's saves wrote, as
        stored while :meth:`kept_game` is (no read); the same caution applies."""

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        """Return the channel's open game (lobby or active), or None."""

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
        """Write ``game`` if still at ``expected_version`` (and at the ``updated_at`` it was
        read or last saved with) with its log, results, the people's new ratings
        (``ratings``: one per seat of a finished rated game) and the rows of ``voters``
        (each replacing the member's row of the game), or raise VersionConflict. With
        ``keep_time``, ``updated_at`` moves on the least it can instead of to now: a
        save no player made (a result shared), which must not keep the game from its
        retention."""

    async def voter(self, game_id: int, user_id: int) -> VoterRow | None:
        """Return the member's row of a channel game's voters, or None (one index read)."""

    async def voters(self, game_id: int, version: int | None = None) -> list[VoterRow]:
        """Return a game's voters: everyone (``version`` None, by user id), or the
        ballots of the decision at board version ``version`` in the order cast."""

    async def voters_per_decision(self, game_id: int, versions: Sequence[int],
                                  leaving_out: Sequence[int] = ()) -> dict[int, int]:
        """Return, for each decision at ``versions``, how many of a game's voters (but
        ``leaving_out``) voted last in it: their latest ballot, or else their latest
        decided one, is that decision. Decisions nobody voted last in are left out."""

    async def set_board(self, game_id: int, channel_id: int,
                        message_id: int) -> tuple[int, int] | None:
        """Remember which message is the game's current board; return the board it
        replaced, ``(channel id, message id)``, or None when there was none. The old
        board is read and the new one written at once: of two new boards set at the same
        time, the second replaces the first."""

    async def idle_games(
        self,
        cutoffs: dict[str, float],
        *,
        limit: int = 500,
        after_id: int = 0,
        shards: Shards | None = None,
    ) -> list[int]:
        """Return the ids (ascending, above ``after_id``, at most ``limit``) of open games
        idle since before their group's cutoff (``lobby``, ``solo``, ``multi``)."""

    async def due_games(
        self, now: float, limit: int = 100, *, shards: Shards | None = None
    ) -> list[tuple[int, float]]:
        """Return up to ``limit`` open games whose deadline has come, earliest first."""

    async def next_deadline(self, *, shards: Shards | None = None) -> float | None:
        """Return the earliest deadline of any open game, or None."""

    async def count_open(self, *, shards: Shards | None = None) -> int:
        """Return how many games are open (lobby or active), of ``shards`` only if given."""

    async def open_games_in_guild(self, guild_id: int, *, limit: int = 500,
                                  after_id: int = 0) -> list[int]:
        """Return the ids (ascending, above ``after_id``, at most ``limit``) of the open
        games (lobby or active) of the server ``guild_id``."""

    async def active_multiseat_ids(self, *, waiting: bool = False,
                                   shards: Shards | None = None) -> list[int]:
        """Return the ids of running games with more than one seat; with ``waiting``,
        only those with a deadline (a turn timer may be running)."""

    async def computer_seated_ids(self, *, shards: Shards | None = None,
                                  since: float | None = None) -> list[int]:
        """Return the ids of running games with more than one seat of which one may be
        played by a computer (a computer player or an away seat; a few more may come
        too), most recently saved first; with ``since``, only those saved at or after
        it."""

    async def changed_since(self, since: float, *, limit: int = 500,
                            shards: Shards | None = None) -> list[int]:
        """Return the ids of up to ``limit`` games with a board message, open or ended,
        saved at or after ``since``, most recently saved first (an index read: only those
        games)."""

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        """Return a game's action log in order."""

    async def results(self, user_id: int | None = None) -> list[dict[str, Any]]:
        """Return stored results, optionally for one user, oldest first."""

    async def get_meta(self, key: str) -> str | None:
        """Return a stored fact, or None."""

    async def set_meta(self, key: str, value: str) -> None:
        """Store a fact."""

    async def first_meta(self, key: str, value: str) -> str:
        """Store ``value`` for ``key`` unless a value is stored already; return the one
        stored."""

    async def drop_meta_before(self, prefix: str, before: str) -> int:
        """Delete the facts whose key starts with ``prefix`` and whose value sorts before
        ``before``; return how many."""

    async def release_daily(self, game_id: int) -> None:
        """Let the channel of an ended daily game nobody saw (its board was never posted)
        start that day's deal again: the game no longer holds the day's place, and
        keeps no state (nothing to replay: nobody saw the deal)."""

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        """Return the settings a server has set (only those: a column left NULL is absent),
        keyed by :data:`SETTING_COLUMNS` names."""

    async def set_server_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        """Store ``changes`` (column name to value; None goes back to the default) for a
        server in one step; return what it has set afterwards, as :meth:`server_settings`."""
    async def turn_pings(self, user_id: int) -> bool | None:
        """Return whether ``user_id`` chose to be pinged when their turn comes (None: they
        chose nothing)."""

    async def set_turn_pings(self, user_id: int, pings: bool) -> None:
        """Store whether ``user_id`` is pinged when their turn comes."""

    async def query(self, sql: str, params: dict[str, Any] | None = None) -> list[tuple[Any, ...]]:
        """Run one read-only portable query with ``:name`` parameters; return its rows."""

    async def forget_player(self, user_id: int, former: str) -> int:
        """Delete a member's results and leave nothing of their id or names in finished
        games, their action logs and other results (``former`` stands in for the name);
        return how many results went."""

    async def prune_finished(self, before: float, limit: int = 500) -> int:
        """Drop the state and action log of up to ``limit`` games finished before
        ``before`` (results stay), a few games per transaction; return how many games
        were pruned."""

    async def count_rows(self) -> dict[str, int]:
        """Return how many rows each table of :data:`TABLES` holds."""


def settings_row(row: Sequence[Any] | None) -> dict[str, Any]:
    """Return a ``server_settings`` row (its :data:`SETTING_COLUMNS`, in order) as the
    settings it holds: NULL columns left out, flags as booleans."""
    if row is None:
        return {}
    values = dict(zip(SETTING_COLUMNS, row, strict=True))
    return {k: bool(v) if k in SETTING_FLAGS else v for k, v in values.items() if v is not None}


def setting_changes(changes: dict[str, Any]) -> dict[str, Any]:
    """Check that ``changes`` names only known settings; return them as stored (flags 0/1)."""
    unknown = set(changes) - set(SETTING_COLUMNS)
    if unknown:
        raise ValueError(f"unknown server settings: {sorted(unknown)}")
    return {k: (int(bool(v)) if k in SETTING_FLAGS and v is not None else v)
            for k, v in changes.items()}
