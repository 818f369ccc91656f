"""Clicks a modified client can forge: a custom_id that is on no message the bot sent,
or a value that is not among a select's options. Each is refused privately, changes
nothing, and logs no traceback (tests fail on any error logged)."""

from __future__ import annotations

from bot.boards.custom_ids import button_id
from bot.boards.routing import NOT_VALID
from tests.cogs.test_replays import COGS, _finish
from tests.support import button, make_bot


async def test_an_invitation_with_no_member_id_is_not_valid(discord_driver, fake_discord,
                                                            tmp_path):
    """A Host controls invitation whose member id is not a number is not valid."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    await discord_driver.slash("steam", "new", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for raw in ("abc", "", "-5"):
        forged_id = button_id(game.id, game.row.version, f"lobby.invite.{raw}")
        forged = _forge(fake_discord, fake_discord.channel_id, forged_id)
        result = await discord_driver.click(forged, forged_id, user="alice")
        assert result.ephemeral and result.content == NOT_VALID, result.content


def _forge(fake, channel_id: int, custom_id: str) -> dict:
    """A message in ``channel_id`` with one button carrying ``custom_id`` (a modified
    client sends any custom_id on a message's component)."""
    return fake.post_message({"content": "anything", "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]}, channel_id)


async def _other_server(fake):
    """Another server and its first channel."""
    guild = fake.add_guild("Elsewhere")
    return guild, guild.channel_ids[0]


async def _forged_elsewhere(driver, fake, tmp_path, start: str, action: str):
    """Alice's finished Tinker game (``start``: start or daily) and Bob's click on its
    ``action`` button forged in another server; return the answer, the channel there
    and Alice's ended board."""
    _guild, elsewhere = await _other_server(fake)
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    await driver.slash("tinker", start, user="alice")
    game, _states, board = await _finish(driver, fake, bot)
    custom_id = button_id(game.id, game.row.version, action)
    result = await driver.click(_forge(fake, elsewhere, custom_id), custom_id, user="bob")
    return result, elsewhere, board


async def test_forged_replay_from_another_server_is_refused(discord_driver, fake_discord,
                                                             tmp_path):
    """Bob, in another server, forges the Replay button of Alice's ended game: refused
    privately; Alice's game (names and all) is not posted in Bob's server."""
    result, elsewhere, _board = await _forged_elsewhere(discord_driver, fake_discord,
                                                        tmp_path, "start", "table.replay")
    posted = [m for m in fake_discord.messages.values()
              if int(m["channel_id"]) == elsewhere and "Replay" in (m.get("content") or "")]
    assert result.ephemeral and "another channel" in result.content, result.content
    assert posted == []


async def test_forged_rules_from_another_server_is_refused(discord_driver, fake_discord,
                                                            tmp_path):
    """Rules & details of another server's game (its seats' names, its last turns)."""
    _guild, elsewhere = await _other_server(fake_discord)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("steam", "new", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    forged = _forge(fake_discord, elsewhere, button_id(game.id, game.row.version,
                                                       "table.rules.icons.0"))
    result = await discord_driver.click(forged, forged["components"][0]["components"][0][
        "custom_id"], user="bob")
    shown = str(result.embeds)
    assert "Alice" not in shown, f"another server's table shown: {shown[:300]}"


async def test_forged_share_elsewhere_leaves_the_real_share(discord_driver, fake_discord,
                                                            tmp_path):
    """Bob forges Share of Alice's finished daily deal in another server: refused, so
    Alice's own Share still posts her result."""
    spoiled, _elsewhere, board = await _forged_elsewhere(discord_driver, fake_discord,
                                                         tmp_path, "daily", "table.share")
    assert spoiled.ephemeral and "another channel" in spoiled.content, spoiled.content
    real = await discord_driver.click(board, button(board, "table.share"), user="alice")
    assert not real.ephemeral, real.content


def _rewritten(fake, message: dict, custom_id: str, user: str) -> dict:
    """A click on ``message`` whose custom_id a modified client rewrote to ``custom_id``."""
    from tests.fake_discord import payloads

    shown = fake.get_message(message["id"])
    real = next(c["custom_id"] for c in payloads.iter_components(shown["components"])
                if "custom_id" in c and not c.get("disabled"))
    payload = fake.component_payload(message["id"], real, user=user)
    payload["data"] = {"custom_id": custom_id, "component_type": 2}
    fake.register_interaction(payload)
    return payload


async def test_a_rules_page_forged_on_the_board_is_shown_privately(discord_driver,
                                                                   fake_discord, tmp_path):
    """A page of "Rules & details" clicked on the public board is shown privately: the
    board keeps its moves."""
    from tests.support import board_ids

    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    moves = board_ids(board)
    forged = button_id(game.id, game.row.version, "table.rules.rules.0")
    result = await discord_driver.feed(_rewritten(fake_discord, board, forged, "bob"))
    assert result.ephemeral and result.embeds
    assert board_ids(fake_discord.get_message(board["id"])) == moves


async def test_a_move_forged_on_another_games_board_leaves_it_alone(discord_driver,
                                                                    fake_discord, tmp_path):
    """A move of the channel's new game clicked on the last game's ended board is not
    valid: that board keeps its result and its Replay."""
    from tests.support import board_ids

    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _old, _states, old_board = await _finish(discord_driver, fake_discord, bot)
    before = board_ids(old_board, table=True)
    await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    forged = button_id(game.id, game.row.version, game.legal_actions(0)[0].id)
    result = await discord_driver.feed(_rewritten(fake_discord, old_board, forged, "bob"))
    await discord_driver.settle()
    assert result.ephemeral and result.content == NOT_VALID
    assert board_ids(fake_discord.get_message(old_board["id"]), table=True) == before


async def test_a_start_refused_at_the_open_games_cap_opens_no_thread(discord_driver,
                                                                     fake_discord, tmp_path):
    """A member at the open-games cap asking again and again for a game in a thread of
    its own is refused before any thread is opened (none is left behind)."""
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",), MAX_OPEN_GAMES=1))
    other = fake_discord.add_channel("other")
    await discord_driver.slash("tinker", "start", {"thread": "no"}, user="bob")
    first = len(fake_discord.requests)
    for _ in range(3):
        refused = await discord_driver.slash("tinker", "start", {"thread": "yes"},
                                             user="bob", channel=other)
        assert refused.ephemeral and "You already have 1 game going" in refused.content
    opened = [r for r in fake_discord.requests[first:]
              if r.method == "POST" and r.path.endswith("/threads")]
    assert opened == [] and fake_discord.threads_under(other) == []
