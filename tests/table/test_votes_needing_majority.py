"""Votes for moves needing a majority (giving up) in a channel vote (C4)."""

from __future__ import annotations

from typing import Any

from bot.boards.render import vote_field
from bot.table import polls
from tests.support import ALICE, BOB, Clock
from tests.table.test_votes import _tables, _three_active


async def test_c4_close_line_leaves_the_give_up_vote_out_of_the_count(tmp_path: Any) -> None:
    """C4: Alice votes to give up, Bob for Add 2; when the window closes Add 2 happens and
    the line says Bob chose it, the left-out give-up vote not counted against it."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        gid = await _three_active(tables)
        await tables.act(gid, 2, ALICE, "resign")
        await tables.act(gid, 2, BOB, "add2")
        clock.advance(60)
        play = await tables.close_vote(gid)
        assert play is not None
        assert play.events[0] == "Bob chose: Add 2."
    finally:
        await tables.store.close()


def test_c4_a_majority_counts_every_other_vote() -> None:
    """C4: a move a majority agreed on is counted against every other vote, giving up
    included; at the close, only against the other moves of the plurality."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Alice", "resign", "Give up", 0.0)
    polls.cast(poll, 2, "Bob", "a", "A", 1.0)
    polls.cast(poll, 3, "Carol", "a", "A", 2.0)
    polls.cast(poll, 4, "Dave", "b", "B", 3.0)
    chosen = polls.plurality(poll)
    assert chosen is not None and chosen.action == "a"
    assert polls.attribution(poll, chosen) == "Bob and Carol chose: A (2 votes to 1)."
    assert (polls.attribution(poll, chosen, by_majority=True)
            == "Bob and Carol chose: A (2 votes to 2).")


async def test_c4_switching_to_give_up_stops_the_countdown(tmp_path: Any) -> None:
    """C4: Alice votes Add 2 (the window opens), then changes her vote to Give up: no
    move the window could choose has a vote, so the countdown stops, the board says
    giving up needs 2 of 3 and Alice is told it needs a majority."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        gid = await _three_active(tables)
        voted = await tables.act(gid, 2, ALICE, "add2")
        assert voted.game.data.poll is not None and voted.game.data.poll.closes is not None
        switched = await tables.act(gid, 2, ALICE, "resign")
        game = await tables.load(gid)
        assert game.data.poll is not None and game.data.poll.closes is None
        assert game.row.deadline is None
        field = vote_field(game)
        assert field is not None and field[1] == "1 vote · giving up needs 2 of 3"
        assert switched.ballot is not None
        assert switched.ballot.text() == (
            "You changed your vote to Give up. It needs a majority (2 of 3).")
        back = await tables.act(gid, 2, ALICE, "add2")  # the countdown starts again
        assert back.game.data.poll is not None and back.game.data.poll.closes is not None
    finally:
        await tables.store.close()


def test_c4_a_first_vote_to_give_up_is_not_promised_an_open_vote() -> None:
    """C4: the first vote to give up, with no other move voted for, is told the vote
    stays open until a majority agrees, or another move is voted for, whose countdown
    then leaves giving up out (it used to promise the vote stayed open, and another
    move voted for once won 30 s later)."""
    from bot.table.loaded import Ballot

    text = Ballot("Give up the Bard", 1, 6, 4, None, False, first=True,
                  needs_majority=True).text()
    assert "stays open until one agrees, or another move is voted for" in text
    assert "countdown then leaves it out" in text
