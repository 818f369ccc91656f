"""Threads in the offline Discord: Start Thread without Message, Modify Channel and
Delete Channel for a thread, with Discord's checks, errors and permissions."""

from __future__ import annotations

import discord
import pytest

from tests.fake_discord import Driver, FakeDiscord, payloads


@pytest.fixture
async def client(fake_discord: FakeDiscord, discord_driver: Driver) -> discord.Client:
    """A plain client logged in to the fake."""
    return await discord_driver.login(discord.Client(intents=discord.Intents.none()))


async def _open(client: discord.Client, fake: FakeDiscord, **options: object) -> discord.Thread:
    body: dict[str, object] = {"name": "Tinker · Alice · 2 Dec", "auto_archive_duration": 10080,
                               "type": 11, **options}
    data = await client.http.start_thread_without_message(fake.channel_id, **body)
    guild = discord.Object(fake.guild_id)
    return discord.Thread(guild=guild, state=client._connection, data=data)


def _set_bot_permissions(fake: FakeDiscord, permissions: int) -> None:
    for role in fake.roles:
        if int(role["id"]) == fake.bot_role_id:
            role["permissions"] = str(permissions)


async def test_a_public_thread_is_a_channel_under_its_parent(client, fake_discord):
    """The thread has Discord's shape, holds messages, and is listed under its channel."""
    thread = await _open(client, fake_discord)
    assert thread.type is discord.ChannelType.public_thread
    assert thread.parent_id == fake_discord.channel_id and thread.owner_id == client.user.id
    assert thread.auto_archive_duration == 10080 and not thread.archived
    sent = await client.get_partial_messageable(thread.id).send("board")
    assert fake_discord.channel_messages(thread.id)[0]["id"] == str(sent.id)
    assert fake_discord.channel_messages() == []
    assert [t["id"] for t in fake_discord.threads_under()] == [str(thread.id)]


@pytest.mark.limits_expected
@pytest.mark.parametrize("options", [{"name": "x" * 101}, {"name": "  "},
                                     {"auto_archive_duration": 90}, {"type": 0}])
async def test_a_thread_discord_would_refuse_is_refused(client, fake_discord, options):
    """A name out of 1 to 100 characters, an archive time Discord does not offer, or a
    type that is not a thread: 400 Invalid Form Body, and no thread."""
    with pytest.raises(discord.HTTPException) as refused:
        await _open(client, fake_discord, **options)
    assert refused.value.status == 400 and refused.value.code == 50035
    assert fake_discord.threads_under() == []


async def test_without_create_public_threads_the_bot_is_refused(client, fake_discord):
    """A bot whose roles (its own and @everyone) lack Create Public Threads gets 403
    Missing Permissions."""
    _set_bot_permissions(fake_discord,
                         payloads.MODERATOR_PERMISSIONS & ~payloads.CREATE_PUBLIC_THREADS)
    for role in fake_discord.roles:
        if int(role["id"]) == fake_discord.guild_id:  # @everyone
            role["permissions"] = str(int(role["permissions"]) & ~payloads.CREATE_PUBLIC_THREADS)
    with pytest.raises(discord.Forbidden) as refused:
        await _open(client, fake_discord)
    assert refused.value.code == 50013 and fake_discord.threads_under() == []


async def test_archiving_and_a_message_that_brings_the_thread_back(client, fake_discord):
    """Modify Channel changes the archive time and archives; a message unarchives an
    unlocked thread; a locked one refuses it."""
    thread = await _open(client, fake_discord)
    edited = await thread.edit(auto_archive_duration=60)
    assert edited.auto_archive_duration == 60 and not edited.archived
    archived = await edited.edit(archived=True)
    assert archived.archived
    await client.get_partial_messageable(thread.id).send("again")
    (stored,) = fake_discord.threads_under()
    assert stored["thread_metadata"]["archived"] is False
    await archived.edit(archived=True, locked=True)
    with pytest.raises(discord.Forbidden) as refused:
        await client.get_partial_messageable(thread.id).send("locked out")
    assert refused.value.code == 50083


@pytest.mark.limits_expected
async def test_an_archive_time_discord_does_not_offer_is_refused(client, fake_discord):
    """Modify Channel with 90 minutes: 400 Invalid Form Body, the thread unchanged."""
    thread = await _open(client, fake_discord)
    with pytest.raises(discord.HTTPException) as refused:
        await client.http.edit_channel(thread.id, auto_archive_duration=90)
    assert refused.value.code == 50035
    assert fake_discord.threads_under()[0]["thread_metadata"]["auto_archive_duration"] == 10080


async def test_deleting_a_thread_needs_manage_threads(client, fake_discord):
    """Without Manage Threads a thread cannot be deleted; with it, it goes with its
    messages."""
    thread = await _open(client, fake_discord)
    await client.get_partial_messageable(thread.id).send("board")
    with pytest.raises(discord.Forbidden):
        await thread.delete()
    _set_bot_permissions(fake_discord, payloads.BOT_PERMISSIONS | payloads.MANAGE_THREADS)
    await thread.delete()
    assert fake_discord.threads_under() == [] and fake_discord.channel_messages(thread.id) == []
