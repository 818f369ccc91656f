"""Drills: Discord answers with bursts of 429 and 5xx, too late (10062), or twice (40060)."""

import logging

import pytest

from tests.drills.checks import checked_games
from tests.support import board_ids, make_bot

COGS = ("cogs.tinker",)
CALLBACK = r"/interactions/\d+/[^/]+/callback"


async def _boards(driver, fake, count):
    boards = []
    for index in range(count):
        channel = fake.add_channel(f"table-{index}")
        result = await driver.slash("tinker", "start", user="alice", channel=channel)
        boards.append(result.message)
    return boards


async def _click_all(driver, fake, boards):
    """Click the first button of every board at once; return the results in order."""
    bot = driver.client
    payloads = [fake.component_payload(b, board_ids(b)[0], user="bob") for b in boards]
    records = [fake.register_interaction(p) for p in payloads]
    for payload in payloads:
        bot._connection.parse_interaction_create(payload)
    await driver.settle()
    return records


async def test_burst_of_429_and_5xx_on_answers(discord_driver, fake_discord, tmp_path):
    """429s then 5xx on click answers: answered once Discord recovers or told, applied once.

    discord.py retries a 429 after its retry_after and a 5xx after 1 + 2 x attempt
    seconds, so a click that met a 5xx may be retried after the 3 s an interaction
    lives (how late depends on the machine's load): then that player sees "This
    interaction failed" and the board, edited through the channel, shows their move.
    """
    fake = fake_discord
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    boards = await _boards(discord_driver, fake, 6)
    fake.fail_next("POST", CALLBACK, 429, retry_after=0.05, times=6)
    fake.fail_next("POST", CALLBACK, 503, times=3)
    records = await _click_all(discord_driver, fake, boards)
    met_5xx = {int(r.path.split("/")[2]) for r in fake.requests if r.status == 503}
    assert len(met_5xx) == 3
    for record, board in zip(records, boards, strict=True):
        if record.id in met_5xx and record.response_type is None:  # retried too late
            edits = [r for r in fake.requests if r.method == "PATCH"
                     and r.path.endswith(f"/messages/{board['id']}") and r.status == 200]
            assert len(edits) == 1
        else:
            assert record.response_type == 7
        shown = board_ids(fake.get_message(board["id"]))
        assert shown and all(":1:" in cid for cid in shown)
    games = checked_games(tmp_path / "bot.db")
    assert sorted(version for _, version, _ in games.values()) == [1] * 6


async def test_5xx_until_too_late_edits_the_board(discord_driver, fake_discord, tmp_path):
    """5xx until the token dies: the move is kept once, the board edited through the channel."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake.response_deadline = 0.5
    (board,) = await _boards(discord_driver, fake, 1)
    fake.fail_next("POST", CALLBACK, 502, times=1)
    fake.fail_next("PATCH", r"/channels/\d+/messages/\d+", 429, retry_after=0.05, times=1)
    (record,) = await _click_all(discord_driver, fake, [board])
    assert record.response_type is None  # the player saw "This interaction failed"...
    edited = fake.get_message(board["id"])  # ...and the board moved on regardless
    game = await bot.tables.open_in_channel(int(board["channel_id"]))
    assert game.row.version == 1
    assert board_ids(edited) and all(":1:" in cid for cid in board_ids(edited))
    retry = fake.post_message({k: v for k, v in board.items() if k != "id"},
                              int(board["channel_id"]))
    again = await discord_driver.click(retry, board_ids(board)[0], user="bob")
    assert again.ephemeral and "out of date" in again.content
    games = checked_games(tmp_path / "bot.db")
    assert [version for _, version, _ in games.values()] == [1]


@pytest.mark.parametrize(("status", "code"), [(404, 10062), (400, 40060)])
async def test_late_or_acknowledged_answer_is_one_warning(
    discord_driver, fake_discord, tmp_path, caplog, status, code
):
    """10062 / 40060 on a click's answer: one WARNING, no crash, the game intact and shown."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    (board,) = await _boards(discord_driver, fake, 1)
    caplog.clear()
    fake.fail_next("POST", CALLBACK, status, code=code)
    result = await discord_driver.click(board, board_ids(board)[0], user="bob")
    noted = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert [(r.levelname, r.name) for r in noted] == [("WARNING", "bot.boards.clicks")]
    assert str(code) in noted[0].getMessage()
    assert result.record.response_type is None
    game = await bot.tables.open_in_channel(int(board["channel_id"]))
    assert game.row.version == 1 and not game.broken
    assert all(":1:" in cid for cid in board_ids(fake.get_message(board["id"])))
    next_click = await discord_driver.click(fake.get_message(board["id"]),
                                            board_ids(fake.get_message(board["id"]))[0],
                                            user="bob")
    assert next_click.response_type == 7
    assert [version for _, version, _ in checked_games(tmp_path / "bot.db").values()] == [2]
