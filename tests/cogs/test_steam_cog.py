"""Steam to Solar in Discord, through the offline fake: lobby, turns, restarts, the end."""

from bot.games.steam.engine import ENGINE
from cogs.steam import SteamCog
from tests.support import (
    board_ids,
    button,
    every_page,
    host_board,
    host_does,
    longest_board_within_limits,
    make_bot,
    press,
)

COGS = ("cogs.steam",)


async def _current_board(bot, fake):
    game = await bot.tables.open_in_channel(fake.channel_id)
    if game is None:
        return None, None
    return game, fake.get_message(game.row.board_message_id)


async def _open_table(driver, fake, tmp_path):
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", user="alice")).message
    assert "table open" in board["embeds"][0]["title"]
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    board = await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot


async def _human_turns(driver, fake, bot, *, restart_mid_action=False, tmp_path=None):
    names = {0: "alice", 1: "bob"}
    restarted = False
    turns = 0
    while True:
        game, board = await _current_board(bot, fake)
        if game is None:
            assert restarted or not restart_mid_action, "no multi-step action to restart in"
            return bot, turns
        seat = game.to_act()
        assert seat in names, "the computer player should have moved by itself"
        other = names[1 - seat]
        action = game.engine.computer_action(game.state, seat)
        if turns == 0:
            kind = "select" if action.startswith(("t1", "t2")) else "button"
            refused = await press(driver, board, action, other)
            assert refused.ephemeral and "turn" in refused.content, kind
        result = await press(driver, board, action, names[seat])
        assert result.response_type == 7, result.content
        # one request answers the click; the others are the computer player's board edits
        # and the turn notices (one posted, the one before deleted)
        assert [r.method for r in result.requests if "/interactions/" in r.path] == ["POST"]
        others = [r for r in result.requests if "/interactions/" not in r.path]
        assert all(r.method in ("PATCH", "POST", "DELETE") for r in others)
        assert all("/messages" in r.path for r in others)
        await driver.settle()
        turns += 1
        pending = game.engine.view((await bot.tables.load(game.id)).state)["pending"]
        if restart_mid_action and not restarted and pending is not None:
            bot = await driver.restart(make_bot(tmp_path, cogs=COGS))
            await bot.boards.resume_computers()
            restarted = True
        assert turns < 2000


async def test_three_seat_game_from_lobby_to_final_scores(discord_driver, fake_discord,
                                                          tmp_path):
    """Two people and a computer player play from the lobby to the final scores by clicks."""
    bot = await _open_table(discord_driver, fake_discord, tmp_path)
    game, board = await _current_board(bot, fake_discord)
    assert [s["computer"] for s in game.row.seats] == [False, False, True]
    assert board["embeds"][0]["title"].endswith(" to play")
    bot, turns = await _human_turns(discord_driver, fake_discord, bot)
    assert turns > 10
    finished = await bot.store.get_game(game.id)
    assert finished.status == "over"
    final = fake_discord.get_message(finished.board_message_id)
    assert "🏁" in final["embeds"][0]["description"] and board_ids(final) == []
    results = await bot.store.results()
    assert {r["user_id"] for r in results} == {
        fake_discord.user("alice").id, fake_discord.user("bob").id
    }
    assert all(r["kind"] == "steam" and set(r["detail"]) >= {"points", "tokens"} for r in results)


async def test_restart_in_the_middle_of_a_multi_step_action(discord_driver, fake_discord,
                                                            tmp_path):
    """A restart while a take or run is half done loses nothing; the game goes on."""
    bot = await _open_table(discord_driver, fake_discord, tmp_path)
    bot, turns = await _human_turns(discord_driver, fake_discord, bot, restart_mid_action=True,
                                    tmp_path=tmp_path)
    assert turns > 10
    assert (await bot.store.results())


async def test_resign_asks_first_then_ends_a_two_player_game(discord_driver, fake_discord,
                                                             tmp_path):
    """Resign asks for confirmation privately; confirmed, a 2-player game ends."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = await host_board(discord_driver, board, "lobby.start")
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert ask.ephemeral and ask.content.startswith("Resign from this Steam to Solar game?")
    assert "score nothing" in ask.content and "no computer plays your seat" in ask.content
    game, _ = await _current_board(bot, fake_discord)
    assert game.row.version == 2
    done = await discord_driver.click(ask.message, ask.custom_ids[0], user="bob")
    assert done.response_type == 7
    finished = await bot.store.get_game(game.id)
    assert finished.status == "over"
    outcomes = {r["user_id"]: r["outcome"] for r in await bot.store.results()}
    assert outcomes == {fake_discord.user("alice").id: "win", fake_discord.user("bob").id: "loss"}
    board = fake_discord.get_message(finished.board_message_id)
    assert board_ids(board) == []


async def test_stranger_and_rules(discord_driver, fake_discord, tmp_path):
    """A member not seated is refused privately; /steam rules is private."""
    bot = await _open_table(discord_driver, fake_discord, tmp_path)
    fake_discord.add_user("carol")
    game, board = await _current_board(bot, fake_discord)
    action = game.engine.computer_action(game.state, game.to_act())
    refused = await press(discord_driver, board, action, "carol")
    assert refused.ephemeral and "not seated" in refused.content
    rules = await discord_driver.slash("steam", "rules", user="carol")
    assert rules.ephemeral
    pages = await every_page(discord_driver, rules, "carol")
    assert len({f["name"].removesuffix(" (continued)") for e in pages for f in e["fields"]}) == 6


def test_board_fits_discord_limits_with_five_players():
    """Every board of 40 five-seat games (embed and components) fits Discord's limits."""
    names = [f"Player number {i} with a long name!!" for i in range(5)]
    states = [ENGINE.new(seed, 5, {"names": names}) for seed in range(40)]
    assert 0 < longest_board_within_limits(SteamCog(None), ENGINE, states, seats=5) <= 6000


async def test_s3_host_may_take_the_first_turn(discord_driver, fake_discord, tmp_path):
    """S3: the host can choose to start instead of drawing the first player (with a
    table seed whose draw would have Bob start: else the check could pass by chance)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    seed = next(s for s in range(100)
                if ENGINE.view(ENGINE.new(s, 2, {"names": ["Alice", "Bob"]}))["start_seat"] == 1)
    bot.tables.core.seeds = lambda: seed
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_does(discord_driver, board, "lobby.start", "alice")
    game, _ = await _current_board(bot, fake_discord)
    assert game.to_act() == 0
    assert ENGINE.view(game.state)["start_seat"] == 0


async def test_cancelled_lobby_says_so(discord_driver, fake_discord, tmp_path):
    """The host's Cancel leaves a board saying the table was abandoned, nothing damaged,
    and no word of the Join and Host controls buttons it no longer has."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    closed = await host_board(discord_driver, board, "lobby.cancel")
    embed = closed["embeds"][0]
    assert embed["title"].endswith("table closed") and closed["components"] == []
    assert embed["description"].startswith("This table closed before its game began.")
    assert "**" not in embed["description"]
    assert embed["footer"]["text"] == "This game was abandoned."
    hint = await discord_driver.slash("steam", "board", user="bob")
    assert hint.ephemeral and "/steam new" in hint.content


async def test_resign_refused_at_once_for_those_who_cannot(discord_driver, fake_discord,
                                                           tmp_path):
    """Resign is refused straight away for a member not seated, or one who resigned."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("carol")
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="carol")).message
    board = await host_board(discord_driver, board, "lobby.start")
    fake_discord.add_user("dave")
    stranger = await discord_driver.click(board, button(board, "ask.resign"), user="dave")
    assert stranger.ephemeral and "not seated" in stranger.content
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="bob")
    _game, board = await _current_board(bot, fake_discord)
    again = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert again.ephemeral and "resigned" in again.content
