"""Replays and shared daily results in Discord, through the offline fake: the Replay and
Share buttons of an ended board, ``/<game> replay``, and their refusals."""

from __future__ import annotations

import asyncio
import io
import time

import pytest
from PIL import Image

import bot.boards.replay as replay_boards
from bot.boards.render import picture_view
from bot.boards.replay import REPLAY_AGAIN_AFTER
from bot.games import registry
from bot.games.registry import engine
from bot.pictures import draw_picture
from bot.pictures.endings import ending
from bot.pictures.replay import FILENAME, draw_frames
from bot.table.daily import day_end, replays_open
from bot.table.replay import frames
from bot.table.service import Actor
from bot.table.share import share_text
from tests.fake_discord import payloads
from tests.pictures.test_replay import gif_frames, same_board
from tests.support import (
    Clock,
    abandon,
    board_ids,
    button,
    host_board,
    make_bot,
    play_out_and_share,
)

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam")


async def _finish(driver, fake, bot, user: str = "alice"):
    """Play the channel's solo game to its end as ``user``; return it, its states and the
    board message as it is afterwards."""
    member = fake.user(user)
    game = await bot.tables.open_in_channel(fake.channel_id)
    states = [game.state]
    while game.row.is_open:
        action = game.engine.computer_action(game.state, 0)
        game = (await bot.tables.act(game.id, game.row.version,
                                     Actor(member.id, member.name), action)).game
        states.append(game.state)
    await bot.boards.messages.refresh(game)
    await driver.settle()
    return game, states, fake.get_message(game.row.board_message_id)


async def _steam_table(driver, fake, tmp_path, lobby_button: str, user: str):
    """Open a Steam to Solar table as Alice, press ``lobby_button`` as ``user`` (a second
    person joins, or a computer is added), start it; return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", user="alice")).message
    board = (await driver.click(board, button(board, lobby_button), user=user)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


def _replay_message(fake, result):
    """The channel message the replay became, and its GIF."""
    message = fake.get_message(result.record.original_message_id)
    return message, fake.attachment_bytes(message, FILENAME)


async def test_replay_button_posts_every_move_of_the_game(discord_driver, fake_discord, tmp_path):
    """An ended board offers Replay; anyone's click posts in the channel a line counting
    the frames, which becomes an animated picture with alt text: one frame per decision,
    each the board the engine gives at that step."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    bot.boards.replays.progress_interval = 0  # every chunk of frames edits the line
    await discord_driver.slash("tinker", "start", user="alice")
    _game, states, board = await _finish(discord_driver, fake_discord, bot)
    ends = [cid.rsplit(":", 1)[-1] for cid in board_ids(board, table=True)]
    assert ends == ["table.again", "table.replay", "table.rules"]
    result = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    assert result.response_type == 4 and not result.ephemeral
    message, gif = _replay_message(fake_discord, result)
    title = "Tinker, Sailor, Soldier, Spy"
    headline = ending("tinker", engine("tinker").view(states[-1]), "over",
                      drawn=False).spoken[0]
    assert message["content"].startswith(
        f"🎞️ Replay of {title}, {len(states) - 1} moves: {headline}")
    edits = [r.json.get("content") for r in result.requests
             if r.method == "PATCH" and "/messages/@original" in r.path and r.json]
    assert any("Drawing the replay" in (c or "") and " of " in (c or "") for c in edits)
    (attachment,) = fake_discord.message_attachments(message)
    assert attachment["description"].startswith("Replay of a game of Tinker")
    shown = gif_frames(gif)
    assert len(shown) == len(states)
    tinker = engine("tinker")
    for i, state in enumerate(states):
        status = "over" if i == len(states) - 1 else "active"
        assert same_board(shown[i], draw_picture("tinker", tinker.view(state), status)), i


async def test_replay_command_replays_the_last_journey(discord_driver, fake_discord, tmp_path):
    """``/tinrealm replay`` replays the channel's last ended journey; before any has ended
    it says privately there is nothing to replay, even while one is going."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    nothing = await discord_driver.slash("tinrealm", "replay", user="bob")
    assert nothing.ephemeral and nothing.content == (
        "No game of this kind has ended in this channel yet, so there is nothing to "
        "replay. A game played in a thread of its own is replayed from its thread.")
    await discord_driver.slash("tinrealm", "start", user="alice")
    going = await discord_driver.slash("tinrealm", "replay", user="bob")
    assert going.ephemeral and "nothing to replay" in going.content
    _game, states, _board = await _finish(discord_driver, fake_discord, bot)
    result = await discord_driver.slash("tinrealm", "replay", user="bob")
    assert result.response_type == 4 and not result.ephemeral
    message, gif = _replay_message(fake_discord, result)
    assert message["content"].startswith("🎞️ Replay of Tin Realm")
    assert len(gif_frames(gif)) == len(states)
    assert Image.open(io.BytesIO(gif)).format == "GIF"


async def test_steam_replay_of_a_table_with_a_computer(discord_driver, fake_discord, tmp_path):
    """A seated game with a computer player replays from its log: each frame is the board."""
    bot, game = await _steam_table(discord_driver, fake_discord, tmp_path,
                                   "lobby.computer", "alice")
    alice = fake_discord.user("alice")
    game_id = game.id
    for _ in range(2000):
        game = await bot.tables.load(game_id)
        if not game.row.is_open:
            break
        seat = game.to_act()
        if game.row.seats[seat].get("computer"):
            bot.boards.schedule_computers(game)
            await discord_driver.settle()
            continue
        action = game.engine.computer_action(game.state, seat)
        await bot.tables.act(game_id, game.row.version, Actor(alice.id, "Alice"), action)
    assert not game.row.is_open
    moves = [a for a in await bot.store.actions(game_id) if "seat" in a["action"]]
    result = await discord_driver.slash("steam", "replay", user="bob")
    assert not result.ephemeral
    _message, gif = _replay_message(fake_discord, result)
    shown = gif_frames(gif)
    assert len(shown) == len(moves) + 1
    # the last frame is the ended board's picture (the computer's seat tagged as such)
    assert same_board(shown[-1], draw_picture("steam", picture_view(game), "over"))


async def test_replay_of_a_pruned_game_is_too_old(discord_driver, fake_discord, tmp_path):
    """Once retention has emptied a finished game, Replay answers privately that it is too
    old, and the board posted afterwards no longer offers it."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    assert await bot.store.prune_finished(before=game.row.updated_at + 10) == 1
    result = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    assert result.ephemeral and "too old" in result.content
    command = await discord_driver.slash("tinker", "replay", user="bob")
    assert command.ephemeral and "too old" in command.content


async def test_a_second_click_while_drawing_draws_nothing(discord_driver, fake_discord, tmp_path):
    """Two clicks on Replay at once: one replay is drawn and posted, the other click is
    told privately that it is on its way."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    custom_id = button(board, "table.replay")
    first, second = await asyncio.gather(
        discord_driver.click(board, custom_id, user="bob"),
        discord_driver.click(board, custom_id, user="carol"),
    )
    answers = sorted([first, second], key=lambda r: r.ephemeral)
    assert not answers[0].ephemeral and answers[1].ephemeral
    assert "being drawn already" in answers[1].content
    posted = [m for m in fake_discord.channel_messages(fake_discord.channel_id)
              if any(a["filename"] == FILENAME for a in m.get("attachments") or [])]
    assert len(posted) == 1


async def test_share_posts_the_daily_result(discord_driver, fake_discord, tmp_path):
    """After a daily deal, Share posts the spoiler-free line for everyone; an ordinary
    game's board has no Share button."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", user="alice")
    game, states, board = await _finish(discord_driver, fake_discord, bot)
    ends = [cid.rsplit(":", 1)[-1] for cid in board_ids(board, table=True)]
    assert ends == ["table.again", "table.replay", "table.share", "table.rules"]
    result = await discord_driver.click(board, button(board, "table.share"), user="bob")
    assert result.response_type == 4 and not result.ephemeral
    tinker = engine("tinker")
    views = [tinker.view(s) for s in states]
    assert result.content == share_text("tinker", game.row.daily, views)
    assert result.content.startswith("Tinker daily · ")
    again = await discord_driver.click(board, button(board, "table.again"), user="bob")
    await _finish(discord_driver, fake_discord, bot, user="bob")
    plain = fake_discord.get_message(
        (await bot.store.get_game(game.id + 1)).board_message_id)
    assert again.response_type == 4
    assert not any(cid.endswith(":table.share") for cid in board_ids(plain, table=True))


async def test_a_share_does_not_keep_the_game_from_its_retention(discord_driver,
                                                                   fake_discord, tmp_path):
    """A daily's result shared again a month after it ended: the game's state and moves
    still go when its retention runs out, counted from its end (docs/records.md)."""
    day = 86400.0
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    await discord_driver.slash("tinker", "daily", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    ended = await bot.store.get_game(game.id)
    clock.now = ended.updated_at + 29 * day
    bot.boards.replays.clock = clock
    shared = await discord_driver.click(board, button(board, "table.share"), user="bob")
    await discord_driver.settle()
    assert not shared.ephemeral
    row = await bot.store.get_game(game.id)
    assert row.updated_at - ended.updated_at < 1
    assert (await bot.tables.load(game.id)).data.shared is not None
    clock.now = ended.updated_at + 31 * day
    await bot.sweep_once()
    assert (await bot.store.get_game(game.id)).state is None


async def test_share_of_a_log_that_no_longer_leads_to_the_end_speaks_of_sharing(
        discord_driver, fake_discord, tmp_path):
    """A daily whose kept moves no longer lead to its end cannot be shared, and Share
    says so in words of sharing."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    await bot.store.connection.execute(
        "DELETE FROM actions WHERE game_id = ? AND seq = ?", (game.id, game.row.version))
    shared = await discord_driver.click(board, button(board, "table.share"), user="bob")
    assert shared.ephemeral and shared.content == (
        "This game cannot be shared: its moves do not lead to how it ended.")


@pytest.mark.parametrize("pressed", ["table.replay", "table.share"])
async def test_an_old_board_of_a_game_no_longer_on_the_bot(discord_driver, fake_discord,
                                                           tmp_path, monkeypatch, pressed):
    """A release drops Tinker; Replay or Share on one of its ended boards says privately
    that the game is no longer on the bot."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily" if pressed == "table.share" else "start",
                               user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    await discord_driver.restart(make_bot(tmp_path, cogs=("cogs.tinrealm", "cogs.steam")))
    monkeypatch.delitem(registry.ENGINES, "tinker")
    told = await discord_driver.click(board, button(board, pressed), user="bob")
    doing = "shared" if pressed == "table.share" else "replayed"
    assert told.ephemeral and told.content == (
        f"That game is no longer on this bot, so it cannot be {doing}.")


async def test_a_log_that_no_longer_leads_to_the_end(discord_driver, fake_discord, tmp_path):
    """If the moves kept no longer lead to the stored end, Replay says privately that the
    game cannot be replayed, every time it is pressed: nothing is posted in the channel."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    await bot.store.connection.execute(
        "DELETE FROM actions WHERE game_id = ? AND seq = ?", (game.id, game.row.version))
    before = len(fake_discord.channel_messages(fake_discord.channel_id))
    for user in ("bob", "bob", "alice"):
        result = await discord_driver.click(board, button(board, "table.replay"), user=user)
        await discord_driver.settle()
        assert result.ephemeral and "cannot be replayed" in result.content
    assert len(fake_discord.channel_messages(fake_discord.channel_id)) == before


async def test_no_replays_without_pictures(discord_driver, fake_discord, tmp_path):
    """With pictures turned off (BOARD_IMAGES, every server's default), an ended board
    offers no Replay and the command says privately why there is none. A server that
    turns its pictures on gets them on its boards, and replays: the bot's setting is
    only the default."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=(*COGS, "cogs.server"),
                                              BOARD_IMAGES="off"))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    ends = [cid.rsplit(":", 1)[-1] for cid in board_ids(board, table=True)]
    assert ends == ["table.again", "table.rules"]
    result = await discord_driver.slash("tinker", "replay", user="bob")
    assert result.ephemeral and "Board pictures are turned off in this server" in result.content
    fake_discord.add_user("admin", permissions=payloads.EVERYONE_PERMISSIONS
                          | payloads.MANAGE_GUILD)
    await discord_driver.slash("tablehouse", "settings", {"pictures": "on"}, user="admin")
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    assert fake_discord.message_attachments(board)
    ends = [cid.rsplit(":", 1)[-1] for cid in board_ids(board, table=True)]
    assert ends == ["table.again", "table.replay", "table.rules"]
    shown = await discord_driver.slash("tinker", "replay", user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(shown.record.original_message_id)
    assert not shown.ephemeral and fake_discord.message_attachments(line), shown.content


async def test_a_replay_discord_refuses_to_take_says_so_on_its_line(
        discord_driver, fake_discord, tmp_path):
    """Discord refuses the animated picture (413, request entity too large): the public
    line says the replay could not be posted, rather than "Drawing…" for good."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    fake_discord.fail_next("PATCH", r"/messages/@original", 413, code=40005,
                           message="Request entity too large")
    result = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(result.record.original_message_id)
    assert "could not be posted" in line["content"] and "Drawing" not in line["content"]
    assert not fake_discord.message_attachments(line)


async def test_a_steam_game_saved_by_the_previous_release_replays(
        discord_driver, fake_discord, tmp_path):
    """A final state saved in Steam to Solar's schema 2 (before computer levels and the
    deck choice, which the engine still reads) is compared with the replay in today's
    form: the game replays."""
    import json

    bot, game = await _steam_table(discord_driver, fake_discord, tmp_path, "lobby.join", "bob")
    people = {fake_discord.user(n).id: fake_discord.user(n) for n in ("alice", "bob")}
    game_id = game.id
    while game.row.is_open:
        seat = game.to_act()
        who = people[game.row.seats[seat]["user_id"]]
        game = (await bot.tables.act(game_id, game.row.version, Actor(who.id, who.name),
                                     game.engine.computer_action(game.state, seat))).game
    old = dict(game.row.state)
    old["schema"] = 2
    del old["deck_kind"]
    old["players"] = [{k: v for k, v in p.items() if k != "level"} for p in old["players"]]
    await bot.store.connection.execute("UPDATE games SET state = ? WHERE id = ?",
                                       (json.dumps(old), game_id))
    result = await discord_driver.slash("steam", "replay", user="bob")
    message, gif = _replay_message(fake_discord, result)
    assert message["content"].startswith("🎞️ Replay of") and gif_frames(gif)


async def test_replay_passes_over_a_table_that_never_started(
    discord_driver, fake_discord, tmp_path
):
    """A Steam table closed before it began (as idle lobbies are, after an hour) has
    nothing to replay: /steam replay shows the game played before it."""
    bot, game = await _steam_table(discord_driver, fake_discord, tmp_path,
                                   "lobby.computer", "alice")
    alice = fake_discord.user("alice")
    while game.row.is_open:
        seat = game.to_act()
        if game.row.seats[seat].get("computer"):
            bot.boards.schedule_computers(game)
            await discord_driver.settle()
        else:
            await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                                 game.engine.computer_action(game.state, seat))
        game = await bot.tables.load(game.id)
    assert game.row.status == "over"
    lobby = (await discord_driver.slash("steam", "new", user="alice")).message
    await host_board(discord_driver, lobby, "lobby.cancel")
    await discord_driver.settle()
    result = await discord_driver.slash("steam", "replay", user="bob")
    assert not result.ephemeral, result.content
    message = fake_discord.get_message(result.record.original_message_id)
    assert fake_discord.attachment_bytes(message, FILENAME)


async def test_replay_when_only_a_table_that_never_started_has_ended(
    discord_driver, fake_discord, tmp_path
):
    """The channel's only ended Steam table closed before it began: /steam replay says
    so privately, not that the game is too old."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    lobby = (await discord_driver.slash("steam", "new", user="alice")).message
    await host_board(discord_driver, lobby, "lobby.cancel")
    await discord_driver.settle()
    result = await discord_driver.slash("steam", "replay", user="bob")
    assert result.ephemeral
    assert result.content == ("That table closed before its game began, so there is "
                              "nothing to replay.")


async def test_share_of_a_pruned_daily_game_speaks_of_sharing(
    discord_driver, fake_discord, tmp_path
):
    """Share on a daily board whose game's moves were deleted (retention) says the game
    is too old to share, not to replay."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    await bot.store.prune_finished(before=game.row.updated_at + 10)
    shared = await discord_driver.click(board, button(board, "table.share"), user="bob")
    assert shared.ephemeral
    assert shared.content == ("That game is too old to share: old games keep only their "
                              "results.")


async def test_a_one_move_replay_says_one_move(discord_driver, fake_discord, tmp_path):
    """A game abandoned after its first move: the replay's line and its alt text say
    "1 move"."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    alice = fake_discord.user("alice")
    action = next(a.id for a in game.legal_actions(0) if a.id != "give_up")
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"), action)
    await abandon(discord_driver, "tinker", "alice")
    await discord_driver.settle()
    result = await discord_driver.slash("tinker", "replay", user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(result.record.original_message_id)
    (attachment,) = fake_discord.message_attachments(line)
    assert line["content"] == ("🎞️ Replay of Tinker, Sailor, Soldier, Spy, 1 move: Game "
                               "abandoned.")
    assert attachment["description"].startswith(
        "Replay of a game of Tinker, Sailor, Soldier, Spy, 1 move, ending: ")


async def test_a_daily_deal_is_replayed_only_once_the_day_after_is_over(
        discord_driver, fake_discord, tmp_path):
    """Every server plays the same daily deal that day, and one started just before
    midnight is finished after it: its Replay (and /tinker replay) is refused privately
    until the day after its day is over too, saying when and pointing to Share; then it
    posts as any replay does."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    await discord_driver.slash("tinker", "daily", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    opens = replays_open(game.row.daily)
    assert opens == day_end(game.row.daily) + 86400
    said = ("A daily game can be replayed once the day after its day is over "
            f"(<t:{int(opens)}:R>), so nobody sees the day's deal before they have played "
            "it. Share posts its result without spoilers.")
    pressed = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    typed = await discord_driver.slash("tinker", "replay", user="bob")
    for refused in (pressed, typed):
        assert refused.ephemeral and refused.content == said
    assert not any((m.get("content") or "").startswith("🎞️")
                   for m in fake_discord.channel_messages(fake_discord.channel_id))
    clock.now = day_end(game.row.daily)  # the next day: someone may still be playing it
    pressed = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    assert pressed.ephemeral and pressed.content == said
    clock.now = opens
    result = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    message, gif = _replay_message(fake_discord, result)
    assert message["content"].startswith("🎞️ Replay of Tinker, Sailor, Soldier, Spy, ")
    assert gif


async def test_share_while_the_drawing_process_is_closed_says_so(discord_driver, fake_discord,
                                                                 tmp_path):
    """Share pressed while the drawing process is closed (the bot stopping): the press is
    answered privately, asking to press again, and nothing is posted."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "daily", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)

    async def closed(*_args):
        raise RuntimeError("the picture drawer is closed")

    bot.boards.replays.drawer.run = closed
    result = await discord_driver.click(board, button(board, "table.share"), user="bob")
    assert result.ephemeral and result.content == (
        "This game's result could not be worked out just now; press Share again in a "
        "moment.")
    assert not any((m.get("content") or "").startswith("Tinker daily")
                   for m in fake_discord.channel_messages(fake_discord.channel_id))


async def test_replay_command_in_a_games_thread_finds_nothing_yet(discord_driver,
                                                                  fake_discord, tmp_path):
    """In the thread of a game still going, ``/tinker replay`` says there is nothing to
    replay, without pointing to threads (it is in one)."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS, GAME_THREADS="on"))
    await discord_driver.slash("tinker", "start", user="alice")
    (thread,) = fake_discord.threads_under()
    nothing = await discord_driver.slash("tinker", "replay", user="bob",
                                         channel=int(thread["id"]))
    assert nothing.ephemeral and nothing.content == (
        "No game of this kind has ended in this channel yet, so there is nothing to "
        "replay.")


async def test_an_abandoned_daily_journeys_replay_waits_without_pointing_to_share(
        discord_driver, fake_discord, tmp_path):
    """An abandoned daily journey has no Share: its Replay is refused until the day is
    over without pointing to one."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    await discord_driver.slash("tinrealm", "daily", user="alice")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    alice = fake_discord.user("alice")
    action = game.legal_actions(0)[0].id
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"), action)
    await abandon(discord_driver, "tinrealm", "alice")
    await discord_driver.settle()
    refused = await discord_driver.slash("tinrealm", "replay", user="bob")
    assert refused.ephemeral and refused.content == (
        "A daily game can be replayed once the day after its day is over "
        f"(<t:{int(replays_open(game.row.daily))}:R>), so nobody sees the day's deal "
        "before they have played it.")


async def test_a_replay_posted_lately_is_pointed_to_not_drawn_again(discord_driver,
                                                                    fake_discord, tmp_path):
    """Replay pressed again soon after the replay was posted: the presser is shown the
    post privately (drawing it costs the drawing process seconds); ten minutes later a
    press draws it again (the post has scrolled away)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    first = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    message, _gif = _replay_message(fake_discord, first)
    again = await discord_driver.click(board, button(board, "table.replay"), user="alice")
    assert again.ephemeral and again.content.startswith("This game's replay was posted here")
    assert f"/{message['id']}" in again.content
    at, link = bot.boards.replays.posted[_game.id]
    bot.boards.replays.posted[_game.id] = (at - REPLAY_AGAIN_AFTER, link)
    later = await discord_driver.click(board, button(board, "table.replay"), user="alice")
    assert later.response_type == 4 and not later.ephemeral
    # the post taken down by another process (a /forget-me there): not pointed to
    await bot.tables.note_replayed(_game.id, None)
    taken = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    assert taken.response_type == 4 and not taken.ephemeral


async def test_c6_a_seat_played_for_its_away_person_is_marked_in_the_replay(
        discord_driver, fake_discord, tmp_path, away_at_once):
    """Bob's seat goes to a computer mid-game: the replay's last frame is the final
    board, 💤 and all, and its alt text says he was away, as the board's does. The deal is
    set: a deal ending in a points tie words its result without " with "."""
    from tests.support import seated_steam

    bot, game = await seated_steam(discord_driver, fake_discord, tmp_path, seed=5)
    people = {fake_discord.user(n).id: fake_discord.user(n) for n in ("alice", "bob", "carol")}
    handed = False
    while game.row.is_open:
        seat = game.to_act()
        if seat == 1 and not handed:
            handed = True
            for asker in ("alice", "carol"):
                await discord_driver.slash("steam", "away",
                                           {"player": fake_discord.user("bob")}, user=asker)
            await discord_driver.settle()
        elif game.seats[seat].away:
            bot.boards.schedule_computers(game)
            await discord_driver.settle()
        else:
            who = people[game.seats[seat].user_id]
            await bot.tables.act(game.id, game.row.version, Actor(who.id, who.name),
                                 game.engine.computer_action(game.state, seat))
        game = await bot.tables.load(game.id)
    assert game.seats[1].away
    await bot.boards.messages.refresh(game)
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    result = await discord_driver.click(board, button(board, "table.replay"), user="carol")
    await discord_driver.settle()
    message, gif = _replay_message(fake_discord, result)
    assert same_board(gif_frames(gif)[-1], fake_discord.attachment_bytes(board, "board.png"))
    assert ", away" in fake_discord.message_attachments(message)[0]["description"]
    assert message["content"].startswith("🎞️ Replay of Steam to Solar, ")
    assert " with " in message["content"] and "Bob " in message["content"]  # the result


async def test_a_forged_replay_click_from_another_server_learns_nothing(
        discord_driver, fake_discord, tmp_path):
    """Bob forges Alice's Replay button in another server just after her replay was
    posted: he is refused as from another channel, not handed the link to it."""
    from bot.boards.custom_ids import button_id
    from tests.cogs.test_forged_clicks import _forge, _other_server

    _guild, elsewhere = await _other_server(fake_discord)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    game, _states, board = await _finish(discord_driver, fake_discord, bot)
    real = await discord_driver.click(board, button(board, "table.replay"), user="alice")
    await discord_driver.settle()
    assert not real.ephemeral
    forged_id = button_id(game.id, game.row.version, "table.replay")
    forged = await discord_driver.click(_forge(fake_discord, elsewhere, forged_id), forged_id,
                                        user="bob")
    assert forged.ephemeral and "another channel" in forged.content
    assert "discord.com/channels" not in forged.content


async def test_a_replay_too_large_to_post_is_not_drawn_again(discord_driver, fake_discord,
                                                             tmp_path, monkeypatch):
    """A replay larger than Discord takes says so on its line; a press again is told so
    privately, without drawing every frame again or posting another line."""
    monkeypatch.setattr("bot.boards.replay.UPLOAD_LIMIT", 1000)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    first = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    line = fake_discord.get_message(first.record.original_message_id)
    assert "too large to post" in line["content"]
    before = len(fake_discord.channel_messages(fake_discord.channel_id))
    again = await discord_driver.click(board, button(board, "table.replay"), user="alice")
    await discord_driver.settle()
    assert again.ephemeral and "too large to post" in again.content
    assert len(fake_discord.channel_messages(fake_discord.channel_id)) == before


async def test_a_daily_played_in_its_own_thread_is_shared_in_the_channel(
        discord_driver, fake_discord, tmp_path):
    """A daily deal played in a thread of its own (GAME_THREADS on): Share posts the
    result in the channel it was started from, where the others are (the thread archives
    itself soon after), and tells the clicker where; a tap again points there."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, GAME_THREADS="on"))
    await discord_driver.slash("tinker", "daily", user="alice")
    (thread,) = fake_discord.threads_under()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    shared = await play_out_and_share(discord_driver, fake_discord, bot, game)
    posted = [m for m in fake_discord.channel_messages(fake_discord.channel_id)
              if (m.get("content") or "").startswith("Tinker daily · ")]
    assert len(posted) == 1
    assert shared.ephemeral and shared.content.startswith(f"Shared in <#{fake_discord.channel_id}>")
    assert not [m for m in fake_discord.channel_messages(int(thread["id"]))
                if " daily" in (m.get("content") or "")]
    board = fake_discord.get_message(game.row.board_message_id)
    again = await discord_driver.click(board, button(board, "table.share"), user="bob")
    assert again.ephemeral and f"/{posted[0]['id']}" in again.content


def _slow_frames(kind, chunk):
    """Draw a chunk of a replay's frames, slowly (a busy machine)."""
    time.sleep(0.5)
    return draw_frames(kind, chunk)


async def test_a_stop_while_a_replay_is_drawn_says_so_on_its_line(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The bot stops (a deploy) while a replay is drawn, longer than the stop waits for
    clicks: its public line says the replay could not be finished and how to get it,
    rather than "Drawing…" for good; nothing is logged as an error."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    await discord_driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(discord_driver, fake_discord, bot)
    monkeypatch.setattr(replay_boards, "draw_frames", _slow_frames)
    drain = bot.tables.drain
    monkeypatch.setattr(bot.tables, "drain", lambda timeout=10.0: drain(0.2))
    click = asyncio.ensure_future(
        discord_driver.click(board, button(board, "table.replay"), user="bob"))
    lines: list[dict] = []
    for _ in range(100):
        await asyncio.sleep(0.05)
        lines = [m for m in fake_discord.channel_messages()
                 if (m.get("content") or "").startswith("🎞️ Drawing")]
        if lines:
            break
    assert lines
    await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    await asyncio.wait_for(click, 30)
    line = fake_discord.get_message(lines[0]["id"])
    assert line["content"] == replay_boards.STOPPED and not line.get("attachments")


async def _replay_held(driver, fake, tmp_path, monkeypatch, held_at):
    """A Tinker game played out; its replay is pressed and held at ``held_at`` (a step
    of the drawing, or "kept": the post being kept with the game) until the returned
    event is set. Return the bot, the event and the click's future."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    await driver.slash("tinker", "start", user="alice")
    _game, _states, board = await _finish(driver, fake, bot)
    replays = bot.boards.replays
    replays.progress_interval = 0  # (every chunk's count is shown)
    gate, reached = asyncio.Event(), asyncio.Event()
    if held_at == "kept":
        keep = bot.tables.note_replayed

        async def slow_keep(game_id, post):
            reached.set()
            await gate.wait()
            return await keep(game_id, post)

        monkeypatch.setattr(bot.tables, "note_replayed", slow_keep)
    else:
        run = replays.drawer.run

        async def held(fn, *args):
            if fn is held_at:
                reached.set()
                await gate.wait()
            return await run(fn, *args)

        monkeypatch.setattr(replays.drawer, "run", held)
    click = asyncio.ensure_future(driver.click(board, button(board, "table.replay"),
                                               user="bob"))
    await asyncio.wait_for(reached.wait(), 60)
    return bot, gate, click


@pytest.mark.parametrize("held_at", ["frames", "chunk", "kept"])
async def test_a_stop_at_any_step_of_a_replay_leaves_a_true_line(
        discord_driver, fake_discord, tmp_path, monkeypatch, held_at):
    """The bot stops while a replay's frames are rebuilt (nothing is posted: the asker
    is told privately), while a chunk is drawn (its line says it was stopped, and stays
    so), or once it is posted (the replay stays as posted)."""
    step = {"frames": frames, "chunk": replay_boards.draw_frames, "kept": "kept"}[held_at]
    monkeypatch.setattr(replay_boards, "POST_WAIT_SECONDS", 0.5)
    bot, gate, click = await _replay_held(discord_driver, fake_discord, tmp_path,
                                          monkeypatch, step)
    await bot.boards.replays.stop()
    gate.set()
    answer = await asyncio.wait_for(click, 30)
    lines = [m for m in fake_discord.channel_messages()
             if (m.get("content") or "").startswith("🎞️")]
    if held_at == "frames":
        assert lines == [] and answer.ephemeral and "restarting" in answer.content
    elif held_at == "chunk":
        assert [m["content"] for m in lines] == [replay_boards.STOPPED]
    else:
        [line] = lines
        assert line["content"].startswith("🎞️ Replay of") and line["attachments"]


@pytest.mark.parametrize("answered_in", [1.0, 20.0], ids=["in time", "too late"])
async def test_a_stop_while_a_replay_is_uploaded(discord_driver, fake_discord, tmp_path,
                                                 monkeypatch, answered_in):
    """The bot stops while a replay's picture is being uploaded (Discord takes it, and
    answers in a second, or not before the stop must go on): a post answered in time is
    posted and kept with its game (a /forget-me can take it down); one not answered in
    time has its line say it could not be finished, its picture taken off."""
    monkeypatch.setattr(replay_boards, "POST_WAIT_SECONDS", 3.0)
    bot, gate, click = await _replay_held(discord_driver, fake_discord, tmp_path,
                                          monkeypatch, replay_boards.animate)
    drain = bot.tables.drain
    monkeypatch.setattr(bot.tables, "drain", lambda timeout=10.0: drain(0.2))
    game_id = next(iter(bot.boards.replays.drawing))
    fake_discord.hold_next("PATCH", r"/messages/", answered_in)
    first = len(fake_discord.requests)
    gate.set()
    upload = await fake_discord.wait_for_request("PATCH", r"/messages/", after=first)
    assert (upload.json or {}).get("attachments")
    after = await discord_driver.restart(make_bot(tmp_path, cogs=COGS))
    await asyncio.wait_for(click, 30)
    [line] = [m for m in fake_discord.channel_messages()
              if (m.get("content") or "").startswith("🎞️")]
    kept = (await after.tables.load(game_id)).data.replays
    if answered_in < replay_boards.POST_WAIT_SECONDS:
        assert line["attachments"] and [r.message for r in kept] == [int(line["id"])]
    else:
        assert line["content"] == replay_boards.STOPPED and not line["attachments"]
