"""A click answered on a board that ``/<game> board`` replaced meanwhile leaves no
older board on show.

Bob's click is taken on the board at version N; its move is saved only after
``/<game> board`` has posted the new board (drawn at N) and checked the game had not
moved. The click's answer then draws N+1 on the message it was clicked on, the board
that moved. The board the database names must still come to show N+1 (and the one
that moved says so again): else the new board keeps N for good, its buttons refused as
stale and nothing drawing it again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from tests.support import board_ids, button, make_bot


def _versions(message: dict[str, Any]) -> set[str]:
    return {custom_id.split(":")[2] for custom_id in board_ids(message)}


async def test_a_click_answered_on_the_board_that_moved_redraws_the_new_board(
        discord_driver: Any, fake_discord: Any, tmp_path: Any, monkeypatch: Any) -> None:
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    core = bot.tables.core
    real_apply = core.apply
    taken = asyncio.Event()  # Bob's click read the game (board: the old message)
    reposted = asyncio.Event()  # /toy board is done, its check for a newer game too

    async def held_apply(*args: Any, **kwargs: Any) -> Any:
        taken.set()
        await reposted.wait()
        return await real_apply(*args, **kwargs)

    monkeypatch.setattr(core, "apply", held_apply)

    async def repost() -> Any:
        await taken.wait()
        answer = await discord_driver.slash("toy", "board", user="alice")
        reposted.set()
        return answer

    click, moved = await asyncio.gather(
        discord_driver.click(board, button(board, "add1"), user="bob"), repost())
    await discord_driver.settle()
    await asyncio.sleep(0.3)
    await discord_driver.settle()
    game = await bot.tables.load(1)
    assert click.response_type == 7
    assert game.row.board_message_id == int(moved.message["id"])
    live = fake_discord.get_message(game.row.board_message_id)
    assert _versions(live) == {str(game.row.version)}
    old = fake_discord.get_message(board["id"])
    assert board_ids(old) == [] and old["content"].startswith("This board moved")
    assert bot.boards.messages.shown[game.id] == game.row.version
