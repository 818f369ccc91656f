"""/forget-me of a member who changed their display name during a game: every name the
game's lines gave them ("Zeph chose: ...") is kept with its logged move, so nothing of
theirs is left in any table. Played for real through the table service on SQLite."""
from __future__ import annotations

from bot.table.service import Actor
from tests.support import BOB, open_tables

MEMBER = Actor(271828182845904523, "Zephyrine")
ZEPH = Actor(MEMBER.user_id, "Zeph")


async def _left(store, *names):
    """Every value of every table that holds one of ``names``."""
    tables = [r[0] for r in await store.query(
        "SELECT name FROM sqlite_master WHERE type = 'table'")]
    found = []
    for table in tables:
        for row in await store.query(f"SELECT * FROM {table}"):
            for value in row:
                if any(n in str(value) for n in names):
                    found.append((table, str(value)[:120]))
    return found


async def _play(tables, game_id, first, then, moves_first=2):
    """Play the game through: ``first`` clicks the first ``moves_first`` moves (the
    moves but the last ``-moves_first`` when negative), ``then`` the rest."""
    game = await tables.load(game_id)
    if moves_first < 0:  # rename before the last moves only: count them first
        state, total = game.state, 0
        while not game.engine.is_over(state):
            state = game.engine.apply(state, 0, game.engine.computer_action(state, 0)).state
            total += 1
        moves_first = total + moves_first
    n = 0
    while game.row.is_open:
        actor = first if n < moves_first else then
        action = game.engine.computer_action(game.state, 0)
        game = (await tables.act(game.id, game.row.version, actor, action)).game
        n += 1
    return game


async def test_only_me_game_renamed_midway(tmp_path):
    """The member starts an "only me" game as Zeph and finishes it as Zephyrine."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("tinker", guild_id=1, channel_id=5, starter=ZEPH,
                                  only_starter=True)
        await _play(tables, game.id, ZEPH, MEMBER)
        assert await _left(tables.store, "Zephyrine")
        await tables.store.forget_player(MEMBER.user_id)
        assert await _left(tables.store, "Zeph") == []


async def test_channel_game_renamed_midway(tmp_path):
    """Bob starts a "fast" channel game; the member clicks as Zephyrine, then (the last
    move) as Zeph: their voters row keeps only "Zeph"."""
    async with open_tables(tmp_path / "t.db") as tables:
        game = await tables.start("tinker", guild_id=1, channel_id=6, starter=BOB,
                                  mode="fast")
        await _play(tables, game.id, MEMBER, ZEPH, moves_first=-1)
        assert await _left(tables.store, "Zephyrine")
        await tables.store.forget_player(MEMBER.user_id)
        assert await _left(tables.store, "Zeph") == []
