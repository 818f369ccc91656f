"""Drill: one game's stored state is damaged; that game says so, every other goes on."""

import json

import pytest

from tests.drills.checks import checked_games
from tests.support import abandon, board_ids, make_bot

COGS = ("cogs.tinker",)


def _unknown_schema(raw):
    state = json.loads(raw)
    state["schema"] = 999
    return json.dumps(state)


@pytest.mark.parametrize(
    "damage", [lambda raw: raw[: len(raw) // 2], _unknown_schema], ids=["bad-json", "schema-999"]
)
async def test_damaged_game_is_reported_and_can_be_abandoned(
    discord_driver, fake_discord, tmp_path, damage
):
    """A damaged state: clicks say "damaged", it can be abandoned, every other game plays on."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    damaged_channel = fake.add_channel("damaged")
    damaged = (await discord_driver.slash("tinker", "start", user="alice",
                                          channel=damaged_channel)).message
    healthy = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(damaged_channel)
    raw = game.row.raw_state
    await bot.store.connection.execute(  # noticed by the save's compare-and-swap (KeptRows)
        "UPDATE games SET state = ?, updated_at = updated_at + 1 WHERE id = ?",
        (damage(raw), game.id),
    )

    click = await discord_driver.click(damaged, board_ids(damaged)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    played = await discord_driver.click(healthy, board_ids(healthy)[0], user="bob")
    assert played.response_type == 7

    ended = await abandon(discord_driver, "tinker", "alice", channel=damaged_channel)
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(damaged_channel) is None
    board = fake.get_message(damaged["id"])
    assert board_ids(board) == [] and "damaged" in board["embeds"][0]["footer"]["text"]
    fresh = await discord_driver.slash("tinker", "start", user="alice", channel=damaged_channel)
    assert board_ids(fresh.message)

    await bot.store.connection.execute("DELETE FROM games WHERE id = ?", (game.id,))
    statuses = sorted(status for status, _, _ in checked_games(tmp_path / "bot.db").values())
    assert statuses == ["active", "active"]


@pytest.mark.parametrize(("column", "value"), [
    ("kind", "chess"), ("seats", '"nobody"'), ("seats", "[1, 2]"), ("extra", "[1]"),
    ("extra", '{"poll": 5}'),
], ids=["unknown-kind", "seats-not-a-list", "seats-not-seats", "extra-not-an-object",
        "extra-poll-unreadable"])
async def test_a_damaged_row_is_reported_abandoned_and_the_channel_plays_again(
    discord_driver, fake_discord, tmp_path, column, value
):
    """A row this code cannot read (a kind it no longer has, unreadable seats or table
    data): a click says it is damaged, a start names the game in the way, the starter can
    abandon it, and the channel starts a new game."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ?, updated_at = updated_at + 1 WHERE id = ?",
        (value, game.id),
    )
    bot.store.kept.drop()  # as another process would: the kept row is out of date
    click = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    busy = await discord_driver.slash("tinker", "start", user="bob")
    assert busy.ephemeral
    ended = await abandon(discord_driver, "tinker", "alice")
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    fresh = await discord_driver.slash("tinker", "start", user="alice")
    assert board_ids(fresh.message)


@pytest.mark.parametrize(("column", "value"), [
    ("seats", '[{"user_id": 1, "na'), ("extra", "{poll: none"), ("options", "not json"),
    ("events", "[\"half"),
], ids=["seats-not-json", "extra-not-json", "options-not-json", "events-not-json"])
async def test_a_column_that_is_not_json_is_a_damaged_game(
    discord_driver, fake_discord, tmp_path, column, value, backend
):
    """Seats, options, events or table data whose stored text is not JSON: the store
    still reads the row (on both backends), a click says the game is damaged, a start
    names the game in the way, the starter abandons it and the channel plays again; a
    member of it can still /forget-me."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ?, updated_at = updated_at + 1 WHERE id = ?",
        (value, game.id),
    )
    bot.store.kept.drop()
    row = await bot.store.get_game(game.id)
    assert row is not None and row.damaged == (column,)
    click = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    busy = await discord_driver.slash("tinker", "start", user="bob")
    assert busy.ephemeral
    ended = await abandon(discord_driver, "tinker", "alice")
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    fresh = await discord_driver.slash("tinker", "start", user="alice")
    assert board_ids(fresh.message)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ? WHERE id = ?", (value, game.id))
    alice = fake_discord.user("alice").id
    assert await bot.store.forget_player(alice, "a former player") >= 0
    after = await bot.store.get_game(game.id)
    assert after is not None and after.starter_id == 0
