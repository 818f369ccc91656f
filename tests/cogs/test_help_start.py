"""/help's buttons start each game in the channel, the way its start command does with
its defaults, with the same refusals; the answer and every page of "Rules & details" fit
one phone screen."""

from __future__ import annotations

import asyncio
import random

from bot.boards.in_flight import RESTARTING
from bot.table.loaded import Actor
from bot.table.settings import ServerSettings
from cogs.details import page_keys
from cogs.help import help_message
from tests.cogs.board_messages import (
    ENGINES,
    PHONE_BUDGET,
    Message,
    board_renderer,
    need_preview,
    phone_heights,
    played,
)
from tests.fake_discord import payloads
from tests.support import abandon, make_bot

COGS = ("cogs.help", "cogs.records", "cogs.tinker", "cogs.tinrealm", "cogs.steam")
#: /help with Tinker alone.
HELP_TINKER = ("cogs.help", "cogs.records", "cogs.tinker")


def _start_ids(result) -> list[str]:
    return [c for c in result.custom_ids if c.startswith("st1:")]


async def test_help_has_a_button_starting_each_game_and_the_ping_choice(discord_driver,
                                                                        tmp_path):
    """/help offers one start button per game loaded, then the choice of turn pings."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    assert helped.ephemeral
    assert _start_ids(helped) == ["st1:tinker", "st1:tinrealm", "st1:steam"]
    assert helped.custom_ids[-1] == "pings:show"


async def test_help_offers_only_the_games_this_bot_has(discord_driver, tmp_path):
    """A bot without Steam to Solar has no button for it."""
    await discord_driver.login(make_bot(tmp_path, cogs=HELP_TINKER))
    helped = await discord_driver.slash("help", user="bob")
    assert _start_ids(helped) == ["st1:tinker"]


async def test_a_start_button_starts_the_game_in_the_channel(discord_driver, fake_discord,
                                                            tmp_path):
    """Pressing Tinker on /help posts its board in the channel, played by votes as
    /tinker start does; a second press is refused privately, naming the game going."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    started = await discord_driver.click(helped.message, "st1:tinker", user="bob")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.kind == "tinker" and game.row.starter_id == \
        fake_discord.user("bob").id
    assert game.data.mode == "vote" and not game.row.only_starter
    board = fake_discord.get_message(game.row.board_message_id)
    assert board is not None and not board["flags"] & 64
    assert started.response_type in (4, 5)
    again = await discord_driver.click(helped.message, "st1:tinrealm", user="alice")
    assert again.ephemeral and "already has a game of Tinker" in again.content
    assert (await bot.tables.open_in_channel(fake_discord.channel_id)).id == game.id


async def test_the_steam_button_opens_a_lobby_hosted_by_whoever_pressed(
        discord_driver, fake_discord, tmp_path):
    """Steam to Solar on /help opens a table's lobby with the presser seated as host."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("carol")
    helped = await discord_driver.slash("help", user="carol")
    await discord_driver.click(helped.message, "st1:steam", user="carol")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.status == "lobby"
    assert [s["user_id"] for s in game.row.seats] == [fake_discord.user("carol").id]


async def test_a_start_button_works_after_a_restart(discord_driver, fake_discord, tmp_path):
    """An old /help answer's buttons still start a game once the bot has restarted."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    await discord_driver.click(helped.message, "st1:tinrealm", user="bob")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.kind == "tinrealm"


async def test_a_start_button_for_a_game_no_longer_loaded_says_so(discord_driver, tmp_path):
    """A /help answer from a bot that had Steam to Solar, pressed after it was removed."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    await discord_driver.restart(make_bot(tmp_path, cogs=HELP_TINKER))
    refused = await discord_driver.click(helped.message, "st1:steam", user="bob")
    assert refused.ephemeral and "not available" in refused.content


def test_help_and_every_details_page_fit_one_phone_screen() -> None:
    """/help (with the server's settings) and a sample of every page of every game's
    "Rules & details" are each at most 600 px tall at phone width."""
    preview = need_preview()
    body = help_message(None, ServerSettings())
    view = body["view"]
    messages = [Message({"content": "", "embeds": [body["embed"].to_dict()], "flags": 64,
                         "attachments": [], "components": view.to_components()}, b"")]
    boards = board_renderer(False)
    rng = random.Random(3)
    for kind in ENGINES:
        renderer = boards.renderers[kind]
        games = list(played(kind, 12, seed=7))
        for game in rng.sample(games, 6):
            sections = renderer.sections(game)  # type: ignore[attr-defined]
            for key, index, _count in page_keys(sections):
                page = renderer.details(game, f"{key}.{index}")
                messages.append(Message({
                    "content": "", "embeds": [e.to_dict() for e in page["embeds"]],
                    "flags": 64, "attachments": [],
                    "components": page["view"].to_components()}, b""))
    heights = phone_heights(preview, messages)
    assert heights[0] <= PHONE_BUDGET, f"/help is {heights[0]} px"
    tallest = max(heights[1:])
    assert tallest <= PHONE_BUDGET, f"a details page is {tallest} px"
    assert len(messages) > 3 * 6 * 3  # every game, several pages each


async def test_a_refusal_after_a_slow_start_stays_private(discord_driver, fake_discord,
                                                          tmp_path):
    """A start command deferred by its answer clock (the check of the member's open games
    was slow: a busy database) and then refused: the public "thinking…" message is taken
    away and the refusal comes privately, never shown to the channel."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",),
                                              MAX_OPEN_GAMES=1))
    await discord_driver.slash("tinker", "start", user="alice")
    check = bot.tables.check_room

    async def slow_check(*args):
        await asyncio.sleep(3.2)
        return await check(*args)

    bot.tables.check_room = slow_check
    refused = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    await discord_driver.settle()
    assert refused.response_type == 5  # deferred: the refusal came after 2 s
    private = [f for f in refused.followups if "already have 1 game going" in f["content"]]
    assert private and all(f["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL for f in private)
    assert not [m for m in fake_discord.channel_messages()
                if "already have" in (m.get("content") or "")]


async def test_a_command_discord_still_shows_from_before_an_update_says_so(
        discord_driver, fake_discord, tmp_path):
    """A command this bot no longer has (renamed in an update, a stale copy in a test
    server) is answered privately with what to do, not "try again", and logs no error."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    answer = await discord_driver.slash("tinker", "begin", {}, user="alice")
    assert answer.ephemeral and "reload Discord" in answer.content
    assert "try again" not in answer.content.lower()


def _in_a_dm(payload: dict, user) -> dict:
    """The same interaction as Discord sends it from a direct message with the bot: no
    guild, a user in place of a member, a DM channel."""
    dm = {"id": "990000000000000001", "type": 1, "recipients": [user.user_payload]}
    for key in ("guild_id", "guild", "guild_locale", "member"):
        payload.pop(key, None)
    return {**payload, "user": user.user_payload, "channel_id": dm["id"], "channel": dm,
            "context": 1, "authorizing_integration_owners": {"0": "0"}}


async def test_help_in_a_direct_message_shows_no_server(discord_driver, fake_discord,
                                                        tmp_path):
    """/help in a direct message answers with the games and no "This server" line (there
    are no server settings to show); its title says games are played in a server, and
    it offers no start buttons (a game cannot start there), only the ping choice."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bob = fake_discord.user("bob")
    helped = await discord_driver.feed(_in_a_dm(fake_discord.slash_payload("help", user=bob),
                                                bob))
    (embed,) = helped.embeds
    assert [f["name"] for f in embed["fields"]] == ["The games", "Who plays", "More"]
    assert embed["title"] == "Tablehouse: games to play in a server's channels"
    assert not any(c.startswith("st1:") for c in helped.custom_ids) and helped.custom_ids


async def test_a_start_pressed_as_the_bot_stops_is_finished_first(discord_driver,
                                                                   fake_discord, tmp_path):
    """Tinker pressed on /help just before a clean stop: the stop waits for the start, so
    the game gets its board and the press its answer; a press once the stop has begun is
    refused privately (the bot is restarting) and starts nothing."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    helped = await discord_driver.slash("help", user="bob")
    press = fake_discord.component_payload(helped.message, "st1:tinker", user="bob")
    bot._connection.parse_interaction_create(press)  # handled while the bot stops
    await asyncio.sleep(0)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.board_message_id is not None
    assert fake_discord.get_message(game.row.board_message_id)["embeds"]
    assert fake_discord.interactions[int(press["id"])].response_type == 4
    await abandon(discord_driver, "tinker", "bob")
    await discord_driver.settle()
    bot.tables.closing = True  # what a stop does first
    late = await discord_driver.click(helped.message, "st1:tinrealm", user="bob")
    assert late.ephemeral and late.content == RESTARTING
    bot.tables.closing = False
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None


async def test_a_game_left_without_a_board_is_named_with_its_board_command(
        discord_driver, fake_discord, tmp_path):
    """A game stored but never shown (the bot died between the two) holds the channel:
    a start there is refused privately, naming the command that posts its board."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bob = fake_discord.user("bob")
    await bot.tables.start("tinker", guild_id=fake_discord.guild_id,
                           channel_id=fake_discord.channel_id, starter=Actor(bob.id, "Bob"))
    refused = await discord_driver.slash("tinrealm", "start", user="alice")
    assert refused.ephemeral and refused.content.startswith(
        "This channel already has a game of Tinker, Sailor, Soldier, Spy going "
        "(/tinker board shows it): anyone here can play along on its board.")
    shown = await discord_driver.slash("tinker", "board", user="alice")
    assert shown.message["embeds"] and not shown.ephemeral
