"""Questions before a move through the offline Discord: only resigning and abandoning
ask, and the question names what is given up."""

from __future__ import annotations

import asyncio

from tests.support import (
    button,
    drop_first_answer,
    host_board,
    make_bot,
    press,
    steam_against_computer,
)


async def test_abandon_asks_first_naming_what_is_given_up(discord_driver, fake_discord,
                                                          tmp_path):
    """/tinker abandon asks privately, saying the game ends for everyone with no result;
    nothing changes until the member confirms (after a restart too), and a question
    answered after the game ended says so."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    assert asked.ephemeral and asked.content.startswith(
        "Abandon this Tinker, Sailor, Soldier, Spy game?")
    assert "nobody gets a result" in asked.content and len(asked.custom_ids) == 1
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.is_open
    twice = await discord_driver.slash("tinker", "abandon", user="alice")
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.tinker",)))
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert done.response_type == 7 and done.ephemeral
    assert done.content == "Done."  # said once, in the channel:
    assert done.followups and "alice abandoned the game." in done.followups[0]["content"].lower()
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    ended = fake_discord.get_message(board["id"])
    assert "abandoned" in ended["embeds"][0]["footer"]["text"]
    assert done.custom_ids == []  # the question is answered: its button is gone
    again = await discord_driver.click(twice.message, twice.custom_ids[0], user="alice")
    assert again.ephemeral and "no game going" in again.content


async def test_abandon_is_refused_before_the_question(discord_driver, fake_discord, tmp_path):
    """A member who may not abandon the game is told so at once: no question, no button."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    refused = await discord_driver.slash("tinker", "abandon", user="bob")
    assert refused.ephemeral and refused.custom_ids == []
    assert "Manage Messages" in refused.content


async def test_at_a_running_table_the_question_says_a_majority_ends_it(discord_driver,
                                                                      fake_discord, tmp_path):
    """At a Steam to Solar table of three people, one player's abandon is an ask: the
    question says a majority ends it, and confirming records the ask only."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    for name in ("bob", "carol"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    await host_board(discord_driver, board, "lobby.start")
    asked = await discord_driver.slash("steam", "abandon", user="bob")
    assert asked.content.startswith("Ask to abandon this Steam to Solar game?")
    assert "majority" in asked.content
    before = await bot.tables.open_in_channel(fake_discord.channel_id)
    seen = fake_discord.get_message(before.row.board_message_id)  # the board before the ask
    # A double click on the button records the ask once.
    clicks = [fake_discord.component_payload(asked.message, asked.custom_ids[0], user="bob")
              for _ in range(2)]
    answers = await asyncio.gather(*(discord_driver.feed(click) for click in clicks))
    await discord_driver.settle()
    # the ask is told to Bob privately and shown on the board, not posted in the channel
    assert [m["content"] for m in fake_discord.channel_messages()
            if "asks to abandon" in (m.get("content") or "")] == []
    assert sum((a.content or "").startswith("Bob asks to abandon the game (1 of 2 needed")
               for a in answers) == 1
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    footer = fake_discord.get_message(game.row.board_message_id)["embeds"][0]["footer"]
    assert "Bob asks to abandon the game" in footer["text"]
    assert game is not None and game.row.is_open
    assert game.row.version == before.row.version  # an ask: no move anyone makes changes
    # The command used again is refused at once, with no question.
    twice = await discord_driver.slash("steam", "abandon", user="bob")
    assert "You have asked to abandon this game already (1 of 2 needed" in twice.content
    assert twice.ephemeral and twice.custom_ids == [] and "already" in twice.content
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version
    assert sum("asks to abandon" in e for e in after.row.events) == 1
    # Alice's move on the board as she saw it before the ask counts.
    seat = after.to_act()
    move = await press(discord_driver, seen, after.engine.computer_action(after.state, seat),
                       ("alice", "bob", "carol")[seat])
    assert move.response_type == 7 and not move.followups, move.content
    assert (await bot.tables.load(game.id)).row.version == game.row.version + 1


async def test_abandoning_a_game_against_a_computer_says_it_is_a_loss(
        discord_driver, fake_discord, tmp_path):
    """Alice alone with a computer has moved: /steam abandon asks first, saying it counts
    as a loss scoring 0 for every person, in the ratings too; confirmed, it is one."""
    from bot.table.service import Actor

    bot, game = await steam_against_computer(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    action = game.engine.computer_action(game.state, 0)
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"), action)
    await discord_driver.settle()
    asked = await discord_driver.slash("steam", "abandon", user="alice")
    assert asked.ephemeral and "a computer plays here" in asked.content
    assert "loss scoring 0 for each player who asked" in asked.content
    assert "in the ratings too" in asked.content
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    (result,) = await bot.store.results(alice.id)
    assert result["outcome"] == "loss" and result["detail"] == {"left": True}


async def test_an_abandon_whose_answer_is_lost_is_still_acknowledged_and_told(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The connection drops under the answer to "Yes, abandon it" (not retried by
    discord.py): the game is abandoned all the same, so the click is acknowledged (never
    "This interaction failed") and the channel is still told."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="alice")
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    drop_first_answer(monkeypatch, "edit_message")
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    assert (await bot.tables.load(1)).row.status == "abandoned"
    assert done.response_type == 6  # a deferred update: the board's edit says it
    assert any("alice abandoned the game." in (m.get("content") or "").lower()
               for m in done.followups)
