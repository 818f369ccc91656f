"""Property test of the table service: any sequence of requests keeps the store coherent."""

import asyncio
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st

from bot.table.errors import Refusal
from bot.table.lobby import LOBBY_ACTIONS
from tests.support import ALICE, BOB, CAROL, MOD, Clock, open_tables

PLAYED_OUT = [("act", ALICE, "add2", 0)] * 6
LOBBY_PLAYED_OUT = [
    ("act", BOB, "lobby.join", 0), ("act", ALICE, "lobby.computer", 0),
    ("act", ALICE, "lobby.start", 0),
    *[("act", ALICE, "add2", 0), ("act", BOB, "add2", 0), ("computer", None, None, None)] * 2,
    ("act", ALICE, "add2", 0), ("act", BOB, "add2", 0),
]
#: Alice leaves the server: Bob takes the table, then Carol's late claim (of Alice) and
#: Bob's own are refused; Bob leaves it and Carol hosts; she starts it with a computer.
LOBBY_CLAIMED = [
    ("act", BOB, "lobby.join", 0), ("act", CAROL, "lobby.join", 0), ("claim", BOB, ALICE, None),
    ("claim", CAROL, ALICE, None), ("claim", BOB, BOB, None), ("act", BOB, "lobby.leave", 0),
    ("act", CAROL, "lobby.computer", 0), ("act", CAROL, "lobby.start", 0),
]

ACTORS = (ALICE, BOB, CAROL, MOD)
ACTIONS = ("add1", "add2", "add2", "add2", "add2", "resign", "bogus", *LOBBY_ACTIONS,
           "lobby.kick.1", "lobby.host.1", "lobby.claim")



def _clicks() -> st.SearchStrategy[tuple]:
    """A click: one strategy object per use, as ``one_of`` keeps a strategy given twice
    once (repeating it would weigh nothing)."""
    return st.tuples(st.just("act"), st.sampled_from(ACTORS), st.sampled_from(ACTIONS),
                     st.sampled_from([0, 0, 0, 0, -1, 1]))


request = st.one_of(
    *[_clicks() for _ in range(16)],
    st.tuples(st.just("computer"), st.none(), st.none(), st.none()),
    st.tuples(st.just("abandon"), st.sampled_from(ACTORS), st.none(), st.none()),
    # Discord said the host (or, late, a host since replaced: any of them) left the server
    *[st.tuples(st.just("claim"), st.sampled_from(ACTORS),
                st.sampled_from((ALICE, ALICE, BOB, CAROL)), st.none()) for _ in range(3)],
    st.tuples(st.just("sweep"), st.none(), st.none(), st.integers(0, 3)),
    st.tuples(st.just("deadline"), st.none(), st.none(), st.integers(0, 40)),
)


async def _run(kind: str, requests: list[tuple]) -> None:
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        async with open_tables(Path(tmp) / "t.db", clock) as tables:
            if kind == "solo":
                game = await tables.start("toy", guild_id=1, channel_id=9, starter=ALICE)
            else:
                game = await tables.open_lobby("toy", guild_id=1, channel_id=9, host=ALICE)
            for op, actor, action, skew in requests:
                current = await tables.load(game.id)
                try:
                    if op == "act":
                        await tables.act(game.id, current.row.version + skew, actor, action)
                    elif op == "computer":
                        await tables.computer_move(game.id)
                    elif op == "abandon":
                        await tables.abandon(9, actor)
                    elif op == "claim":
                        await tables.claim_host(game.id, actor, action.user_id)
                        event("a host's role claimed")
                    elif op == "deadline":  # time passes; a due vote window closes
                        clock.advance(skew)
                        for game_id, _ in await tables.store.due_games(clock.now):
                            await tables.fire_deadline(game_id)
                    else:
                        clock.advance(skew * 86400)
                        await tables.expire_idle({"solo": clock.now - 7 * 86400,
                                                  "lobby": clock.now - 3600,
                                                  "multi": clock.now - 2 * 86400},
                                                 _ignore)
                except Refusal:
                    pass
                after = await tables.load(game.id)
                log = await tables.store.actions(game.id)
                # every saved change is logged once, in order, with no gap
                assert [e["seq"] for e in log] == list(range(1, after.row.version + 1))
                assert after.broken is None
                if after.row.status in ("active", "over"):
                    assert after.state is not None
                    assert after.engine.is_over(after.state) == (after.row.status == "over")
                results = await tables.store.results()
                assert bool(results) == (after.row.status == "over")
                assert all(r["user_id"] in {a.user_id for a in ACTORS} for r in results)
                assert await tables.store.count_open() == int(after.row.is_open)
                # a stored deadline belongs to an open game with something pending (a vote
                # window, a turn timer, a turn notice's grace time), and is the earliest
                poll = after.data.poll
                pending = after.data.deadlines()
                if after.row.deadline is not None:
                    assert after.row.is_open and pending
                    assert after.row.deadline == min(pending)
                else:
                    assert not pending or not after.row.is_open
                if poll is not None:
                    assert poll.version == after.row.version
                people = [seat.user_id for seat in after.seats if not seat.computer]
                assert len(people) == len(set(people))  # nobody sits twice
                assert len(after.seats) <= after.engine.max_seats
                if after.row.status == "lobby":  # a lobby's host sits at it
                    assert after.host_id in people
                await _check_active_players(tables, after)
            event(f"ended {(await tables.load(game.id)).row.status}")


async def _check_active_players(tables, game) -> None:
    """C4: the active players counted on per decision are those a fresh count finds."""
    data = game.data
    if data.decision_voters is None:
        return
    assert len(data.decision_voters) == len(data.decisions)
    assert sum(data.decision_voters) == data.recent_players
    fresh = await tables.store.voters_per_decision(game.id, data.decisions)
    assert data.decision_voters == [fresh.get(v, 0) for v in data.decisions]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(["solo", "lobby"]), requests=st.lists(request, max_size=60))
@example(kind="solo", requests=PLAYED_OUT)
@example(kind="lobby", requests=LOBBY_PLAYED_OUT)
@example(kind="lobby", requests=LOBBY_CLAIMED)
def test_any_sequence_of_requests_keeps_the_store_coherent(kind, requests):
    """Random clicks, stale versions, lobby moves, computers, abandons and sweeps never
    leave a gap in the action log, a half-saved game or a result of an open game."""
    asyncio.run(_run(kind, requests))


async def _ignore(_game: object) -> None:
    """Do nothing with a game the sweep ended."""


votes = st.lists(st.one_of(
    *[st.tuples(st.sampled_from(ACTORS), st.sampled_from(("add1", "add2"))) for _ in range(6)],
    st.tuples(st.none(), st.integers(0, 40)),  # time passes; a due window closes
), max_size=80)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=votes)
def test_c4_active_players_counted_per_decision_match_the_stored_voters(steps):
    """C4 over long channel games: however members vote and windows close, the active
    players kept per decision equal a fresh count of the voters' rows after every step,
    in this process and when read back."""
    from unittest.mock import patch

    from tests import toy

    async def run() -> None:
        clock = Clock()
        with tempfile.TemporaryDirectory() as tmp, patch.object(toy, "TARGET", 1000):
            async with open_tables(Path(tmp) / "t.db", clock) as tables:
                game = await tables.start("toy", guild_id=1, channel_id=9, starter=ALICE)
                for actor, what in steps:
                    current = await tables.load(game.id)
                    try:
                        if actor is None:
                            clock.advance(what)
                            for game_id, _ in await tables.store.due_games(clock.now):
                                await tables.fire_deadline(game_id)
                        else:
                            await tables.act(game.id, current.row.version, actor, what)
                    except Refusal:
                        pass
                    after = await tables.load(game.id)
                    assert after.data.decision_voters is not None
                    await _check_active_players(tables, after)
                event(f"decisions {min(len((await tables.load(game.id)).data.decisions), 5)}")

    asyncio.run(run())


lobby_moves = st.lists(st.one_of(
    st.tuples(st.sampled_from(ACTORS), st.sampled_from(
        (*LOBBY_ACTIONS, "lobby.join", "lobby.join", "lobby.kick.1", "lobby.kick.2",
         "lobby.host.1", "lobby.host.2", "lobby.drop.1", "lobby.claim"))),
    st.tuples(st.sampled_from(ACTORS), st.sampled_from(ACTORS)),  # a claim of that host
), max_size=40)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(moves=lobby_moves)
@example(moves=[(BOB, ALICE), (CAROL, ALICE), (BOB, BOB), (BOB, "lobby.leave"),
                (CAROL, "lobby.start")])
def test_any_lobby_keeps_its_host_seated_and_nobody_twice(moves):
    """Joins, leaves, removals, the host role handed on and claims of a host who left the
    server, in any order and by anyone: while the table is open its host sits at it,
    nobody sits twice, the seats never pass the game's, and every claim that was let
    through took the role from the host Discord was asked about."""

    async def run() -> None:
        with tempfile.TemporaryDirectory() as tmp:
            async with open_tables(Path(tmp) / "t.db", Clock()) as tables:
                game = await tables.open_lobby(  # Bob and Carol seated (Play again's way)
                    "toy", guild_id=1, channel_id=9, host=ALICE,
                    people=[(BOB.user_id, BOB.name), (CAROL.user_id, CAROL.name)])
                for actor, what in moves:
                    before = await tables.load(game.id)
                    try:
                        if isinstance(what, str):
                            await tables.act(game.id, before.row.version, actor, what)
                        else:
                            await tables.claim_host(game.id, actor, what.user_id)
                            assert before.host_id == what.user_id != actor.user_id
                            event("a host's role claimed")
                    except Refusal:
                        pass
                    after = await tables.load(game.id)
                    people = [s.user_id for s in after.seats if not s.computer]
                    assert len(people) == len(set(people))
                    assert len(after.seats) <= after.engine.max_seats
                    if after.row.status == "lobby":
                        assert after.host_id in people

    asyncio.run(run())
