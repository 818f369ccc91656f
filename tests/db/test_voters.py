"""A channel vote's ballots in the ``voters`` table (rulings C4, C5), on both backends:
written with the game's save or not at all, read back for decisions and results, old
table data with the ballots inside it moved there, and /forget-me covering it."""

from __future__ import annotations

from typing import Any

import pytest

from bot.boards.render import vote_field
from bot.table import polls
from bot.table.service import Actor, Tables
from db.errors import VersionConflict
from db.rows import VoterRow
from db.store import Store
from tests import toy
from tests.db.test_faults import _every_value
from tests.support import ALICE, BOB, CAROL, Clock
from tests.toy import ToyEngine

CHANNEL = 700
DAVE = Actor(104, "Dave")


async def _tables(path: Any, clock: Clock) -> Tables:
    store = await Store.open(path, clock)
    seeds = iter(range(1, 1000))
    return Tables(store, clock=clock, engines=lambda kind: ToyEngine(), seeds=lambda: next(seeds))


async def test_a_ballot_is_written_with_its_game_or_not_at_all(tmp_path: Any) -> None:
    """A save whose compare-and-swap fails writes none of its voters' rows; one that
    lands writes them, a later one replaces the member's row."""
    store = await Store.open(tmp_path / "v.db", Clock())
    try:
        tables = Tables(store, engines=lambda kind: ToyEngine())
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        row = await store.get_game(game.id)
        assert row is not None
        ballot = VoterRow(BOB.user_id, "Bob", 0, None, "add1", "Add 1", 5.0, 1)
        with pytest.raises(VersionConflict):
            await store.save_game(row, 3, voters=[ballot])
        assert await store.voter(game.id, BOB.user_id) is None
        await store.save_game(row, 0, voters=[ballot])
        assert await store.voter(game.id, BOB.user_id) == ballot
        changed = VoterRow(BOB.user_id, "Bob", 0, None, "add2", "Add 2", 6.0, 2)
        await store.save_game(row, 0, action={"x": 1}, actor_id=BOB.user_id, voters=[changed])
        assert await store.voters(game.id) == [changed]
        assert await store.voters(game.id, 0) == [changed]
        assert await store.voters(game.id, 1) == []
        assert await store.voters_per_decision(game.id, [0]) == {0: 1}
        assert await store.voters_per_decision(game.id, [0], leaving_out=[BOB.user_id]) == {}
    finally:
        await store.close()


async def test_c4_active_players_are_the_last_five_decisions_voters_at_the_table(
        tmp_path: Any) -> None:
    """C4 through the table: seven decisions, each by a new member at the window's close;
    then the voters of the last five are the active players, plus whoever votes now; a
    member of an older decision is active again once they vote."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = (await tables.act(game.id, 0, ALICE, "add1")).game.row.version
        members = [Actor(200 + n, f"Member {n}") for n in range(7)]
        for member in members:
            await tables.act(game.id, version, member, "add1")
            clock.advance(31)
            play = await tables.close_vote(game.id)
            assert play is not None and play.events[0] == f"{member.name} chose: Add 1."
            version = play.game.row.version
        loaded = await tables.load(game.id)
        assert loaded.data.recent_players == 5 and len(loaded.data.decisions) == 5
        newcomer = await tables.act(game.id, version, DAVE, "add1")
        assert newcomer.ballot is not None and newcomer.ballot.active == 6
        assert newcomer.ballot.first
        old = await tables.act(game.id, version, members[0], "add2")
        assert old.ballot is not None and old.ballot.active == 7 and not old.ballot.first
        recent = await tables.act(game.id, version, members[6], "add2")
        assert recent.ballot is not None and recent.ballot.active == 7
        assert recent.ballot.votes == 2 and recent.ballot.needed == 4
        shown = vote_field(await tables.load(game.id))
        assert shown is not None and shown[1].startswith("3 votes · 4 agreeing move now")
    finally:
        await tables.store.close()


async def test_c4_a_late_agreeing_newcomer_joins_the_decision_and_the_vote_under_way(
        tmp_path: Any) -> None:
    """C4: Dave's vote for the move Alice's made arrives after it: he counts among that
    decision's voters, in the recent players and in the next decision's vote already
    under way (Bob's and Carol's ballots are each of four active players); counted again,
    he is not counted twice."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        first = game.row.version
        version = (await tables.act(game.id, first, ALICE, "add1")).game.row.version
        bob = await tables.act(game.id, version, BOB, "add1")
        assert bob.ballot is not None and bob.ballot.active == 2
        for _ in range(2):
            await tables.channel.agreed_late(game.id, first, DAVE, "add1")
            loaded = await tables.load(game.id)
            assert loaded.data.recent_players == 2 and loaded.data.decision_voters == [2]
            assert loaded.data.poll is not None and loaded.data.poll.active == 3
        carol = await tables.act(game.id, version, CAROL, "add2")
        assert carol.ballot is not None and carol.ballot.active == 4
        assert (await tables.load(game.id)).row.version == version
    finally:
        await tables.store.close()


class _Reads:
    """Counts the store's voter reads (by method) while it plays on."""

    def __init__(self, store: Any) -> None:
        self.calls: list[str] = []
        for name in ("voter", "voters", "voters_per_decision"):
            real = getattr(store, name)
            setattr(store, name, self._counted(name, real))

    def _counted(self, name: str, real: Any) -> Any:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return await real(*args, **kwargs)
        return counted


async def test_c4_votes_of_members_this_process_saved_read_nothing(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """C4 without reads: a member whose row this process's saves wrote votes from memory,
    a decision whose ballots are all in memory reads none, and the active players are
    counted on from the voters per decision; each count equals a fresh count of the
    stored rows, whoever voted before; only a newcomer's row is read."""
    monkeypatch.setattr(toy, "TARGET", 100)  # a game long enough for every case
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        store = tables.store
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = (await tables.act(game.id, 0, ALICE, "add1")).game.row.version
        reads = _Reads(store)
        for _ in range(7):  # Alice alone: each of her votes decides at once
            play = await tables.act(game.id, version, ALICE, "add1")
            assert play.ballot is None
            version = play.game.row.version
        assert reads.calls == []
        version = await _joined(tables, clock, game.id, version)
        for deciding in ((ALICE, BOB), (CAROL, ALICE), (BOB, CAROL), (DAVE, ALICE, BOB),
                         (CAROL, DAVE, ALICE)):
            reads.calls.clear()
            for member in deciding[:-1]:
                play = await tables.act(game.id, version, member, "add2")
                assert play.ballot is not None
            play = await tables.act(game.id, version, deciding[-1], "add2")
            assert play.ballot is None, deciding
            assert reads.calls == (["voter"] if deciding[0] == DAVE else []), deciding
            version = play.game.row.version
            loaded = await tables.load(game.id)
            assert loaded.data.decision_voters == await _fresh(store, game.id,
                                                               loaded.data.decisions)
            assert loaded.data.recent_players == sum(loaded.data.decision_voters)
        reads.calls.clear()
        play = await tables.act(game.id, version, CAROL, "add1")  # one of four: no majority
        assert play.ballot is not None and play.ballot.active == 4 and reads.calls == []
    finally:
        await tables.store.close()


async def _stale(store: Store, game_id: int, how: str, carried: Any) -> None:
    """Leave a game's stored voters per decision as ``how`` says code without them would:
    ``before`` (saved before them: no key), ``plain`` (counts without their decisions)
    or ``carried`` (an older bot on the same database made a decision and carried the
    key as it was: ``carried``, read before that decision)."""
    row = await store.get_game(game_id)
    assert row is not None and isinstance(row.extra, dict)
    if how == "before":
        row.extra.pop("decision_voters")
    elif how == "plain":
        row.extra["decision_voters"] = [n for _, n in row.extra["decision_voters"]]
    else:
        assert row.extra["decision_voters"] != carried
        row.extra["decision_voters"] = carried
    await store.save_game(row, row.version)
    store.kept.drop()


@pytest.mark.parametrize("how", ["before", "plain", "carried"])
async def test_c4_counts_not_kept_by_the_last_save_are_counted_once_by_reading(
        tmp_path: Any, how: str) -> None:
    """C4 for a game whose stored voters per decision cannot be trusted (saved before
    them, in the first form they had, or carried unchanged through a decision by an
    older bot on the same database): the next decision counts them with one read, right
    per decision, and the decisions after it count on without reading."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        store = tables.store
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = (await tables.act(game.id, 0, ALICE, "add1")).game.row.version
        version = await _joined(tables, clock, game.id, version)
        before = await store.get_game(game.id)
        assert before is not None and isinstance(before.extra, dict)
        carried = before.extra["decision_voters"]
        await tables.act(game.id, version, BOB, "add2")
        version = (await tables.act(game.id, version, CAROL, "add2")).game.row.version
        await _stale(store, game.id, how, carried)
        reads = _Reads(store)
        await tables.act(game.id, version, ALICE, "add2")
        play = await tables.act(game.id, version, BOB, "add2")
        assert play.ballot is None and reads.calls.count("voters_per_decision") == 1
        loaded = await tables.load(game.id)
        assert loaded.data.decision_voters == await _fresh(store, game.id,
                                                           loaded.data.decisions)
        assert loaded.data.recent_players == 3
        reads.calls.clear()
        version = play.game.row.version
        await tables.act(game.id, version, CAROL, "add1")
        play = await tables.act(game.id, version, ALICE, "add1")
        assert play.ballot is None and "voters_per_decision" not in reads.calls
        loaded = await tables.load(game.id)
        assert loaded.data.decision_voters == await _fresh(store, game.id,
                                                           loaded.data.decisions)
    finally:
        await tables.store.close()


async def _joined(tables: Tables, clock: Clock, game_id: int, version: int) -> int:
    """Bob, then Carol, join by a window's close, each making a decision alone; return
    the board version after."""
    for member in (BOB, CAROL):
        await tables.act(game_id, version, member, "add1")
        clock.advance(31)
        play = await tables.close_vote(game_id)
        assert play is not None
        version = play.game.row.version
    return version


async def _fresh(store: Store, game_id: int, decisions: list[int]) -> list[int]:
    """The voters per decision as a fresh count of the stored rows finds them."""
    found = await store.voters_per_decision(game_id, decisions)
    return [found.get(v, 0) for v in decisions]


#: Table data as the code before the ``voters`` table stored it: Alice, Bob and Carol
#: voted in the last decisions, Dave once long ago; Alice and Bob have voted on the open
#: decision (version 2).
def _old_data(version: int) -> dict[str, Any]:
    return {
        "players": {"101": "Alice", "102": "Bob", "103": "Carol", "104": "Dave"},
        "voted": [101, 102, 103, 104],
        "recent": [[104], [101, 102], [101, 103]],
        "last": "Alice and Carol chose: Add 1.",
        "poll": {"version": version, "closes": 1_800_000_030.0, "order": ["add1", "add2"],
                 "ballots": [
                     {"user": 101, "name": "Alice", "action": "add1", "label": "Add 1",
                      "at": 1_799_999_990.0},
                     {"user": 102, "name": "Bob", "action": "add2", "label": "Add 2",
                      "at": 1_799_999_991.0}]},
    }


async def test_an_old_row_with_its_ballots_inside_loads_and_plays_on(tmp_path: Any) -> None:
    """A game stored with its ballots, players and recent voters in the table data reads
    the same (the board's vote line too), takes the next vote as the old code would, and
    once saved keeps none of them in the table data; everyone shares the result (C5)."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        row = await tables.store.get_game(game.id)
        assert row is not None
        row.extra = {**row.extra, **_old_data(row.version)}
        await tables.store.save_game(row, row.version)
        old = await tables.load(game.id)
        poll = old.data.poll
        assert poll is not None and polls.voter_count(poll) == 2
        # the old poll counts the recent decisions' voters and its own: Alice, Bob and
        # Carol (Dave's decision is one of the last three, so he is active too)
        assert polls.active_count(old.data.recent, poll) == 4
        assert [(c.action, c.votes) for c in polls.counts(poll)] == [("add1", 1), ("add2", 1)]
        shown = vote_field(old)
        assert shown is not None and shown[1].startswith("2 votes · 3 agreeing move now")
        vote = await tables.act(game.id, row.version, CAROL, "add2")  # 2 of 4: no majority
        assert vote.ballot is not None and not vote.ballot.first and vote.ballot.active == 4
        stored = await tables.store.get_game(game.id)
        assert stored is not None
        assert not {"players", "voted", "recent"} & set(stored.extra)
        assert "ballots" not in stored.extra["poll"]
        assert {v.user_id for v in await tables.store.voters(game.id)} == {101, 102, 103, 104}
        play = await tables.act(game.id, row.version, DAVE, "add2")  # 3 of 4: the move
        assert play.ballot is None
        assert play.events[0] == "Bob, Carol and Dave chose: Add 2 (3 votes to 1)."
        version = play.game.row.version
        while not play.finished:
            await tables.act(game.id, version, ALICE, "add2")
            play = await tables.act(game.id, version, BOB, "add2")
            if play.ballot is not None:
                play = await tables.act(game.id, version, CAROL, "add2")
            version = play.game.row.version
        credited = {r["user_id"]: r["together"] for r in await tables.store.results()}
        assert credited == {101: True, 102: True, 103: True, 104: True}
    finally:
        await tables.store.close()


async def test_c5_fast_clicks_are_credited_from_the_voters_table(tmp_path: Any) -> None:
    """C5: in a game where anyone's click moves at once, everyone who clicked shares the
    result, though the table data no longer lists them."""
    tables = await _tables(tmp_path / "v.db", Clock())
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        version, play = 0, None
        for actor in [BOB, CAROL] * 5:
            play = await tables.act(game.id, version, actor, "add2")
            version = play.game.row.version
            if play.finished:
                break
        assert play is not None and play.finished
        rows = {r["user_id"]: r["together"] for r in await tables.store.results()}
        assert rows == {ALICE.user_id: True, BOB.user_id: True, CAROL.user_id: True}
    finally:
        await tables.store.close()


MEMBER = 271828182845904523
NAME = "Zephyrine"


async def test_forgetting_a_voter_leaves_nothing_of_them_in_any_column(tmp_path: Any) -> None:
    """/forget-me after a channel game the member voted in: no column of any row (the
    voters table's included) holds their id or name; the others' rows stay."""
    clock = Clock()
    tables = await _tables(tmp_path / "v.db", clock)
    member = Actor(MEMBER, NAME)
    try:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        version = (await tables.act(game.id, 0, ALICE, "add1")).game.row.version
        play = None
        while play is None or not play.finished:
            await tables.act(game.id, version, member, "add2")
            play = await tables.act(game.id, version, BOB, "add2")
            version = play.game.row.version
        before = await _every_value(tables.store)
        assert any(t == "voters" and NAME in v for t, _, v in before)
        await tables.store.forget_player(MEMBER, "a former player")
        left = [(t, c, v) for t, c, v in await _every_value(tables.store)
                if NAME in v or str(MEMBER) in v]
        assert left == []
        assert {v.user_id for v in await tables.store.voters(game.id)} == {
            ALICE.user_id, BOB.user_id}
    finally:
        await tables.store.close()
