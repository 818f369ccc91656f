"""Drill: one game's stored state is damaged; that game says so, every other goes on."""

import json

import pytest

from tests.drills.checks import checked_games
from tests.support import board_ids, make_bot

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

    ended = await discord_driver.slash("tinker", "abandon", user="alice",
                                       channel=damaged_channel)
    assert not ended.ephemeral and "abandoned" in ended.content
    assert await bot.tables.open_in_channel(damaged_channel) is None
    board = fake.get_message(damaged["id"])
    assert board_ids(board) == [] and "damaged" in board["embeds"][0]["footer"]["text"]
    fresh = await discord_driver.slash("tinker", "start", user="alice", channel=damaged_channel)
    assert board_ids(fresh.message)

    await bot.store.connection.execute("DELETE FROM games WHERE id = ?", (game.id,))
    statuses = sorted(status for status, _, _ in checked_games(tmp_path / "bot.db").values())
    assert statuses == ["active", "active"]
