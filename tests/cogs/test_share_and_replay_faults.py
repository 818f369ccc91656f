"""Share, Replay and ``/<game> replay`` at the Discord level, through the offline fake:
a result shared once however often Share is pressed, the game the channel played
replayed by command, the server's pictures setting, a store that cannot be read, and a
pruned daily board."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.boards.replay import SHARE_AGAIN_AFTER
from bot.pictures.replay import FILENAME
from db.errors import StorageError
from tests.cogs.test_replays import COGS, _finish
from tests.cogs.test_server_settings import _admin
from tests.support import abandon, board_ids, button, make_bot

#: The private words every button gives when the store cannot be read.
UNREACHABLE = "could not reach its game storage"


def _shares(fake: Any) -> list[dict[str, Any]]:
    """The channel's posts of a daily result."""
    return [m for m in fake.channel_messages(fake.channel_id)
            if (m.get("content") or "").startswith(("Tinker daily", "Tin Realm daily"))]


def _ends(board: dict[str, Any]) -> list[str]:
    """The table buttons of a board, by action."""
    return [cid.rsplit(":", 1)[-1] for cid in board_ids(board, table=True)]


async def _finished_daily(driver: Any, fake: Any, tmp_path: Any,
                          cogs: tuple[str, ...] = COGS) -> tuple[Any, Any, dict[str, Any]]:
    """Log in, play Alice's Tinker daily to its end; return the bot, the game, the board."""
    bot = await driver.login(make_bot(tmp_path, cogs=cogs))
    await driver.slash("tinker", "daily", user="alice")
    game, _states, board = await _finish(driver, fake, bot)
    return bot, game, board


# -- Share posts a result once ------------------------------------------------------------


async def test_double_tap_on_share_posts_the_result_once(discord_driver, fake_discord,
                                                         tmp_path):
    """A phone's double-tap on Share posts the result once; the second tap is told
    privately that it is on its way."""
    _bot, _game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    cid = button(board, "table.share")
    first, second = await asyncio.gather(discord_driver.click(board, cid, user="bob"),
                                         discord_driver.click(board, cid, user="bob"))
    await discord_driver.settle()
    assert len(_shares(fake_discord)) == 1
    told = [r for r in (first, second) if r.ephemeral]
    assert len(told) == 1 and "being shared already" in told[0].content


async def test_share_pressed_again_later_links_to_the_post(discord_driver, fake_discord,
                                                           tmp_path):
    """Friends who press Share after the result was posted are shown the post privately,
    by its link, instead of posting it again; nothing more goes into the channel."""
    fake_discord.add_user("carol")
    _bot, _game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    cid = button(board, "table.share")
    posted = await discord_driver.click(board, cid, user="alice")
    assert not posted.ephemeral
    (post,) = _shares(fake_discord)
    for who in ("bob", "carol"):
        again = await discord_driver.click(board, cid, user=who)
        assert again.ephemeral, again.content
        assert "shared here already" in again.content
        assert f"/{fake_discord.channel_id}/{post['id']}" in again.content, again.content
    await discord_driver.settle()
    assert len(_shares(fake_discord)) == 1


async def test_share_after_a_restart_links_to_the_post(discord_driver, fake_discord,
                                                       tmp_path):
    """The post of a result is kept with the game: after a restart, Share pressed again
    soon links to it privately instead of posting it again."""
    _bot, _game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    cid = button(board, "table.share")
    await discord_driver.click(board, cid, user="alice")
    (post,) = _shares(fake_discord)
    await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    again = await discord_driver.click(board, cid, user="bob")
    assert again.ephemeral and "shared here already" in again.content
    assert f"/{fake_discord.channel_id}/{post['id']}" in again.content
    assert len(_shares(fake_discord)) == 1


async def test_share_posts_again_once_the_post_is_old(discord_driver, fake_discord, tmp_path):
    """Long after the result was shared (it has scrolled away), Share posts it again."""
    bot, _game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    now = [1000.0]
    bot.boards.replays.clock = lambda: now[0]
    cid = button(board, "table.share")
    await discord_driver.click(board, cid, user="alice")
    now[0] += SHARE_AGAIN_AFTER + 1
    again = await discord_driver.click(board, cid, user="bob")
    await discord_driver.settle()
    assert not again.ephemeral
    assert len(_shares(fake_discord)) == 2


# -- /<game> replay replays the game that was played ----------------------------------------


async def test_replay_command_passes_over_a_game_abandoned_before_its_first_move(
        discord_driver, fake_discord, tmp_path):
    """A game finished, then another started by mistake and abandoned before a move:
    ``/tinker replay`` replays the finished game, not the unplayed deal."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, states, _board = await _finish(discord_driver, fake_discord, bot)
    await discord_driver.slash("tinker", "start", user="bob")
    await abandon(discord_driver, "tinker", "bob")
    await discord_driver.settle()
    result = await discord_driver.slash("tinker", "replay", user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(result.record.original_message_id)
    assert f", {len(states) - 1} moves: The " in line["content"], line["content"]
    assert fake_discord.attachment_bytes(line, FILENAME)


async def test_replay_command_with_only_an_unplayed_game_replays_its_deal(
        discord_driver, fake_discord, tmp_path):
    """With no played game to prefer, the unplayed one is still replayed (its deal)."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="bob")
    await abandon(discord_driver, "tinker", "bob")
    await discord_driver.settle()
    result = await discord_driver.slash("tinker", "replay", user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(result.record.original_message_id)
    assert line["content"].endswith(", 0 moves: Game abandoned."), line["content"]


# -- the server's pictures setting ----------------------------------------------------------

SETTINGS_COGS = ("cogs.server", *COGS)


async def test_server_with_pictures_off_gets_no_replay_button(discord_driver, fake_discord,
                                                              tmp_path):
    """With the server's pictures off, an ended board offers no Replay (Share stays)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=SETTINGS_COGS))
    _admin(fake_discord)
    await discord_driver.slash("tablehouse", "settings", {"pictures": "off"}, user="admin")
    await discord_driver.slash("tinker", "daily", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    assert _ends(board) == ["table.again", "table.share", "table.rules"]


async def test_replay_on_an_old_board_after_pictures_were_turned_off(discord_driver,
                                                                     fake_discord, tmp_path):
    """A board drawn while pictures were on keeps its Replay button until redrawn; once
    the server turned pictures off, a press is refused privately and posts no picture."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=SETTINGS_COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    assert "table.replay" in _ends(board)
    _admin(fake_discord)
    await discord_driver.slash("tablehouse", "settings", {"pictures": "off"}, user="admin")
    before = len(fake_discord.channel_messages(fake_discord.channel_id))
    result = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    assert result.ephemeral and "turned off in this server" in result.content, result.content
    assert len(fake_discord.channel_messages(fake_discord.channel_id)) == before


# -- a store that cannot be read ------------------------------------------------------------


def _break_reads(store: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every read of a game fail as a locked database does."""
    async def unreadable(*_args: Any, **_kwargs: Any) -> Any:
        raise StorageError("database is locked")
    monkeypatch.setattr(store, "get_game", unreadable)
    monkeypatch.setattr(store, "query", unreadable)


@pytest.mark.parametrize("pressed", ["table.replay", "table.share"])
async def test_replay_or_share_while_the_store_is_unreadable(discord_driver, fake_discord,
                                                              tmp_path, monkeypatch, pressed):
    """Replay and Share refuse privately in the words every other button uses (no error
    logged, nothing posted)."""
    bot, _game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    _break_reads(bot.store, monkeypatch)
    result = await discord_driver.click(board, button(board, pressed), user="bob")
    await discord_driver.settle()
    assert result.ephemeral and UNREACHABLE in result.content, result.content
    assert _shares(fake_discord) == []


async def test_replay_command_while_the_store_is_unreadable(discord_driver, fake_discord,
                                                            tmp_path, monkeypatch):
    """``/tinker replay`` refuses privately in the same words."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    await _finish(discord_driver, fake_discord, bot)
    _break_reads(bot.store, monkeypatch)
    result = await discord_driver.slash("tinker", "replay", user="bob")
    await discord_driver.settle()
    assert result.ephemeral and UNREACHABLE in result.content, result.content


# -- a pruned daily game --------------------------------------------------------------------


async def test_pruned_daily_board_offers_no_share(discord_driver, fake_discord, tmp_path):
    """Once retention emptied a finished daily game, its redrawn board offers neither
    Replay nor Share (both need its moves); Play again and the rules stay."""
    bot, game, board = await _finished_daily(discord_driver, fake_discord, tmp_path)
    assert _ends(board) == ["table.again", "table.replay", "table.share", "table.rules"]
    assert await bot.store.prune_finished(before=game.row.updated_at + 10) == 1
    await bot.boards.messages.refresh(await bot.tables.load(game.id))
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    assert _ends(board) == ["table.again", "table.rules"]
