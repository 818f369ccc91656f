"""/forget-me of a member who took a seat in a lobby and did not keep it (they left, or
the host removed them): their id is then in the game's action log only, and their name
in the lobby's lines ("Zephyrine joined.", "Zephyrine left."). The lobby is played for
real (bot/table/lobby.py writes the lines db/forget.py reads); every test runs on
SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.table.lobby import LOBBY_CANCEL, LOBBY_JOIN, LOBBY_KICK, LOBBY_LEAVE, LOBBY_START
from bot.table.service import Actor, Tables
from db.forget import lobby_names
from tests.support import ALICE, BOB, CAROL, open_tables, table_names

MEMBER = Actor(271828182845904523, "Zephyrine")
FORMER = "a former player"


async def _every_value(store: Any) -> list[tuple[str, str]]:
    """Every value of every row of every table, as text, with its table."""
    tables = await table_names(store)
    return [(table, str(value)) for table in tables
            for row in await store.query(f"SELECT * FROM {table}") for value in row]


async def _left_of(store: Any, *names: str) -> list[tuple[str, str]]:
    """The values still holding the member's id or one of ``names``."""
    return [(t, v) for t, v in await _every_value(store)
            if str(MEMBER.user_id) in v or any(name in v for name in names)]


async def _do(tables: Tables, game_id: int, actor: Actor, op: str) -> None:
    game = await tables.store.get_game(game_id)
    assert game is not None
    await tables.act(game_id, game.version, actor, op)


async def _finish(tables: Tables, game_id: int) -> None:
    """Start the lobby as Alice (the host) and end it by Bob resigning."""
    await _do(tables, game_id, ALICE, LOBBY_START)
    game = await tables.store.get_game(game_id)
    assert game is not None
    assert (await tables.act(game_id, game.version, BOB, "resign")).finished


async def test_a_member_who_left_a_lobby_leaves_nothing_and_the_others_keep_theirs(
        tmp_path: Path) -> None:
    """The member joined and left; Carol did the same. After forgetting the member,
    neither their name nor their id is in any column of any row; their lines read "a
    former player", and everyone else's lines and log entries are as they were."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=ALICE)
        for actor, op in ((MEMBER, LOBBY_JOIN), (CAROL, LOBBY_JOIN), (MEMBER, LOBBY_LEAVE),
                          (CAROL, LOBBY_LEAVE), (BOB, LOBBY_JOIN)):
            await _do(tables, game.id, actor, op)
        await _finish(tables, game.id)
        assert await _left_of(tables.store, MEMBER.name)

        await tables.store.forget_player(MEMBER.user_id)

        assert await _left_of(tables.store, MEMBER.name) == []
        after = await tables.store.get_game(game.id)
        assert after is not None
        assert after.events[:6] == ["Alice opened a table.", f"{FORMER} joined.",
                                    "Carol joined.", f"{FORMER} left.", "Carol left.",
                                    "Bob joined."]
        assert [a["actor_id"] for a in await tables.store.actions(game.id)] == [
            None, CAROL.user_id, None, CAROL.user_id, BOB.user_id, ALICE.user_id,
            BOB.user_id]
        assert [s["name"] for s in after.seats] == ["Alice", "Bob"]


async def test_a_member_removed_by_the_host_and_renamed_meanwhile(tmp_path: Path) -> None:
    """The member joined as "Zeph", left, joined again as "Zephyrine" (a new display
    name) and was removed by the host, who then closed the table (a lobby that never had
    a state): every line naming them, under either name, reads "a former player"."""
    zeph = Actor(MEMBER.user_id, "Zeph")
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=ALICE)
        await _do(tables, game.id, zeph, LOBBY_JOIN)
        await _do(tables, game.id, MEMBER, LOBBY_LEAVE)
        await _do(tables, game.id, BOB, LOBBY_JOIN)
        await _do(tables, game.id, zeph, LOBBY_JOIN)
        await _do(tables, game.id, ALICE, LOBBY_KICK + "2")
        await _do(tables, game.id, ALICE, LOBBY_CANCEL)
        closed = await tables.store.get_game(game.id)
        assert closed is not None and closed.status == "abandoned" and closed.state is None
        assert "Alice removed Zeph from the table." in closed.events

        await tables.store.forget_player(MEMBER.user_id)

        assert await _left_of(tables.store, "Zeph") == []
        after = await tables.store.get_game(game.id)
        assert after is not None
        assert after.events == [
            "Alice opened a table.", f"{FORMER} joined.", f"{FORMER} left.", "Bob joined.",
            f"{FORMER} joined.", f"Alice removed {FORMER} from the table.",
            "Alice closed the table."]


async def test_a_host_who_left_and_handed_the_table_on(tmp_path: Path) -> None:
    """The member opened the table, Bob joined, the member left ("Zephyrine left; Bob is
    the host now.") and Bob played on with Alice: nothing of the member stays."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=MEMBER)
        await _do(tables, game.id, BOB, LOBBY_JOIN)
        await _do(tables, game.id, MEMBER, LOBBY_LEAVE)
        await _do(tables, game.id, ALICE, LOBBY_JOIN)
        await _do(tables, game.id, BOB, LOBBY_START)
        row = await tables.store.get_game(game.id)
        assert row is not None
        assert (await tables.act(game.id, row.version, ALICE, "resign")).finished

        await tables.store.forget_player(MEMBER.user_id)

        assert await _left_of(tables.store, MEMBER.name) == []
        after = await tables.store.get_game(game.id)
        assert after is not None and after.starter_id == 0
        assert after.events[:3] == [f"{FORMER} opened a table.", "Bob joined.",
                                    f"{FORMER} left; Bob is the host now."]


async def test_the_lines_of_a_long_lobby_are_matched_from_the_latest(tmp_path: Path) -> None:
    """The events keep the latest 12 lines only: after Carol came and went six times, the
    first of her lines are gone, and the member's join and leave still match their own
    lines (not Carol's), which go; Carol's stay."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=ALICE)
        for _ in range(6):
            await _do(tables, game.id, CAROL, LOBBY_JOIN)
            await _do(tables, game.id, CAROL, LOBBY_LEAVE)
        await _do(tables, game.id, MEMBER, LOBBY_JOIN)
        await _do(tables, game.id, MEMBER, LOBBY_LEAVE)
        await _do(tables, game.id, ALICE, LOBBY_CANCEL)
        closed = await tables.store.get_game(game.id)
        assert closed is not None and "Alice opened a table." not in closed.events

        await tables.store.forget_player(MEMBER.user_id)

        assert await _left_of(tables.store, MEMBER.name) == []
        after = await tables.store.get_game(game.id)
        assert after is not None
        assert after.events == ["Carol left."] + ["Carol joined.", "Carol left."] * 4 + [
            f"{FORMER} joined.", f"{FORMER} left.", "Alice closed the table."]


def test_lobby_names_pairs_each_line_with_its_action() -> None:
    """Lines and actions pair from the latest back, one kind at a time; a line of a
    kind with no action of the member's (or a log with no lobby actions) names nobody."""
    events = '["Al joined.","Zed joined.","Al left.","Zed left; Al is the host now."]'
    logged = [(1, 5, '{"lobby":"lobby.join"}'), (2, 9, '{"lobby":"lobby.join"}'),
              (3, 5, '{"lobby":"lobby.leave"}'), (4, 9, '{"lobby":"lobby.leave"}'),
              (5, 9, '{"id":"add1"}')]
    assert lobby_names(events, logged, 9) == {"Zed"}
    assert lobby_names(events, logged, 5) == {"Al"}
    assert lobby_names(events, logged, 7) == set()
    assert lobby_names(events, [(1, 9, '{"id":"add1"}')], 9) == set()
    assert lobby_names("not json", logged, 9) == set()


async def test_a_host_whose_role_was_claimed_leaves_nothing(tmp_path: Path) -> None:
    """The member opened a table and left the server; Bob took the role (the member's
    seat went with it) and closed the table. After forgetting the member, neither their
    name nor their id is anywhere: the claim's line names them, and its log entry keeps
    that name for forget-me to find."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.open_lobby("toy", guild_id=1, channel_id=5, host=MEMBER)
        for actor in (BOB, CAROL):
            await _do(tables, game.id, actor, LOBBY_JOIN)
        await tables.claim_host(game.id, BOB, MEMBER.user_id)
        await _do(tables, game.id, BOB, LOBBY_CANCEL)
        assert await _left_of(tables.store, MEMBER.name)
        await tables.store.forget_player(MEMBER.user_id, FORMER)
        assert await _left_of(tables.store, MEMBER.name) == []
