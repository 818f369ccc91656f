"""Ratings in the store, on both backends: written with the results in one transaction,
computers never stored, two games ending at once both counted, forgetting removes them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from db.errors import VersionConflict
from db.ratings import DEFAULT_MU, DEFAULT_SIGMA
from db.records import player_ratings, rating_board
from db.rows import GameRow, NewGame, RatedSeat, ResultRow
from db.store import Store
from tests.support import Clock

GUILD = 42


async def _finished(store: Any, channel: int, users: list[int], guild: int | None = GUILD
                    ) -> GameRow:
    game = await store.create_game(NewGame(
        guild_id=guild, channel_id=channel, kind="steam", status="active", starter_id=users[0],
        seats=[{"user_id": u, "name": f"P{u}"} for u in users], options={},
        only_starter=False, state={"n": 0}, events=[],
    ))
    game.status, game.version = "over", 1
    return game


async def _ratings(store: Any) -> dict[int, tuple[float, float, int]]:
    rows = await store.query("SELECT user_id, mu, sigma, games FROM ratings")
    return {int(u): (float(mu), float(sigma), int(games)) for u, mu, sigma, games in rows}


async def test_ratings_are_written_with_the_results(tmp_path: Path, backend: str) -> None:
    """A save with results and rated seats stores the people's new ratings; a save that
    loses its compare-and-swap stores neither results nor ratings."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        game = await _finished(store, 1, [11, 12])
        seats = [RatedSeat(1, 11), RatedSeat(2, 12)]
        stale = await store.get_game(game.id)
        assert stale is not None
        await store.save_game(game, 0, results=[ResultRow(11, "win", 5, {}),
                                                ResultRow(12, "loss", 3, {})], ratings=seats)
        after = await _ratings(store)
        assert after[11][0] > DEFAULT_MU > after[12][0]
        assert after[11][2] == after[12][2] == 1 and after[11][1] < DEFAULT_SIGMA
        stale.status, stale.version = "over", 1
        with pytest.raises(VersionConflict):
            await store.save_game(stale, 0, results=[ResultRow(11, "win", 5, {})],
                                  ratings=seats)
        assert await _ratings(store) == after
        assert len(await store.results()) == 2
        board = await rating_board(store, GUILD, "steam", asker_id=12, size=1)
        assert [s.user_id for s in board.top] == [11] and board.mine is not None
        assert board.mine.place == 2 and board.players == 2
        mine = await player_ratings(store, GUILD, 12)
        assert mine["steam"].place == 2 and mine["steam"].games == 1
    finally:
        await store.close()


async def test_games_ending_at_once_are_all_counted(tmp_path: Path, backend: str) -> None:
    """Five games of the same person ending at once: their rating counts all five."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        games = [await _finished(store, 10 + n, [11, 20 + n]) for n in range(5)]
        await asyncio.gather(*(
            store.save_game(g, 0, results=[ResultRow(11, "win", 5, {})],
                            ratings=[RatedSeat(1, 11), RatedSeat(2, 20 + n)])
            for n, g in enumerate(games)))
        ratings = await _ratings(store)
        assert ratings[11][2] == 5 and len(ratings) == 6
    finally:
        await store.close()


async def test_a_game_outside_a_server_is_not_rated(tmp_path: Path, backend: str) -> None:
    """Ratings are per server: a game without one changes none."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        game = await _finished(store, 1, [11, 12], guild=None)
        await store.save_game(game, 0, results=[ResultRow(11, "win", 5, {})],
                              ratings=[RatedSeat(1, 11), RatedSeat(2, 12)])
        assert await _ratings(store) == {}
    finally:
        await store.close()


async def test_forgetting_deletes_the_members_ratings_only(tmp_path: Path,
                                                           backend: str) -> None:
    """/forget-me's store call removes every rating of the member, in every server."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        for channel, guild in ((1, GUILD), (2, GUILD + 1)):
            game = await _finished(store, channel, [11, 12], guild=guild)
            await store.save_game(game, 0, results=[ResultRow(11, "win", 5, {})],
                                  ratings=[RatedSeat(1, 11), RatedSeat(2, 12)])
        assert await store.forget_player(11, "a former player") == 2
        assert list(await _ratings(store)) == [12]
        assert (await store.count_rows())["ratings"] == 2
    finally:
        await store.close()


async def test_a_players_place_breaks_ties_as_the_leaderboard_does(tmp_path: Path,
                                                                   backend: str) -> None:
    """Two players who shared their only game have the same rating and games: the
    leaderboard puts the lower user id first, and each one's own place (/stats) says the
    same, not first for both."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        game = await _finished(store, 1, [11, 12])
        await store.save_game(game, 0, results=[ResultRow(11, "draw", 4, {}),
                                                ResultRow(12, "draw", 4, {})],
                              ratings=[RatedSeat(1, 11), RatedSeat(1, 12)])
        ratings = await _ratings(store)
        assert ratings[11] == ratings[12]
        board = await rating_board(store, GUILD, "steam", asker_id=12)
        assert [(s.place, s.user_id) for s in board.top] == [(1, 11), (2, 12)]
        assert (await player_ratings(store, GUILD, 11))["steam"].place == 1
        assert (await player_ratings(store, GUILD, 12))["steam"].place == 2
    finally:
        await store.close()
