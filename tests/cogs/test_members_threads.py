"""Games started in a thread a member opened (public or private), not one the bot opened
for its game: what is said there stays there. Share posts the daily result in that
thread, not in the channel above it; a command in the channel does not point into it
(a private thread's game is nobody else's business)."""

from __future__ import annotations

import pytest

from tests.fake_discord import payloads, threads
from tests.support import abandon, make_bot, play_out_and_share

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam")


def _members_thread(fake, kind: int) -> int:
    """A thread Alice opened under the fake's channel; return its id."""
    parent = fake.channels[fake.channel_id]
    thread_id = fake.snowflakes.next()
    fake.channels[thread_id] = threads.thread_channel(
        thread_id, parent, fake.user("alice").id, "game night", kind, 10080)
    return thread_id


def _results_in(fake, channel_id: int) -> list[dict]:
    return [m for m in fake.channel_messages(channel_id)
            if (m.get("content") or "").startswith("Tinker daily · ")]


@pytest.mark.parametrize("kind", [threads.PUBLIC_THREAD, threads.PRIVATE_THREAD],
                         ids=["public", "private"])
async def test_a_daily_played_in_a_members_thread_is_shared_there(discord_driver,
                                                                  fake_discord, tmp_path,
                                                                  kind):
    """Alice plays today's Tinker deal in her thread and presses Share: the result is
    posted in the thread, and the channel above it shows nothing."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    thread_id = _members_thread(fake_discord, kind)
    await discord_driver.slash("tinker", "daily", user="alice", channel=thread_id)
    game = await bot.tables.open_in_channel(thread_id)
    assert game is not None and not game.data.thread
    assert game.data.parent == fake_discord.channel_id
    shared = await play_out_and_share(discord_driver, fake_discord, bot, game)
    assert _results_in(fake_discord, fake_discord.channel_id) == []
    assert len(_results_in(fake_discord, thread_id)) == 1
    assert f"<#{fake_discord.channel_id}>" not in (shared.content or "")


async def test_a_command_in_the_channel_does_not_point_into_a_members_thread(
        discord_driver, fake_discord, tmp_path):
    """Alice plays Tinker in her private thread; Bob's /tinker board in the channel is
    told there is no game here, not sent to a thread he cannot open."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    thread_id = _members_thread(fake_discord, threads.PRIVATE_THREAD)
    await discord_driver.slash("tinker", "start", user="alice", channel=thread_id)
    asked = await discord_driver.slash("tinker", "board", user="bob")
    assert asked.ephemeral and asked.content.startswith(
        "There is no game of this kind going in this channel.")
    assert f"<#{thread_id}>" not in asked.content


async def test_the_invite_menu_in_the_channel_does_not_point_into_a_members_thread(
        discord_driver, fake_discord, tmp_path):
    """Alice's Steam lobby is in her private thread; Apps → "Invite to Steam to Solar" on
    Bob in the channel opens a table there with Bob invited, and nothing in the channel
    names or links the private thread."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    thread_id = _members_thread(fake_discord, threads.PRIVATE_THREAD)
    await discord_driver.slash("steam", "new", user="alice", channel=thread_id)
    await discord_driver.user_command("Invite to Steam to Solar", "bob", user="alice")
    await discord_driver.settle()
    said = [m.get("content") or "" for m in fake_discord.channel_messages()]
    assert said and not any(str(thread_id) in line for line in said)
    table = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert table is not None and table.row.status == "lobby"
    assert fake_discord.user("bob").id in table.data.invited


async def test_thread_yes_in_a_thread_is_answered(discord_driver, fake_discord, tmp_path):
    """``thread: yes`` chosen in Alice's thread plays the game there, and the starter is
    told privately why no thread was opened; a server that turned threads on for every
    game says nothing of it (nobody asked), nor does a start without the option."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    thread_id = _members_thread(fake_discord, threads.PUBLIC_THREAD)
    started = await discord_driver.slash("tinrealm", "start", {"thread": "yes"},
                                         user="bob", channel=thread_id)
    assert started.message["embeds"]
    assert [int(t["id"]) for t in fake_discord.threads_under()] == [thread_id]
    notes = [f["content"] for f in started.followups if f["flags"] & 64]
    assert notes == ["This game is played in this thread: Discord opens no thread inside "
                     "a thread."]
    await abandon(discord_driver, "tinrealm", "bob", channel=thread_id)
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    await discord_driver.slash("tablehouse", "settings", {"threads": "on"}, user="admin")
    for kind, options in (("tinker", {}), ("tinrealm", {"thread": "no"})):
        quiet = await discord_driver.slash(kind, "start", options, user="bob",
                                           channel=thread_id)
        assert quiet.message["embeds"] and quiet.followups == []
        await abandon(discord_driver, kind, "bob", channel=thread_id)
