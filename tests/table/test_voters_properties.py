"""Property test of a channel vote's active players (C4) with two bots on one database.

Two processes (two stores over one SQLite file) take votes in one game in any order,
windows close, and an older bot, which keeps the voters per decision without knowing
them, sometimes makes a decision: after every step the active players equal a fresh
count of the stored rows, per decision wherever the table data claims to know them.
"""

import asyncio
import tempfile
from pathlib import Path
from typing import Any
from unittest.mock import patch

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from bot.table.errors import Refusal
from bot.table.service import Actor, Tables
from db.store import Store
from tests import toy
from tests.support import Clock
from tests.toy import ToyEngine

MEMBERS = [Actor(100 + i, f"Member {i}") for i in range(6)]

step = st.one_of(
    *[st.tuples(st.just("vote"), st.integers(0, 1), st.sampled_from(MEMBERS),
                st.sampled_from(("add1", "add2")))] * 6,
    st.tuples(st.just("close"), st.integers(0, 1), st.none(), st.integers(0, 40)),
    st.tuples(st.just("older"), st.integers(0, 1), st.sampled_from(MEMBERS),
              st.sampled_from(("add1", "add2"))),
)


async def _carry(store: Store, game_id: int, counts: Any) -> None:
    """Write back ``counts`` as the game's voters per decision, as an older bot that made
    the last decision would have left them (it keeps keys it does not know as read)."""
    row = await store.get_game(game_id)
    assert row is not None and isinstance(row.extra, dict)
    if counts is None:
        row.extra.pop("decision_voters", None)
    else:
        row.extra["decision_voters"] = counts
    await store.save_game(row, row.version)


async def _check(store: Store, tables: Tables, game_id: int) -> None:
    """C4: the counts the table data keeps are those of the stored rows."""
    data = (await tables.load(game_id)).data
    fresh = await store.voters_per_decision(game_id, data.decisions)
    assert data.recent_players == sum(fresh.values())
    if data.decision_voters is None:
        event("counts not known")
    else:
        assert data.decision_voters == [fresh.get(v, 0) for v in data.decisions]
    if data.poll is not None:
        stored = await store.voters(game_id, data.poll.version)
        assert len(stored) == sum(data.poll.tally.values())


async def _play(steps: list[tuple]) -> None:
    clock = Clock()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.db"
        stores = [await Store.open(path, clock), await Store.open(path, clock)]
        tables = [Tables(s, clock=clock, engines=lambda kind: ToyEngine()) for s in stores]
        try:
            game = await tables[0].start("toy", guild_id=1, channel_id=9, starter=MEMBERS[0])
            for what, which, member, choice in steps:
                here, store = tables[which], stores[which]
                current = await here.load(game.id)
                carried = (current.row.extra or {}).get("decision_voters")
                try:
                    if what == "close":
                        clock.advance(choice)
                        await here.close_vote(game.id)
                    else:
                        play = await here.act(game.id, current.row.version, member, choice)
                        if what == "older" and play.ballot is None:
                            await _carry(store, game.id, carried)
                except Refusal:
                    pass
                await _check(stores[0], tables[1 - which], game.id)
        finally:
            for s in stores:
                await s.close()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps=st.lists(step, max_size=60))
def test_c4_two_bots_on_one_database_count_the_active_players_right(
        steps: list[tuple]) -> None:
    """C4 across processes and an older bot: no step leaves a count the rows disagree with."""
    with patch.object(toy, "TARGET", 1000):  # no game ends before its steps do
        asyncio.run(_play(steps))
