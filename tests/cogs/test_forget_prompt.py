"""/forget-me offers the deletion whenever something of the member's is stored, results
or not (games that ended without results, a lobby they left, a rating, the ping
choice), says what pressing will do, and tells a member whom only games still open hold
to come back once they end. Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.table.lobby import LOBBY_CANCEL, LOBBY_JOIN, LOBBY_LEAVE
from bot.table.service import Actor
from cogs.records import PLAYING_ONLY, STILL_OPEN, forget_prompt
from db.records import Traces
from db.rows import NewGame, ResultRow
from tests.support import make_bot

COGS = ("cogs.records", "cogs.tinker")
CHANNEL = 4242


async def _login(driver: Any, tmp_path: Path) -> Any:
    return await driver.login(make_bot(tmp_path, cogs=COGS))


async def _abandoned_game(bot: Any, fake: Any, *people: str) -> int:
    """A finished game without results (abandoned) seating ``people``, Bob first."""
    users = [fake.user(name) for name in people]
    game = await bot.store.create_game(NewGame(
        guild_id=fake.guild_id, channel_id=CHANNEL, kind="toy", status="active",
        starter_id=users[0].id, seats=[{"user_id": u.id, "name": n.title()}
                                       for u, n in zip(users, people, strict=True)],
        options={"names": [n.title() for n in people]}, only_starter=False,
        state={"count": 0}, events=[f"{people[-1].title()} joined."]))
    game.status, game.version = "abandoned", 1
    await bot.store.save_game(game, 0, action={"end": "abandoned"}, actor_id=users[-1].id)
    return int(game.id)


async def test_a_member_whose_only_game_was_abandoned_is_offered_and_forgotten(
        discord_driver: Any, fake_discord: Any, tmp_path: Path, backend: str) -> None:
    """No results, no ping choice, but an abandoned game seats them: the prompt offers to
    take their name and id out of it, pressing does, and nothing is left to offer."""
    bot = await _login(discord_driver, tmp_path)
    game = await _abandoned_game(bot, fake_discord, "bob", "alice")
    alice = fake_discord.user("alice").id

    asked = await discord_driver.slash("forget-me", user="alice")
    assert asked.ephemeral and asked.custom_ids == [f"fg1:{alice}"]
    assert asked.content == (
        "This deletes your name and id from the finished games that still hold them, in "
        "every server, for good: they show \"a former player\" instead (you have no "
        "results). Sure?")
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    assert done.content == ("Done: finished games show \"a former player\" where you sat, "
                            "and nothing of yours is left in them.")

    row = await bot.store.get_game(game)
    assert [s["user_id"] for s in row.seats] == [fake_discord.user("bob").id, None]
    assert row.events == ["a former player joined."]
    assert [a["actor_id"] for a in await bot.store.actions(game)] == [None]
    again = await discord_driver.slash("forget-me", user="alice")
    assert again.content == "You have no records to delete." and again.custom_ids == []


async def test_a_member_who_left_a_lobby_is_offered(discord_driver: Any, fake_discord: Any,
                                                   tmp_path: Path, backend: str) -> None:
    """Bob joined Alice's table and left it before she closed it: only the lobby's log
    and lines hold him, and /forget-me offers to scrub them."""
    bot = await _login(discord_driver, tmp_path)
    alice = Actor(fake_discord.user("alice").id, "Alice")
    bob = Actor(fake_discord.user("bob").id, "Bob")
    tables = bot.tables
    game = await tables.open_lobby("toy", guild_id=fake_discord.guild_id, channel_id=CHANNEL,
                                   host=alice)
    version = 0
    for actor, op in ((bob, LOBBY_JOIN), (bob, LOBBY_LEAVE), (alice, LOBBY_CANCEL)):
        version = (await tables.act(game.id, version, actor, op)).game.row.version

    asked = await discord_driver.slash("forget-me", user="bob")
    assert "your name and id from the finished games" in asked.content
    await discord_driver.click(asked.message, asked.custom_ids[0], user="bob")

    row = await bot.store.get_game(game.id)
    assert row.events == ["Alice opened a table.", "a former player joined.",
                          "a former player left.", "Alice closed the table."]
    assert bob.user_id not in [a["actor_id"] for a in await bot.store.actions(game.id)]


async def test_a_member_only_a_game_still_open_holds_is_told_to_come_back(
        discord_driver: Any, fake_discord: Any, tmp_path: Path, backend: str) -> None:
    """Seated at a table still open and nothing else: no button (pressing could delete
    nothing yet), but when to come back; once the table is closed, the offer."""
    bot = await _login(discord_driver, tmp_path)
    alice = Actor(fake_discord.user("alice").id, "Alice")
    bob = Actor(fake_discord.user("bob").id, "Bob")
    game = await bot.tables.open_lobby("toy", guild_id=fake_discord.guild_id,
                                       channel_id=CHANNEL, host=alice)
    version = (await bot.tables.act(game.id, 0, bob, LOBBY_JOIN)).game.row.version

    asked = await discord_driver.slash("forget-me", user="bob")
    assert asked.ephemeral and asked.content == PLAYING_ONLY and asked.custom_ids == []

    await bot.tables.act(game.id, version, alice, LOBBY_CANCEL)
    asked = await discord_driver.slash("forget-me", user="bob")
    assert asked.custom_ids == [f"fg1:{bob.user_id}"]


async def test_results_and_a_game_still_open(discord_driver: Any, fake_discord: Any,
                                            tmp_path: Path, backend: str) -> None:
    """With results and a table still open, the prompt counts the results and says the
    open table keeps the seat until it ends."""
    bot = await _login(discord_driver, tmp_path)
    alice = fake_discord.user("alice")
    done = await bot.store.create_game(NewGame(
        guild_id=fake_discord.guild_id, channel_id=1, kind="toy", status="active",
        starter_id=alice.id, seats=[{"user_id": alice.id, "name": "Alice"}], options={},
        only_starter=False, state={"count": 0}, events=[]))
    done.status, done.version = "over", 1
    await bot.store.save_game(done, 0, results=[ResultRow(alice.id, "win", 3, {})])
    await bot.tables.open_lobby("toy", guild_id=fake_discord.guild_id, channel_id=CHANNEL,
                                host=Actor(alice.id, "Alice"))

    asked = await discord_driver.slash("forget-me", user="alice")
    assert asked.content.startswith("This deletes all your records: 1 result, in every game")
    assert asked.content.endswith(f"{STILL_OPEN} Sure?")


def test_the_prompt_says_what_goes() -> None:
    """Each combination names what pressing deletes, and only that."""
    def traces(**on: bool) -> Traces:
        return Traces(**{"rated": False, "chose": False, "finished": False,
                         "playing": False, **on})

    assert forget_prompt(2, traces(rated=True, finished=True, chose=True)) == (
        "This deletes all your records: 2 results and your ratings, in every game and every "
        "server, for good. Other players' results of the same games stay, and finished "
        "games show \"a former player\" in your seat. Your turn-ping choice goes too. Sure?")
    assert forget_prompt(0, traces(rated=True)) == (
        "This deletes your ratings (you have no results). Sure?")
    assert forget_prompt(0, traces(rated=True, chose=True)) == (
        "This deletes your ratings (you have no results). Your turn-ping choice goes too. "
        "Sure?")
    assert forget_prompt(0, traces(chose=True)) == (
        "This deletes your turn-ping choice (you have no results). Sure?")
    assert forget_prompt(0, traces(finished=True, rated=True, playing=True)).endswith(
        f"(you have no results). Your ratings go too.{STILL_OPEN} Sure?")
