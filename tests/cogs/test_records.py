"""Player records in Discord (/help, /stats, /leaderboard, /forget-me), through the fake."""

from __future__ import annotations

import asyncio
import random

from bot.table.service import Actor
from cogs.records import leaderboard_embed, rating_embed
from db.records import Leaderboard, RatingBoard, RatingStanding, Standing
from tests.db.test_records_queries import add_results, tinker
from tests.support import Clock, abandon, make_bot

COGS = ("cogs.help", "cogs.records", "cogs.tinker", "cogs.tinrealm")


async def _bot(driver, tmp_path):
    return await driver.login(make_bot(tmp_path, cogs=COGS))


def _rows(fake, *rows):
    """Place result rows in the fake's server."""
    return [{**row, "guild_id": fake.guild_id} for row in rows]


async def test_help_explains_games_rulings_and_where_the_rules_are(discord_driver, tmp_path):
    """/help is private and names every game's start, the daily deal, C1-C3 and the rules."""
    await _bot(discord_driver, tmp_path)
    result = await discord_driver.slash("help", user="bob")
    assert result.ephemeral
    text = "\n".join(f"{f['name']}\n{f['value']}" for f in result.embeds[0]["fields"])
    for command in ("/tinker start", "/tinrealm start", "/steam new", "/tinker daily",
                    "/<game> rules", "/stats", "/leaderboard", "/forget-me"):
        assert command in text, command
    assert '"only me"' in text and "whose turn it is" in text and "thread" in text


async def test_stats_when_nobody_played(discord_driver, fake_discord, tmp_path):
    """Never played: a private friendly line about yourself, a public one about another."""
    await _bot(discord_driver, tmp_path)
    mine = await discord_driver.slash("stats", user="alice")
    assert mine.ephemeral and "You have not finished any game" in mine.content
    bob = fake_discord.user("bob")
    theirs = await discord_driver.slash("stats", options={"member": bob}, user="alice")
    assert not theirs.ephemeral
    assert theirs.content == "Bob has not finished any game in this server yet."
    one = await discord_driver.slash("stats", options={"game": "steam"}, user="alice")
    assert one.ephemeral and "Steam to Solar" in one.content


async def test_stats_private_for_yourself_public_about_someone_else(
    discord_driver, fake_discord, tmp_path
):
    """/stats shows played, won, best score and streaks per game; yours privately."""
    bot = await _bot(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    now = bot.clock()
    await add_results(bot.store, _rows(
        fake_discord,
        tinker(alice.id, 13, 20, now - 30), tinker(alice.id, 13, 10, now - 20),
        tinker(alice.id, 6, 0, now - 10), tinker(alice.id, 13, 1, now),
        {"user_id": alice.id, "kind": "steam", "outcome": "win", "score": 70, "at": now},
    ))
    mine = await discord_driver.slash("stats", user="alice")
    assert mine.ephemeral
    embed = mine.embeds[0]
    assert embed["title"] == "📊 Records of Alice"
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert list(fields) == ["Steam to Solar", "Tinker, Sailor, Soldier, Spy"]
    assert "Played **4** · won **3** (75%)" in fields["Tinker, Sailor, Soldier, Spy"]
    assert "Best score **13**/13 cleared, 20 chips left" in fields["Tinker, Sailor, Soldier, Spy"]
    assert "current **1** · best **2**" in fields["Tinker, Sailor, Soldier, Spy"]
    about = await discord_driver.slash("stats", options={"member": alice, "game": "tinker"},
                                       user="bob")
    assert not about.ephemeral
    assert [f["name"] for f in about.embeds[0]["fields"]] == ["Tinker, Sailor, Soldier, Spy"]


async def test_long_display_names_stay_within_discord_limits(
    discord_driver, fake_discord, tmp_path
):
    """A 32-character display name in a stats embed of every game and on a leaderboard."""
    bot = await _bot(discord_driver, tmp_path)
    long = fake_discord.add_user("w" * 32)
    rows = [tinker(long.id, 13, 36)]
    rows += [{"user_id": long.id, "kind": k, "outcome": "win", "score": 10**9}
             for k in ("tinrealm", "steam")]
    rows += [tinker(9_000 + n, n % 13, n) for n in range(30)]
    await add_results(bot.store, _rows(fake_discord, *rows))
    stats = await discord_driver.slash("stats", options={"member": long}, user="alice")
    assert stats.embeds[0]["title"] == "📊 Records of " + "W" + "w" * 31
    assert len(stats.embeds[0]["fields"]) == 3  # one per game: far below Discord's 25
    board = await discord_driver.slash("leaderboard", options={"game": "tinker"}, user=long)
    assert board.embeds[0]["description"].startswith(f"**1.** <@{long.id}> · **13**/13 cleared")
    assert not board.ephemeral and fake_discord.limit_violations == []


async def test_leaderboard_top_10_and_the_askers_place_below(
    discord_driver, fake_discord, tmp_path
):
    """A public top 10 by locations cleared then chips, and the asker's own place below."""
    bot = await _bot(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    rows = [tinker(5_000 + n, 1 + n % 13, n) for n in range(24)]
    rows.append(tinker(alice.id, 0, 3))
    await add_results(bot.store, _rows(fake_discord, *rows))
    result = await discord_driver.slash("leaderboard", options={"game": "tinker"}, user="alice")
    assert not result.ephemeral
    embed = result.embeds[0]
    assert embed["title"] == "🏆 Tinker, Sailor, Soldier, Spy · all time"
    lines = embed["description"].split("\n")
    assert len(lines) == 12 and lines[10] == "…"
    assert lines[0] == f"**1.** <@{5_000 + 12}> · **13**/13 cleared, 12 chips left · 1 game"
    assert lines[1].startswith(f"**2.** <@{5_000 + 11}> · **12**/13")
    assert lines[11] == (f"Your place: **25.** <@{alice.id}> · **0**/13 cleared, "
                         "3 chips left · 1 game")
    assert embed["footer"]["text"].startswith("25 players ranked")
    inside = await discord_driver.slash("leaderboard", options={"game": "tinker"},
                                        user=fake_discord.user("bob"))
    assert "Your place" not in inside.embeds[0]["description"]


async def test_leaderboard_steam_and_this_month(discord_driver, fake_discord, tmp_path):
    """Steam ranks by wins then average score; "this month" leaves older results out."""
    bot = await _bot(discord_driver, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    now = bot.clock()
    old = now - 60 * 86400

    def steam(user, outcome, score, at=now):
        return {"user_id": user.id, "kind": "steam", "outcome": outcome, "score": score, "at": at}

    await add_results(bot.store, _rows(
        fake_discord, steam(alice, "win", 40), steam(alice, "win", 50, old),
        steam(bob, "win", 90), steam(bob, "loss", 80),
    ))
    result = await discord_driver.slash("leaderboard", options={"game": "steam"}, user="bob")
    assert result.embeds[0]["description"].split("\n") == [
        f"**1.** <@{alice.id}> · **2** won · average 45.0 · 2 games",
        f"**2.** <@{bob.id}> · **1** won · average 85.0 · 2 games",
    ]
    month = await discord_driver.slash(
        "leaderboard", options={"game": "steam", "period": "month"}, user="bob"
    )
    assert month.embeds[0]["title"] == "🏆 Steam to Solar · this month"
    assert month.embeds[0]["description"].split("\n")[0].startswith(f"**1.** <@{bob.id}>")


async def test_leaderboard_with_no_results_is_a_private_friendly_line(discord_driver, tmp_path):
    """No games yet: a private line inviting to play, not an empty embed."""
    await _bot(discord_driver, tmp_path)
    result = await discord_driver.slash("leaderboard", options={"game": "tinrealm"}, user="bob")
    assert result.ephemeral
    assert result.content == ("Nobody in this server has finished Tin Realm (all time) yet. "
                              "Be the first: see /help.")


async def test_daily_leaderboard_after_a_daily_deal_is_played(
    discord_driver, fake_discord, tmp_path
):
    """A daily deal played to its end shows on today's daily leaderboard, older days do not."""
    bot = await _bot(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    await add_results(bot.store, _rows(
        fake_discord, tinker(fake_discord.user("bob").id, 13, 36, daily="2027-01-14"),
        tinker(4_242, 13, 36),
    ))
    await discord_driver.slash("tinker", "daily", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    while game.row.is_open:
        action = game.engine.computer_action(game.state, 0)
        game = (await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                                     action)).game
    (result,) = await bot.store.results(alice.id)
    daily = await discord_driver.slash(
        "leaderboard", options={"game": "tinker", "period": "daily"}, user="bob"
    )
    embed = daily.embeds[0]
    assert embed["title"] == "🏆 Tinker, Sailor, Soldier, Spy · daily deal 2027-01-15"
    cleared, chips = result["detail"]["locations_cleared"], result["detail"]["chips_left"]
    assert embed["description"] == (
        f"**1.** Alice · **{cleared}**/13 cleared, "
        f"{chips} chip{'' if chips == 1 else 's'} left · 1 game"
    )
    # the day before's deal is a leaderboard of its own (read the morning after)
    before = await discord_driver.slash(
        "leaderboard", options={"game": "tinker", "period": "yesterday"}, user="alice")
    assert before.embeds[0]["title"] == "🏆 Tinker, Sailor, Soldier, Spy · daily deal 2027-01-14"
    assert before.embeds[0]["description"].startswith("**1.** ") and "Alice" not in (
        before.embeds[0]["description"])
    steam = await discord_driver.slash(
        "leaderboard", options={"game": "steam", "period": "yesterday"}, user="alice")
    assert steam.ephemeral and "has no daily deal" in steam.content
    nobody = await discord_driver.slash(  # a day nobody here played: no call to play it
        "leaderboard", options={"game": "tinrealm", "period": "yesterday"}, user="alice")
    assert nobody.ephemeral and nobody.content == (
        "Nobody in this server finished Tin Realm's daily deal of 2027-01-14.")


async def _play(bot, game, user, moves=None):
    """Play ``game`` as ``user`` with the computer's choices: ``moves`` moves, or to its end."""
    while game.row.is_open and (moves is None or moves > 0):
        action = game.engine.computer_action(game.state, 0)
        game = (await bot.tables.act(game.id, game.row.version,
                                     Actor(user.id, user.name), action)).game
        moves = None if moves is None else moves - 1
    return game


async def test_a_daily_deal_given_up_after_a_move_is_the_days_first_result(
    discord_driver, fake_discord, tmp_path
):
    """Abandoning a daily deal once it has been played on counts as a loss scoring 0 for
    everyone who played it, and the question says so: a deal seen and given up cannot be
    tried again in another channel as the member's first result of the day."""
    bot = await _bot(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    await discord_driver.slash("tinker", "daily", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await _play(bot, game, alice, moves=3)
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    assert "counts as a loss scoring 0 for everyone who played it" in asked.content
    await abandon(discord_driver, "tinker", "alice")
    given_up = await bot.store.results(alice.id)
    assert [(r["outcome"], r["score"], r["detail"]) for r in given_up] == [
        ("loss", 0, {"given_up": True})]

    general = next(cid for cid, ch in fake_discord.channels.items()
                   if ch["name"] == "general")
    await discord_driver.slash("tinker", "daily", user="alice", channel=general)
    retry = await _play(bot, await bot.tables.open_in_channel(general), alice)
    assert retry.row.status == "over"
    daily = await discord_driver.slash(
        "leaderboard", options={"game": "tinker", "period": "daily"}, user="bob")
    assert daily.embeds[0]["description"] == (
        "**1.** Alice · **0**/13 cleared, 0 chips left · 1 game")


def _general(fake) -> int:
    """The fake server's second channel."""
    return next(cid for cid, ch in fake.channels.items() if ch["name"] == "general")


async def _daily_board(driver) -> str:
    """Today's daily Tinker leaderboard as Bob sees it ("" when nobody is on it)."""
    daily = await driver.slash("leaderboard", options={"game": "tinker", "period": "daily"},
                               user="bob")
    return (daily.embeds[0].get("description") or "") if daily.embeds else ""


async def test_a_daily_deal_rehearsed_elsewhere_counts_the_rehearsal(
    discord_driver, fake_discord, tmp_path
):
    """Alice opens today's deal here and leaves it untouched, plays it through in another
    channel, then plays the first game knowing the deal: her day is the first game she
    took part in (the rehearsal), not the one started first."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    alice = fake_discord.user("alice")
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice")
    first = await bot.tables.open_in_channel(fake_discord.channel_id)
    clock.advance(60)
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice",
                               channel=_general(fake_discord))
    rehearsal = await bot.tables.open_in_channel(_general(fake_discord))
    chooser = random.Random(7)
    while rehearsal.row.is_open:  # a careless try
        legal = [a.id for a in rehearsal.legal_actions(0)]
        rehearsal = (await bot.tables.act(rehearsal.id, rehearsal.row.version,
                                          Actor(alice.id, "Alice"), chooser.choice(legal))).game
        clock.advance(1)
    counted = await _play(bot, await bot.tables.load(first.id), alice)
    assert counted.row.status == "over"
    tried = rehearsal.engine.result(rehearsal.state).outcomes[0].detail
    known = counted.engine.result(counted.state).outcomes[0].detail
    assert tried["locations_cleared"] < known["locations_cleared"]
    assert await _daily_board(discord_driver) == (
        f"**1.** Alice · **{tried['locations_cleared']}**/13 cleared, "
        f"{tried['chips_left']} chip{'' if tried['chips_left'] == 1 else 's'} left · 1 game")


async def test_a_member_whose_first_daily_is_still_open_is_not_on_the_days_board(
    discord_driver, fake_discord, tmp_path
):
    """Alice plays three moves of today's deal here and leaves it open, then plays it
    through elsewhere: she is on nobody's daily board until the first game ends, and
    then with its result (here given up: a loss scoring 0)."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    alice = fake_discord.user("alice")
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice")
    first = await _play(bot, await bot.tables.open_in_channel(fake_discord.channel_id),
                        alice, moves=3)
    clock.advance(60)
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice",
                               channel=_general(fake_discord))
    retry = await _play(bot, await bot.tables.open_in_channel(_general(fake_discord)), alice)
    assert retry.row.status == "over" and first.row.is_open
    assert "Alice" not in await _daily_board(discord_driver)
    await abandon(discord_driver, "tinker", "alice")
    assert await _daily_board(discord_driver) == (
        "**1.** Alice · **0**/13 cleared, 0 chips left · 1 game")
    played = "SELECT count(*) FROM daily_played WHERE user_id = :user"
    assert (await bot.store.query(played, {"user": alice.id}))[0][0] == 2
    await bot.store.forget_player(alice.id)  # /forget-me: nothing of her days is kept
    assert (await bot.store.query(played, {"user": alice.id}))[0][0] == 0


async def test_the_starter_of_a_channel_daily_who_never_clicks_has_not_played_it(
    discord_driver, fake_discord, tmp_path
):
    """Alice starts today's deal for the channel to vote on and never clicks; Bob plays
    it. Alice's own try in another channel is her day: starting a game for others is not
    taking part in it."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await discord_driver.slash("tinker", "daily", user="alice")
    shared = await bot.tables.open_in_channel(fake_discord.channel_id)
    await _play(bot, shared, bob, moves=3)
    clock.advance(60)
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice",
                               channel=_general(fake_discord))
    own = await _play(bot, await bot.tables.open_in_channel(_general(fake_discord)), alice)
    detail = own.engine.result(own.state).outcomes[0].detail
    assert f"Alice · **{detail['locations_cleared']}**/13" in await _daily_board(discord_driver)
    played = await bot.store.query("SELECT game_id FROM daily_played WHERE user_id = :user",
                                   {"user": alice.id})
    assert played == [(own.id,)]


async def test_the_starter_of_a_channel_daily_played_through_by_others_has_no_result(
    discord_driver, fake_discord, tmp_path
):
    """Alice starts today's deal for the channel and never clicks; Bob plays it through.
    Bob's result is the day's for him; Alice has none (not in /stats, not on the day's
    board), and may still play the deal herself. Carol starts one in another channel and
    plays it: her own clicks make her a player of it, credited."""
    bot = await _bot(discord_driver, tmp_path)
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    await discord_driver.slash("tinker", "daily", user="alice")
    done = await _play(bot, await bot.tables.open_in_channel(fake_discord.channel_id), bob)
    assert done.row.status == "over"
    assert await bot.store.results(alice.id) == []
    assert [r["game_id"] for r in await bot.store.results(bob.id)] == [done.id]
    board = await _daily_board(discord_driver)
    assert "bob ·" in board.lower() and "Alice" not in board
    carol = fake_discord.add_user("carol")
    await discord_driver.slash("tinker", "daily", user="carol", channel=_general(fake_discord))
    own = await _play(bot, await bot.tables.open_in_channel(_general(fake_discord)), carol)
    assert [r["game_id"] for r in await bot.store.results(carol.id)] == [own.id]


async def test_a_daily_deal_given_up_before_its_first_move_gives_no_result(
    discord_driver, fake_discord, tmp_path
):
    """A daily deal abandoned as dealt (started by mistake) gives nobody a result."""
    bot = await _bot(discord_driver, tmp_path)
    await discord_driver.slash("tinker", "daily", user="alice")
    asked = await discord_driver.slash("tinker", "abandon", user="alice")
    assert "nobody gets a result from it" in asked.content
    await abandon(discord_driver, "tinker", "alice")
    assert await bot.store.results(fake_discord.user("alice").id) == []
    assert (await bot.tables.open_in_channel(fake_discord.channel_id)) is None


async def test_a_daily_deal_played_on_and_called_off_with_its_channel_counts_as_a_loss(
    discord_driver, fake_discord, tmp_path
):
    """A daily deal played on whose channel is deleted is called off; the deal was seen,
    so it counts as a loss for who played it, and a retry elsewhere is not their day."""
    bot = await _bot(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    doomed = fake_discord.add_channel("doomed")
    await discord_driver.slash("tinker", "daily", {"players": "only me"}, user="alice",
                               channel=doomed)
    await _play(bot, await bot.tables.open_in_channel(doomed), alice, moves=3)
    await bot.boards.messages.gone.channel_gone(doomed)
    game = await bot.store.get_game(1)
    assert game is not None and game.status == "abandoned"
    assert [(r["outcome"], r["score"]) for r in await bot.store.results(alice.id)] == [
        ("loss", 0)]


async def _forget_prompt(driver, fake, bot):
    alice = fake.user("alice")
    bob = fake.user("bob")
    await add_results(bot.store, _rows(
        fake,
        {"user_id": alice.id, "kind": "steam", "outcome": "win", "score": 60},
        {"user_id": bob.id, "kind": "steam", "outcome": "loss", "score": 40},
        tinker(alice.id, 2, 2), tinker(alice.id, 3, 3, guild_id=1),
    ))
    prompt = await driver.slash("forget-me", user="alice")
    assert prompt.ephemeral and "3 results" in prompt.content
    # what the seats of finished games become (db/forget.py), not "still show you"
    assert '"a former player" in your seat' in prompt.content
    assert prompt.custom_ids == [f"fg1:{alice.id}"]
    return prompt


async def test_forget_me_after_confirming_keeps_other_players_rows(
    discord_driver, fake_discord, tmp_path
):
    """Confirming deletes every result of the member, and only theirs."""
    bot = await _bot(discord_driver, tmp_path)
    prompt = await _forget_prompt(discord_driver, fake_discord, bot)
    assert await bot.store.results(fake_discord.user("alice").id) != []
    done = await discord_driver.click(prompt.message, prompt.custom_ids[0], user="alice")
    assert done.response_type == 7 and done.ephemeral
    assert done.content.startswith("Done: 3 results deleted.") and done.custom_ids == []
    assert await bot.store.results(fake_discord.user("alice").id) == []
    assert [r["user_id"] for r in await bot.store.results()] == [fake_discord.user("bob").id]
    stats = await discord_driver.slash("stats", user="alice")
    assert "You have not finished any game" in stats.content
    again = await discord_driver.slash("forget-me", user="alice")
    assert again.ephemeral and again.content == "You have no records to delete."


async def test_forget_me_double_tapped_says_the_records_were_deleted(
        discord_driver, fake_discord, tmp_path):
    """A phone's double tap on "Delete all my records": the first press deletes and its
    prompt says how many went; the second, meanwhile, is answered privately and does not
    turn the prompt into "nothing left to delete"."""
    bot = await _bot(discord_driver, tmp_path)
    prompt = await _forget_prompt(discord_driver, fake_discord, bot)
    first, second = await asyncio.gather(*(
        discord_driver.click(prompt.message, prompt.custom_ids[0], user="alice")
        for _ in range(2)))
    await discord_driver.settle()
    assert await bot.store.results(fake_discord.user("alice").id) == []
    shown = fake_discord.get_message(prompt.message["id"]).get("content") or ""
    assert shown.startswith("Done: ") and "results deleted" in shown, shown
    assert "being deleted already" in (second.content or "") + (first.content or "")


async def test_forget_me_refuses_another_member_pressing_the_button(
    discord_driver, fake_discord, tmp_path
):
    """Someone else pressing the confirmation is refused privately; nothing is deleted."""
    bot = await _bot(discord_driver, tmp_path)
    prompt = await _forget_prompt(discord_driver, fake_discord, bot)
    refused = await discord_driver.click(prompt.message, prompt.custom_ids[0], user="bob")
    assert refused.ephemeral and refused.response_type == 4
    assert "someone else's" in refused.content and "/forget-me" in refused.content
    assert len(await bot.store.results()) == 4
    assert fake_discord.get_message(prompt.message["id"])["components"] != []


async def test_forget_me_button_works_after_a_restart(discord_driver, fake_discord, tmp_path):
    """The confirmation is a DynamicItem: it still works with a new bot process."""
    bot = await _bot(discord_driver, tmp_path)
    prompt = await _forget_prompt(discord_driver, fake_discord, bot)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    done = await discord_driver.click(prompt.message, prompt.custom_ids[0], user="alice")
    assert done.content.startswith("Done: 3 results deleted.")
    assert len(await bot.store.results()) == 1


async def test_storage_trouble_is_a_private_apology(
    discord_driver, fake_discord, tmp_path, monkeypatch
):
    """If the database cannot be read or written, the member is told privately."""
    from db import records
    from db.store import StorageError

    bot = await _bot(discord_driver, tmp_path)
    prompt = await _forget_prompt(discord_driver, fake_discord, bot)

    async def locked(*args, **kwargs):
        raise StorageError("database is locked")

    for name in ("player_stats", "leaderboard", "count_results", "forget_player"):
        monkeypatch.setattr(records, name, locked)
    for result in (
        await discord_driver.slash("stats", user="alice"),
        await discord_driver.slash("leaderboard", options={"game": "tinker"}, user="alice"),
        await discord_driver.slash("forget-me", user="alice"),
        await discord_driver.click(prompt.message, prompt.custom_ids[0], user="alice"),
    ):
        assert result.ephemeral and "could not reach its game storage" in result.content
    assert len(await bot.store.results()) == 4


async def test_steam_has_no_daily_leaderboard(discord_driver, fake_discord, tmp_path):
    """Asking for Steam to Solar's daily deal says there is none, privately."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    result = await discord_driver.slash("leaderboard", None, {"game": "steam", "period": "daily"},
                                        user="alice")
    assert result.ephemeral and "has no daily deal" in result.content


async def test_forget_me_with_only_a_turn_ping_choice_says_it_was_deleted(
    discord_driver, fake_discord, tmp_path
):
    """A member with no results but a turn-ping choice is offered to delete it, and told
    it was deleted, not that there was nothing to delete."""
    bot = await _bot(discord_driver, tmp_path)
    bob = fake_discord.user("bob").id
    await bot.boards.pings.choose(bob, False)
    asked = await discord_driver.slash("forget-me", user="bob")
    assert "This deletes your turn-ping choice" in asked.content
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="bob")
    assert await bot.store.turn_pings(bob) is None
    assert done.content == "Done: your turn-ping choice is deleted."


def test_a_leaderboard_line_names_a_member_cut_for_a_phone():
    """A known name is shown (cut to its room, marked "…"); an unknown one is a mention."""
    from cogs.records import member

    assert member(7, "Sam") == "Sam"
    assert member(7, None) == "<@7>"
    long = member(7, "Maximilian Alexander Fitzgerald")
    assert long.endswith("…") and len(long) < len("Maximilian Alexander Fitzgerald")


def test_namesakes_on_a_leaderboard_are_told_apart():
    """Two members who both play as "Sam" (one "SAM", one with a Cyrillic "а"), each on
    the leaderboard: their lines add their mention, so the board says who won; a name
    no other line shares stays as it is, a mention's length spared. So on the rating
    board, and for the asker's own place below the top."""
    top = [Standing(1, 11, 3, 2, 60, 40.0, {}, "Sam"), Standing(2, 12, 3, 1, 50, 30.0, {}, "Al"),
           Standing(3, 13, 3, 0, 40, 20.0, {}, "SAM")]
    text = leaderboard_embed("steam", "all time", Leaderboard(top, None, 3)).description
    assert text is not None
    assert "Sam (<@11>)" in text and "SAM (<@13>)" in text
    assert "Al ·" in text and "<@12>" not in text
    mine = Standing(12, 14, 1, 0, 0, 0.0, {}, "Sаm")  # a Cyrillic а
    text = leaderboard_embed("steam", "all time", Leaderboard(top[:2], mine, 12)).description
    assert text is not None and "Sam (<@11>)" in text and "Sаm (<@14>)" in text
    rated = [RatingStanding(1, 11, 30.0, 2.0, 12, "Sam"),
             RatingStanding(2, 13, 28.0, 2.0, 12, "sam")]
    text = rating_embed("steam", RatingBoard(rated, None, 2)).description
    assert text is not None and "Sam (<@11>)" in text and "sam (<@13>)" in text


async def test_forget_me_midway_through_an_open_daily_keeps_the_starters_part(
        discord_driver, fake_discord, tmp_path, backend):
    """Alice starts today's deal for the channel and plays two moves, Carol two; both use
    /forget-me while it is open (an open game keeps what it needs: docs/records.md), and
    Bob plays it out: each of the three has the game's result, the starter too (her part
    was known only from the daily deal's record of who played it)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker", "cogs.records"),
                                              clock=Clock()))
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    carol = fake_discord.add_user("carol")
    await discord_driver.slash("tinker", "daily", {"players": "fast"}, user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    game = await _play(bot, await _play(bot, game, alice, 2), carol, 2)
    await bot.store.forget_player(alice.id)
    await bot.store.forget_player(carol.id)
    done = await _play(bot, await bot.tables.load(game.id), bob)
    assert done.row.status == "over"
    for member in (alice, bob, carol):
        assert len(await bot.store.results(member.id)) == 1, member.name
