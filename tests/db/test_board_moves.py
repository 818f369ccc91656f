"""A game's board moves only by ``set_board``: it returns the board it replaced (read with
the write, so of boards set at once each replaces a different one), and a save whose
game was read before the board moved never brings the old board back into the kept row.
Both backends."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support import ALICE, Clock, open_tables

CHANNEL = 700


async def test_set_board_returns_the_board_it_replaced(tmp_path: Path) -> None:
    """The first board replaces none; each next one, the one before; an unknown game, none."""
    async with open_tables(tmp_path / "t.db", Clock()) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        store = tables.store
        assert await store.set_board(game.id, CHANNEL, 100) is None
        assert await store.set_board(game.id, CHANNEL + 1, 101) == (CHANNEL, 100)
        assert await store.set_board(game.id, CHANNEL, 102) == (CHANNEL + 1, 101)
        assert await store.set_board(game.id + 99, CHANNEL, 103) is None
        stored = await store.get_game(game.id)
        assert stored is not None and stored.board_message_id == 102


async def test_boards_set_at_once_each_replace_a_different_one(tmp_path: Path) -> None:
    """Eight new boards set at the same time: each replaced board is replaced once, so
    every board but the one stored last is retired by exactly one of them."""
    async with open_tables(tmp_path / "t.db", Clock()) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE)
        store = tables.store
        await store.set_board(game.id, CHANNEL, 100)
        news = list(range(101, 109))
        replaced = await asyncio.gather(*(store.set_board(game.id, CHANNEL, m) for m in news))
        stored = await store.get_game(game.id)
        assert stored is not None
        assert sorted(r[1] for r in replaced if r is not None) == sorted(
            m for m in [100, *news] if m != stored.board_message_id)


async def test_a_save_read_before_a_new_board_keeps_the_new_board(tmp_path: Path) -> None:
    """A game read, then its board moved, then the game saved: the kept row, like the
    database, names the new board (whether the game was kept when its board moved)."""
    async with open_tables(tmp_path / "t.db", Clock()) as tables:
        game = await tables.start("toy", guild_id=1, channel_id=CHANNEL, starter=ALICE,
                                  mode="fast")
        store = tables.store
        await store.set_board(game.id, CHANNEL, 100)
        for kept, board in ((True, 200), (False, 300)):
            if not kept:
                store.kept.drop(game.id)  # type: ignore[attr-defined]
            row = store.kept_game(game.id) if kept else await store.get_game(game.id)
            assert row is not None and row.board_message_id == board - 100
            await store.set_board(game.id, CHANNEL, board)
            row.version += 1
            await store.save_game(row, row.version - 1)
            kept_row = store.kept_game(game.id)
            stored = await store.get_game(game.id)
            assert kept_row is not None and stored is not None
            assert (kept_row.board_message_id, stored.board_message_id) == (board, board)
