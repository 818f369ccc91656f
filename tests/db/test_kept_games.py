"""A click on a game this process just saved skips the read: the kept row (db.rows.KeptRows).

Run on both database backends. "Another process" is a second store on the same database.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.table.errors import StaleBoard, Unavailable
from bot.table.loaded import LoadedGame
from bot.table.seats import Seat
from bot.table.service import Tables
from db.errors import StorageError, VersionConflict
from db.rows import SAVE_STEP, KeptRows, save_time, to_json
from tests.support import ALICE, BOB, CAROL, Clock, open_tables

CHANNEL = 700


@asynccontextmanager
async def one_move_in(tmp_path: Any) -> AsyncIterator[tuple[Tables, LoadedGame, Clock]]:
    """Yield a table service, a "fast" game on it after one move (so it is kept), its clock."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        await tables.act(game.id, 0, ALICE, "add1")
        yield tables, game, clock


@asynccontextmanager
async def other_process(tables: Tables, clock: Clock) -> AsyncIterator[Tables]:
    """Yield a second table service over the same database, as another process has."""
    store = tables.store
    target = store.path if store.backend == "sqlite" else store.url  # type: ignore[attr-defined]
    other = Tables(await type(store).open(target, clock), clock=clock)
    try:
        yield other
    finally:
        await other.store.close()


def counted_reads(tables: Tables, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the store's reads of games from now on; return the list they go to."""
    reads: list[int] = []
    real_get = tables.store.get_game

    async def counted(game_id: int) -> Any:
        reads.append(game_id)
        return await real_get(game_id)

    monkeypatch.setattr(tables.store, "get_game", counted)
    return reads


async def test_a_kept_game_is_played_without_a_read(tmp_path: Any, backend: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """After a save, the next click on the game is served from the kept row, not a read."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        reads = counted_reads(tables, monkeypatch)
        play = await tables.act(game.id, 1, BOB, "add2")
        assert reads == [] and play.game.state.count == 3
        monkeypatch.undo()
        stored = await tables.load(game.id)
        assert stored.row.version == 2 and stored.state.count == 3
        assert [e["action"]["action"] for e in await tables.store.actions(game.id)] == [
            "add1", "add2"]


async def test_each_kept_read_is_a_fresh_copy(tmp_path: Any, backend: str) -> None:
    """Changing what a click returned (a board being drawn) cannot change the next click."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        play = await tables.act(game.id, 0, ALICE, "add1")
        play.game.row.version = 99
        play.game.row.extra.setdefault("players", {})["666"] = "Mallory"
        play.game.row.seats.append({"user_id": 666})
        play.game.seats.append(Seat(user_id=666))
        again = await tables.act(game.id, 1, ALICE, "add1")
        assert again.game.row.version == 2
        assert "666" not in again.game.row.extra.get("players", {})
        assert len(again.game.row.seats) == 1 and len(again.game.seats) == 1


async def test_another_process_saving_table_data_is_not_overwritten(tmp_path: Any,
                                                                    backend: str) -> None:
    """Another writer saved the game without a move (same version): the kept row fails
    the save's compare-and-swap, the click is applied to a fresh read, nothing is lost."""
    async with one_move_in(tmp_path) as (tables, game, clock):
        async with other_process(tables, clock) as other:
            theirs = await other.load(game.id)
            theirs.row.extra["note"] = "written elsewhere"
            await other.store.save_game(theirs.row, theirs.row.version)
        play = await tables.act(game.id, 1, BOB, "add2")
        assert play.game.row.version == 2
        stored = await tables.load(game.id)
        assert stored.state.count == 3 and stored.row.extra["note"] == "written elsewhere"
        assert len(await tables.store.actions(game.id)) == 2


async def test_another_process_moving_the_game_makes_the_click_stale(tmp_path: Any,
                                                                    backend: str) -> None:
    """Another process moved the game on: a click on the board this process last showed
    is refused as stale (after a fresh read), and nothing of it is saved."""
    async with one_move_in(tmp_path) as (tables, game, clock):
        async with other_process(tables, clock) as other:
            await other.act(game.id, 1, BOB, "add2")
        with pytest.raises(StaleBoard):
            await tables.act(game.id, 1, ALICE, "add1")
        stored = await tables.load(game.id)
        assert stored.row.version == 2 and stored.state.count == 3
        assert len(await tables.store.actions(game.id)) == 2
        played = await tables.act(game.id, 2, ALICE, "add1")  # the current board still plays
        assert played.game.state.count == 4


async def test_a_failed_save_forgets_the_kept_row(tmp_path: Any, backend: str) -> None:
    """A save that fails (here a version conflict) drops the kept row: the next click reads."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        row = tables.store.kept_game(game.id)
        assert row is not None and row.version == 1
        with pytest.raises(VersionConflict):
            await tables.store.save_game(row, 0)
        assert tables.store.kept_game(game.id) is None


async def test_a_finished_game_is_not_kept(tmp_path: Any, backend: str) -> None:
    """Only open games are kept; an abandoned one is read from the database."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        await tables.abandon(CHANNEL, ALICE)
        assert tables.store.kept_game(game.id) is None


async def test_forgetting_a_player_drops_every_kept_row(tmp_path: Any, backend: str) -> None:
    """/forget-me rewrites rows outside a save: nothing kept from before survives it."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        assert tables.store.kept_game(game.id) is not None
        await tables.store.forget_player(BOB.user_id)
        assert tables.store.kept_game(game.id) is None


async def test_a_storage_error_while_saving_forgets_the_kept_row(
        tmp_path: Any, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save the database refuses leaves nothing kept, so nothing unsaved is served."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        store = tables.store
        name = "_in_transaction" if backend == "sqlite" else "_save"

        async def refuse(*args: Any, **kwargs: Any) -> None:
            raise StorageError("disk I/O error")

        monkeypatch.setattr(store, name, refuse)
        with pytest.raises(Unavailable):
            await tables.act(game.id, 1, ALICE, "add1")
        assert store.kept_game(game.id) is None
        monkeypatch.undo()
        assert (await tables.act(game.id, 1, ALICE, "add1")).game.state.count == 2


def test_save_time_always_moves_on() -> None:
    """Every save of a game writes a later ``updated_at``, even on a clock standing still
    or stepping back, so the compare-and-swap tells two saves apart."""
    assert save_time(100.0, 50.0) == 100.0
    assert save_time(100.0, 100.0) == 100.0 + SAVE_STEP
    assert save_time(90.0, 100.0) == 100.0 + SAVE_STEP
    stamps = [0.0]
    for _ in range(1000):
        stamps.append(save_time(1_800_000_000.0, stamps[-1] or 1_800_000_000.0))
    assert len(set(stamps)) == len(stamps)


def test_kept_rows_keep_the_most_recent_games_only() -> None:
    """The least recently saved game goes first once the capacity is reached."""
    from db.rows import GameRow

    def row(game_id: int, status: str = "active") -> GameRow:
        return GameRow(id=game_id, guild_id=1, channel_id=game_id, kind="toy", status=status,
                       starter_id=1, seats=[], options={}, only_starter=False, state={},
                       version=0, events=[], board_channel_id=None, board_message_id=None,
                       board_posted_at=None, created_at=0.0, updated_at=0.0)

    kept = KeptRows(capacity=2)
    columns = ("[]", "{}", "{}", "[]", "{}")
    for game_id in (1, 2, 3):
        kept.keep(row(game_id), columns, 5.0)
    assert kept.take(1) is None and len(kept) == 2
    kept.keep(row(2), columns, 6.0)  # saved again: now the most recent
    kept.keep(row(4), columns, 7.0)
    assert kept.take(3) is None and kept.take(2) is not None
    kept.board(2, 10, 20, 8.0)
    taken = kept.take(2)
    assert taken is not None and (taken.board_channel_id, taken.board_message_id) == (10, 20)
    assert taken.updated_at == 6.0
    kept.keep(row(2, "over"), columns, 9.0)
    assert kept.take(2) is None


def test_kept_voters_go_with_their_game_while_nothing_else_wrote_it() -> None:
    """The voters' rows a save wrote are kept with its game, newest last and at most
    ``voters_per_game``; the next save keeps them only if it replaced the kept row itself
    (nothing else wrote in between), and they go with the game."""
    from db.rows import GameRow, VoterRow

    row = GameRow(id=1, guild_id=1, channel_id=1, kind="toy", status="active", starter_id=1,
                  seats=[], options={}, only_starter=False, state={}, version=0, events=[],
                  board_channel_id=None, board_message_id=None, board_posted_at=None,
                  created_at=0.0, updated_at=0.0)
    columns = ("[]", "{}", "{}", "[]", "{}")
    ada, bob = VoterRow(1, "Ada", 0), VoterRow(2, "Bob", 0)
    kept = KeptRows()
    kept.voters_per_game = 2
    kept.keep(row, columns, 5.0, [ada, bob])
    assert kept.voters(1) == {1: ada, 2: bob}
    ada_again = VoterRow(1, "Ada", 1)
    carol = VoterRow(3, "Carol", 1)
    kept.keep(row, columns, 6.0, [ada_again], since=5.0)
    assert kept.voters(1) == {2: bob, 1: ada_again}
    kept.keep(row, columns, 7.0, [carol], since=6.0)  # Bob's is the oldest: it goes
    assert kept.voters(1) == {1: ada_again, 3: carol}
    kept.keep(row, columns, 9.0, [bob], since=8.0)  # something else wrote at 8.0
    assert kept.voters(1) == {2: bob}
    kept.drop(1)
    assert kept.voters(1) == {}


async def test_a_vote_elsewhere_is_not_hidden_by_kept_voters(tmp_path: Any,
                                                             backend: str) -> None:
    """Bob votes in another process after this one kept his row: the next save here
    keeps no voters from before, so a decision counts what is stored (C4)."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = (await tables.act(game.id, 0, ALICE, "add1")).game.row.version
        play = await tables.act(game.id, version, BOB, "add1")
        assert play.ballot is not None  # one of two: no majority yet
        assert BOB.user_id in tables.store.kept_voters(game.id)
        async with other_process(tables, clock) as other:
            clock.advance(1)
            moved = await other.act(game.id, version, BOB, "add2")
            assert moved.ballot is not None
        play = await tables.act(game.id, version, ALICE, "add2")
        assert play.ballot is None and play.events[0].startswith("Bob and Alice chose")


# -- a kept row out of date ----------------------------------------------------------------


async def test_a_kept_row_out_of_date_is_read_again(
        tmp_path: Any, backend: str) -> None:
    """Another process moved the game: its kept row is out of date, the save
    fails its compare-and-swap, and the click is done again from what is stored."""
    async with one_move_in(tmp_path) as (tables, game, clock):
        async with other_process(tables, clock) as other:
            clock.advance(1)
            await other.act(game.id, 1, BOB, "add2")  # count 3, version 2, elsewhere
        with pytest.raises(StaleBoard):
            await tables.act(game.id, 1, BOB, "add1")  # the board this process showed
        play = await tables.act(game.id, 2, BOB, "add1")
        assert play.game.state.count == 4 and play.game.row.version == 3



# -- rows changed elsewhere (migration 7) ------------------------------------------------


async def test_a_row_edited_by_hand_is_read_again_not_written_over(
        tmp_path: Any, backend: str) -> None:
    """A hand edit of a kept game's state that leaves updated_at alone moves updated_at
    all the same (a trigger), so the next click finds its kept row out of date and plays
    on the edited game instead of writing over the edit."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        stored = await tables.store.get_game(game.id)
        assert stored is not None and stored.state is not None
        edited = dict(stored.state, count=10)

        await tables.store.connection.execute(  # type: ignore[attr-defined]
            "UPDATE games SET state = ? WHERE id = ?", (json.dumps(edited), game.id))
        after_edit = await tables.store.get_game(game.id)
        assert after_edit is not None and after_edit.updated_at > stored.updated_at
        play = await tables.act(game.id, 1, BOB, "add1")
        assert play.game.state.count == 11  # 10 as edited, plus this click
        assert (await tables.load(game.id)).state.count == 11


async def test_the_bots_own_writes_do_not_touch_updated_at(
        tmp_path: Any, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Saves move updated_at themselves and a new board message leaves it alone, so the
    trigger never makes the bot read its own games again."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        await tables.set_board(game, CHANNEL, 4242)
        reads = counted_reads(tables, monkeypatch)
        for version in (1, 2, 3):
            await tables.act(game.id, version, BOB, "add1")
        assert reads == []
        monkeypatch.undo()
        assert (await tables.load(game.id)).row.board_message_id == 4242



async def test_a_hand_edit_of_who_may_play_is_noticed(tmp_path: Any, backend: str) -> None:
    """The trigger watches who may play too: an "only me" game opened up by hand lets
    another member's click through at once."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  only_starter=True)
        await tables.act(game.id, 0, ALICE, "add1")
        await tables.store.connection.execute(  # type: ignore[attr-defined]
            "UPDATE games SET only_starter = ? WHERE id = ?", (False, game.id))
        with pytest.raises(Exception, match="Only"):
            await tables.act(game.id, 1, BOB, "add1")  # refused from the kept row
        play = await tables.act(game.id, 1, ALICE, "add1")  # the next save notices the edit
        assert play.game.row.only_starter is False
        assert (await tables.act(game.id, 2, BOB, "add1")).game.state.count == 3


# -- the state kept as loaded ----------------------------------------------------------------


async def test_a_kept_game_is_played_without_loading_its_state(
        tmp_path: Any, backend: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine's state object saved with a kept row comes back with it: no engine load,
    and the game plays on exactly as a game read from the database does."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        engine = tables.core.engines("toy")
        loads: list[Any] = []
        real_load = engine.load

        def counted(data: Any) -> Any:
            loads.append(data)
            return real_load(data)

        monkeypatch.setattr(engine, "load", counted)
        for version, action in enumerate(("add2", "add1", "add2"), start=1):
            play = await tables.act(game.id, version, BOB, action)
        assert loads == []
        monkeypatch.undo()
        kept_state = play.game.state
        stored = await tables.load(game.id)
        assert stored.state == kept_state and stored.state.count == 6
        assert engine.dump(kept_state) == stored.row.state


async def test_the_state_text_is_written_again_only_when_unchanged(
        tmp_path: Any, backend: str) -> None:
    """A save that did not change the state writes the very text it read (here one with
    spaces, as no encoder of ours writes it); a move writes the new state's own text, and
    a state document replaced by any other code is encoded anew, never paired with the
    text or the engine state of the one it replaced."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        stored = await tables.store.get_game(game.id)
        assert stored is not None and stored.state is not None
        spaced = json.dumps(stored.state, separators=(", ", ": "))
        assert spaced != stored.raw_state
        await tables.store.connection.execute(  # type: ignore[attr-defined]
            "UPDATE games SET state = ? WHERE id = ?", (spaced, game.id))
        read = await tables.load(game.id)
        assert read.row.state_text() == spaced
        await tables.core.save_table(read)  # the table's own data only
        after = await tables.store.get_game(game.id)
        assert after is not None and after.raw_state == spaced
        moved = await tables.act(game.id, 1, BOB, "add2")
        after = await tables.store.get_game(game.id)
        assert after is not None and after.raw_state != spaced
        assert json.loads(after.raw_state or "") == moved.game.row.state
        row = moved.game.row
        row.state = dict(row.state or {}, count=7)  # a new document: nothing known of it
        assert row.engine_state() is None and row.state_text() == to_json(row.state)


async def test_a_state_read_from_the_database_is_loaded_once_per_read(
        tmp_path: Any, backend: str) -> None:
    """A row read from the database knows its state's text but not its engine state
    until it is loaded; loading notes it, keeping the text."""
    async with one_move_in(tmp_path) as (tables, game, _clock):
        row = await tables.store.get_game(game.id)
        assert row is not None and row.engine_state() is None
        assert row.state_text() == row.raw_state
        loaded = tables.core.wrap(row)
        assert row.engine_state() is loaded.state and row.state_text() == row.raw_state


async def test_the_newest_board_plays_after_another_process_moved_the_game(
        tmp_path: Any, backend: str) -> None:
    """A deploy's overlap: the old process moved the game (version 2) after this one kept
    it at version 1. A click on the newest board is read fresh and played, the first time
    and every time, not refused as stale against the kept row."""
    async with one_move_in(tmp_path) as (tables, game, clock):
        async with other_process(tables, clock) as other:
            clock.advance(1)
            await other.act(game.id, 1, BOB, "add2")
        played = await tables.act(game.id, 2, CAROL, "add1")
        assert played.game.row.version == 3 and played.game.state.count == 4
        assert (await tables.act(game.id, 3, ALICE, "add1")).game.state.count == 5


async def test_a_vote_closed_by_the_old_process_leaves_the_board_playable(
        tmp_path: Any, backend: str) -> None:
    """Deploy overlap, a channel vote: this process takes Bob's vote (and keeps the game),
    the old one's deadline loop closes the window. The next votes are counted and, both
    voters agreeing, move the game."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as new:
        game = await new.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        await new.act(game.id, 0, ALICE, "add1")
        await new.act(game.id, 1, ALICE, "add1")
        play = await new.act(game.id, 2, BOB, "add2")  # 1 of 2: a window opens
        assert play.ballot is not None
        async with other_process(new, clock) as old:
            clock.advance(31)
            closed = await old.close_vote(game.id)
            assert closed is not None and closed.game.row.version == 3
        first = await new.act(game.id, 3, ALICE, "add1")
        assert first.ballot is not None and first.game.row.version == 3
        await new.act(game.id, 3, BOB, "add1")
        assert (await new.load(game.id)).row.version == 4


async def test_a_board_another_process_posted_replaces_the_kept_one(tmp_path: Any,
                                                                    backend: str) -> None:
    """A deploy's overlap: this process keeps the game, the other posts a new board
    (setting a board leaves the row's ``updated_at`` as it was, so the kept row is still
    taken). A fresh read names the new board, and a save here keeps naming it."""
    async with one_move_in(tmp_path) as (tables, game, clock):
        await tables.set_board(game, 700, 1000)
        await tables.act(game.id, 1, BOB, "add1")
        clock.advance(1)
        async with other_process(tables, clock) as other:
            await other.set_board(await other.load(game.id), 700, 2000)
        assert tables.store.kept_board(game.id) == (700, 1000)  # not read yet: no telling
        assert (await tables.load(game.id)).row.board_message_id == 2000
        assert tables.store.kept_board(game.id) == (700, 2000)
        await tables.act(game.id, 2, ALICE, "add1")
        assert tables.store.kept_board(game.id) == (700, 2000)
        clock.advance(1)
        await tables.set_board(await tables.load(game.id), 700, 3000)  # this process's own
        await tables.act(game.id, 3, BOB, "add1")
        assert tables.store.kept_board(game.id) == (700, 3000)
