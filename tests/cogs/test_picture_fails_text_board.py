"""A board whose picture cannot be drawn shows the position in its text, through the
offline fake Discord.

A pictured board's text is the short form (the picture shows the position); when the
picture fails or comes out empty, the board goes as the text board instead, with no
attachment, for every kind of game: posted, and edited after a move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from bot.pictures.drawing import PictureDrawer
from tests.support import button, host_board, make_bot, press

COGS = ("cogs.steam", "cogs.tinker", "cogs.tinrealm")


def _failing(monkeypatch: pytest.MonkeyPatch, *, empty: bool = False) -> list[str]:
    """Make every picture fail (raise), or come out empty with ``empty``; return the
    kinds asked for, one per drawing."""
    asked: list[str] = []

    async def draw(self: PictureDrawer, kind: str, view: Mapping[str, Any],
                   status: str = "active", *, what: str = "") -> bytes:
        asked.append(kind)
        if empty:
            return b""
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(PictureDrawer, "draw", draw)
    return asked


async def _text_board_shown(bot: Any, fake: Any) -> dict[str, Any]:
    """Check the channel's board is the text board of its game, with no picture; return
    the message."""
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game is not None and game.row.status == "active"
    message = fake.get_message(game.row.board_message_id)
    assert message is not None
    (shown,) = message["embeds"]
    expected = bot.boards.drawing.render(game, pictured=False)["embed"].to_dict()
    assert shown.get("description") == expected.get("description")
    assert "image" not in shown
    assert not fake.message_attachments(message)
    return message


async def test_steam_board_without_its_picture_shows_the_position(
        discord_driver: Any, fake_discord: Any, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked = _failing(monkeypatch)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    assert "steam" in asked  # the picture was tried, and failed
    message = await _text_board_shown(bot, fake_discord)
    text = message["embeds"][0]["description"]
    assert "**River**" in text and "Alice" in text and "Bob" in text, text

    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    seat = game.to_act()
    action = game.engine.computer_action(game.state, seat)
    tried = len(asked)
    await press(discord_driver, message, action, ("alice", "bob")[seat])
    await discord_driver.settle()
    assert len(asked) > tried  # the edited board's picture was tried too
    await _text_board_shown(bot, fake_discord)


@pytest.mark.parametrize("kind", ["tinker", "tinrealm"])
@pytest.mark.parametrize("empty", [False, True], ids=["fails", "empty"])
async def test_solo_board_without_its_picture_shows_the_position(
        discord_driver: Any, fake_discord: Any, tmp_path: Any,
        monkeypatch: pytest.MonkeyPatch, kind: str, empty: bool) -> None:
    asked = _failing(monkeypatch, empty=empty)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash(kind, "start", user="alice")
    await discord_driver.settle()
    assert asked == [kind]
    message = await _text_board_shown(bot, fake_discord)
    pictured = bot.boards.drawing.render(await bot.tables.open_in_channel(fake_discord.channel_id),
                                 picture=b"\x89PNG")["embed"].description
    assert len(message["embeds"][0]["description"]) > len(pictured or "")

    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    action = game.engine.computer_action(game.state, 0)
    await press(discord_driver, message, action, "alice")
    await discord_driver.settle()
    assert len(asked) == 2
    await _text_board_shown(bot, fake_discord)


async def test_an_edit_keeping_its_picture_goes_as_text_when_the_picture_fails() -> None:
    """A vote's edit keeps the message's picture; if it cannot be drawn now, the edit
    shows the text board and clears the old picture rather than hide the position."""
    from bot.games.tinker.engine import ENGINE as TINKER
    from tests.cogs.board_messages import board_renderer
    from tests.support import loaded

    boards = board_renderer(True)
    game = loaded(TINKER, TINKER.new(1, 1, {}))
    text = boards.drawing.render(game, edit=True, pictured=False)

    async def boom(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("drawing failed")

    boards.drawing.drawer.draw = boom  # type: ignore[method-assign]
    body = await boards.drawing.render_async(game, edit=True, keep=True)
    assert body["embed"].description == text["embed"].description
    assert body["attachments"] == [] and body["embed"].image.url is None
