"""The player-record queries: stats and streaks, leaderboards and periods, forgetting."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from db.records import count_results, forget_player, leaderboard, player_stats
from db.rows import NewGame
from db.store import ResultRow, Store
from tests.support import Clock

GUILD = 7
NOW = Clock().now


async def add_results(store: Store, rows: Iterable[dict[str, Any]]) -> None:
    """Insert result rows directly (fast); each row gives user_id, kind, outcome, score..."""
    await store.connection.executemany(
        "INSERT INTO results (guild_id, user_id, kind, outcome, score, detail, at, daily,"
        " name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (r.get("guild_id", GUILD), r["user_id"], r["kind"], r["outcome"], r["score"],
             json.dumps(r.get("detail", {})), r.get("at", NOW), r.get("daily"), r.get("name"))
            for r in rows
        ],
    )


def tinker(user_id: int, cleared: int, chips: int, at: float = NOW, **extra: Any) -> dict:
    """Return a Tinker result row as the engine records it (score = cleared*100 + chips)."""
    return {"user_id": user_id, "kind": "tinker", "outcome": "win" if cleared == 13 else "loss",
            "score": cleared * 100 + chips, "at": at,
            "detail": {"locations_cleared": cleared, "chips_left": chips}, **extra}


async def _store(tmp_path) -> Store:
    return await Store.open(tmp_path / "records.db", Clock())


async def test_streaks_follow_time_order_not_insertion_order(tmp_path):
    """Current and best streak count consecutive wins by time; a draw or loss ends a run."""
    store = await _store(tmp_path)
    try:
        outcomes = ["win", "win", "loss", "win", "win", "win", "draw", "win", "win"]
        rows = [{"user_id": 1, "kind": "steam", "outcome": o, "score": 10 + i, "at": NOW + i}
                for i, o in enumerate(outcomes)]
        await add_results(store, reversed(rows))
        (steam,) = await player_stats(store, GUILD, 1)
        assert (steam.played, steam.won, steam.best_score) == (9, 7, 18)
        assert (steam.current_streak, steam.best_streak) == (2, 3)
        await add_results(store, [{"user_id": 1, "kind": "steam", "outcome": "loss",
                                   "score": 0, "at": NOW + 100}])
        (steam,) = await player_stats(store, GUILD, 1)
        assert (steam.current_streak, steam.best_streak) == (0, 3)
    finally:
        await store.close()


async def test_stats_per_game_per_server_and_one_game(tmp_path):
    """Stats come per game, only from the server asked about; ``kind`` narrows to one game."""
    store = await _store(tmp_path)
    try:
        await add_results(store, [
            tinker(1, 13, 5), tinker(1, 4, 0, NOW + 1),
            {"user_id": 1, "kind": "tinrealm", "outcome": "loss", "score": 44},
            tinker(1, 13, 30, guild_id=GUILD + 1),
            tinker(2, 13, 36),
        ])
        stats = await player_stats(store, GUILD, 1)
        assert [(s.kind, s.played, s.won, s.best_score) for s in stats] == [
            ("tinker", 2, 1, 1305), ("tinrealm", 1, 0, 44)]
        assert stats[0].current_streak == 0 and stats[0].best_streak == 1
        assert [s.kind for s in await player_stats(store, GUILD, 1, "tinrealm")] == ["tinrealm"]
        assert await player_stats(store, GUILD, 3) == []
        assert await player_stats(store, GUILD, 1, "steam") == []
    finally:
        await store.close()


async def test_best_score_ranking_ties_go_to_who_reached_it_first(tmp_path):
    """Tinker: cleared then chips (the best game), ties to the earlier; top 10 and the asker."""
    store = await _store(tmp_path)
    try:
        rows = [tinker(100 + n, n % 14, n, NOW + n) for n in range(20)]
        rows += [tinker(100, 13, 36, NOW + 50), tinker(101, 13, 36, NOW + 40)]
        await add_results(store, rows)
        board = await leaderboard(store, GUILD, "tinker", asker_id=114)
        assert board.players == 20 and len(board.top) == 10
        assert [s.user_id for s in board.top[:2]] == [101, 100]
        assert board.top[0].detail == {"locations_cleared": 13, "chips_left": 36}
        assert board.top[0].played == 2 and board.top[0].won == 1
        assert [s.place for s in board.top] == list(range(1, 11))
        assert board.mine is not None and board.mine.user_id == 114 and board.mine.place == 20
        inside = await leaderboard(store, GUILD, "tinker", asker_id=100)
        assert inside.mine is None
        stranger = await leaderboard(store, GUILD, "tinker", asker_id=999)
        assert stranger.mine is None and len(stranger.top) == 10
    finally:
        await store.close()


async def test_steam_ranks_by_wins_then_average_then_fewer_games(tmp_path):
    """Steam to Solar: most wins, then best average final score, then fewer games."""
    store = await _store(tmp_path)
    try:
        def game(user: int, outcome: str, score: int) -> dict:
            return {"user_id": user, "kind": "steam", "outcome": outcome, "score": score}

        await add_results(store, [
            game(1, "win", 50), game(1, "win", 50), game(1, "loss", 10),      # 2 wins, avg 36.7
            game(2, "win", 90), game(2, "loss", 80),                          # 1 win, avg 85
            game(3, "win", 40), game(3, "win", 60),                           # 2 wins, avg 50
            game(4, "win", 60), game(4, "win", 40), game(4, "loss", 50),      # 2 wins, avg 50
        ])
        board = await leaderboard(store, GUILD, "steam", asker_id=1)
        assert [s.user_id for s in board.top] == [3, 4, 1, 2]
        assert board.top[0].average_score == 50.0 and board.top[0].won == 2
    finally:
        await store.close()


async def test_periods_month_and_daily(tmp_path):
    """``since`` keeps recent results; ``daily`` keeps only that day's deal in this server."""
    store = await _store(tmp_path)
    try:
        await add_results(store, [
            tinker(1, 13, 36, NOW - 90 * 86400),
            tinker(2, 9, 0, NOW),
            tinker(3, 5, 1, NOW, daily="2027-01-15"),
            tinker(4, 7, 1, NOW, daily="2027-01-15"),
            tinker(5, 13, 1, NOW, daily="2027-01-14"),
            tinker(6, 13, 2, NOW, daily="2027-01-15", guild_id=GUILD + 1),
            {"user_id": 7, "kind": "tinrealm", "outcome": "win", "score": 80,
             "daily": "2027-01-15"},
        ])
        month = await leaderboard(store, GUILD, "tinker", asker_id=1, since=NOW - 86400)
        assert [s.user_id for s in month.top] == [5, 2, 4, 3] and month.mine is None
        daily = await leaderboard(store, GUILD, "tinker", asker_id=1, daily="2027-01-15")
        assert [s.user_id for s in daily.top] == [4, 3] and daily.players == 2
        empty = await leaderboard(store, GUILD, "steam", asker_id=1)
        assert empty.top == [] and empty.mine is None and empty.players == 0
    finally:
        await store.close()


async def test_forget_deletes_only_that_players_rows(tmp_path):
    """Forgetting deletes the player's results everywhere; others' rows and games stay."""
    store = await _store(tmp_path)
    try:
        game = await store.create_game(NewGame(
            guild_id=GUILD, channel_id=5, kind="steam", status="active", starter_id=1,
            seats=[{"user_id": 1, "name": "A"}, {"user_id": 2, "name": "B"}], options={},
            only_starter=False, state={}, events=[],
        ))
        game.status = "over"
        game.version = 1
        await store.save_game(game, 0, results=[ResultRow(1, "win", 60, {}),
                                                ResultRow(2, "loss", 40, {})])
        await add_results(store, [tinker(1, 3, 3), tinker(1, 3, 3, guild_id=GUILD + 1)])
        assert await count_results(store, 1) == 3
        assert await forget_player(store, 1) == 3
        assert await count_results(store, 1) == 0
        remaining = await store.results()
        assert [(r["user_id"], r["game_id"]) for r in remaining] == [(2, game.id)]
        kept = await store.get_game(game.id)
        assert [(s["user_id"], s["name"]) for s in kept.seats] == [
            (None, "a former player"), (2, "B")]
        assert await forget_player(store, 1) == 0
    finally:
        await store.close()


async def test_leaderboard_reads_only_the_covering_index(tmp_path):
    """The leaderboard's scan of a server's results uses the records index, not the table."""
    from db.records import _BEST_ORDER, _BOARD_SQL, _DAILY, _LAST_NAME, _SINCE

    store = await _store(tmp_path)
    try:
        plans = {}
        for name, period in (("since", _SINCE), ("daily", _DAILY)):
            sql = "EXPLAIN QUERY PLAN " + _BOARD_SQL.format(order=_BEST_ORDER, period=period,
                                                            name=_LAST_NAME)
            args = {"guild": GUILD, "kind": "tinker", "since": 0.0, "daily": "2027-01-15",
                    "size": 10, "asker": 1}
            async with store.connection.execute(sql, args) as cursor:
                plans[name] = [row[-1] for row in await cursor.fetchall()]
        assert any("COVERING INDEX results_by_guild_kind_player" in p for p in plans["since"])
        assert any("COVERING INDEX results_daily_by_guild_kind_player" in p
                   for p in plans["daily"])
        assert not any(p in ("SCAN r", "SCAN n") for p in plans["since"] + plans["daily"])
    finally:
        await store.close()


async def test_results_played_together_are_shown_apart_and_counted_on_boards(tmp_path):
    """C5: stats split shared results from solo ones; leaderboards count both."""
    store = await _store(tmp_path)
    try:
        game = await store.create_game(NewGame(
            guild_id=GUILD, channel_id=5, kind="tinker", status="active", starter_id=1,
            seats=[{"user_id": 1, "name": "A"}], options={}, only_starter=False, state={},
            events=[],
        ))
        game.status, game.version = "over", 1
        await store.save_game(game, 0, results=[
            ResultRow(1, "win", 1305, {"locations_cleared": 13, "chips_left": 5}, together=True),
            ResultRow(2, "win", 1305, {"locations_cleared": 13, "chips_left": 5}, together=True),
        ])
        await add_results(store, [tinker(1, 4, 2), tinker(1, 5, 0)])
        (stats,) = await player_stats(store, GUILD, 1)
        assert (stats.played, stats.won) == (3, 1)
        assert (stats.played_together, stats.won_together) == (1, 1)
        assert (stats.played_solo, stats.won_solo) == (2, 0)
        board = await leaderboard(store, GUILD, "tinker", asker_id=1)
        assert [(s.user_id, s.played, s.best_score) for s in board.top] == [
            (1, 3, 1305), (2, 1, 1305)]
    finally:
        await store.close()


async def test_daily_leaderboard_counts_each_members_first_daily_only(tmp_path):
    """Retrying the daily deal in other channels (or servers) does not improve the day."""
    store = await _store(tmp_path)
    try:
        day = "2027-01-15"
        await add_results(store, [
            tinker(1, 3, 0, at=NOW, daily=day),
            tinker(1, 13, 9, at=NOW + 10, daily=day),
            tinker(2, 6, 0, at=NOW + 5, daily=day, guild_id=GUILD + 1),
            tinker(2, 12, 0, at=NOW + 20, daily=day),
            tinker(3, 7, 1, at=NOW + 30, daily=day),
            tinker(3, 13, 0, at=NOW + 40, daily="2027-01-16"),
        ])
        board = await leaderboard(store, GUILD, "tinker", asker_id=1, daily=day)
        assert [(s.user_id, s.best_score, s.played) for s in board.top] == [(3, 701, 1),
                                                                             (1, 300, 1)]
        month = await leaderboard(store, GUILD, "tinker", asker_id=1, since=0.0)
        assert month.top[0].user_id == 1 and month.top[0].best_score == 1309
    finally:
        await store.close()


async def test_a_leaderboard_names_each_member_as_they_last_played_in_the_server(tmp_path):
    """Each line carries the name its member last played under in this server (not in
    another server); a member with no named result has none (shown as a mention)."""
    store = await _store(tmp_path)
    try:
        await add_results(store, [
            tinker(1, 13, 5, NOW - 10, name="Sam"),
            tinker(1, 2, 0, NOW, name="Samantha"),
            tinker(1, 1, 0, NOW + 5, name="Elsewhere", guild_id=GUILD + 1),
            tinker(2, 9, 0, NOW),
        ])
        board = await leaderboard(store, GUILD, "tinker", asker_id=1)
        assert [(s.user_id, s.name) for s in board.top] == [(1, "Samantha"), (2, None)]
    finally:
        await store.close()

