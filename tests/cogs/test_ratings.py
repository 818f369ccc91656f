"""Steam to Solar ratings in Discord, through the offline fake: finished games between
people (and against computer players) update ratings, /leaderboard steam rating and
/stats show them, /forget-me removes them. Every test runs on both backends."""

from __future__ import annotations

from typing import Any

from cogs.records import rating_embed, stats_embed
from db.ratings import DEFAULT_MU, DEFAULT_SIGMA
from db.records import GameStats, RatingBoard, RatingStanding
from tests.cogs.board_messages import PHONE_BUDGET, Message, need_preview, phone_heights
from tests.support import button, host_board, make_bot, press

COGS = ("cogs.steam", "cogs.records")


async def _ratings(store: Any) -> dict[int, tuple[float, float, int]]:
    rows = await store.query("SELECT user_id, mu, sigma, games FROM ratings")
    return {int(u): (float(mu), float(sigma), int(games)) for u, mu, sigma, games in rows}


async def _table(driver: Any, fake: Any, tmp_path: Any, joiners: tuple[str, ...],
                 computers: int = 0) -> tuple[Any, dict[str, Any]]:
    """Open a Steam table hosted by alice, seat ``joiners`` and ``computers``, start it."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", user="alice")).message
    for name in joiners:
        if name not in ("alice", "bob"):
            fake.add_user(name)
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    for _ in range(computers):
        board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    board = await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, board


async def _resign(driver: Any, fake: Any, bot: Any, name: str) -> None:
    """Resign ``name`` from the channel's game, confirming the question."""
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    ask = await driver.click(board, button(board, "ask.resign"), user=name)
    assert ask.ephemeral and "Resign from this Steam to Solar game?" in ask.content
    done = await driver.click(ask.message, ask.custom_ids[0], user=name)
    assert done.response_type == 7
    await driver.settle()


async def test_a_finished_two_person_game_rates_both(discord_driver, fake_discord, tmp_path,
                                                     backend):
    """Bob resigns, Alice wins: Alice's rating rises, Bob's falls, both count one game and
    both grow surer; /stats shows each their rating."""
    bot, _ = await _table(discord_driver, fake_discord, tmp_path, ("bob",))
    await _resign(discord_driver, fake_discord, bot, "bob")
    alice, bob = fake_discord.user("alice").id, fake_discord.user("bob").id
    ratings = await _ratings(bot.store)
    assert set(ratings) == {alice, bob}
    assert ratings[alice][0] > DEFAULT_MU > ratings[bob][0]
    assert all(sigma < DEFAULT_SIGMA and games == 1 for _, sigma, games in ratings.values())
    stats = await discord_driver.slash("stats", options={"game": "steam"}, user="alice")
    value = stats.embeds[0]["fields"][0]["value"]
    mu, sigma, _ = ratings[alice]
    assert f"Rating **{mu - 3 * sigma:.1f}** (#1 here) ± {2 * sigma:.1f} · 1 game · " \
           "still provisional" in value


async def test_a_finished_three_person_game_ranks_the_resigned_last(
        discord_driver, fake_discord, tmp_path, backend):
    """Carol then Bob resign: Alice ranks first and gains most; the two who resigned rank
    last, below her, and lose; the leaderboard lists the three by rating."""
    bot, _ = await _table(discord_driver, fake_discord, tmp_path, ("bob", "carol"))
    await _resign(discord_driver, fake_discord, bot, "carol")
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is not None
    assert await _ratings(bot.store) == {}  # nothing is rated before the game ends
    await _resign(discord_driver, fake_discord, bot, "bob")
    ids = {n: fake_discord.user(n).id for n in ("alice", "bob", "carol")}
    ratings = await _ratings(bot.store)
    assert set(ratings) == set(ids.values())
    assert ratings[ids["alice"]][0] > DEFAULT_MU
    assert ratings[ids["bob"]][0] < DEFAULT_MU and ratings[ids["carol"]][0] < DEFAULT_MU
    board = await discord_driver.slash("leaderboard", options={"game": "steam",
                                                                "period": "rating"}, user="bob")
    assert not board.ephemeral
    embed = board.embeds[0]
    assert embed["title"] == "🏆 Steam to Solar · rating"
    lines = embed["description"].split("\n")
    assert len(lines) == 3 and lines[0].startswith("**1.** Alice · **")
    assert all(line.endswith("· 1 game · provisional") for line in lines)
    assert embed["footer"]["text"].startswith("3 players rated here")


async def _play_out(driver: Any, fake: Any, bot: Any, name: str) -> Any:
    """Play the channel's game to its end, ``name`` clicking the computer's choice for
    their seat each turn (the computer players move by themselves); return the game."""
    game_id = None
    for _ in range(2000):
        game = await bot.tables.open_in_channel(fake.channel_id)
        if game is None:
            break
        game_id = game.id
        board = fake.get_message(game.row.board_message_id)
        action = game.engine.computer_action(game.state, game.to_act())
        assert (await press(driver, board, action, name)).response_type == 7
        await driver.settle()
    assert game_id is not None
    return await bot.store.get_game(game_id)


async def test_a_person_against_a_computer_changes_only_the_person(
        discord_driver, fake_discord, tmp_path, backend):
    """Alice plays a whole game against a computer player: her rating moves the way her
    final standing says, and no rating is stored for the computer (fixed by level)."""
    bot, _ = await _table(discord_driver, fake_discord, tmp_path, (), computers=1)
    finished = await _play_out(discord_driver, fake_discord, bot, "alice")
    assert finished.status == "over"
    alice = fake_discord.user("alice").id
    ratings = await _ratings(bot.store)
    assert list(ratings) == [alice]
    mu, sigma, games = ratings[alice]
    (result,) = await bot.store.results()
    game = await bot.tables.load(finished.id)
    outcome = game.engine.result(game.state)
    assert outcome is not None
    shared = sum(o.outcome == "win" for o in outcome.outcomes) > 1
    if not shared:  # a shared win is a tie: her rating may move either way, a little
        assert (mu > DEFAULT_MU) == (result["outcome"] == "win")
    assert sigma < DEFAULT_SIGMA and games == 1


async def test_rating_leaderboard_top_10_and_the_askers_place(
        discord_driver, fake_discord, tmp_path, backend):
    """Twelve rated players: the top 10 by mu - 3 sigma, settled after 10 games, the
    asker's place below; other games and empty servers get a private line."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    empty = await discord_driver.slash("leaderboard", options={"game": "steam",
                                                                "period": "rating"}, user="bob")
    assert empty.ephemeral and "Nobody in this server has a Steam to Solar rating" in \
        empty.content and "or computer players" in empty.content
    tinker = await discord_driver.slash("leaderboard", options={"game": "tinker",
                                                                 "period": "rating"}, user="bob")
    assert tinker.ephemeral and "has no ratings" in tinker.content
    assert "or computer players" in tinker.content  # as the empty board says: they count
    alice = fake_discord.user("alice").id
    rows = [(5_000 + n, 20.0 + n, 2.0, n + 1) for n in range(11)] + [(alice, 10.0, 3.0, 2)]
    await bot.store.connection.executemany(
        "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, games, updated_at)"
        " VALUES (?, 'steam', ?, ?, ?, ?, 0)", [(fake_discord.guild_id, *r) for r in rows])
    result = await discord_driver.slash("leaderboard", options={"game": "steam",
                                                                 "period": "rating"},
                                        user="alice")
    lines = result.embeds[0]["description"].split("\n")
    assert len(lines) == 12 and lines[10] == "…"
    assert lines[0] == f"**1.** <@{5_010}> · **24.0** ±4.0 · 11 games"
    assert lines[9] == f"**10.** <@{5_001}> · **15.0** ±4.0 · 2 games · provisional"
    assert lines[11] == f"Your place: **12.** <@{alice}> · **1.0** ±6.0 · 2 games · provisional"
    assert result.embeds[0]["footer"]["text"] == (
        "12 players rated here · provisional: under 10 games · see /help")


async def test_forget_me_removes_the_ratings(discord_driver, fake_discord, tmp_path, backend):
    """After a rated game, /forget-me deletes the member's rating; the other's stays."""
    bot, _ = await _table(discord_driver, fake_discord, tmp_path, ("bob",))
    await _resign(discord_driver, fake_discord, bot, "bob")
    prompt = await discord_driver.slash("forget-me", user="bob")
    assert "and your ratings" in prompt.content
    done = await discord_driver.click(prompt.message, prompt.custom_ids[0], user="bob")
    assert done.content.startswith("Done: 1 result deleted.")
    assert list(await _ratings(bot.store)) == [fake_discord.user("alice").id]
    board = await discord_driver.slash("leaderboard", options={"game": "steam",
                                                                "period": "rating"}, user="alice")
    assert str(fake_discord.user("bob").id) not in board.embeds[0]["description"]


def test_a_full_rating_leaderboard_fits_one_phone_screen() -> None:
    """Ten long lines with the asker's place below, and a /stats with a rating, stay
    within 600 px at phone width (or, without the preview tool, within 14 lines of 40
    characters but the mentions)."""
    top = [RatingStanding(i + 1, 100_000_000_000_000_000 + i, 30.0 - i, 2.0 + i, 25 - 2 * i)
           for i in range(10)]
    board = rating_embed("steam", RatingBoard(top, RatingStanding(37, 12, 18.0, 11.5, 3), 52))
    stats = stats_embed("Alice", [GameStats("steam", 12, 5, 88, 1, 3)], {"steam": top[9]})
    # /stats about oneself is private: "Only you can see this" is drawn under it
    heights = phone_heights(need_preview(), [Message({"embeds": [e.to_dict()], "flags": flags},
                                                     b"")
                                             for e, flags in ((board, 0), (stats, 64))])
    assert max(heights) <= PHONE_BUDGET, heights
