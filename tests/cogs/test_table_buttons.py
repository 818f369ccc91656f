"""The buttons every board carries: "Rules & details" (private) and "Play again" at the end."""

from __future__ import annotations

from tests.support import board_ids, button, every_page, make_bot


async def test_rules_and_details_answer_privately(discord_driver, fake_discord, tmp_path):
    """"Rules & details" answers privately with the rules and the last turns; nothing moves."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    assert any(cid.endswith(":table.rules") for cid in board_ids(board, table=True))
    result = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert result.ephemeral and len(result.requests) == 1
    assert result.embeds[0]["title"].startswith("Tinker, Sailor, Soldier, Spy: how to play")
    pages = await every_page(discord_driver, result, "bob")
    titles = " ".join(e["title"] for e in pages)
    assert "This table and its icons" in titles and "The last turns" in titles
    assert "(2/2)" in titles  # a page too long for a phone goes on over the next
    assert "Alice started the game." in str(pages)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.version == 0


async def test_play_again_starts_the_same_game(discord_driver, fake_discord, tmp_path):
    """An ended board offers "Play again": a new game with the same way to play."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", {"players": "fast"},
                                        user="alice")).message
    while board_ids(board):
        board = (await discord_driver.click(board, button(board, "add2"), user="bob")).message
    ids = board_ids(board, table=True)
    assert [cid.rsplit(":", 1)[-1] for cid in ids] == ["table.again", "table.rules"]
    again = await discord_driver.click(board, button(board, "table.again"), user="carol")
    assert again.response_type == 4 and not again.ephemeral
    new = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert new is not None and new.data.mode == "fast"
    assert new.row.starter_id == fake_discord.user("carol").id
    assert board_ids(again.message) == [f"g1:{new.id}:0:add1", f"g1:{new.id}:0:add2"]
    twice = await discord_driver.click(board, button(board, "table.again"), user="bob")
    assert twice.ephemeral and twice.content == (
        f"A new Race to Ten game is going already: {new.link}")
