"""Steam to Solar in the offline Discord: a train runs, ships and scores in one click (S8)."""

from __future__ import annotations

from tests.cogs.test_steam_table import _play_turn, _table
from tests.support import button

#: Turns played by the computer's logic, at most, before a person can run a train.
MAX_TURNS = 80


def _whole_runs(message: dict) -> list[dict]:
    """The board's buttons that run a train in one go."""
    return [c for row in message.get("components") or [] for c in row["components"]
            if c.get("type") == 2 and ":go:" in c.get("custom_id", "")]


async def test_s8_one_click_runs_ships_and_scores(discord_driver, fake_discord, tmp_path):
    """S8: when a person's train can run, the board shows "Run train N on … · ship all · N
    pts"; one click runs it, ships every goods card and scores those points, the turn
    passes on, and nothing private is sent."""
    bot, _board = await _table(discord_driver, fake_discord, tmp_path)
    users = {0: "alice", 1: "bob"}
    for _ in range(MAX_TURNS):
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        board = fake_discord.get_message(game.row.board_message_id)
        if _whole_runs(board):
            break
        await _play_turn(discord_driver, fake_discord, bot, users)
    runs = _whole_runs(board)
    assert runs, "no person could run a train"
    seat = game.to_act()
    before = game.view()["players"][seat]["score"]
    run = runs[0]
    label = run["label"]
    points = int(label.rsplit("·", 1)[1].split()[0])
    assert label.startswith("Run train ") and "ship all" in label
    action = run["custom_id"].split(":", 3)[3]

    result = await discord_driver.click(board, button(board, action), user=users[seat])
    await discord_driver.settle()

    assert result.response_type == 7 and not result.ephemeral
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    after = game.view()["players"][seat]
    assert after["score"] == before + points
    assert game.to_act() != seat or game.view()["over"]
    assert f"scores {points}" in " ".join(game.row.events[-4:])
    assert not result.followups
