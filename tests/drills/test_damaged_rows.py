"""Rows other than a game's own that cannot be read (SQLite keeps any value in any
column; a hand edit, a disk fault): a server's settings, a voter's ballot, a rating, a
result's detail, a logged move. Each is read as absent or refused in plain words; the
bot starts, games go on and end, and the idle sweep keeps sweeping."""

from __future__ import annotations

import logging

import pytest

from bot.table.service import Actor
from db.records import leaderboard, rating_board
from db.store import Store
from tests.cogs.test_replays import COGS as REPLAY_COGS
from tests.cogs.test_replays import _finish
from tests.cogs.test_votes_cog import _vote_game
from tests.db.test_records_queries import add_results, tinker
from tests.support import Clock, board_ids, button, make_bot, steam_against_computer

DAMAGED_RATING = ("INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
                  " VALUES (?, 'steam', ?, 'garbage', 8.3, 1, 0)")


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_server_setting_that_cannot_be_read_keeps_its_default(
        discord_driver, fake_discord, tmp_path, caplog) -> None:
    """A server's vote window stored as "abc": the bot starts, games start there with the
    default window, and the value is named in a warning."""
    cogs = ("cogs.help", "cogs.server", "cogs.tinker")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=cogs))
    await bot.store.connection.execute(
        "INSERT INTO server_settings (guild_id, vote_window_seconds, updated_at)"
        " VALUES (?, 'abc', 0)", (fake_discord.guild_id,))
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=cogs))
    started = await discord_driver.slash("tinker", "start", user="alice")
    assert started.message and board_ids(started.message)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.data.window == bot.tables.vote_window
    assert any("vote_window_seconds" in r.getMessage()
               and str(fake_discord.guild_id) in r.getMessage() for r in caplog.records)
    shown = await discord_driver.slash("help", user="alice")
    assert shown.ephemeral and not _errors(caplog)


async def test_a_ballot_that_cannot_be_read_does_not_hold_up_the_vote(
        discord_driver, fake_discord, tmp_path, caplog) -> None:
    """Carol's ballot row holds a time that is not a number: Bob still votes, and the
    window still closes on a decision."""
    clock = Clock()
    bot, board, game = await _vote_game(discord_driver, fake_discord, tmp_path, clock)
    await discord_driver.click(board, button(board, "add2"), user="carol")
    await bot.store.connection.execute(
        "UPDATE voters SET at = 'garbage', version = 'x' WHERE game_id = ? AND user_id = ?",
        (game.id, fake_discord.user("carol").id))
    bot.store.kept.drop()
    before = (await bot.tables.load(game.id)).row.version
    vote = await discord_driver.click(fake_discord.get_message(board["id"]),
                                      button(board, "add1"), user="bob")
    assert vote.response_type is not None and "went wrong" not in vote.content
    clock.advance(31)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    assert (await bot.tables.load(game.id)).row.version == before + 1
    assert not _errors(caplog)
    carol = fake_discord.user("carol").id
    await bot.store.voters(game.id)  # (as the vote's tally reads every ballot)
    assert any(f"ballot of member {carol} in game {game.id} has unreadable version, at"
               in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_daily_deal_with_a_damaged_ballot_can_be_abandoned(
        discord_driver, fake_discord, tmp_path) -> None:
    """A daily deal whose one ballot row is damaged: abandoning it is answered, and the
    channel is free again."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "daily", user="alice")).message
    assert (await discord_driver.click(board, board_ids(board)[0],
                                       user="alice")).response_type == 7
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        "UPDATE voters SET at = 'garbage', seq = 'y' WHERE game_id = ?", (game.id,))
    bot.store.kept.drop()
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    assert asked.ephemeral and asked.custom_ids
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    assert done.response_type is not None
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None


async def test_a_rating_that_cannot_be_read_starts_again(discord_driver, fake_discord,
                                                         tmp_path, caplog) -> None:
    """Alice's stored rating is damaged: her rated game against a computer still ends
    (her resignation is saved), her rating starts again from its first value, and
    /stats answers."""
    bot, game = await steam_against_computer(discord_driver, tmp_path,
                                             cogs=("cogs.steam", "cogs.records"))
    alice = fake_discord.user("alice").id
    await bot.store.connection.execute(DAMAGED_RATING, (fake_discord.guild_id, alice))
    board = fake_discord.get_message(game.row.board_message_id)
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="alice")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="alice")
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    rows = await bot.store.query("SELECT mu, games FROM ratings WHERE user_id = :u",
                                 {"u": alice})
    assert len(rows) == 1 and isinstance(rows[0][0], float) and rows[0][1] == 1
    stats = await discord_driver.slash("stats", user="alice")
    assert stats.response_type is not None and not _errors(caplog)
    assert any(f"rating of member {alice} (steam, server {fake_discord.guild_id})"
               in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_the_sweep_goes_on_past_a_game_it_cannot_end(discord_driver, fake_discord,
                                                          tmp_path, caplog) -> None:
    """An idle table whose ending fails (its player's rating cannot be read, before this
    was read as absent; here any fault) is logged and passed over: the sweep still ends
    the other idle games, and the loop keeps running."""
    clock = Clock()
    bot, game = await steam_against_computer(discord_driver, tmp_path, clock=clock)
    alice = fake_discord.user("alice")
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                         game.engine.computer_action(game.state, game.to_act()))
    await discord_driver.settle()
    real_close = bot.tables.core.close

    async def failing(closing, *args, **kwargs):
        if closing.id == game.id:
            raise ValueError("could not convert string to float: 'garbage'")
        return await real_close(closing, *args, **kwargs)

    bot.tables.core.close = failing  # type: ignore[method-assign]
    clock.advance(30 * 86400)
    assert await bot.sweep_once() == 0
    assert any("could not end game" in r.getMessage() for r in caplog.records)
    bot.tables.core.close = real_close  # type: ignore[method-assign]
    assert await bot.sweep_once() == 1  # the next sweep ends it


async def test_a_failed_sweep_leaves_the_loop_sweeping(discord_driver, tmp_path,
                                                      caplog, monkeypatch) -> None:
    """A sweep that fails as a whole is logged; the loop's run returns, so the loop runs
    again at its next time (an error escaping it would stop the loop for good)."""
    bot = await discord_driver.login(make_bot(tmp_path))

    async def broken() -> int:
        raise ValueError("a fault of any kind")

    monkeypatch.setattr(bot, "sweep_once", broken)
    await bot.sweeper.coro(bot)
    assert any("idle sweep failed" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("damage", ['{"seat":0,"act', '{"seat":"x","action":"a"}'])
async def test_a_damaged_logged_move_refuses_the_replay_in_words(
        discord_driver, fake_discord, tmp_path, caplog, damage, backend) -> None:
    """A finished game one of whose logged moves cannot be read: Replay answers
    privately that its saved moves are damaged (it gave no answer at all)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=REPLAY_COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    await bot.store.connection.execute(
        "UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?", (damage, game.id, 2))
    replay = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    assert replay.ephemeral and "saved moves are damaged" in replay.content, replay.content
    command = await discord_driver.slash("tinker", "replay", user="bob")
    assert command.ephemeral and "saved moves are damaged" in command.content
    assert not _errors(caplog)


async def test_a_result_whose_detail_cannot_be_read_still_ranks(
        discord_driver, fake_discord, tmp_path, caplog, backend) -> None:
    """Alice's best result has a detail that is not JSON: the leaderboard still shows,
    her included."""
    _bot, alice, _bob = await _two_results_one_damaged(discord_driver, fake_discord, tmp_path,
                                                      "detail = '{half'")
    shown = await discord_driver.slash("leaderboard", options={"game": "tinker"}, user="bob")
    assert shown.embeds and f"<@{alice}>" in str(shown.embeds[0]), shown.embeds
    assert not _errors(caplog)
    assert any(f"result detail of member {alice} (tinker, server {fake_discord.guild_id})"
               in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_result_whose_score_cannot_be_read_is_left_out(
        discord_driver, fake_discord, tmp_path, caplog) -> None:
    """Alice's Tinker result holds a score that is not a number (SQLite keeps '' in an
    INTEGER column): the leaderboard shows Bob, her /stats answers with her other
    games, and a warning names the member, the game and the server."""
    _bot, alice, bob = await _two_results_one_damaged(discord_driver, fake_discord, tmp_path,
                                                     "score = ''")
    shown = await discord_driver.slash("leaderboard", options={"game": "tinker"}, user="bob")
    assert shown.embeds and f"<@{bob}>" in str(shown.embeds[0]), shown.embeds
    assert shown.embeds[0]["description"].startswith(f"**1.** <@{bob}>")  # no place skipped
    stats = await discord_driver.slash("stats", user="alice")
    assert stats.ephemeral and "went wrong" not in (stats.content or "")
    assert not _errors(caplog)
    assert any(f"result of member {alice} (tinker, server {fake_discord.guild_id})"
               in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def _two_results_one_damaged(driver, fake, tmp_path, damage: str):
    """Alice's won and Bob's lost Tinker result in the fake's server, Alice's row then
    damaged by ``damage`` (an SQL assignment); return the bot and their ids."""
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.records", "cogs.tinker")))
    alice, bob = fake.user("alice").id, fake.user("bob").id
    now = bot.clock()
    await add_results(bot.store, [
        {**tinker(alice, 13, 20, now - 30), "guild_id": fake.guild_id},
        {**tinker(bob, 5, 2, now - 30), "guild_id": fake.guild_id}])
    await bot.store.connection.execute(f"UPDATE results SET {damage} WHERE user_id = ?",
                                       (alice,))
    return bot, alice, bob


async def test_a_damaged_best_result_leaves_the_top_ten_whole(tmp_path):
    """Twelve players, the best one's score damaged (left out, with a warning): the top
    ten are the next ten, numbered 1 to 10, and the twelfth asker's line says 11."""
    store = await Store.open(tmp_path / "damaged.db", Clock())  # (SQLite keeps '' in it)
    await add_results(store, [{**tinker(100 + i, 12, 20 - i), "guild_id": 1}
                              for i in range(12)])
    await store.connection.execute("UPDATE results SET score = '' WHERE user_id = 100")
    board = await leaderboard(store, 1, "tinker", asker_id=111)
    await store.close()
    assert [s.place for s in board.top] == list(range(1, 11))
    assert [s.user_id for s in board.top] == list(range(101, 111))
    assert board.mine is not None and (board.mine.user_id, board.mine.place) == (111, 11)


async def test_the_rating_boards_count_is_the_same_whoever_asks(tmp_path):
    """A damaged rating below the top: every member, its own included, reads the same
    count of players rated."""
    store = await Store.open(tmp_path / "damaged.db", Clock())  # (SQLite keeps text in it)
    for i in range(12):
        await store.connection.execute(
            "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
            " VALUES (1, 'steam', ?, ?, 2.0, 5, 0)", (200 + i, 30.0 - i))
    await store.connection.execute(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES (1, 'steam', 299, 'garbage', 8.3, 1, 0)")
    other = await rating_board(store, 1, "steam", asker_id=200)
    damaged = await rating_board(store, 1, "steam", asker_id=299)
    await store.close()
    assert other.players == damaged.players and damaged.mine is None
