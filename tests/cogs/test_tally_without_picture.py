"""A voted game's board shown without its picture (pictures turned on by /tablehouse
settings mid-game, or a channel without Attach Files) still shows its votes (C4): an
edit that would keep a picture the message does not have is refused (400 50035), and
is made again with the picture (or as text, where files may not be attached)."""
from __future__ import annotations

import asyncio

from tests.fake_discord import payloads
from tests.support import Clock, button, make_bot

COGS = ("cogs.server", "cogs.tinker")


def _labels(message):
    return [c.get("label") for row in message["components"] for c in row["components"]]


async def _text_board_with_pictures_on(driver, fake, tmp_path):
    """A Tinker board shown as text, Alice's first move made, then pictures turned on by
    /tablehouse settings; return the bot, the game and the board."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    fake.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS | payloads.MANAGE_GUILD)
    await driver.slash("tablehouse", "settings", {"pictures": "off"}, user="admin")
    board = (await driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake.channel_id)
    await driver.click(board, button(board, game.legal_actions(0)[0].id), user="alice")
    await driver.slash("tablehouse", "settings", {"pictures": "on"}, user="admin")
    game = await bot.tables.load(game.id)
    return bot, game, fake.get_message(board["id"])


async def test_c4_the_tally_shows_after_pictures_are_turned_on(discord_driver, fake_discord,
                                                              tmp_path):
    """Pictures turned on mid-game: the next vote's board carries its tally."""
    bot, game, board = await _text_board_with_pictures_on(discord_driver, fake_discord,
                                                          tmp_path)
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    await discord_driver.click(board, button(board, action), user="bob")  # 1 of 2: a vote
    await bot.boards.messages.stop_updates()
    fake_discord.limit_violations.clear()  # shown below instead
    after = fake_discord.get_message(board["id"])
    assert any("voting" in f["name"] for f in after["embeds"][0].get("fields", [])), \
        "the board never showed the vote: its tally edit was refused"


async def test_c4_the_tally_shows_where_files_may_not_be_attached(discord_driver, fake_discord,
                                                                 tmp_path):
    """A board gone to text for want of Attach Files: the next vote's tally shows, in one
    edit (the channel is known to refuse pictures: none is tried first, then refused)."""
    clock = Clock()
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await discord_driver.click(board, button(board, game.legal_actions(0)[0].id), user="alice")
    game = await bot.tables.load(game.id)
    board = fake_discord.get_message(board["id"])
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    await discord_driver.click(board, button(board, action), user="bob")
    clock.advance(31)
    # the channel has no Attach Files: the window's edit with a new picture is refused
    fake_discord.fail_next("PATCH", r"/channels/\d+/messages/\d+$", 403, 50013)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    await asyncio.sleep(0.3)
    board = fake_discord.get_message(board["id"])
    assert not board.get("attachments")  # text board now
    game = await bot.tables.load(game.id)
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    before = len(fake_discord.requests)
    await discord_driver.click(board, button(board, action), user="carol")
    await bot.boards.messages.stop_updates()
    fake_discord.limit_violations.clear()
    after = fake_discord.get_message(board["id"])
    assert any("voting" in f["name"] for f in after["embeds"][0].get("fields", [])), \
        "the board never showed the vote: its tally edit was refused"
    edits = [r for r in fake_discord.requests[before:]
             if r.method == "PATCH" and r.path.endswith(f"/messages/{board['id']}")]
    assert len(edits) == 1, [(r.status, r.json, getattr(r, "response", None)) for r in edits]


async def test_c4_a_vote_answered_on_a_text_board_brings_its_picture(discord_driver,
                                                                     fake_discord, tmp_path):
    """Pictures were turned on mid-game, so the board still shows as text; then the bot
    loses access to the channel, so a vote is answered by editing the board through the
    click: the edit brings the picture rather than keep one the message does not have
    (a body Discord refuses), and the board shows the tally."""
    fake = fake_discord
    fake.add_user("carol")
    bot, game, board = await _text_board_with_pictures_on(discord_driver, fake, tmp_path)
    assert not board["attachments"]
    first, second = [a.id for a in game.legal_actions(0) if a.id != "give_up"][:2]
    fake.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    await discord_driver.click(board, button(board, first), user="bob")
    await discord_driver.settle()
    for _ in range(100):
        if game.id in bot.boards.messages.locked_out:
            break
        await asyncio.sleep(0.01)
    assert game.id in bot.boards.messages.locked_out
    await discord_driver.click(fake.get_message(board["id"]), button(board, second),
                               user="carol")
    await discord_driver.settle()
    assert fake.limit_violations == []
    after = fake.get_message(board["id"])
    assert any("voting" in f["name"] for f in after["embeds"][0].get("fields", []))
    assert after["attachments"]
