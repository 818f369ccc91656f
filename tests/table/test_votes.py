"""Channel votes (rulings C1, C4, C5): the pure rules and the table's vote path."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.games.protocol import Action, Step
from bot.table import polls
from bot.table.errors import StaleBoard
from bot.table.service import Actor, Tables
from db.store import Store
from tests.support import ALICE, BOB, CAROL, Clock
from tests.toy import ToyEngine, ToyState

CHANNEL = 700
DAVE = Actor(104, "Dave")


class GiveUpToy(ToyEngine):
    """The toy race with a solo "resign" (giving up), which needs a majority by vote."""

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        actions = super().legal_actions(state, seat)
        if state.seats == 1 and actions:
            actions.append(Action("resign", "Give up", "end"))
        return actions

    def apply(self, state: ToyState, seat: int, action_id: str) -> Step:
        if action_id == "resign" and state.seats == 1:
            return Step(replace(state, winner=-1), ("The player gave up.",))
        return super().apply(state, seat, action_id)

    def result(self, state: ToyState) -> Any:
        if state.winner == -1:
            from bot.games.protocol import Outcome, Result

            return Result("Gave up.", (Outcome(0, "loss", state.count, {}),))
        return super().result(state)


async def _tables(path, clock: Clock) -> Tables:
    store = await Store.open(path, clock)
    seeds = iter(range(1, 1000))
    return Tables(store, clock=clock, engines=lambda kind: GiveUpToy(), seeds=lambda: next(seeds))


async def _three_active(tables: Tables) -> int:
    """Start a vote game and make Alice, Bob and Carol active players; return its id."""
    game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
    await tables.act(game.id, 0, ALICE, "add1")  # alone: a move at once
    first = await tables.act(game.id, 1, BOB, "add1")  # Alice and Bob active: a vote
    assert first.ballot is not None and first.game.row.version == 1
    made = await tables.act(game.id, 1, CAROL, "add1")  # 2 of 3: a majority
    assert made.ballot is None and made.game.row.version == 2
    return game.id


# -- the pure rules -------------------------------------------------------------------


def test_c4_changing_a_vote_replaces_it():
    """C4: clicking again changes the member's vote; the same click changes nothing."""
    poll = polls.new_poll(3)
    assert polls.cast(poll, 1, "Alice", "a", "A", 0.0)
    assert not polls.cast(poll, 1, "Alice", "a", "A", 1.0)
    assert polls.cast(poll, 1, "Alice", "b", "B", 2.0)
    assert [(c.action, c.votes) for c in polls.counts(poll)] == [("b", 1)]


def test_c4_plurality_ties_go_to_the_move_voted_for_first():
    """C4: at the close the most votes win; a tie goes to the move voted for first."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Alice", "b", "B", 0.0)
    polls.cast(poll, 2, "Bob", "a", "A", 1.0)
    chosen = polls.plurality(poll)
    assert chosen is not None and chosen.action == "b"
    polls.cast(poll, 3, "Carol", "a", "A", 2.0)
    chosen = polls.plurality(poll)
    assert chosen is not None and chosen.action == "a"
    assert polls.attribution(poll, chosen) == "Bob and Carol chose: A (2 votes to 1)."


def test_c4_a_three_way_tie_names_the_first_voter():
    """C4: after a 1–1–1 split the line says it was a tie and who voted first."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Bob", "sun", "☀️ +1", 0.0)
    polls.cast(poll, 2, "Alice", "moon", "🌙 +1", 1.0)
    polls.cast(poll, 3, "Carol", "wave", "🌊 +1", 2.0)
    chosen = polls.plurality(poll)
    assert chosen is not None
    assert polls.attribution(poll, chosen) == "Tie 1–1–1: Bob voted first, so ☀️ +1 happened."


def test_c4_voters_named_alike_are_told_apart_in_the_decision_line():
    """Two members called Alex vote (the second "ALEX", which reads the same): the line
    of the decision numbers the later voter, as seats are numbered, so the channel
    sees two people voted, not one name twice."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Alex", "a", "A", 0.0)
    polls.cast(poll, 2, "ALEX", "a", "A", 1.0)
    polls.cast(poll, 3, "Bob", "b", "B", 2.0)
    chosen = polls.plurality(poll)
    assert chosen is not None
    assert polls.attribution(poll, chosen) == "Alex and ALEX (2) chose: A (2 votes to 1)."
    tie = polls.new_poll(0)
    polls.cast(tie, 5, "Sam", "b", "B", 0.0)
    polls.cast(tie, 6, "Sam", "a", "A", 1.0)
    chosen = polls.plurality(tie)
    assert chosen is not None and chosen.action == "b"
    assert polls.attribution(tie, chosen) == "Tie 1–1: Sam voted first, so B happened."
    polls.cast(tie, 5, "Sam", "a", "A", 2.0)  # the first Sam changes his vote
    polls.cast(tie, 7, "Kim", "b", "B", 3.0)
    chosen = polls.plurality(tie)
    assert chosen is not None and chosen.action == "a"
    assert polls.attribution(tie, chosen) == "Sam and Sam (2) chose: A (2 votes to 1)."


def test_c4_a_tie_whose_first_voter_moved_on():
    """C4: A was voted for first, but its first voter moved to B; A and B tie 1–1 and A
    wins, said as a move voted for first."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Alice", "a", "A", 0.0)
    polls.cast(poll, 2, "Bob", "b", "B", 1.0)
    polls.cast(poll, 1, "Alice", "c", "C", 2.0)
    polls.cast(poll, 3, "Carol", "a", "A", 3.0)
    chosen = polls.plurality(poll)
    assert chosen is not None and chosen.action == "a"
    assert polls.attribution(poll, chosen) == "Tie 1–1–1: A was voted for first, so it happened."


def test_c4_moves_needing_confirmation_are_left_out_of_the_plurality():
    """C4: giving up needs a majority; at the close it is left out of the count."""
    poll = polls.new_poll(0)
    polls.cast(poll, 1, "Alice", "give_up", "Give up", 0.0)
    polls.cast(poll, 2, "Bob", "give_up", "Give up", 0.0)
    assert polls.plurality(poll) is None
    polls.cast(poll, 3, "Carol", "x", "X", 0.0)
    chosen = polls.plurality(poll)
    assert chosen is not None and chosen.action == "x"


def test_c4_active_players_are_the_last_five_decisions_voters():
    """C4: voters of the last five decisions plus whoever votes now are active."""
    recent: list[list[int]] = []
    for user in range(1, 8):
        poll = polls.new_poll(user)
        polls.cast(poll, user, str(user), "a", "A", 0.0)
        recent = polls.decided(recent, poll)
    assert polls.active_players(recent, None) == {3, 4, 5, 6, 7}
    now = polls.new_poll(9)
    polls.cast(now, 42, "New", "a", "A", 0.0)
    assert polls.active_players(recent, now) == {3, 4, 5, 6, 7, 42}
    assert polls.needed_for_majority({1, 2, 3, 4}) == 3


def test_window_is_kept_within_ten_seconds_and_ten_minutes():
    """C4: the starter may choose 10 s to 10 min; the setting is the default."""
    assert polls.window_seconds(None, 30) == 30
    assert polls.window_seconds(1, 30) == 10
    assert polls.window_seconds(3600, 30) == 600
    assert polls.window_seconds("junk", 45) == 45


# -- the table ------------------------------------------------------------------------


async def test_c1_one_active_player_moves_at_once(tmp_path):
    """C1: with one active player every click is a move, as in a fast game."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        play = await tables.act(game.id, 0, ALICE, "add2")
        assert play.ballot is None and play.game.row.version == 1
        assert play.events[0] == "Alice chose: Add 2."
        play = await tables.act(game.id, 1, ALICE, "add1")
        assert play.ballot is None and play.game.state.count == 3
    finally:
        await tables.store.close()


async def test_c4_majority_of_three_moves_at_once(tmp_path):
    """C4: a move voted by a majority of three active players happens at once."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game_id = await _three_active(tables)
        vote = await tables.act(game_id, 2, CAROL, "add2")
        assert vote.ballot is not None
        assert vote.ballot.votes == 1 and vote.ballot.active == 3 and vote.ballot.needed == 2
        play = await tables.act(game_id, 2, BOB, "add2")
        assert play.ballot is None and play.game.row.version == 3
        assert play.events[0] == "Carol and Bob chose: Add 2."
        log = await tables.store.actions(game_id)
        assert [entry["seq"] for entry in log] == [1, 2, 3]
    finally:
        await tables.store.close()


async def test_c4_window_closes_on_a_plurality(tmp_path):
    """C4: without a majority, the move with most votes happens when the window closes."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        await tables.act(game_id, 2, DAVE, "add2")  # four active now: three make a majority
        await tables.act(game_id, 2, ALICE, "add1")
        await tables.act(game_id, 2, BOB, "add2")
        game = await tables.load(game_id)
        assert game.row.version == 2
        assert game.row.deadline == pytest.approx(clock.now + 30, abs=0.01)
        assert await tables.close_vote(game_id) is None  # not due yet
        clock.advance(30)
        play = await tables.close_vote(game_id)
        assert play is not None and play.game.row.version == 3
        assert play.events[0] == "Dave and Bob chose: Add 2 (2 votes to 1)."
        assert play.game.row.deadline is None and play.game.data.poll is None
        assert await tables.close_vote(game_id) is None  # exactly one move per decision
    finally:
        await tables.store.close()


async def test_c4_tie_goes_to_the_first_voted_move(tmp_path):
    """C4: a tie at the close goes to the move that was voted for first."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        await tables.act(game_id, 2, BOB, "add2")
        await tables.act(game_id, 2, ALICE, "add1")
        clock.advance(31)
        play = await tables.close_vote(game_id)
        assert play is not None
        assert play.events[0] == "Tie 1–1: Bob voted first, so Add 2 happened."
    finally:
        await tables.store.close()


async def test_c4_changed_vote_counts_once(tmp_path):
    """C4: a member who changes their vote is counted for the new move only."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        first = await tables.act(game_id, 2, ALICE, "add1")
        assert first.ballot is not None and first.ballot.changed
        again = await tables.act(game_id, 2, ALICE, "add1")
        assert again.ballot is not None and not again.ballot.changed
        await tables.act(game_id, 2, ALICE, "add2")
        game = await tables.load(game_id)
        assert [(c.action, c.votes) for c in polls.counts(game.data.poll)] == [
            ("add2", 1)
        ]
        play = await tables.act(game_id, 2, CAROL, "add2")
        assert play.ballot is None and play.game.state.count == 4
    finally:
        await tables.store.close()


async def test_c4_give_up_without_majority_stays_open(tmp_path):
    """C4: giving up needs a majority; at the close nothing happens and the vote stays open."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        vote = await tables.act(game_id, 2, ALICE, "resign")
        assert vote.ballot is not None and vote.ballot.closes is None
        assert (await tables.load(game_id)).row.deadline is None
        clock.advance(600)
        assert await tables.close_vote(game_id) is None
        game = await tables.load(game_id)
        assert game.row.version == 2 and polls.voter_count(game.data.poll)
        play = await tables.act(game_id, 2, BOB, "resign")
        assert play.ballot is None and play.finished
        assert play.events[0] == "Alice and Bob chose: Give up."
    finally:
        await tables.store.close()


async def test_c4_open_window_survives_a_restart(tmp_path):
    """C4: votes and the window's end are stored; after a restart the move happens once."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    game_id = await _three_active(tables)
    await tables.act(game_id, 2, ALICE, "add2")
    await tables.store.close()
    clock.advance(120)
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        assert await tables.store.due_games(clock.now) == [(game_id, clock.now - 90)]
        play = await tables.close_vote(game_id)
        assert play is not None and play.game.state.count == 4
        assert await tables.close_vote(game_id) is None
        assert await tables.store.due_games(clock.now) == []
    finally:
        await tables.store.close()


async def test_c4_stale_board_refused_during_a_vote(tmp_path):
    """A vote on an older board version is refused and changes nothing."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game_id = await _three_active(tables)
        with pytest.raises(StaleBoard):
            await tables.act(game_id, 1, ALICE, "add1")
        assert (await tables.load(game_id)).data.poll is None
    finally:
        await tables.store.close()


async def test_c5_everyone_who_voted_shares_the_result(tmp_path):
    """C5: every voter (and the starter) gets the result, marked as played together."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        version = 2
        while True:
            await tables.act(game_id, version, ALICE, "add2")
            play = await tables.act(game_id, version, BOB, "add2")
            version = play.game.row.version
            if play.finished:
                break
        rows = await tables.store.connection.execute_fetchall(
            "SELECT user_id, outcome, together FROM results ORDER BY user_id"
        )
        assert [tuple(r) for r in rows] == [
            (ALICE.user_id, "win", 1), (BOB.user_id, "win", 1), (CAROL.user_id, "win", 1)
        ]
    finally:
        await tables.store.close()


async def test_c5_only_me_credits_the_starter_alone(tmp_path):
    """C5: an "only me" game credits its player, not as a game played together."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="solo")
        version = 0
        while True:
            play = await tables.act(game.id, version, ALICE, "add2")
            version = play.game.row.version
            if play.finished:
                break
        rows = await tables.store.connection.execute_fetchall(
            "SELECT user_id, together FROM results"
        )
        assert [tuple(r) for r in rows] == [(ALICE.user_id, 0)]
    finally:
        await tables.store.close()


async def test_fast_mode_attributes_every_move(tmp_path):
    """C1: a fast game moves at every click and says who chose what."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        await tables.act(game.id, 0, BOB, "add1")
        play = await tables.act(game.id, 1, CAROL, "add2")
        assert play.ballot is None and play.game.state.count == 3
        assert play.events[0] == "Carol chose: Add 2."
    finally:
        await tables.store.close()


async def test_a_member_has_a_bounded_number_of_open_games(tmp_path):
    """A member may have at most MAX_OPEN_GAMES open games in one server."""
    from bot.table.errors import Refusal

    tables = await _tables(tmp_path / "v.db", Clock())
    tables.max_open_games = 2
    try:
        await tables.start("toy", guild_id=1, channel_id=1, starter=ALICE)
        await tables.open_lobby("toy", guild_id=1, channel_id=2, host=ALICE)
        with pytest.raises(Refusal, match="already have 2 games"):
            await tables.start("toy", guild_id=1, channel_id=3, starter=ALICE)
        await tables.start("toy", guild_id=2, channel_id=4, starter=ALICE)  # another server
        await tables.start("toy", guild_id=1, channel_id=5, starter=BOB)
    finally:
        await tables.store.close()


async def test_a_damaged_game_with_an_open_vote_never_keeps_the_deadline_loop_busy(tmp_path):
    """A vote window on a game whose state is damaged is dropped, not fired forever."""
    from bot.table.deadlines import Deadlines

    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game_id = await _three_active(tables)
        await tables.act(game_id, 2, ALICE, "add2")
        await tables.store.connection.execute(
            """UPDATE games SET state = '{"schema": 999}' WHERE id = ?""", (game_id,))
        clock.advance(60)
        fired = []

        async def fire(gid: int) -> None:
            fired.append(gid)
            await tables.fire_deadline(gid)

        loop = Deadlines(tables.store, fire, clock)
        assert await loop.run_due() == 1
        assert await loop.run_due() == 0 and fired == [game_id]
        assert (await tables.store.get_game(game_id)).deadline is None
    finally:
        await tables.store.close()


async def test_a_deadline_that_stays_due_waits_before_another_try(tmp_path):
    """A game still due with the same deadline after firing is retried later, not at once."""
    from bot.table.deadlines import RETRY_SECONDS, Deadlines

    clock = Clock()
    calls = []

    async def due(now: float, limit: int) -> list[tuple[int, float]]:
        return [(7, 1.0)]

    async def fire(gid: int) -> None:
        calls.append(gid)

    async def following() -> float | None:
        return 1.0

    loop = Deadlines(None, fire, clock, due=due, following=following)
    assert await loop.run_due() == 1
    assert calls == [7] and await loop.run_due() == 0
    clock.advance(RETRY_SECONDS + 1)
    assert await loop.run_due() == 1 and calls == [7, 7]


async def test_c4_a_vote_after_the_window_ended_does_not_change_its_decision(tmp_path):
    """A click that comes after the window's end, before the deadline loop closed it
    (after a restart, or the loop behind), makes the decision as the window left it (a
    1–1 tie: the move voted first) and is not counted in it."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        gid = await _three_active(tables)
        await tables.act(gid, 2, DAVE, "add1")
        await tables.act(gid, 2, ALICE, "add2")  # 1–1, add1 voted first
        clock.advance(45)  # the window ended at +30 s
        late = await tables.act(gid, 2, BOB, "add2")
        assert late.ballot is None and late.game.state.count == 3
        assert late.events[0] == "Tie 1–1: Dave voted first, so Add 1 happened.", late.events
        assert await tables.close_vote(gid) is None
    finally:
        await tables.store.close()


async def test_c4_a_first_vote_is_told_when_the_window_closes_as_a_countdown(tmp_path):
    """A first vote in a timed window is told when it closes as Discord's own countdown
    (``<t:…:R>``), which stays true while the private line is read, and that ties go to
    the first vote (C4)."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        gid = await _three_active(tables)
        vote = await tables.act(gid, 2, ALICE, "add1")
        assert vote.ballot is not None
        closes = vote.game.data.poll.closes
        assert f"the vote closes <t:{int(closes)}:R> and ties go to the first vote" in (
            vote.ballot.text())
    finally:
        await tables.store.close()


async def test_c4_a_first_vote_to_give_up_is_told_it_needs_a_majority(tmp_path):
    """While a window is open for other moves, a first vote to give up is told it needs
    a majority and is left out when the window closes, not that ties go to the first."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        gid = await _three_active(tables)
        await tables.act(gid, 2, ALICE, "add1")
        vote = await tables.act(gid, 2, DAVE, "resign")
        assert vote.ballot is not None and vote.ballot.worth_telling
        text = vote.ballot.text()
        assert "needs a majority: when the vote closes it is left out" in text
        assert "ties go to the first vote" not in text
    finally:
        await tables.store.close()


@pytest.mark.parametrize(("column", "text"), [
    ("extra", "not json"), ("seats", '{"a": 1}'), ("events", "[1"), ("options", "[]")])
async def test_a_save_of_a_damaged_game_keeps_the_damaged_text(tmp_path, backend, column,
                                                               text):
    """A vote window closing on a game with a damaged column, then the game abandoned:
    each save clears what it must (the deadline, the status) and writes the damaged
    column back as it was, so the game stays damaged instead of coming back with empty
    stand-ins (a default vote window, no seats, no recent voters)."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  window=120)
        await tables.act(game.id, 0, ALICE, "add1")  # alone: a move at once
        assert (await tables.act(game.id, 1, BOB, "add1")).ballot is not None
        await tables.store.connection.execute(
            f"UPDATE games SET {column} = ? WHERE id = ?", (text, game.id))
        assert (await tables.load(game.id)).broken
        clock.advance(600)
        assert await tables.fire_deadline(game.id) is None
        after = await tables.load(game.id)
        assert after.broken and after.row.deadline is None and after.row.is_open
        await tables.abandon(CHANNEL, replace(ALICE, can_manage=True))
        ended = await tables.load(game.id)
        assert ended.broken and ended.row.status == "abandoned"
        assert ended.row.raw_damaged[column] == text
        # unreadable seats leave the table data unread too: it is kept as it was
        assert set(ended.row.raw_damaged) == {column, *(["extra"] if column == "seats" else [])}
    finally:
        await tables.store.close()


def test_a_first_vote_is_told_how_to_change_it_whether_by_button_or_menu() -> None:
    """Votes come from buttons and from menus (a class, an item to eat): the first vote's
    line says to vote for another move, not to press another button."""
    from bot.table.loaded import Ballot

    line = Ballot("Eat: Bread", 1, 3, 2, 1_800_000_030.0, True, first=True).text()
    assert line.endswith("vote for another move to change your vote.")
    assert "button" not in line
