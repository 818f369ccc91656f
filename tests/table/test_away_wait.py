"""C6's "absent player": the seated players may hand a seat to a computer only while its
person keeps the table waiting: it is their turn, and it has waited a minute for them
(``AWAY_WAIT_SECONDS``). A player thinking over a move, or waiting for their turn, keeps
their seat however many ask."""

from __future__ import annotations

import pytest

from bot.table.data import TableData
from bot.table.errors import Refusal
from bot.table.lobby import LOBBY_JOIN, LOBBY_START
from bot.table.service import Tables
from bot.table.turns import AWAY_WAIT_SECONDS
from tests.support import ALICE, BOB, CAROL, Clock, open_tables

CHANNEL = 5


async def _table(tables: Tables) -> int:
    """Alice (first to play), Bob and Carol at a started Steam to Solar table."""
    game = await tables.open_lobby("steam", guild_id=1, channel_id=CHANNEL, host=ALICE,
                                   options={"start_seat": 0})
    version = game.row.version
    for person in (BOB, CAROL):
        version = (await tables.act(game.id, version, person, LOBBY_JOIN)).game.row.version
    await tables.act(game.id, version, ALICE, LOBBY_START)
    return game.id


async def _until_bobs_turn(tables: Tables, game_id: int) -> None:
    """Alice plays her turn out (as the computer would)."""
    game = await tables.load(game_id)
    while game.to_act() != 1:
        seat = game.to_act()
        action = game.engine.computer_action(game.state, seat)
        await tables.act(game_id, game.row.version, (ALICE, BOB, CAROL)[seat], action)
        game = await tables.load(game_id)


async def test_c6_a_seat_whose_turn_it_is_not_is_never_handed_on(tmp_path) -> None:
    """Bob is waiting for his turn, not keeping anyone waiting: Alice's and Carol's asks
    are refused and not counted, however long the table has run."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables)
        clock.advance(3600)
        for asker in (ALICE, CAROL):
            with pytest.raises(Refusal, match="Bob is not keeping the table waiting"):
                await tables.hand_to_computer(CHANNEL, asker, BOB.user_id)
        game = await tables.load(game_id)
        assert game.data.away_votes == {} and not game.seats[1].away


async def test_c6_a_seat_is_handed_on_once_its_turn_has_waited_a_minute(tmp_path) -> None:
    """Bob's turn comes; asks in its first minute are refused with the seconds left; a
    step of his turn starts the minute again; a minute after it, the majority hands his
    seat to a computer."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables)
        await _until_bobs_turn(tables, game_id)
        assert (await tables.load(game_id)).data.turn_since == clock.now
        clock.advance(AWAY_WAIT_SECONDS - 15)
        with pytest.raises(Refusal, match=r"give them time \(ask again in 15 s\)"):
            await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        clock.advance(15)
        first = await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        assert first.events == ("Alice asks to hand Bob's seat to a computer (1 of 2 "
                                "needed).",)
        done = await tables.hand_to_computer(CHANNEL, CAROL, BOB.user_id)
        assert done.events == ("Alice and Carol handed Bob's seat to a computer until Bob "
                               "clicks again.",)
        assert (await tables.load(game_id)).seats[1].away


async def test_c6_a_step_of_the_turn_starts_the_minute_again(tmp_path) -> None:
    """Bob takes a card and is placing it: he is here. The minute counts from his last
    step, kept with the table (and so after a restart)."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables)
        await _until_bobs_turn(tables, game_id)
        game = await tables.load(game_id)
        clock.advance(50)
        takes = [a.id for a in game.legal_actions(1) if a.id.startswith("t2:")]
        await tables.act(game_id, game.row.version, BOB, takes[0])
        game = await tables.load(game_id)
        assert game.to_act() == 1 and game.data.turn_since == clock.now
        clock.advance(30)
        with pytest.raises(Refusal, match=r"ask again in 30 s"):
            await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)


def test_the_turns_start_is_stored_and_a_row_without_it_reads_as_unknown() -> None:
    """``turn_since`` goes to the stored data and back; a row stored before it was kept
    reads None (a seat there may be handed on as before, once it is their turn)."""
    data = TableData(turn_since=1_800_000_123.5)
    assert data.to_json()["turn_since"] == 1_800_000_123.5
    assert TableData.from_json(data.to_json()).turn_since == 1_800_000_123.5
    assert TableData.from_json({}).turn_since is None
    assert "turn_since" not in TableData().to_json()


async def test_c6_anothers_return_leaves_the_absent_players_minute_as_it_was(
        tmp_path) -> None:
    """Alice, handed to a computer earlier, comes back during Bob's turn, which has
    waited ten minutes: her return is not a step of Bob's turn, so her ask to hand Bob's
    seat on is taken at once, not put off another minute."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables)
        clock.advance(AWAY_WAIT_SECONDS)
        await tables.hand_to_computer(CHANNEL, BOB, ALICE.user_id)
        await tables.hand_to_computer(CHANNEL, CAROL, ALICE.user_id)
        while (await tables.computer_move(game_id)) is not None:
            pass
        game = await tables.load(game_id)
        assert game.to_act() == 1 and game.seats[0].away
        began = game.data.turn_since
        clock.advance(600)
        assert await tables.come_back(game_id, ALICE) is not None
        game = await tables.load(game_id)
        assert game.to_act() == 1 and game.data.turn_since == began
        asked = await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        assert asked.events == ("Alice asks to hand Bob's seat to a computer (1 of 2 "
                                "needed).",)


async def test_c6_time_the_bot_was_down_does_not_count_toward_the_minute(tmp_path) -> None:
    """Bob's turn comes; 10 s later the bot is down for an hour. Back up, Bob has had 10 s
    of a bot he could play on, not a minute: an ask 5 s after the start is refused with
    45 s to go (as a turn timer, the wait is put off by the outage), and is taken once
    they have passed."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game_id = await _table(tables)
        await _until_bobs_turn(tables, game_id)
        clock.advance(10)
        down_from = clock.now
    clock.advance(3600)
    async with open_tables(tmp_path / "t.db", clock) as tables:
        tables.turns.outages = [(down_from, 3600.0)]  # as the bot's start notes it
        clock.advance(5)
        with pytest.raises(Refusal, match=r"ask again in 45 s"):
            await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        clock.advance(45)
        asked = await tables.hand_to_computer(CHANNEL, ALICE, BOB.user_id)
        assert asked.events[0].startswith("Alice asks to hand Bob's seat to a computer")
