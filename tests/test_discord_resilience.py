"""Boards that must never get stuck, and a shutdown that waits for commands too."""

import asyncio
import itertools

from tests.support import ALICE, Clock, abandon, board_ids, button, make_bot


async def _start(driver, tmp_path, **kw):
    bot = await driver.login(make_bot(tmp_path, **kw))
    result = await driver.slash("toy", "start", user="alice")
    return bot, result.message


async def test_lost_answer_and_failed_edit_still_heal(discord_driver, fake_discord, tmp_path):
    """If both the answer and the board edit fail, the next click brings the board up to date."""
    bot, board = await _start(discord_driver, tmp_path)
    fake_discord.fail_next("POST", r"/interactions/.*/callback", 404, code=10062)
    fake_discord.fail_next("PATCH", rf"/channels/\d+/messages/{board['id']}", 403, code=50001)
    await discord_driver.click(board, button(board, "add1"), user="bob")
    behind = fake_discord.get_message(board["id"])
    assert all(":0:" in cid for cid in board_ids(behind))
    healed = await discord_driver.click(behind, button(behind, "add1"), user="bob")
    assert healed.response_type == 7
    assert all(":1:" in cid for cid in healed.custom_ids)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.state.count == 1


async def test_board_of_a_game_ended_before_its_answer_is_healed(discord_driver, fake_discord,
                                                                  tmp_path):
    """A game whose final move was saved but never shown: the next click shows the end."""
    bot, board = await _start(discord_driver, tmp_path)
    for _ in range(4):
        board = (await discord_driver.click(board, button(board, "add2"), user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    play = await bot.tables.act(game.id, game.row.version, ALICE, "add2")  # never answered
    assert play.finished
    await discord_driver.restart(make_bot(tmp_path))
    result = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert result.response_type == 7 and board_ids(result.message) == []
    assert "over" in result.message["embeds"][0]["footer"]["text"]


async def test_failed_confirmation_prompt_is_only_a_warning(discord_driver, fake_discord,
                                                           tmp_path):
    """If the "Are you sure?" prompt cannot be sent (10062), nothing is logged as an error."""
    await _start(discord_driver, tmp_path)
    ghost = fake_discord.post_message({
        "content": "board with a confirmation",
        "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "Add 1?", "custom_id": "g1:1:0:ask.add1"}]}],
    })
    fake_discord.fail_next("POST", r"/interactions/.*/callback", 404, code=10062)
    result = await discord_driver.click(ghost, "g1:1:0:ask.add1", user="alice")
    assert result.response_type is None


async def test_ended_games_are_forgotten_by_the_boards(discord_driver, fake_discord, tmp_path):
    """Games ended by /abandon or the sweeper leave nothing behind in the boards' memory."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock))
    for i in range(3):
        channel = fake_discord.add_channel(f"a{i}")
        await discord_driver.slash("toy", "start", user="alice", channel=channel)
        await abandon(discord_driver, "toy", "alice", channel=channel)
    for i in range(3):
        await discord_driver.slash("toy", "start", user="alice",
                                   channel=fake_discord.add_channel(f"b{i}"))
    assert len(bot.boards.messages.shown) == 3
    clock.advance(8 * 86400)
    assert await bot.sweep_once() == 3
    assert bot.boards.messages.shown == {} and bot.tables.core.locked_games() == 0


async def test_shutdown_waits_for_a_command_in_flight(discord_driver, fake_discord, tmp_path):
    """Closing the bot lets a /start that is waiting on Discord finish and post its board."""
    bot = await discord_driver.login(make_bot(tmp_path))
    fake_discord.fail_next("POST", r"/interactions/.*/callback", 429, retry_after=0.5)
    command = asyncio.create_task(discord_driver.slash("toy", "start", user="alice"))
    await fake_discord.wait_for_request("POST", r"/interactions/.*/callback")
    await bot.close()
    result = await asyncio.wait_for(command, 10)
    assert result.response_type == 4 and board_ids(result.message)


async def test_no_new_command_while_closing(discord_driver, fake_discord, tmp_path):
    """Once shutdown has begun, a new command gets a private "restarting" reply."""
    bot = await discord_driver.login(make_bot(tmp_path))
    bot.tables.closing = True
    result = await discord_driver.slash("toy", "start", user="alice")
    assert result.ephemeral and "restarting" in result.content
    assert await bot.store.count_open() == 0


async def test_click_while_closing_claims_nothing(discord_driver, fake_discord, tmp_path):
    """A click reaching a stopping process is acknowledged silently and told, privately,
    to press again if the board did not change (another process may have applied it)."""
    bot = await discord_driver.login(make_bot(tmp_path))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    bot.tables.closing = True
    result = await discord_driver.click(board, button(board, "add1"), user="bob")
    assert result.response_type == 6
    assert [f["content"] for f in result.followups] == [
        "The bot is restarting: if the board did not change, press again in a few seconds."
    ]
    assert all(f["flags"] & 64 for f in result.followups)
    bot.tables.closing = False
    assert (await bot.tables.open_in_channel(fake_discord.channel_id)).row.version == 0
    assert board_ids(fake_discord.get_message(board["id"]))  # the board itself is untouched


async def test_clicks_on_an_ended_board_that_shows_the_end_edit_nothing(discord_driver,
                                                                        fake_discord,
                                                                        tmp_path):
    """Crafted move clicks on a board that already shows the game's end: each gets a
    private line, and the board is not edited (no picture uploaded again)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    board = (await discord_driver.slash("tinker", "start", {"players": "only me"},
                                        user="alice")).message
    move = board_ids(board)[0]
    await abandon(discord_driver, "tinker", "alice")
    ended = await bot.tables.load(int(move.split(":")[1]))
    assert not ended.row.is_open
    await discord_driver.settle()
    stored = fake_discord.get_message(board["id"])
    assert all(":table." in cid for cid in board_ids(stored, table=True))
    for _ in range(5):
        payload = fake_discord.component_payload(stored, board_ids(stored, table=True)[0],
                                                 user="alice")
        payload["data"]["custom_id"] = move  # a move button the board no longer has
        result = await discord_driver.feed(payload)
        assert result.ephemeral
        assert [r for r in result.requests if r.method == "PATCH"] == []
        assert all(r.uploads == [] for r in result.requests)


async def test_board_edits_keep_their_interval_whenever_votes_arrive(discord_driver,
                                                                    fake_discord, tmp_path):
    """A vote that arrives just after each edit of the board: the bot's own edits of one
    board stay at least BOARD_EDIT_SECONDS apart."""
    bot = await discord_driver.login(make_bot(tmp_path, BOARD_EDIT_SECONDS=0.4))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    path = f"/channels/{board['channel_id']}/messages/{board['id']}"
    for _ in range(4):
        bot.boards.messages.update_soon(game.id)
        await discord_driver.settle()  # the edit went out; the next vote comes right after
    edits = [r.time for r in fake_discord.requests if r.method == "PATCH" and r.path == path]
    assert len(edits) == 4
    assert all(later - earlier >= 0.39 for earlier, later in itertools.pairwise(edits))
