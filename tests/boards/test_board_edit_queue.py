"""The bot's own board edits, at most ``max_updating`` at once (BoardMessages): the
start's redraw is not held behind the cap and says done only once its boards are
edited, and a board asked for again and again gives its place to boards waiting."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.boards.messages import BoardMessages


class _Tables:
    """Stands in for the table service: every game is open, at version 1."""

    async def load(self, game_id: int) -> Any:
        row = SimpleNamespace(id=game_id, version=1, updated_at=1.0, is_open=True)
        return SimpleNamespace(id=game_id, row=row)


def _messages(refresh: Any, most: int) -> BoardMessages:
    messages = BoardMessages(None, _Tables(), None, None)  # type: ignore[arg-type]
    messages.updates.edit_interval = 0.01
    messages.refresh = refresh  # type: ignore[method-assign]
    messages.updates.max_updating = most
    return messages


async def test_the_redraw_edits_its_boards_past_the_cap() -> None:
    """Two slow edits fill the cap; the start's redraw of three boards still edits them
    and only then says it is done."""
    gate = asyncio.Event()
    edited: list[int] = []

    async def refresh(game: Any, keep: bool = False, repost: bool = True) -> None:
        if game.id < 100:
            await gate.wait()  # edits held back by Discord's rate limit
        edited.append(game.id)

    messages = _messages(refresh, 2)
    messages.update_soon(1)
    messages.update_soon(2)
    await asyncio.sleep(0)
    assert await asyncio.wait_for(messages.redraw([101, 102, 103]), 5)
    assert edited == [101, 102, 103]
    gate.set()
    await messages.stop_updates(timeout=1)
    assert sorted(edited) == [1, 2, 101, 102, 103]


async def test_a_board_asked_for_again_and_again_gives_way() -> None:
    """Game 1's board is asked for again during each of its edits (a computer playing):
    after an edit it goes behind the board waiting, which is edited."""
    edited: list[int] = []
    messages: BoardMessages

    async def refresh(game: Any, keep: bool = False, repost: bool = True) -> None:
        edited.append(game.id)
        if game.id == 1:
            messages.update_soon(1)  # the next move lands while this edit is on its way
        await asyncio.sleep(0.01)

    messages = _messages(refresh, 1)
    messages.update_soon(1)
    messages.update_soon(2)
    for _ in range(100):
        await asyncio.sleep(0.02)
        if 2 in edited:
            break
    assert edited[:2] == [1, 2]
    await messages.stop_updates(timeout=1)


async def test_an_edit_of_the_version_shown_whose_game_cannot_be_read_is_made_later() -> None:
    """A vote's tally (or a board answered out of order) is an edit of the version the
    board shows already: its game read failing once, the edit is made once the read
    works, as asked (quiet edits stay quiet), not taken for one made."""
    from bot.table.errors import Unavailable

    for repost in (True, False):
        fails = [1]
        tables = _Tables()
        read = tables.load

        async def load(game_id: int, read: Any = read, fails: list[int] = fails) -> Any:
            if fails[0]:
                fails[0] -= 1
                raise Unavailable()
            return await read(game_id)

        tables.load = load  # type: ignore[method-assign]
        edits: list[tuple[int, bool]] = []

        async def refresh(game: Any, keep: bool = False, repost: bool = True,
                          edits: list[tuple[int, bool]] = edits) -> None:
            edits.append((game.id, repost))

        messages = _messages(refresh, 4)
        messages.tables = tables  # type: ignore[assignment]
        messages.shown[7] = 1  # the board shows version 1 already
        messages.update_soon(7, repost=repost)
        for _ in range(200):
            await asyncio.sleep(0.01)
            if edits:
                break
        assert fails == [0] and edits == [(7, repost)]
        await messages.stop_updates(timeout=1)
