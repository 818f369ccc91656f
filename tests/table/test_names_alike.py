"""Two people named alike at one table are told apart: the second seat's name gets a
number ("Sam (2)"), so the board, the picture and the host's controls name each one."""

from __future__ import annotations

from bot.boards.host_panel import _person_options
from bot.table.lobby import LOBBY_JOIN, distinct_name
from bot.table.seats import Seat
from tests.support import ALICE, Actor, open_tables


def test_a_name_taken_gets_the_first_free_number():
    """Names are compared without case; a number taken already is skipped."""
    seats = [Seat.person(1, "Sam"), Seat.person(2, "sam (2)")]
    assert distinct_name("Bea", seats) == "Bea"
    assert distinct_name("SAM", seats) == "SAM (3)"


async def test_two_people_named_alike_join_as_two_names(tmp_path):
    """Sam and another Sam join a lobby: the seats, the join lines and the host's
    controls tell them apart; the same holds when the table starts."""
    sam, other = Actor(201, "Sam"), Actor(202, "Sam")
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=5, host=ALICE)
        version = game.row.version
        for person in (sam, other):
            game = (await tables.act(game.id, version, person, LOBBY_JOIN)).game
            version = game.row.version
        assert [s.name for s in game.seats] == ["Alice", "Sam", "Sam (2)"]
        assert game.row.events[-1] == "Sam (2) joined."
        labels = [a.label for i in (1, 2) for a in _person_options(i, game.seats[i])]
        assert len(labels) == len(set(labels)), labels


async def test_a_renamed_player_is_named_by_their_seat_in_the_tables_lines(tmp_path):
    """Bob renamed himself "Bobby" after joining: the table's lines about him (asking to
    abandon) name his seat, as the board does, not the new name (which forgetting him
    would not know to scrub)."""
    from bot.table.lobby import LOBBY_START
    from tests.support import BOB

    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=5, host=ALICE)
        game = (await tables.act(game.id, game.row.version, BOB, LOBBY_JOIN)).game
        await tables.act(game.id, game.row.version, ALICE, LOBBY_START)
        asked = await tables.abandon(5, Actor(BOB.user_id, "Bobby"))
        assert asked.row.events[-1].startswith("Bob asks to abandon the game (1 of 2 needed")


def test_a_result_keeps_the_members_own_name_not_the_tables_number():
    """A seat numbered "Sam (2)" beside a "Sam" records its result as Sam: leaderboards
    name the member, not the table's number; a name that is really "Agent (47)" stays."""
    from bot.table.results import own_name

    sam, other = Seat.person(1, "Sam"), Seat.person(2, "Sam (2)")
    assert own_name([sam, other], other) == "Sam"
    agent = Seat.person(3, "Agent (47)")
    assert own_name([sam, agent], agent) == "Agent (47)"
