"""A member who has left the server, named in a command: Discord sends only their user
(no member). Commands about players go on by their id; a command that needs a member
says so privately, and nothing is logged as an error."""

from __future__ import annotations

from typing import Any

import pytest

from tests.db.test_records_queries import add_results, tinker
from tests.support import make_bot, seated_steam

# seats are handed on at once here: the wait before it is pinned elsewhere
pytestmark = pytest.mark.usefixtures("away_at_once")


def _left(fake: Any, name: str) -> tuple[Any, dict[str, Any]]:
    """Return ``name``'s fake user and the ``resolved`` part Discord sends once they left
    the server: their user, no member."""
    user = fake.user(name)
    return user, {"users": {str(user.id): user.user_payload}}


async def test_steam_away_names_a_player_who_left(discord_driver: Any, fake_discord: Any,
                                                  tmp_path: Any) -> None:
    """C6: Bob left the server mid-game; Alice and Carol still hand his seat to a computer
    with /steam away, as for anyone seated: the ask told privately, the hand-over in the
    channel."""
    bot, _ = await seated_steam(discord_driver, fake_discord, tmp_path)
    bob, resolved = _left(fake_discord, "bob")
    votes = []
    for voter in ("alice", "carol"):
        payload = fake_discord.slash_payload(
            "steam", path=["away"], user=voter, resolved=resolved,
            options=[{"name": "player", "type": 6, "value": str(bob.id)}],
        )
        votes.append(await discord_driver.feed(payload))
    await discord_driver.settle()
    assert "1 of 2 needed" in votes[0].content and votes[0].ephemeral
    assert "handed Bob's seat to a computer" in votes[1].content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.seats[1].away


async def test_stats_of_a_member_who_left(discord_driver: Any, fake_discord: Any,
                                          tmp_path: Any) -> None:
    """/stats member:<Bob, who left the server>: his results here are still shown."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.records",)))
    bob, resolved = _left(fake_discord, "bob")
    await add_results(bot.store, [{**tinker(bob.id, 13, 5), "guild_id": fake_discord.guild_id}])
    payload = fake_discord.slash_payload(
        "stats", user="alice", resolved=resolved,
        options=[{"name": "member", "type": 6, "value": str(bob.id)}],
    )
    shown = await discord_driver.feed(payload)
    assert not shown.ephemeral
    [embed] = shown.embeds
    assert embed["title"] == "📊 Records of Bob"
    assert "Played **1** · won **1**" in embed["fields"][0]["value"]


async def test_inviting_a_member_who_left_is_refused_privately(
        discord_driver: Any, fake_discord: Any, tmp_path: Any) -> None:
    """/steam new invite:<Bob, who left the server>: Alice is told privately that Bob is
    not in the server (not that something went wrong), and no table is opened."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    bob, resolved = _left(fake_discord, "bob")
    payload = fake_discord.slash_payload(
        "steam", path=["new"], user="alice", resolved=resolved,
        options=[{"name": "invite", "type": 6, "value": str(bob.id)}],
    )
    refused = await discord_driver.feed(payload)
    assert refused.ephemeral
    assert refused.content == "Bob is not a member of this server now: choose someone who is."
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
