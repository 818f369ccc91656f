"""The generic game table: locking, versions, seats, lobbies, abandoning, housekeeping."""

import asyncio
import sqlite3

import pytest

from bot.table.errors import (
    ChannelOccupied,
    GameEnded,
    NotAllowed,
    NotYourTurn,
    Refusal,
    StaleBoard,
    Unavailable,
)
from bot.table.loaded import Actor, LoadedGame
from bot.table.lobby import LOBBY_COMPUTER, LOBBY_JOIN, LOBBY_LEAVE, LOBBY_START
from tests.support import ALICE, BOB, CAROL, MOD, Clock, open_tables, set_read_only

CHANNEL = 500


async def test_act_applies_saves_and_logs(tmp_path):
    """A legal click bumps the version, saves the state and appends one log entry."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        play = await tables.act(game.id, 0, BOB, "add2")
        assert play.game.row.version == 1
        assert play.game.state.count == 2
        reloaded = await tables.load(game.id)
        assert reloaded.state.count == 2
        log = await tables.store.actions(game.id)
        assert [e["action"] for e in log] == [{"seat": 0, "action": "add2", "by": {"102": "Bob"}}]
        assert log[0]["actor_id"] == BOB.user_id


async def test_twenty_simultaneous_clicks_apply_once(tmp_path):
    """20 clicks on the same board version: one move applied, 19 refused as stale."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        results = await asyncio.gather(
            *(tables.act(game.id, 0, ALICE, "add1") for _ in range(20)), return_exceptions=True
        )
        applied = [r for r in results if not isinstance(r, Exception)]
        refused = [r for r in results if isinstance(r, StaleBoard)]
        assert len(applied) == 1 and len(refused) == 19
        assert (await tables.load(game.id)).state.count == 1
        assert len(await tables.store.actions(game.id)) == 1


async def test_stale_version_is_refused_and_changes_nothing(tmp_path):
    """A click on an older board version is refused; state and log are unchanged."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        await tables.act(game.id, 0, ALICE, "add1")
        with pytest.raises(StaleBoard, match="out of date"):
            await tables.act(game.id, 0, ALICE, "add2")
        after = await tables.load(game.id)
        assert after.row.version == 1 and after.state.count == 1
        assert len(await tables.store.actions(game.id)) == 1


async def test_c1_only_me_refuses_other_players(tmp_path):
    """C1: with "only me", another member's click is refused and changes nothing."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  only_starter=True)
        with pytest.raises(NotAllowed, match="only me"):
            await tables.act(game.id, 0, BOB, "add1")
        assert (await tables.load(game.id)).row.version == 0
        await tables.act(game.id, 0, ALICE, "add1")


async def test_c1_fast_channel_plays_together(tmp_path):
    """C1: in a "fast" game any member's click is a move at once."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        await tables.act(game.id, 0, BOB, "add1")
        await tables.act(game.id, 1, CAROL, "add1")
        assert (await tables.load(game.id)).state.count == 2


async def test_illegal_action_refused_without_change(tmp_path):
    """An action the engine refuses is a Refusal and changes nothing."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        with pytest.raises(Refusal, match="not a legal move"):
            await tables.act(game.id, 0, ALICE, "add9")
        assert (await tables.load(game.id)).row.version == 0


async def test_c3_one_open_game_per_channel_in_the_database(tmp_path):
    """C3: a second game in the same channel is refused by the database's unique index."""
    async with open_tables(tmp_path / "t.db") as tables:
        await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        with pytest.raises(ChannelOccupied, match="already has a game of Race to Ten"):
            await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=BOB)
        with pytest.raises(sqlite3.IntegrityError):
            await tables.store.connection.execute(
                "INSERT INTO games (channel_id, kind, status, starter_id, created_at, updated_at)"
                f" VALUES ({CHANNEL}, 'toy', 'lobby', 1, 0, 0)"
            )
        await tables.start("toy", guild_id=1, channel_id=CHANNEL + 1, starter=BOB)


async def test_finished_game_frees_channel_and_records_result(tmp_path):
    """C5: a finished game credits its starter and every player, and frees the channel."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = 0
        for _ in range(5):
            play = await tables.act(game.id, version, BOB, "add2")
            version = play.game.row.version
        assert play.finished and play.game.row.status == "over"
        results = await tables.store.results()
        assert sorted((r["user_id"], r["outcome"], r["kind"]) for r in results) == [
            (ALICE.user_id, "win", "toy"), (BOB.user_id, "win", "toy")
        ]
        with pytest.raises(GameEnded, match="is over"):
            await tables.act(game.id, version, BOB, "add1")
        await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=BOB)


async def test_c2_lobby_then_turns(tmp_path):
    """C2: in a seated game only the seat to act may move; others are told whose turn."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=CHANNEL, host=ALICE)
        v = 0
        with pytest.raises(Refusal, match="Only the host"):
            await tables.act(game.id, v, BOB, LOBBY_START)
        v = (await tables.act(game.id, v, BOB, LOBBY_JOIN)).game.row.version
        with pytest.raises(Refusal, match="already seated"):
            await tables.act(game.id, v, BOB, LOBBY_JOIN)
        v = (await tables.act(game.id, v, ALICE, LOBBY_START)).game.row.version
        with pytest.raises(NotYourTurn, match="Alice's turn"):
            await tables.act(game.id, v, BOB, "add1")
        with pytest.raises(NotAllowed, match="not seated"):
            await tables.act(game.id, v, CAROL, "add1")
        play = await tables.act(game.id, v, ALICE, "add1")
        assert play.game.to_act() == 1
        assert (await tables.load(game.id)).row.version == v + 1


async def test_out_of_turn_action_the_engine_allows(tmp_path):
    """A seated player may take an action the engine offers out of turn (resign)."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=CHANNEL, host=ALICE)
        v = (await tables.act(game.id, 0, BOB, LOBBY_JOIN)).game.row.version
        v = (await tables.act(game.id, v, ALICE, LOBBY_START)).game.row.version
        play = await tables.act(game.id, v, BOB, "resign")
        assert play.finished
        outcomes = {r["user_id"]: r["outcome"] for r in await tables.store.results()}
        assert outcomes == {ALICE.user_id: "win", BOB.user_id: "loss"}


async def test_lobby_seat_limits_and_computers(tmp_path):
    """The lobby enforces seat limits; computers fill seats and are never in results."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=CHANNEL, host=ALICE)
        v = 0
        with pytest.raises(Refusal, match="only person"):
            await tables.act(game.id, v, ALICE, LOBBY_LEAVE)
        with pytest.raises(Refusal, match="Only players seated"):
            await tables.act(game.id, v, BOB, LOBBY_COMPUTER)
        v = (await tables.act(game.id, v, ALICE, LOBBY_COMPUTER)).game.row.version
        v = (await tables.act(game.id, v, ALICE, LOBBY_COMPUTER)).game.row.version
        with pytest.raises(Refusal, match="full"):
            await tables.act(game.id, v, BOB, LOBBY_JOIN)
        v = (await tables.act(game.id, v, ALICE, LOBBY_START)).game.row.version
        game = await tables.load(game.id)
        assert [s["computer"] for s in game.row.seats] == [False, True, True]
        play = await tables.act(game.id, v, ALICE, "add1")
        while not play.finished:
            if play.game.computer_to_act():
                play = await tables.computer_move(game.id)
            else:
                play = await tables.act(game.id, play.game.row.version, ALICE, "add2")
        assert {r["user_id"] for r in await tables.store.results()} == {ALICE.user_id}


async def test_abandon_by_starter_or_manager_only(tmp_path):
    """Only the starter or a member with Manage Messages can abandon a game."""
    async with open_tables(tmp_path / "t.db") as tables:
        await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        with pytest.raises(NotAllowed, match="Manage Messages"):
            await tables.abandon(CHANNEL, BOB)
        game = await tables.abandon(CHANNEL, MOD)
        assert game.row.status == "abandoned"
        assert await tables.open_in_channel(CHANNEL) is None
        with pytest.raises(Refusal, match="no game"):
            await tables.abandon(CHANNEL, ALICE)


async def test_sweeper_ends_idle_games_by_kind(tmp_path):
    """Idle games end after their age: lobbies 1 hour, solo 7 days, multiplayer 2 days."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        solo = await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE)
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=2, host=ALICE)
        multi = await tables.open_lobby("toy", guild_id=1, channel_id=3, host=BOB)
        v = (await tables.act(multi.id, 0, ALICE, LOBBY_JOIN)).game.row.version
        await tables.act(multi.id, v, BOB, LOBBY_START)

        def cutoffs() -> dict[str, float]:
            return {"solo": clock.now - 7 * 86400, "lobby": clock.now - 3600,
                    "multi": clock.now - 2 * 86400}

        async def sweep() -> list[LoadedGame]:
            ended: list[LoadedGame] = []

            async def collect(game: LoadedGame) -> None:
                ended.append(game)

            assert await tables.expire_idle(cutoffs(), collect) == len(ended)
            return ended

        clock.advance(3601)
        assert [g.id for g in await sweep()] == [lobby.id]
        clock.advance(2 * 86400)
        assert [g.id for g in await sweep()] == [multi.id]
        clock.advance(5 * 86400)
        ended = await sweep()
        assert [g.id for g in ended] == [solo.id]
        assert ended[0].row.status == "expired"
        assert await tables.store.count_open() == 0


async def test_the_sweeper_ends_a_few_games_of_a_batch_at_once(tmp_path, monkeypatch):
    """Twenty-five idle games: all end, never more than AT_ONCE (10) of them at a time,
    so the loop's work when their saves come back stays small."""
    from db.sweep import AT_ONCE

    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        for channel in range(25):
            await tables.start("toy", guild_id=1, channel_id=channel + 1, starter=ALICE)
        clock.advance(8 * 86400)
        running, most = 0, 0
        expire = tables.expiry.expire

        async def counted(game_id: int, cutoffs: dict[str, float]) -> LoadedGame | None:
            nonlocal running, most
            running += 1
            most = max(most, running)
            try:
                return await expire(game_id, cutoffs)
            finally:
                running -= 1

        monkeypatch.setattr(tables.expiry, "expire", counted)
        ended: list[int] = []

        async def collect(game: LoadedGame) -> None:
            ended.append(game.id)

        assert await tables.expire_idle({"solo": clock.now - 7 * 86400}, collect) == 25
        assert len(set(ended)) == 25 and most == AT_ONCE


async def test_broken_state_is_reported_and_can_be_abandoned(tmp_path):
    """A corrupt state row refuses clicks with a clear message and can still be abandoned."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        other = await tables.start("toy", guild_id=1, channel_id=CHANNEL + 1, starter=BOB)
        # Damaged behind the bot's back; the save's compare-and-swap on updated_at is what
        # notices it for a game this process keeps in memory (db.rows.KeptRows).
        await tables.store.connection.execute(
            "UPDATE games SET state = '{not json', updated_at = updated_at + 1 WHERE id = ?",
            (game.id,),
        )
        loaded = await tables.load(game.id)
        assert loaded.broken
        with pytest.raises(Refusal, match="damaged"):
            await tables.act(game.id, 0, ALICE, "add1")
        await tables.act(other.id, 0, BOB, "add1")
        ended = await tables.abandon(CHANNEL, ALICE)
        assert ended.row.status == "abandoned"


async def test_read_only_database_refuses_cleanly(tmp_path):
    """A database that cannot be written gives Unavailable; nothing is lost."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        await tables.act(game.id, 0, ALICE, "add1")
        await set_read_only(tables.store, True)
        with pytest.raises(Unavailable, match="nothing was changed"):
            await tables.act(game.id, 1, ALICE, "add1")
        await set_read_only(tables.store, False)
        assert (await tables.load(game.id)).state.count == 1
        await tables.act(game.id, 1, ALICE, "add1")
        assert (await tables.load(game.id)).state.count == 2


async def test_locked_database_refuses_cleanly(tmp_path):
    """A database locked by another process gives Unavailable, then works once released."""
    import aiosqlite

    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        other = await aiosqlite.connect(tmp_path / "t.db", isolation_level=None)
        await other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(Unavailable):
                await tables.act(game.id, 0, ALICE, "add1")
        finally:
            await other.execute("ROLLBACK")
            await other.close()
        await tables.act(game.id, 0, ALICE, "add1")
        assert len(await tables.store.actions(game.id)) == 1


async def test_daily_deal_same_seed_everywhere_once_per_channel(tmp_path):
    """The daily deal has the date's seed everywhere and one game per channel per day."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        a = await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE, daily=True)
        b = await tables.start("toy", guild_id=2, channel_id=2, starter=BOB, daily=True)
        assert a.state.seed == b.state.seed and a.row.daily == b.row.daily
        await tables.abandon(1, ALICE)
        with pytest.raises(Refusal, match="already played today's daily"):
            await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE, daily=True)
        normal = await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE)
        assert normal.row.daily is None
        await tables.abandon(1, ALICE)
        clock.advance(86400)
        tomorrow = await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE, daily=True)
        assert tomorrow.state.seed != a.state.seed


async def test_one_request_per_game_at_a_time(tmp_path):
    """The per-game lock admits one request at a time, however many queue behind it."""
    async with open_tables(tmp_path / "t.db") as tables:
        inside = 0
        most = 0

        async def request() -> None:
            nonlocal inside, most
            async with tables.hold(7):
                inside += 1
                most = max(most, inside)
                await asyncio.sleep(0.01)
                inside -= 1

        tasks = []
        for _ in range(6):  # newcomers keep arriving while others wait
            tasks.append(asyncio.create_task(request()))
            await asyncio.sleep(0.006)
        await asyncio.gather(*tasks)
        assert most == 1
        assert tables.core.locked_games() == 0
        assert await tables.drain(0.1)


async def test_who_may_abandon_a_table(tmp_path):
    """A lobby is its host's to close (not a starter who left); a running table is ended by
    a majority of the people still playing at it; a moderator always may; each refusal
    names who may."""
    async with open_tables(tmp_path / "t.db") as tables:
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=ALICE)
        v = (await tables.act(lobby.id, 0, BOB, LOBBY_JOIN)).game.row.version
        v = (await tables.act(lobby.id, v, ALICE, LOBBY_LEAVE)).game.row.version  # Bob hosts
        with pytest.raises(NotAllowed, match="Only the host, Bob"):
            await tables.abandon(5, ALICE)
        assert not (await tables.abandon(5, BOB)).row.is_open

        table = await tables.open_lobby("toy", guild_id=1, channel_id=6, host=ALICE)
        v = (await tables.act(table.id, 0, BOB, LOBBY_JOIN)).game.row.version
        v = (await tables.act(table.id, v, CAROL, LOBBY_JOIN)).game.row.version
        await tables.act(table.id, v, ALICE, LOBBY_START)
        asked = await tables.abandon(6, BOB)
        assert asked.row.is_open and "1 of 2 needed" in asked.row.events[-1]
        with pytest.raises(Refusal, match="You have asked to abandon this game already"):
            await tables.abandon(6, BOB)  # asking twice counts once
        with pytest.raises(NotAllowed, match="still playing"):
            await tables.abandon(6, Actor(999, "Stranger"))
        ended = await tables.abandon(6, CAROL)
        assert not ended.row.is_open and ended.row.events[-1] == "Bob and Carol abandoned the game."

        moderated = await tables.open_lobby("toy", guild_id=1, channel_id=7, host=ALICE)
        v = (await tables.act(moderated.id, 0, BOB, LOBBY_JOIN)).game.row.version
        await tables.act(moderated.id, v, ALICE, LOBBY_START)
        assert not (await tables.abandon(7, MOD)).row.is_open


async def test_a_computer_chooses_off_the_event_loop(tmp_path, monkeypatch):
    """A computer's choice (Hard plays the endgame out first) is made in a thread, never on
    the event loop's own thread."""
    import threading

    async with open_tables(tmp_path / "t.db") as tables:
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=8, host=ALICE,
                                        computers=["hard"])
        game = (await tables.act(lobby.id, 0, ALICE, LOBBY_START)).game
        threads: list[int] = []
        real = game.engine.computer_action

        def choose(state, seat, *args, **kwargs):
            threads.append(threading.get_ident())
            return real(state, seat, *args, **kwargs)

        monkeypatch.setattr(type(game.engine), "computer_action",
                            lambda self, state, seat: choose(state, seat))
        await tables.computer_move(game.id)
        if not threads:  # the computer was not first: the person moves, then it does
            await tables.act(game.id, game.row.version, ALICE, "add1")
            await tables.computer_move(game.id)
        assert threads and threading.get_ident() not in threads


async def test_a_person_named_like_a_computer_is_a_person(tmp_path):
    """Seats know what they are: a member whose name is "Ada (computer)" is seated, asked to
    play and credited as a person, and the computer added beside them gets another name."""
    ada = Actor(150, "Ada (computer)")
    async with open_tables(tmp_path / "t.db") as tables:
        lobby = await tables.open_lobby("toy", guild_id=1, channel_id=9, host=ALICE)
        v = (await tables.act(lobby.id, 0, ada, LOBBY_JOIN)).game.row.version
        v = (await tables.act(lobby.id, v, ALICE, LOBBY_COMPUTER)).game.row.version
        game = (await tables.act(lobby.id, v, ALICE, LOBBY_START)).game
        names = [s["name"] for s in game.row.seats]
        assert names.count("Ada (computer)") == 1 and len(set(names)) == 3
        seat = game.seat_of(ada.user_id)
        assert seat is not None and not game.row.seats[seat].get("computer")
        while game.row.is_open:
            if game.computer_to_act():
                assert game.to_act() != seat
                game = (await tables.computer_move(game.id)).game
            else:
                who = ALICE if game.to_act() == game.seat_of(ALICE.user_id) else ada
                game = (await tables.act(game.id, game.row.version, who, "add1")).game
        results = {r["user_id"] for r in await tables.store.results()}
        assert ada.user_id in results
