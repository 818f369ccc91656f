"""Answers lost on the way (the connection to Discord drops: aiohttp's
ServerDisconnectedError, which discord.py does not retry) after what was asked for was
done: the member is never left with "This interaction failed" (or "The application did
not respond"), and is told privately what happened."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.boards import answer_clock
from tests.cogs.test_answers_after_saves import _bobs_turn
from tests.cogs.test_forget_prompt import _abandoned_game
from tests.support import Actor, Clock, button, drop_first_answer, host_board, make_bot


def _said(result: Any) -> list[str]:
    return [result.content or "", *(m.get("content") or "" for m in result.followups)]


async def test_a_first_vote_whose_answer_is_lost_is_told_again(discord_driver, fake_discord,
                                                                tmp_path, monkeypatch):
    """C4: Bob's first vote is answered with a private line; when it is lost, the vote
    still counts and the line comes through the interaction's webhook."""
    fake_discord.add_user("bob")
    bot = await discord_driver.login(make_bot(tmp_path, clock=Clock()))
    board = (await discord_driver.slash("toy", "start", {"players": "vote"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    drop_first_answer(monkeypatch, "send_message")
    vote = await discord_driver.click(fake_discord.get_message(board["id"]),
                                      button(board, "add2"), user="bob")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.data.poll is not None and game.data.poll.tally
    assert vote.response_type == 6  # acknowledged, then the line as a follow-up
    assert any(said.startswith("Your vote: Add 2") for said in _said(vote)), _said(vote)


async def test_forget_me_done_but_its_answer_lost(discord_driver, fake_discord, tmp_path,
                                                  monkeypatch):
    """The records are deleted (it cannot be undone): the member is told so anyway."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.records", "cogs.tinker")))
    game = await _abandoned_game(bot, fake_discord, "bob", "alice")
    asked = await discord_driver.slash("forget-me", user="alice")
    drop_first_answer(monkeypatch, "edit_message")
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    row = await bot.store.get_game(game)
    assert row is not None and row.seats[1]["user_id"] is None  # forgotten
    assert done.response_type is not None
    assert any(said.startswith("Done:") for said in _said(done)), _said(done)


@pytest.mark.usefixtures("away_at_once")
async def test_a_steam_away_ask_cast_but_its_answer_lost(discord_driver, fake_discord,
                                                         tmp_path, monkeypatch):
    """C6: Alice's ask to hand Bob's seat to a computer is stored: she is told it."""
    bot, game = await _bobs_turn(discord_driver, fake_discord, tmp_path)
    drop_first_answer(monkeypatch, "send_message")
    asked = await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                       user="alice")
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).data.away_votes
    assert asked.response_type is not None
    assert any("Bob" in said for said in _said(asked)), _said(asked)


async def test_a_ping_choice_stored_but_its_answer_lost(discord_driver, fake_discord,
                                                        tmp_path, monkeypatch):
    """The turn-ping choice is stored: the member is told their choice anyway."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam", "cogs.help",
                                                               "cogs.records")))
    helped = await discord_driver.slash("help", user="alice")
    shown = await discord_driver.click(helped.message, "pings:show", user="alice")
    drop_first_answer(monkeypatch, "edit_message")
    chosen = await discord_driver.click(shown.message, "pings:off", user="alice")
    await discord_driver.settle()
    assert await bot.store.turn_pings(fake_discord.user("alice").id) is False
    assert chosen.response_type is not None and any(_said(chosen)), _said(chosen)


@pytest.mark.usefixtures("away_at_once")
async def test_an_away_players_return_by_the_rules_whose_answer_is_lost(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """C6: Bob, away, presses Rules & details: his return is stored, so when the answer
    is lost he is still told he is back."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    tables = bot.tables
    game = await tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    alice = Actor(fake_discord.user("alice").id, "Alice")
    await tables.hand_to_computer(fake_discord.channel_id, alice, fake_discord.user("bob").id)
    await discord_driver.settle()
    game = await tables.load(game.id)
    assert game.seats[1].away
    board = fake_discord.get_message(game.row.board_message_id)
    drop_first_answer(monkeypatch, "send_message")
    rules = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    await discord_driver.settle()
    assert not (await tables.load(game.id)).seats[1].away
    assert rules.response_type is not None
    assert any(said.startswith("Welcome back") for said in _said(rules)), _said(rules)


@pytest.mark.usefixtures("away_at_once")
async def test_an_ask_to_abandon_cast_but_its_answer_lost(discord_driver, fake_discord,
                                                          tmp_path, monkeypatch):
    """Alice's ask to abandon is stored: when its answer is lost she is told it anyway."""
    bot, game = await _bobs_turn(discord_driver, fake_discord, tmp_path)
    asked = await discord_driver.slash("steam", "abandon", user="alice")
    assert asked.custom_ids
    drop_first_answer(monkeypatch, "edit_message")
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    stored = await bot.tables.load(game.id)
    assert stored.row.is_open and stored.data.abandon_votes
    assert any(stored.row.events[-1] in said for said in _said(done)), _said(done)


async def test_a_start_whose_board_answer_is_lost_says_where_the_game_is(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """/tinker start: the game is stored, the answer with its board is lost, so the board
    is posted in the channel and the member is told privately where it is."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    drop_first_answer(monkeypatch, "send_message")
    started = await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.board_message_id is not None
    assert fake_discord.get_message(game.row.board_message_id)["embeds"]
    assert started.response_type is not None
    assert any(said == f"Your game is on: {game.link}" for said in _said(started)), _said(
        started)


async def test_a_slow_start_whose_board_follow_up_is_lost_says_where_privately(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A slow start is deferred as a public "thinking…", and the board's follow-up is
    lost: the private line saying where the board is must not take the public wait's
    place (the first follow-up would, shown to everyone)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    monkeypatch.setattr(answer_clock, "ANSWER_WITHIN", 0.0)
    drop_first_answer(monkeypatch, "send", discord.Webhook)
    await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.board_message_id is not None
    told = [m for m in fake_discord.messages.values()
            if (m.get("content") or "").startswith("Your game is on")]
    assert told and all(m["flags"] & 64 for m in told)  # private
