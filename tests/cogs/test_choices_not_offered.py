"""An option value that is not among the command's choices in this version: Discord may
still show a member an older version's list (a client's cached definition), or another
process's during a deploy. discord.py passes such a value on as it came, so each command
with fixed choices first checks it: the member is told privately to choose again,
nothing is started or stored, and no error is logged."""

from __future__ import annotations

import pytest

from tests.support import make_bot

COGS = ("cogs.steam", "cogs.tinrealm", "cogs.tinker", "cogs.records", "cogs.server")


def _option(name: str, value: str) -> dict:
    return {"name": name, "type": 3, "value": value}


@pytest.mark.parametrize(("name", "path", "options"), [
    ("steam", ["new"], [_option("deck", "jokers")]),
    ("steam", ["new"], [_option("turn_timer", "5 min")]),
    ("steam", ["new"], [_option("notices", "loud")]),
    ("tinrealm", ["start"], [_option("map", "medium")]),
    ("tinker", ["start"], [_option("players", "everyone")]),
    ("stats", [], [_option("game", "chess")]),
    ("leaderboard", [], [_option("game", "tinker"), _option("period", "week")]),
    ("leaderboard", [], [_option("game", "chess")]),
], ids=["deck", "turn_timer", "notices", "map", "players", "stats game",
        "leaderboard period", "leaderboard game"])
async def test_a_choice_this_version_does_not_offer_is_asked_again(
        discord_driver, fake_discord, tmp_path, name, path, options):
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    payload = fake_discord.slash_payload(name, path=path, options=options, user="alice")
    answer = await discord_driver.feed(payload)
    await discord_driver.settle()
    assert answer.ephemeral and "choose it again" in answer.content, answer.content
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None


async def test_every_command_with_fixed_choices_checks_them(discord_driver, tmp_path):
    """Each command that has an option of fixed choices carries the check; the others
    do not pay for it."""
    from bot.command_tree import offered
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    with_choices = [c for c in bot.tree.walk_commands()
                    if any(getattr(p, "choices", None) for p in getattr(c, "parameters", []))]
    assert len(with_choices) >= 6
    assert all(offered in c.checks for c in with_choices)
    assert all(offered not in getattr(c, "checks", []) for c in bot.tree.walk_commands()
               if c not in with_choices)


async def test_the_choices_offered_still_start(discord_driver, fake_discord, tmp_path):
    """A choice from the list starts the game as before."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    payload = fake_discord.slash_payload("steam", path=["new"], user="alice", options=[
        _option("deck", "courts"), _option("turn_timer", "2 min")])
    await discord_driver.feed(payload)
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert lobby is not None and lobby.row.options["deck"] == "courts"
