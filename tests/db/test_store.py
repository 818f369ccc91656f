"""The store's guarantees, on both backends: compare-and-swap saves with their log and
results, C3 and the daily deal, shard filters, idle batches, retention, forgetting."""

from __future__ import annotations

from typing import Any

import pytest

from db.errors import ChannelBusy, DailyPlayed, VersionConflict
from db.rows import GameRow, NewGame, ResultRow
from db.store import Store
from tests.support import Clock

SHARD_BIT = 1 << 22


async def _new(store: Any, channel: int, *, guild: int | None = 1, seats: int = 1,
               status: str = "active", daily: str | None = None) -> GameRow:
    return await store.create_game(NewGame(
        guild_id=guild, channel_id=channel, kind="toy", status=status, starter_id=7,
        seats=[{"user_id": 100 + i, "name": f"P{i}"} for i in range(seats)], options={},
        only_starter=False, state={"count": 0}, events=[], daily=daily,
    ))


async def test_save_is_compare_and_swap_with_log_and_results(tmp_path, backend):
    """A save at the right version stores the move, its log entry and results together."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        game = await _new(store, 1)
        game.state, game.version, game.status = {"count": 1}, 1, "over"
        await store.save_game(game, 0, action={"id": "add1"}, actor_id=100,
                              results=[ResultRow(100, "win", 5, {"x": 1}, together=True)])
        stale = await store.get_game(game.id)
        assert stale is not None and stale.version == 1 and stale.state == {"count": 1}
        assert [a["action"] for a in await store.actions(game.id)] == [{"id": "add1"}]
        (result,) = await store.results(100)
        assert result["together"] is True and result["detail"] == {"x": 1}
        game.version = 2
        with pytest.raises(VersionConflict):
            await store.save_game(game, 0, action={"id": "add2"}, actor_id=100,
                                  results=[ResultRow(100, "win", 9, {})])
        assert len(await store.actions(game.id)) == 1 and len(await store.results()) == 1
    finally:
        await store.close()


async def test_one_open_game_per_channel_and_one_daily(tmp_path, backend):
    """C3 and the daily deal are enforced by the database on both backends."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        first = await _new(store, 5, daily="2027-01-01")
        with pytest.raises(ChannelBusy) as busy:
            await _new(store, 5)
        assert busy.value.game_id == first.id
        first.status, first.version = "over", 1
        await store.save_game(first, 0)
        with pytest.raises(DailyPlayed):
            await _new(store, 5, daily="2027-01-01")
        assert (await _new(store, 5)).channel_id == 5
    finally:
        await store.close()


async def test_shard_filters_keep_only_this_process_games(tmp_path, backend):
    """Background queries with a shard filter see only games of those shards (DMs: 0)."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        on_shard = {}
        for channel, guild in ((1, 0 * SHARD_BIT), (2, 1 * SHARD_BIT), (3, 2 * SHARD_BIT),
                               (4, 3 * SHARD_BIT), (5, None)):
            game = await _new(store, channel, guild=guild, seats=2)
            game.deadline, game.version = clock.now - 1, 1
            await store.save_game(game, 0)
            on_shard[game.id] = 0 if guild is None else (guild >> 22) % 2
        clock.advance(10 * 86400)
        cutoffs = {"lobby": clock.now, "solo": clock.now, "multi": clock.now}
        for shard in (0, 1):
            wanted = sorted(i for i, s in on_shard.items() if s == shard)
            assert sorted(g for g, _ in await store.due_games(clock.now, shards=(shard, 2))) \
                == wanted
            assert await store.idle_games(cutoffs, shards=(shard, 2)) == wanted
            assert sorted(await store.active_multiseat_ids(shards=(shard, 2))) == wanted
        assert len(await store.idle_games(cutoffs, shards=((0, 1), 2))) == 5
        assert len(await store.due_games(clock.now)) == 5
    finally:
        await store.close()


async def test_the_running_tables_with_a_deadline(tmp_path, backend):
    """The tables whose turn timer may be running: running, two seats or more, and a
    deadline stored (the start's put-off reads only those)."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        waiting = await _new(store, 1, seats=2)
        waiting.deadline, waiting.version = clock.now + 600, 1
        await store.save_game(waiting, 0)
        idle = await _new(store, 2, seats=2)
        solo = await _new(store, 3, seats=1)
        solo.deadline, solo.version = clock.now + 600, 1
        await store.save_game(solo, 0)
        assert sorted(await store.active_multiseat_ids()) == [waiting.id, idle.id]
        assert await store.active_multiseat_ids(waiting=True) == [waiting.id]
    finally:
        await store.close()


async def test_idle_games_come_in_batches_of_ids_by_group(tmp_path, backend):
    """Idle games are ids in ascending batches; each group has its own cutoff."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        solo = [await _new(store, c) for c in range(10, 15)]
        multi = await _new(store, 20, seats=3)
        lobby = await _new(store, 21, seats=2, status="lobby")
        clock.advance(3600)
        cutoffs = {"lobby": clock.now - 60, "solo": clock.now - 7200, "multi": clock.now}
        assert await store.idle_games(cutoffs) == sorted([multi.id, lobby.id])
        cutoffs["solo"] = clock.now
        first = await store.idle_games(cutoffs, limit=3)
        rest = await store.idle_games(cutoffs, limit=4, after_id=first[-1])
        assert first + rest == sorted([g.id for g in solo] + [multi.id, lobby.id])
    finally:
        await store.close()


async def test_retention_prunes_state_and_log_but_keeps_results(tmp_path, backend):
    """Finished games past retention lose state and log; open games and results stay."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        done = await _new(store, 1)
        done.status, done.version = "over", 1
        await store.save_game(done, 0, action={"id": "x"}, actor_id=100,
                              results=[ResultRow(100, "win", 3, {})])
        playing = await _new(store, 2)
        playing.version = 1
        await store.save_game(playing, 0, action={"id": "y"}, actor_id=100)
        assert await store.prune_finished(clock.now - 1) == 0
        clock.advance(1)
        assert await store.prune_finished(clock.now, limit=10) == 1
        assert await store.prune_finished(clock.now, limit=10) == 0
        pruned = await store.get_game(done.id)
        assert pruned is not None and pruned.state is None and pruned.raw_state is None
        assert await store.actions(done.id) == [] and len(await store.results()) == 1
        assert len(await store.actions(playing.id)) == 1
    finally:
        await store.close()


async def test_forget_player_leaves_a_former_player_in_finished_games(tmp_path, backend):
    """Forgetting renames the member's seats and clears their id in finished games' logs."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        done = await _new(store, 1, seats=2)
        done.status, done.version = "over", 1
        await store.save_game(done, 0, action={"id": "x"}, actor_id=100,
                              results=[ResultRow(100, "win", 3, {}), ResultRow(101, "loss", 1, {})])
        playing = await _new(store, 2, seats=2)
        assert await store.forget_player(100, "a former player") == 1
        seats = (await store.get_game(done.id)).seats
        assert seats[0] == {"user_id": None, "name": "a former player"}
        assert seats[1]["user_id"] == 101
        assert [a["actor_id"] for a in await store.actions(done.id)] == [None]
        assert (await store.get_game(playing.id)).seats[0]["user_id"] == 100
        assert [r["user_id"] for r in await store.results()] == [101]
    finally:
        await store.close()


async def test_forgetting_a_name_leaves_longer_words_that_hold_it(tmp_path, backend):
    """Forgetting "Al" renames Al, not Alice; a member named "Sun" leaves "Ace of Suns":
    a name is scrubbed where it stands as a name of its own."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        done = await _new(store, 1, seats=2)
        done.seats = [{"user_id": 100, "name": "Al"}, {"user_id": 101, "name": "Alice"}]
        done.status, done.version = "over", 1
        done.state = {"players": [{"name": "Al"}, {"name": "Alice"}], "river": ["Ace of Suns"]}
        done.events = ["Alice takes the Wave token; Al passes.", "Al takes Ace of Suns."]
        await store.save_game(done, 0, action={"id": "x"}, actor_id=100,
                              results=[ResultRow(100, "loss", 1, {}),
                                       ResultRow(101, "win", 3, {"beat": "Al"})])
        await store.forget_player(100, "a former player")
        after = await store.get_game(done.id)
        assert [s["name"] for s in after.seats] == ["a former player", "Alice"]
        assert after.state == {"players": [{"name": "a former player"}, {"name": "Alice"}],
                               "river": ["Ace of Suns"]}
        assert after.events == ["Alice takes the Wave token; a former player passes.",
                                "a former player takes Ace of Suns."]
        assert [r["detail"] for r in await store.results(101)] == [{"beat": "a former player"}]
    finally:
        await store.close()


async def test_forgetting_scrubs_only_the_results_of_the_members_games(tmp_path, backend):
    """Another server's player whose result holds the same word (a Tin Realm rank
    "Guard") keeps it: only the other players' results of the member's games change."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        theirs = await _new(store, 1, seats=2)
        theirs.seats = [{"user_id": 100, "name": "Guard"}, {"user_id": 101, "name": "Bo"}]
        theirs.status, theirs.version = "over", 1
        await store.save_game(theirs, 0, action={"id": "x"}, actor_id=100,
                              results=[ResultRow(100, "loss", 1, {}),
                                       ResultRow(101, "win", 3, {"beat": "Guard"})])
        stranger = await _new(store, 2, guild=9)
        stranger.seats = [{"user_id": 200, "name": "Cy"}]
        stranger.status, stranger.version = "over", 1
        await store.save_game(stranger, 0, action={"id": "x"}, actor_id=200,
                              results=[ResultRow(200, "win", 35, {"rank": "Guard"})])
        await store.forget_player(100, "a former player")
        assert [r["detail"] for r in await store.results(101)] == [{"beat": "a former player"}]
        assert [r["detail"] for r in await store.results(100)] == []
        assert [r["detail"] for r in await store.results(200)] == [{"rank": "Guard"}]
    finally:
        await store.close()


async def test_counts_and_meta(tmp_path, backend):
    """Row counts cover every table; meta facts and a member's ping choice round-trip and
    update."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        await store.set_meta("k", "1")
        await store.set_meta("k", "2")
        assert await store.get_meta("k") == "2" and await store.get_meta("none") is None
        await _new(store, 1)
        await store.set_turn_pings(5, False)
        await store.set_turn_pings(5, True)
        assert await store.turn_pings(5) is True and await store.turn_pings(6) is None
        assert await store.count_rows() == {"games": 1, "voters": 0, "actions": 0,
                                            "results": 0, "ratings": 0, "meta": 1,
                                            "server_settings": 0, "member_settings": 1,
                                            "daily_played": 0}
        assert await store.count_open() == 1
    finally:
        await store.close()


async def test_forget_player_leaves_no_id_or_name_in_a_shared_game(tmp_path, backend):
    """A channel game played together: the member's votes, credit and name go too."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        done = await _new(store, 1)
        done.status, done.version = "over", 1
        done.events = ["Zed and Bob chose: Add 2 (2 votes to 1).", "Bob chose: Add 1."]
        done.extra = {"players": {"100": "Zed", "101": "Bob"}, "recent": [[100, 101], [101]],
                      "last": "Zed and Bob chose: Add 2 (2 votes to 1).",
                      "poll": {"version": 1, "ballots": [{"user": 100, "name": "Zed"}]}}
        await store.save_game(done, 0, action={"id": "x"}, actor_id=100)
        await store.forget_player(100, "a former player")
        after = await store.get_game(done.id)
        text = str(after.extra) + str(after.events) + str(after.seats)
        assert "100" not in text and "Zed" not in text
        assert after.events[0] == "a former player and Bob chose: Add 2 (2 votes to 1)."
        assert after.extra["players"] == {"101": "Bob"}
        await store.forget_player(7, "a former player")
        assert (await store.get_game(done.id)).starter_id == 0
    finally:
        await store.close()


async def test_the_days_first_daily_result_is_the_game_started_first(tmp_path, backend):
    """A member's counted result of a daily deal is that of the game started first: seen
    in one game, played through in another, and only then given up, it counts as given
    up, not as the rehearsed score (on both backends)."""
    from db.records import leaderboard

    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        seen = await _new(store, 1, daily="2027-01-15")
        played = await _new(store, 2, daily="2027-01-15")
        for game, score, detail in ((played, 1200, {"locations_cleared": 12}),
                                    (seen, 0, {"given_up": True})):
            game.state, game.version, game.status = {"count": 1}, 1, "over"
            game.kind = "tinker"
            await store.save_game(game, 0, action={"id": "end"}, actor_id=100,
                                  results=[ResultRow(100, "loss", score, detail)])
        board = await leaderboard(store, 1, "tinker", asker_id=100, daily="2027-01-15")
        (line,) = board.top
        assert (line.best_score, line.detail) == (0, {"given_up": True})
    finally:
        await store.close()
