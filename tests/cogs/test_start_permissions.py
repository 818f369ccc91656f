"""Starting a game where the bot may not post its board, through the offline fake.

A board needs View Channel, Send Messages (Send Messages in Threads in a thread), Embed
Links and Read Message History (a deleted board is found and posted again): without them
no game is created and the starter alone is told which permission to grant. A board
Discord still refuses (403 Missing Permissions) calls the fresh game off: no result,
nothing left holding the channel, its thread or the starter's open games, and the
starter is told privately why.
"""

from __future__ import annotations

import pytest

from tests.fake_discord import payloads
from tests.support import abandon, board_ids, make_bot

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.server")

#: Discord's answer to a bot's message it may not send (here: an embed without Embed Links).
MISSING = {"status": 403, "code": 50013}


def _public(fake, channel_id: int | None = None) -> list[dict]:
    """The channel's messages everyone sees."""
    return fake.channel_messages(channel_id)


async def _no_open_game(bot, fake) -> None:
    channels = [fake.channel_id, *(int(t["id"]) for t in fake.threads_under())]
    for channel_id in channels:
        assert await bot.tables.open_in_channel(channel_id) is None, channel_id


@pytest.mark.parametrize(("lacking", "named"), [
    (payloads.EMBED_LINKS, "Embed Links"),
    (payloads.SEND_MESSAGES_IN_THREADS | payloads.SEND_MESSAGES, "Send Messages in Threads"),
    (payloads.VIEW_CHANNEL, "View Channel"),
])
async def test_no_thread_opens_for_a_board_the_bot_may_not_post(
        discord_driver, fake_discord, tmp_path, lacking, named):
    """thread: yes without a permission the board needs (in the thread and here alike):
    refused privately, naming it; no thread is asked for and no game is stored."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.app_permissions &= ~lacking
    refused = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    await discord_driver.settle()
    assert refused.ephemeral and named in refused.content, refused.content
    assert "admin" in refused.content and "start the game again" in refused.content
    assert fake_discord.threads_under() == []
    assert not any(r.path.endswith("/threads") for r in fake_discord.requests)
    assert _public(fake_discord) == []
    await _no_open_game(bot, fake_discord)


@pytest.mark.parametrize(("lacking", "named"), [
    (payloads.EMBED_LINKS, "Embed Links"),
    (payloads.SEND_MESSAGES, "Send Messages"),
    (payloads.READ_MESSAGE_HISTORY, "Read Message History"),
])
async def test_no_game_starts_here_without_what_its_board_needs(
        discord_driver, fake_discord, tmp_path, lacking, named):
    """A game in the channel itself (no thread) is refused alike, before it is stored."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.app_permissions &= ~lacking
    refused = await discord_driver.slash("tinrealm", "start", user="alice")
    assert refused.ephemeral and f"the {named} permission" in refused.content
    assert _public(fake_discord) == []
    await _no_open_game(bot, fake_discord)


async def test_a_thread_needs_no_send_messages_in_the_channel(discord_driver, fake_discord,
                                                              tmp_path):
    """Send Messages in the channel is not needed for a game in its own thread: the line
    that links to it is the command's answer."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.app_permissions &= ~payloads.SEND_MESSAGES
    started = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    (thread,) = fake_discord.threads_under()
    assert not started.ephemeral and f"<#{thread['id']}>" in started.content
    game = await bot.tables.open_in_channel(int(thread["id"]))
    assert game is not None and game.row.board_message_id is not None


async def test_a_game_in_a_thread_without_send_messages_in_threads(discord_driver,
                                                                    fake_discord, tmp_path):
    """A command used inside a thread where the bot may not post: refused, naming Send
    Messages in Threads."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                               user="alice")
    (thread,) = fake_discord.threads_under()
    thread_id = int(thread["id"])
    await abandon(discord_driver, "tinker", "alice", channel=thread_id)
    assert await bot.tables.open_in_channel(thread_id) is None
    fake_discord.app_permissions &= ~payloads.SEND_MESSAGES_IN_THREADS
    refused = await discord_driver.slash("tinker", "start", user="alice", channel=thread_id)
    assert refused.ephemeral and "Send Messages in Threads" in refused.content
    assert await bot.tables.open_in_channel(thread_id) is None


async def test_a_thread_game_whose_board_discord_refuses_is_called_off(
        discord_driver, fake_discord, tmp_path):
    """The permissions looked granted, yet Discord refuses the board in the new thread
    (403 Missing Permissions): the game ends with no result, its thread is archived (the
    bot may not delete it), the line pointing to it is taken back, and the starter is
    told privately which permissions the bot needs; their open-game limit is free again."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, MAX_OPEN_GAMES=1))
    fake_discord.fail_next("POST", r"/channels/\d+/messages", times=5, **MISSING)
    result = await discord_driver.slash("tinker", "start", {"thread": "yes"}, user="alice")
    await discord_driver.settle()
    (thread,) = fake_discord.threads_under()
    notes = [f for f in result.followups if f["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL]
    assert len(notes) == 1, result.followups
    note = notes[0]["content"]
    assert "called off" in note and "Embed Links" in note and "Send Messages in Threads" in note
    assert "admin" in note
    assert result.message is None  # the line was taken back
    assert not any("🧵" in (m.get("content") or "") for m in _public(fake_discord))
    assert thread["thread_metadata"]["archived"] is True
    await _no_open_game(bot, fake_discord)
    called_off = await bot.tables.load(1)  # the first game stored
    assert called_off.row.status == "abandoned" and called_off.row.channel_id == int(
        thread["id"])
    again = await discord_driver.slash("tinker", "start", user="alice")
    assert not again.ephemeral and board_ids(again.message), again.content


async def test_a_game_here_whose_board_discord_refuses_is_called_off(
        discord_driver, fake_discord, tmp_path):
    """The answer with the board fails and so does posting it in the channel (403
    Missing Permissions): the game is called off and the starter told privately."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, MAX_OPEN_GAMES=1))
    fake_discord.fail_next("POST", r"/interactions/\d+/.+/callback", 404, code=10062)
    fake_discord.fail_next("POST", r"/channels/\d+/messages", times=5, **MISSING)
    result = await discord_driver.slash("tinker", "start", user="alice")
    await discord_driver.settle()
    assert result.ephemeral and "called off" in result.content, result.content
    assert "Send Messages" in result.content and "Embed Links" in result.content
    assert _public(fake_discord) == []
    await _no_open_game(bot, fake_discord)
    again = await discord_driver.slash("tinker", "start", user="alice")
    assert not again.ephemeral and board_ids(again.message), again.content



@pytest.mark.parametrize("kind", ["tinker", "tinrealm"])
async def test_a_daily_deal_nobody_saw_may_be_started_again(discord_driver, fake_discord,
                                                            tmp_path, kind):
    """A daily deal whose first board Discord refused (a brief outage: 503) is called off
    unseen: the starter, told to start it again in a moment, can, and nobody has a result
    (the channel is not kept from today's deal)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.fail_next("POST", r"/interactions/\d+/.+/callback", 404, code=10062)
    fake_discord.fail_next("POST", r"/channels/\d+/messages", 503, times=10)
    first = await discord_driver.slash(kind, "daily", user="alice")
    await discord_driver.settle()
    assert first.ephemeral and "called off" in first.content, first.content
    replay = await discord_driver.slash(kind, "replay", user="bob")  # nothing to show
    assert replay.ephemeral and "Replay of" not in (replay.content or "")
    assert not any("Replay of" in (m.get("content") or "")
                   for m in fake_discord.channel_messages())
    again = await discord_driver.slash(kind, "daily", user="alice")
    assert not again.ephemeral and board_ids(again.message), again.content
    assert await bot.store.results(fake_discord.user("alice").id) == []
    third = await discord_driver.slash(kind, "daily", user="bob")  # it is going: join it
    assert third.ephemeral and "already has a game of" in third.content
    assert "anyone here can play along" in third.content


async def test_a_forum_post_names_the_forums_own_permission(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """In a forum's post the refusal names the permission as the forum's settings show it
    ("Send Messages in Posts", not "… in Threads") and the forum's permissions."""
    from tests.boards.test_deleted_channels import connected
    from tests.fake_discord import threads

    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    forum_id = fake_discord.add_channel("lfg-forum")
    forum = fake_discord.channels[forum_id]
    forum.update(type=15, available_tags=[], default_reaction_emoji=None,
                 default_thread_rate_limit_per_user=0, default_sort_order=None,
                 default_forum_layout=0)
    post_id = fake_discord.snowflakes.next()
    fake_discord.channels[post_id] = threads.thread_channel(
        post_id, forum, fake_discord.user("alice").id, "Game night", 11, 4320)
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        fake_discord.app_permissions &= ~payloads.SEND_MESSAGES_IN_THREADS
        refused = await discord_driver.slash("tinker", "start", user="alice",
                                             channel=post_id)
    assert refused.ephemeral
    assert refused.content == (
        "No game was started: the bot needs the Send Messages in Posts permission here to "
        "post a game's board. A server admin can grant it to the bot (its role, or this "
        "forum's permissions); then start the game again.")


#: What Discord gives an app whose bot user is not in the server: @everyone's
#: permissions cut down to those an interaction's answer uses (Attach Files, Embed
#: Links, Mention Everyone, Use External Emojis).
ANSWER_ONLY = (1 << 15) | payloads.EMBED_LINKS | payloads.MENTION_EVERYONE | (1 << 18)


def _commands_only(payload: dict) -> dict:
    """``payload`` as Discord sends it from a server that added the bot's commands alone
    (the bot user is not a member there)."""
    guild_id, channel_id = "777000000000000001", "777000000000000002"
    payload = {**payload, "guild_id": guild_id, "channel_id": channel_id,
               "app_permissions": str(ANSWER_ONLY),
               "guild": {"id": guild_id, "locale": "en-US", "features": []},
               "authorizing_integration_owners": {"0": guild_id}}
    payload["channel"] = {**payload["channel"], "id": channel_id, "guild_id": guild_id}
    return payload


@pytest.mark.parametrize(("command", "sub"), [("tinker", "start"), ("steam", "new")])
async def test_a_server_with_the_commands_alone_is_told_to_add_the_bot(
        discord_driver, fake_discord, tmp_path, monkeypatch, command, sub):
    """An admin added the app's commands without the bot itself (no bot user, nothing
    to grant permissions to): a start there says the bot must be added, not which
    permission to grant its role, and nothing is stored."""
    from tests.boards.test_deleted_channels import connected
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        payload = _commands_only(fake_discord.slash_payload(command, path=[sub], user="alice"))
        fake_discord.register_interaction(payload)
        refused = await discord_driver.feed(payload)
        assert refused.ephemeral
        assert "not the bot itself" in refused.content and "role" not in refused.content
        assert await bot.tables.open_in_channel(int(payload["channel_id"])) is None


async def test_help_in_a_server_with_the_commands_alone_offers_no_start(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """/help there says the bot must be added first and offers no start button; in a
    server that has the bot, it offers them."""
    from tests.boards.test_deleted_channels import connected
    bot = await discord_driver.login(make_bot(tmp_path, cogs=(*COGS, "cogs.help")))
    async with connected(discord_driver, fake_discord, bot, monkeypatch):
        payload = _commands_only(fake_discord.slash_payload("help", user="alice"))
        fake_discord.register_interaction(payload)
        helped = await discord_driver.feed(payload)
        assert not any(c.startswith("st1:") for c in helped.custom_ids)
        assert "not the bot itself" in str(helped.embeds[0])
        here = await discord_driver.slash("help", user="alice")
        assert any(c.startswith("st1:") for c in here.custom_ids)
