"""Typed seats (bot/table/seats.py): read from and written back to the seats column
exactly as it is stored."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path

import pytest

from bot.table.lobby import LOBBY_COMPUTER, LOBBY_JOIN, LOBBY_LEVEL, LOBBY_START, computer_seat
from bot.table.seats import Seat, seats_from_json, seats_to_json
from db.rows import to_json
from tests.support import ALICE, BOB, open_tables

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")

#: Seats column texts as the table writes them (copied from stored games): a person, a
#: computer player with its level, an away person, a computer player from before levels,
#: and a member forgotten from a finished game.
STORED = [
    '{"user_id":418235112709160962,"name":"Alice","computer":false}',
    '{"user_id":null,"name":"Ada (computer)","computer":true,"level":"hard"}',
    '{"user_id":418235112709160963,"name":"Bob ☕","computer":false,"away":true}',
    '{"user_id":null,"name":"Brass (computer)","computer":true}',
    '{"user_id":null,"name":"a former player","computer":false}',
]


@pytest.mark.parametrize("text", STORED)
def test_a_stored_seat_is_written_back_byte_for_byte(text: str) -> None:
    assert to_json(Seat.from_json(json.loads(text)).to_json()) == text


def test_a_whole_seats_column_round_trips() -> None:
    column = "[" + ",".join(STORED) + "]"
    assert to_json(seats_to_json(seats_from_json(json.loads(column)))) == column


def test_the_fields_read_from_stored_seats() -> None:
    alice, ada, bob, brass, former = (Seat.from_json(json.loads(t)) for t in STORED)
    assert (alice.user_id, alice.name, alice.computer, alice.level, alice.away) == (
        418235112709160962, "Alice", False, None, False)
    assert ada.computer and ada.level == "hard" and ada.user_id is None
    assert bob.away and bob.is_person and bob.holds(418235112709160963)
    assert brass.computer and brass.level is None
    assert former.user_id is None and not former.is_person and not former.computer


def test_unknown_keys_are_kept_after_the_known_ones() -> None:
    text = '{"user_id":7,"name":"Cy","computer":false,"away":true,"colour":"red","seen":[1]}'
    seat = Seat.from_json(json.loads(text))
    assert seat.other == {"colour": "red", "seen": [1]}
    assert to_json(seat.to_json()) == text
    back = seat.with_away(False)
    assert to_json(back.to_json()) == (
        '{"user_id":7,"name":"Cy","computer":false,"colour":"red","seen":[1]}')


def test_missing_keys_get_their_defaults() -> None:
    seat = Seat.from_json({"user_id": 5})
    assert seat == Seat(user_id=5)
    assert (seat.name, seat.computer, seat.level, seat.away, seat.other) == (
        "", False, None, False, {})


def test_a_computer_is_known_by_its_flag_never_by_its_name() -> None:
    person = Seat.from_json({"user_id": 5, "name": "Ada (computer)", "computer": False})
    assert person.is_person and person.holds(5)
    computer = Seat.from_json({"user_id": 5, "name": "Alice", "computer": True})
    assert not computer.is_person and not computer.holds(5)


def test_new_seats_are_written_as_the_table_always_wrote_them() -> None:
    assert to_json(Seat.person(1, "Al").to_json()) == '{"user_id":1,"name":"Al","computer":false}'
    assert to_json(computer_seat("Cog (computer)").to_json()) == (
        '{"user_id":null,"name":"Cog (computer)","computer":true,"level":"normal"}')
    assert to_json(computer_seat("Cog (computer)").with_level("easy").to_json()) == (
        '{"user_id":null,"name":"Cog (computer)","computer":true,"level":"easy"}')
    assert Seat.person(1, "Al").with_away(True).to_json() == {
        "user_id": 1, "name": "Al", "computer": False, "away": True}


@pytest.mark.parametrize("bad", [{"user_id": [1]}, {"user_id": "not a number"}, [1, 2]])
def test_a_seat_no_version_wrote_is_refused(bad: object) -> None:
    with pytest.raises((TypeError, ValueError)):
        Seat.from_json(bad)  # type: ignore[arg-type]


def _stored_seats(path: Path, game_id: int) -> str:
    with contextlib.closing(sqlite3.connect(path)) as conn:
        return str(conn.execute("SELECT seats FROM games WHERE id = ?", (game_id,)).fetchone()[0])


async def test_the_table_writes_seats_as_it_always_did(tmp_path: Path) -> None:
    """Join, a computer player and its level, away and back: the stored column is the
    text the dict-based table wrote, and reading it back changes nothing."""
    path = tmp_path / "t.db"
    alice = '{"user_id":101,"name":"Alice","computer":false}'
    bob = '{"user_id":102,"name":"Bob","computer":false}'
    ada = '{"user_id":null,"name":"Ada (computer)","computer":true,"level":"hard"}'
    async with open_tables(path) as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=77, host=ALICE)
        v = (await tables.act(game.id, 0, BOB, LOBBY_JOIN)).game.row.version
        v = (await tables.act(game.id, v, ALICE, LOBBY_COMPUTER)).game.row.version
        v = (await tables.act(game.id, v, ALICE, f"{LOBBY_LEVEL}2.hard")).game.row.version
        assert _stored_seats(path, game.id) == f"[{alice},{bob},{ada}]"
        await tables.act(game.id, v, ALICE, LOBBY_START)
        await tables.hand_to_computer(77, ALICE, BOB.user_id)
        away = bob[:-1] + ',"away":true}'
        assert _stored_seats(path, game.id) == f"[{alice},{away},{ada}]"
        loaded = await tables.load(game.id)
        assert [s.away for s in loaded.seats] == [False, True, False]
        assert to_json(seats_to_json(loaded.seats)) == _stored_seats(path, game.id)
        assert await tables.come_back(game.id, BOB) is not None
        assert _stored_seats(path, game.id) == f"[{alice},{bob},{ada}]"
