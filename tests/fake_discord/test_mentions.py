"""Who a message pings, as the fake works it out from content and ``allowed_mentions``."""

from __future__ import annotations

import discord
import pytest
from discord import app_commands

from tests.fake_discord import Driver, FakeDiscord, payloads
from tests.fake_discord.mentions import allowed, check_allowed_mentions


class MentionBot(discord.Client):
    """A client with one command that pings the member it is given, and nobody else."""

    def __init__(self, **options: object) -> None:
        super().__init__(intents=discord.Intents.default(), **options)  # type: ignore[arg-type]
        self.tree = app_commands.CommandTree(self)

        @self.tree.command(description="Tell a member it is their turn.")
        async def nudge(interaction: discord.Interaction, member: discord.Member) -> None:
            await interaction.response.send_message(
                f"{member.mention}, your turn (after {interaction.user.mention})",
                allowed_mentions=discord.AllowedMentions(users=[member]),
            )


@pytest.fixture
async def bot(fake_discord: FakeDiscord, discord_driver: Driver) -> MentionBot:
    """The mention bot, logged in to the fake."""
    return await discord_driver.login(MentionBot())  # type: ignore[return-value]


def games(bot: discord.Client, fake: FakeDiscord) -> discord.PartialMessageable:
    """#games as the bot sees it."""
    return bot.get_partial_messageable(fake.channel_id, guild_id=fake.guild_id)


async def test_no_allowed_mentions_pings_every_user_mentioned(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """Without allowed_mentions Discord parses everything: both users are pinged."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    sent = await games(bot, fake_discord).send(f"<@{alice.id}> and <@!{bob.id}>")
    assert fake_discord.pings(sent.id) == {alice.id, bob.id}
    assert {m.id for m in sent.mentions} == {alice.id, bob.id}
    [record] = fake_discord.mention_log
    assert record.allowed_mentions is None and record.pinged == {alice.id, bob.id}


async def test_allowed_mentions_none_pings_nobody(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """AllowedMentions.none() silences the mention; the message still shows it."""
    alice = fake_discord.user("alice")
    sent = await games(bot, fake_discord).send(
        f"<@{alice.id}>", allowed_mentions=discord.AllowedMentions.none()
    )
    assert fake_discord.pings(sent.id) == set()
    assert sent.mentions == []
    assert fake_discord.mention_log[-1].allowed_mentions == {"parse": []}


async def test_interaction_reply_pings_only_the_allowed_user(
    discord_driver: Driver, bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """A reply naming two members with users=[bob] pings bob only."""
    bob = fake_discord.user("bob")
    result = await discord_driver.slash("nudge", options={"member": bob}, user="alice")
    assert result.message is not None
    assert str(fake_discord.user("alice").id) in result.content
    assert fake_discord.pings(result.message) == {bob.id}


async def test_client_default_allowed_mentions_apply(fake_discord: FakeDiscord) -> None:
    """A client-wide AllowedMentions.none() is sent with every message."""
    client = MentionBot(allowed_mentions=discord.AllowedMentions.none())
    await client.login(fake_discord.token)
    try:
        alice = fake_discord.user("alice")
        sent = await games(client, fake_discord).send(f"<@{alice.id}>")
        assert fake_discord.pings(sent.id) == set()
    finally:
        await client.close()


async def test_edit_keeps_the_allowed_mentions_in_force(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """An edit without allowed_mentions keeps the message's; one with them replaces it."""
    alice, bob = fake_discord.user("alice"), fake_discord.user("bob")
    sent = await games(bot, fake_discord).send(
        "soon", allowed_mentions=discord.AllowedMentions(users=[alice])
    )
    await sent.edit(content=f"<@{alice.id}> <@{bob.id}>")
    assert fake_discord.pings(sent.id) == {alice.id}
    await sent.edit(allowed_mentions=discord.AllowedMentions(users=True))
    assert fake_discord.pings(sent.id) == {alice.id, bob.id}


async def test_everyone_needs_the_mention_everyone_permission(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """@everyone pings nobody unless the bot may mention everyone; then every member."""
    sent = await games(bot, fake_discord).send("@everyone wake up")
    assert fake_discord.pings(sent.id) == set()
    bot_role = next(r for r in fake_discord.roles if int(r["id"]) == fake_discord.bot_role_id)
    bot_role["permissions"] = str(int(bot_role["permissions"]) | payloads.MENTION_EVERYONE)
    again = await games(bot, fake_discord).send("@everyone wake up")
    assert fake_discord.pings(again.id) == {u.id for u in fake_discord.users.values()}
    muted = await games(bot, fake_discord).send(
        "@everyone wake up", allowed_mentions=discord.AllowedMentions(everyone=False)
    )
    assert fake_discord.pings(muted.id) == set()


async def test_role_mentions_reach_the_role_members_when_mentionable(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """<@&role> pings its members if the role is mentionable; not otherwise."""
    players = fake_discord.add_role("players", mentionable=True)
    quiet = fake_discord.add_role("quiet")
    fake_discord.give_role("alice", players)
    fake_discord.give_role("bob", quiet)
    sent = await games(bot, fake_discord).send(f"<@&{players}> <@&{quiet}>")
    assert fake_discord.pings(sent.id) == {fake_discord.user("alice").id}
    assert fake_discord.get_message(sent.id)["mention_roles"] == [str(players)]


@pytest.mark.limits_expected
async def test_parse_users_with_a_users_list_is_refused(
    bot: MentionBot, fake_discord: FakeDiscord
) -> None:
    """parse:["users"] together with users:[...] is a 400/50035 from Discord."""
    body = {
        "content": "hi",
        "allowed_mentions": {"parse": ["users"], "users": [str(fake_discord.user().id)]},
    }
    route = discord.http.Route(
        "POST", "/channels/{channel_id}/messages", channel_id=fake_discord.channel_id
    )
    with pytest.raises(discord.HTTPException) as raised:
        await bot.http.request(route, json=body)
    assert (raised.value.status, raised.value.code) == (400, 50035)
    assert "allowed_mentions" in str(raised.value)


def test_mention_rules_without_a_server() -> None:
    """The parsing rules on their own: users, roles, everyone, replied_user defaults."""
    found = allowed("<@1> <@&2> @here", None, mentionable_roles=frozenset({2}))
    assert (found.users, found.roles, found.everyone) == ({1}, {2}, False)
    found = allowed("<@1> <@&2> @here", None, can_mention_everyone=True)
    assert (found.users, found.roles, found.everyone, found.replied_user) == ({1}, {2}, True, True)
    found = allowed("<@1>", {"parse": ["roles"], "replied_user": False})
    assert (found.users, found.replied_user) == (frozenset(), False)
    assert check_allowed_mentions({"parse": ["people"]})[0].dotted == "allowed_mentions.parse.0"
