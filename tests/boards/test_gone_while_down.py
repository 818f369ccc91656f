"""Servers that removed the bot, and channels or threads deleted, while the bot was down:
Discord never says so again, so the bot finds them once it is ready after the start, and
calls their games off with no result as if it had heard it then."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest

from bot.boards.gone import CHANNEL_GONE, SERVER_GRACE_SECONDS, SERVER_LEFT
from bot.client import TableBot
from bot.restart import REDRAW_MARGIN_SECONDS
from tests.boards.test_deleted_channels import connected, delete_channel, gateway_event
from tests.fake_discord import Driver, FakeDiscord
from tests.support import Clock, make_bot, steam_against_computer

#: The cogs of the games started here: the toy game in a channel, Tinker in a thread.
COGS = ("tests.toy", "cogs.tinker")


async def start(driver: Driver, tmp_path: Any, clock: Clock, **overrides: Any) -> TableBot:
    """Start the bot over the database in ``tmp_path`` (not connected yet)."""
    bot = make_bot(tmp_path, clock=clock, **overrides)
    await driver.login(bot)
    return bot


@contextlib.asynccontextmanager
async def back_up(driver: Driver, fake: FakeDiscord, tmp_path: Any, clock: Clock,
                  monkeypatch: pytest.MonkeyPatch, **overrides: Any) -> AsyncIterator[TableBot]:
    """Start the bot again over the same database and connect it; once it is ready, wait
    until it has looked at what went while it was down."""
    bot = await start(driver, tmp_path, clock, **overrides)
    async with connected(driver, fake, bot, monkeypatch):
        await driver.settle()
        yield bot


#: How long the bot runs on after the games were last played, before it stops: longer than
#: the start's redraw looks back (which would find a deleted channel on its own).
RAN_ON = REDRAW_MARGIN_SECONDS + 60


async def stop(driver: Driver, bot: TableBot, clock: Clock, down: float) -> float:
    """Stop the bot cleanly a while after the last move, and keep it down ``down``
    seconds; return when it was last alive."""
    clock.advance(RAN_ON)
    await driver.close_client(bot)
    last_alive = clock()
    clock.advance(down)
    return last_alive


def delete_while_down(fake: FakeDiscord, channel_id: int) -> None:
    """A moderator deletes a channel or thread (and its messages) while the bot is down."""
    channel = delete_channel(fake, channel_id)
    guild = fake.guilds[int(channel["guild_id"])]
    if channel_id in guild.channel_ids:
        guild.channel_ids.remove(channel_id)


def remove_bot(fake: FakeDiscord, guild_id: int) -> None:
    """A server removes the bot: it is no longer among the bot's servers, and Discord
    answers the bot's requests to its channels with Missing Access."""
    guild = fake.guilds.pop(guild_id)
    channels = "|".join(str(c) for c in guild.channel_ids)
    fake.fail_next("*", rf"^/channels/({channels})(/|$)", 403, code=50001, times=1000)


def in_outage(fake: FakeDiscord, guild_id: int,
              monkeypatch: pytest.MonkeyPatch) -> Callable[..., dict[str, Any]]:
    """Discord reports the server ``guild_id`` unavailable (an outage) from now on;
    return how it sends a server otherwise."""
    sent = fake.guild_payload

    def payload(asked: int | None = None) -> dict[str, Any]:
        if asked == guild_id:
            return {"id": str(guild_id), "unavailable": True}
        return sent(asked)

    monkeypatch.setattr(fake, "guild_payload", payload)
    return sent


async def status(bot: TableBot, game_id: int) -> tuple[str, str]:
    """A game's status and its last event."""
    row = await bot.store.get_game(game_id)
    assert row is not None
    return row.status, row.events[-1]


async def toy_game(driver: Driver, bot: TableBot, channel: int, user: str = "alice") -> int:
    """Start a toy game in ``channel``; return its id."""
    await driver.slash("toy", "start", user=user, channel=channel)
    game = await bot.tables.open_in_channel(channel)
    assert game is not None
    return game.id


def fetches(fake: FakeDiscord, channel: int, since: int = 0) -> list[int]:
    """The statuses Discord answered the bot's asks for ``channel`` with."""
    return [r.status for r in fake.requests[since:]
            if r.method == "GET" and r.path == f"/channels/{channel}"]


async def test_a_server_that_removed_the_bot_while_it_was_down_has_its_games_called_off(
        discord_driver, fake_discord, tmp_path, monkeypatch, backend):
    """The bot is down ten minutes, and meanwhile a server removes it. Back up, it finds
    the server gone: the removal counts from when the bot was last alive, so an hour
    after that (not an hour after the start) its games are called off with no result,
    while a game in another server goes on."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    elsewhere = fake_discord.add_guild("Elsewhere").channel_ids[0]
    game = await toy_game(discord_driver, bot, fake_discord.channel_id)
    other = await toy_game(discord_driver, bot, elsewhere)
    last_alive = await stop(discord_driver, bot, clock, 600)
    remove_bot(fake_discord, fake_discord.guild_id)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        assert bot.tables.removed == {fake_discord.guild_id: last_alive}  # deadlines wait
        await bot.sweep_once()
        assert (await status(bot, game))[0] == "active"  # within the grace
        clock.advance(SERVER_GRACE_SECONDS - 600 + 1)
        await bot.sweep_once()
        assert await status(bot, game) == ("abandoned", SERVER_LEFT)
        assert (await status(bot, other))[0] == "active"
        assert await bot.store.results() == []


async def test_a_computer_table_of_a_server_gone_while_down_ends_with_no_rated_loss(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Alice plays Steam to Solar against a computer, her turn to act, when her server
    removes the bot while it is down. Her table is called off with no result, even when
    the first sweep after the grace comes once it has been idle long enough to end as
    her loss (nobody there could click)."""
    clock = Clock()
    bot, game = await steam_against_computer(discord_driver, tmp_path, clock=clock,
                                             COMPUTER_DELAY_SECONDS=0)
    assert game.person_to_act() == fake_discord.user("alice").id
    await stop(discord_driver, bot, clock, 60)
    remove_bot(fake_discord, fake_discord.guild_id)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch,
                       cogs=("cogs.steam",), COMPUTER_DELAY_SECONDS=0) as bot:
        assert fake_discord.guild_id in bot.tables.removed  # its deadlines wait
        clock.advance(49 * 3600)
        await bot.sweep_once()
        assert await status(bot, game.id) == ("abandoned", SERVER_LEFT)
        assert await bot.store.results() == []


@pytest.mark.parametrize("in_thread", [False, True], ids=["in-it", "in-its-thread"])
async def test_a_game_whose_channel_was_deleted_while_the_bot_was_down_is_called_off(
        discord_driver, fake_discord, tmp_path, monkeypatch, in_thread, backend):
    """Alice's game's channel (or thread) is deleted while the bot is down. Back up, the
    bot asks Discord for it once, hears Unknown Channel and calls her game off with no
    result: she may start another at once, on a server allowing one open game each."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock, cogs=COGS, MAX_OPEN_GAMES=1)
    doomed = fake_discord.add_channel("doomed")
    if in_thread:
        await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                                   user="alice", channel=doomed)
        doomed = int(fake_discord.threads_under(doomed)[0]["id"])
    else:
        await discord_driver.slash("toy", "start", user="alice", channel=doomed)
    game = await bot.tables.open_in_channel(doomed)
    assert game is not None
    await stop(discord_driver, bot, clock, 600)
    delete_while_down(fake_discord, doomed)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch,
                       cogs=COGS, MAX_OPEN_GAMES=1) as bot:
        assert await status(bot, game.id) == ("abandoned", CHANNEL_GONE)
        assert fetches(fake_discord, doomed) == [404]
        again = await discord_driver.slash("toy", "start", user="alice")
        assert again.response_type == 4 and not again.ephemeral, again.content


async def test_a_game_in_an_archived_thread_goes_on(discord_driver, fake_discord, tmp_path,
                                                    monkeypatch):
    """Discord archived the thread of Bob's Tinker game while the bot was down (the bot
    does not see an archived thread): asked, Discord has it, so his game goes on, while
    Alice's game, whose channel was deleted, is called off."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock, cogs=COGS)
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="bob")
    thread = fake_discord.threads_under()[0]
    kept = await bot.tables.open_in_channel(int(thread["id"]))
    doomed = fake_discord.add_channel("doomed")
    gone = await toy_game(discord_driver, bot, doomed)
    assert kept is not None
    await stop(discord_driver, bot, clock, 3600)
    thread["thread_metadata"]["archived"] = True
    delete_while_down(fake_discord, doomed)
    monkeypatch.setattr("bot.boards.gone.FETCH_INTERVAL_SECONDS", 0.0)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch,
                       cogs=COGS) as bot:
        assert bot.get_channel(kept.row.channel_id) is None  # not seen: it was asked for
        assert fetches(fake_discord, kept.row.channel_id) == [200]
        assert (await status(bot, kept.id))[0] == "active"
        assert await status(bot, gone) == ("abandoned", CHANNEL_GONE)


@pytest.mark.parametrize("answer", [(503, 0), (403, 50001)], ids=["server-error", "no-access"])
async def test_a_channel_discord_does_not_answer_for_keeps_its_game(
        discord_driver, fake_discord, tmp_path, monkeypatch, caplog, answer):
    """Two channels with games are deleted while the bot is down; back up, Discord answers
    the ask for one of them with a server error (or no access) and calls nothing off for
    it: only the other's game, which Discord said is Unknown Channel, is called off."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    unanswered, answered = fake_discord.add_channel("first"), fake_discord.add_channel("second")
    kept = await toy_game(discord_driver, bot, unanswered)
    gone = await toy_game(discord_driver, bot, answered)
    await stop(discord_driver, bot, clock, 600)
    for channel in (unanswered, answered):
        delete_while_down(fake_discord, channel)
    monkeypatch.setattr("bot.boards.gone.FETCH_INTERVAL_SECONDS", 0.0)
    fake_discord.fail_next("GET", rf"^/channels/{unanswered}$", answer[0], code=answer[1])
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        assert fetches(fake_discord, unanswered) == [answer[0]]
        assert (await status(bot, kept))[0] == "active"
        assert await status(bot, gone) == ("abandoned", CHANNEL_GONE)
    said = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"
            and r.name.startswith("bot")]
    assert any("did not say whether 1 of the channels" in line for line in said), said


async def test_a_server_unavailable_at_the_start_is_not_taken_as_gone(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """At the start Discord reports one server unavailable (an outage: the bot is still
    in it, and sees none of its channels) while another removed the bot meanwhile. Only
    the second's games are called off after the grace; nothing is asked of the first's
    channels, and its game goes on."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    outage = fake_discord.add_guild("Outage")
    removed = fake_discord.add_guild("Removed")
    waiting = await toy_game(discord_driver, bot, outage.channel_ids[0])
    gone = await toy_game(discord_driver, bot, removed.channel_ids[0])
    await stop(discord_driver, bot, clock, 600)
    remove_bot(fake_discord, removed.id)
    in_outage(fake_discord, outage.id, monkeypatch)
    first = len(fake_discord.requests)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        guild = bot.get_guild(outage.id)
        assert guild is not None and guild.unavailable
        assert set(bot.tables.removed) == {removed.id}
        clock.advance(SERVER_GRACE_SECONDS)
        await bot.sweep_once()
        assert await status(bot, gone) == ("abandoned", SERVER_LEFT)
        assert (await status(bot, waiting))[0] == "active"
        assert fetches(fake_discord, outage.channel_ids[0], first) == []


async def test_the_channels_asked_for_are_asked_once_each_and_paced(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Three games' channels are deleted while the bot is down: back up, each is asked
    for once, one after another at most one a second
    (:data:`bot.boards.gone.FETCH_INTERVAL_SECONDS`, shortened here), not all at once;
    a channel the bot sees is not asked for."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    doomed = [fake_discord.add_channel(f"doomed-{i}") for i in range(3)]
    games = [await toy_game(discord_driver, bot, channel) for channel in doomed]
    await toy_game(discord_driver, bot, fake_discord.channel_id)
    await stop(discord_driver, bot, clock, 600)
    for channel in doomed:
        delete_while_down(fake_discord, channel)
    monkeypatch.setattr("bot.boards.gone.FETCH_INTERVAL_SECONDS", 0.2)
    first = len(fake_discord.requests)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        asked = [r for r in fake_discord.requests[first:]
                 if r.method == "GET" and r.path.startswith("/channels/")]
        assert sorted(r.path for r in asked) == sorted(f"/channels/{c}" for c in doomed)
        assert all(b.time - a.time >= 0.19 for a, b in itertools.pairwise(asked))
        for game in games:
            assert await status(bot, game) == ("abandoned", CHANNEL_GONE)


async def test_each_shard_looks_at_its_own_servers(discord_driver, fake_discord, tmp_path,
                                                   monkeypatch, backend):
    """A sharded bot's process running shard 0 of 2 is back up after two servers removed
    the bot, one of each shard: it notes the removal from its own shard's server only
    (the other is the other process's to find)."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    guilds = [fake_discord.add_guild(f"Shard {i}", shard=i, shard_count=2) for i in (0, 1)]
    for guild in guilds:
        await toy_game(discord_driver, bot, guild.channel_ids[0])
    await stop(discord_driver, bot, clock, 600)
    for guild in guilds:
        remove_bot(fake_discord, guild.id)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch,
                       SHARD_COUNT=2, SHARD_IDS=0) as bot:
        assert set(bot.tables.removed) == {guilds[0].id}


async def test_a_stop_ends_the_look_while_it_waits(discord_driver, fake_discord, tmp_path,
                                                  monkeypatch):
    """The bot is stopped while it waits to ask Discord for the second of two channels
    deleted while it was down: the look ends with the stop (nothing left running), the
    second channel is not asked for, and its game is found at the next start."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    doomed = [fake_discord.add_channel(f"doomed-{i}") for i in range(2)]
    games = [await toy_game(discord_driver, bot, channel) for channel in doomed]
    await stop(discord_driver, bot, clock, 600)
    for channel in doomed:
        delete_while_down(fake_discord, channel)
    monkeypatch.setattr("bot.boards.gone.FETCH_INTERVAL_SECONDS", 3600.0)
    bot = await start(discord_driver, tmp_path, clock)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        await fake_discord.wait_for_request("GET", rf"^/channels/{doomed[0]}$")
        for _ in range(500):  # the first game is called off, then the look waits
            if (await status(bot, games[0]))[0] == "abandoned":
                break
            await asyncio.sleep(0.01)
        assert [(await status(bot, g))[0] for g in games] == ["abandoned", "active"]
    looks = [t for t in asyncio.all_tasks() if t.get_name() == "missed-while-down"]
    assert looks == []
    assert fetches(fake_discord, doomed[1]) == []
    monkeypatch.setattr("bot.boards.gone.FETCH_INTERVAL_SECONDS", 0.0)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        assert await status(bot, games[1]) == ("abandoned", CHANNEL_GONE)
        assert fetches(fake_discord, doomed[1]) == [404]


async def test_a_server_unavailable_at_the_start_is_looked_at_once_it_is_back(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A server in an outage at the start, whose game's channel was deleted while the bot
    was down: once Discord has the server again, its channels are looked at as the start
    would have, and the game is called off; a server there all along is not looked at
    twice."""
    clock = Clock()
    bot = await start(discord_driver, tmp_path, clock)
    outage = fake_discord.add_guild("Outage")
    channel = outage.channel_ids[0]
    doomed = await toy_game(discord_driver, bot, channel)
    await toy_game(discord_driver, bot, fake_discord.channel_id)
    await stop(discord_driver, bot, clock, 600)
    delete_while_down(fake_discord, channel)
    sent = in_outage(fake_discord, outage.id, monkeypatch)
    first = len(fake_discord.requests)
    async with back_up(discord_driver, fake_discord, tmp_path, clock, monkeypatch) as bot:
        assert (await status(bot, doomed))[0] == "active"
        assert fetches(fake_discord, channel, first) == []
        monkeypatch.setattr(fake_discord, "guild_payload", sent)
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_CREATE",
                            sent(outage.id), "guild_available")
        assert await status(bot, doomed) == ("abandoned", CHANNEL_GONE)
        assert len(fetches(fake_discord, channel, first)) == 1
        await gateway_event(discord_driver, fake_discord, bot, "GUILD_CREATE",
                            sent(outage.id), "guild_available")
        assert len(fetches(fake_discord, channel, first)) == 1
