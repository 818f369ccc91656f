"""/forget-me reaches what Discord shows, not only the store: the ended boards of the
member's finished games are drawn again ("a former player" in their seat, the picture
and its alt text too), in archived threads too (opened for the edit, archived again),
and the thread the bot opened for a game they started, named after them, is renamed;
another's thread keeps its name, and a game retention emptied keeps its board."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.table.service import Actor
from tests.fake_discord import payloads, threads
from tests.support import button, host_board, make_bot

COGS = ("cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.records")


@pytest.mark.parametrize("archived", [False, True], ids=["open", "archived"])
async def test_forget_me_redraws_the_boards_and_renames_the_thread(
        discord_driver, fake_discord, tmp_path, archived):
    """Zephyrine plays Tinker in a thread of its own to its end, then forgets herself:
    the board, its picture's alt text and the thread's name no longer name her."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    thread, thread_id = await _tinker_in_own_thread(discord_driver, fake_discord,
                                                    "Zephyrine")
    game = await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    assert "Zephyrine" in json.dumps(board) and "Zephyrine" in thread["name"]
    thread["thread_metadata"]["archived"] = archived  # an hour after the game, it is
    prompt = await discord_driver.slash("forget-me", user="Zephyrine")
    await discord_driver.click(prompt.message, prompt.custom_ids[0], user="Zephyrine")
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    assert "Zephyrine" not in json.dumps(board)
    assert "a former player" in json.dumps(board["embeds"])
    assert thread["name"].startswith("Tinker · a former player · ")
    assert thread["thread_metadata"]["archived"] is archived


@pytest.mark.parametrize("where", ["a direct message", "another name"])
async def test_the_thread_named_after_a_server_nickname_is_renamed(
        discord_driver, fake_discord, tmp_path, where):
    """Alice started Tinker in a thread of its own under her server nickname, Zephyrine.
    Her /forget-me renames it whether she uses it in a direct message with the bot
    (which knows no nickname) or in the server after changing her nickname since."""
    from tests.cogs.test_help_start import _in_a_dm
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    alice = fake_discord.user("alice")

    def nicked(payload: dict, nick: str = "Zephyrine") -> dict:
        payload["member"]["nick"] = nick
        return payload

    await discord_driver.feed(nicked(fake_discord.slash_payload(
        "tinker", path=["start"], user=alice, options=[
            {"name": "thread", "type": 3, "value": "yes"},
            {"name": "players", "type": 3, "value": "only me"}])))
    (thread,) = fake_discord.threads_under()
    assert thread["name"].startswith("Tinker · Zephyrine · ")
    await _play_out(bot, await bot.tables.open_in_channel(int(thread["id"])), alice)
    await discord_driver.settle()

    def placed(payload: dict) -> dict:
        return (_in_a_dm(payload, alice) if where == "a direct message"
                else nicked(payload, "Zeph the Second"))

    asked = await discord_driver.feed(placed(fake_discord.slash_payload("forget-me",
                                                                        user=alice)))
    await discord_driver.feed(placed(fake_discord.component_payload(
        asked.message, asked.custom_ids[0], user=alice)))
    await discord_driver.settle()
    assert thread["name"].startswith("Tinker · a former player · "), thread["name"]


async def test_a_thread_a_moderator_renamed_keeps_its_name(discord_driver, fake_discord,
                                                           tmp_path):
    """A moderator renamed Zephyrine's game thread "Friday night": her /forget-me leaves
    that name (it no longer names her), and still redraws her board."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    thread, thread_id = await _tinker_in_own_thread(discord_driver, fake_discord,
                                                    "Zephyrine")
    game = await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await discord_driver.settle()
    thread["name"] = "Friday night"
    await _forget(discord_driver, "Zephyrine")
    assert thread["name"] == "Friday night"
    assert "a former player" in _shown(fake_discord.get_message(game.row.board_message_id))


async def _tinker_in_own_thread(driver, fake, user: str) -> tuple[dict, int]:
    """``user`` starts Tinker (theirs alone) in a thread of its own; return the thread
    and its id."""
    await driver.slash("tinker", "start", {"thread": "yes", "players": "only me"},
                       user=user)
    (thread,) = fake.threads_under()
    return thread, int(thread["id"])


async def _play_out(bot, game, who):
    """Play a one-seat game to its end as ``who``; show its ended board."""
    while game.row.is_open:
        game = (await bot.tables.act(game.id, game.row.version, Actor(who.id, who.name),
                                     game.engine.computer_action(game.state, 0))).game
    await bot.boards.messages.refresh(game)
    return game


def _shown(board: dict) -> str:
    """What a board shows of its game (not Discord's line of who used the command)."""
    return json.dumps([board.get("content"), board.get("embeds"), board.get("attachments")])


async def _forget(driver, user: str) -> None:
    prompt = await driver.slash("forget-me", user=user)
    await driver.click(prompt.message, prompt.custom_ids[0], user=user)
    await driver.settle()


@pytest.mark.parametrize("opener", ["alice", "Zephyrine"], ids=["another", "a namesake"])
async def test_a_game_in_anothers_thread_leaves_that_threads_name(discord_driver,
                                                                  fake_discord, tmp_path,
                                                                  opener):
    """Another member's game (Alice's, or a namesake's: another Zephyrine) opened a
    thread named after them; Zephyrine then played a game of her own there. Her
    /forget-me redraws her board but leaves the thread its name: it was opened for
    their game, not hers."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    theirs = fake_discord.user("alice")
    if opener == "Zephyrine":
        theirs = fake_discord.add_user("Zephyrine")
    zeph = fake_discord.add_user("zb")
    zeph.name = "Zephyrine"
    thread, thread_id = await _tinker_in_own_thread(discord_driver, fake_discord, opener)
    await _play_out(bot, await bot.tables.open_in_channel(thread_id), theirs)
    await discord_driver.settle()
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="zb",
                               channel=thread_id)
    game = await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await discord_driver.settle()
    name = thread["name"]
    await _forget(discord_driver, "zb")
    assert thread["name"] == name and theirs.name.lower() in name.lower()
    assert "a former player" in _shown(fake_discord.get_message(game.row.board_message_id))


@pytest.mark.parametrize("manage_threads", [False, True])
async def test_a_board_in_an_archived_members_thread_is_drawn_again(
        discord_driver, fake_discord, tmp_path, manage_threads):
    """Zephyrine played in Alice's own thread, archived since: the thread is opened for
    the board's edit and keeps its name. Discord lets the bot archive a thread it did
    not open only with Manage Threads: with it, the thread is archived again; without
    it, it stays open (Discord archives it when it has been idle its while)."""
    if manage_threads:
        role = next(r for r in fake_discord.roles if int(r["id"]) == fake_discord.bot_role_id)
        role["permissions"] = str(int(role["permissions"]) | payloads.MANAGE_THREADS)
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    parent = fake_discord.channels[fake_discord.channel_id]
    thread_id = fake_discord.snowflakes.next()
    fake_discord.channels[thread_id] = thread = threads.thread_channel(
        thread_id, parent, fake_discord.user("alice").id, "game night",
        threads.PUBLIC_THREAD, 10080)
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="Zephyrine",
                               channel=thread_id)
    game = await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await discord_driver.settle()
    thread["thread_metadata"]["archived"] = True  # a week later
    await _forget(discord_driver, "Zephyrine")
    assert "Zephyrine" not in _shown(fake_discord.get_message(game.row.board_message_id))
    assert thread["thread_metadata"]["archived"] is manage_threads
    assert thread["name"] == "game night"


async def test_a_table_in_anothers_archived_thread_is_drawn_again(discord_driver,
                                                                  fake_discord, tmp_path):
    """Alice's Steam table in a thread of its own, where Zephyrine sat, archived an hour
    after the game: Zephyrine's /forget-me redraws its board there and archives the
    thread again, its name (Alice's) kept."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    alice, zeph = fake_discord.user("alice"), fake_discord.add_user("Zephyrine")
    thread, game = await _steam_in_thread(discord_driver, fake_discord, bot, "alice",
                                          "Zephyrine", {alice.id: alice.name,
                                                        zeph.id: zeph.name})
    name = thread["name"]
    thread["thread_metadata"]["archived"] = True
    await _forget(discord_driver, "Zephyrine")
    assert "Zephyrine" not in _shown(fake_discord.get_message(game.row.board_message_id))
    assert thread["thread_metadata"]["archived"] is True and thread["name"] == name


async def test_a_game_retention_emptied_keeps_its_board(discord_driver, fake_discord,
                                                        tmp_path):
    """A game past retention has no state to draw a board from: /forget-me leaves its
    board as it was rather than draw "This game cannot be shown" over its result."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    await discord_driver.slash("tinker", "start", {"players": "only me"}, user="Zephyrine")
    game = await _play_out(bot, await bot.tables.open_in_channel(fake_discord.channel_id),
                           zeph)
    await discord_driver.settle()
    before = fake_discord.get_message(game.row.board_message_id)
    assert await bot.tables.store.prune_finished(game.row.updated_at + 1) == 1
    await _forget(discord_driver, "Zephyrine")
    assert fake_discord.get_message(game.row.board_message_id) == before


async def _steam_in_thread(driver, fake, bot, host: str, joiner: str,
                          names: dict[int, str]):
    """``host`` opens a Steam table in a thread of its own, ``joiner`` joins, and they
    play it out (each person by user id, under ``names``); return the thread and the
    ended game, its board shown."""
    await driver.slash("steam", "new", {"thread": "yes", "first": "me (the host)"},
                       user=host)
    (thread,) = fake.threads_under()
    lobby = await bot.tables.open_in_channel(int(thread["id"]))
    board = fake.get_message(lobby.row.board_message_id)
    board = (await driver.click(board, button(board, "lobby.join"), user=joiner)).message
    await host_board(driver, board, "lobby.start", user=host)
    await driver.settle()
    game = await bot.tables.open_in_channel(int(thread["id"]))
    while game.row.is_open:
        seat = game.to_act()
        who = game.seats[seat].user_id
        game = (await bot.tables.act(game.id, game.row.version, Actor(who, names[who]),
                                     game.engine.computer_action(game.state, seat))).game
    await bot.boards.messages.refresh(game)
    await driver.settle()
    return thread, game


async def _steam_of_namesakes(driver, fake, tmp_path):
    """Zephyrine opens a Steam table in a thread of its own; another member also shown
    as Zephyrine joins (seated as "Zephyrine (2)"); they play it out."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    first, second = fake.add_user("Zephyrine"), fake.add_user("zb")
    second.name = "Zephyrine"
    thread, game = await _steam_in_thread(driver, fake, bot, "Zephyrine", "zb",
                                          {first.id: "Zephyrine", second.id: "Zephyrine"})
    return bot, thread, game


async def test_a_namesakes_forget_me_leaves_the_starters_thread_its_name(
        discord_driver, fake_discord, tmp_path):
    """The second Zephyrine forgets himself: the thread named after the first, who
    started the table, keeps its name."""
    _bot, thread, _game = await _steam_of_namesakes(discord_driver, fake_discord, tmp_path)
    name = thread["name"]
    await _forget(discord_driver, "zb")
    assert thread["name"] == name and "Zephyrine" in name


async def test_forgetting_a_name_leaves_the_numbered_namesake_his_seat(
        discord_driver, fake_discord, tmp_path):
    """The first Zephyrine forgets herself: the other's seat "Zephyrine (2)" is his."""
    bot, _thread, game = await _steam_of_namesakes(discord_driver, fake_discord, tmp_path)
    await _forget(discord_driver, "Zephyrine")
    after = await bot.tables.load(game.id)
    assert [s.name for s in after.seats] == ["a former player", "Zephyrine (2)"]


async def test_a_game_started_in_a_thread_opened_for_the_redraw_keeps_it_open(
        discord_driver, fake_discord, tmp_path):
    """While /forget-me has an archived game thread opened to edit its board, Alice
    starts a game there: the thread is not archived again over her open game."""
    driver, fake = discord_driver, fake_discord
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake.add_user("Zephyrine")
    thread, thread_id = await _tinker_in_own_thread(driver, fake, "Zephyrine")
    await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await driver.settle()
    thread["thread_metadata"]["archived"] = True  # an hour after the game
    prompt = await driver.slash("forget-me", user="Zephyrine")
    after = len(fake.requests)
    fake.hold_next("PATCH", rf"/channels/{thread_id}/messages/\d+$", 2.0)
    clicking = asyncio.create_task(
        driver.click(prompt.message, prompt.custom_ids[0], user="Zephyrine"))
    for _ in range(500):  # until the board's edit reaches Discord (held there)
        if any(r.method == "PATCH" and "/messages/" in r.path for r in fake.requests[after:]):
            break
        await asyncio.sleep(0.01)
    assert thread["thread_metadata"]["archived"] is False  # opened for the edit
    await driver.slash("tinker", "start", {"players": "only me"}, user="alice",
                       channel=thread_id)
    await clicking
    await asyncio.sleep(2.5)  # the held edit, then the thread's archiving (not made)
    await driver.settle()
    assert await bot.tables.open_in_channel(thread_id) is not None
    assert thread["thread_metadata"]["archived"] is False


async def test_forget_me_takes_down_the_replays_that_name_the_member(discord_driver,
                                                                     fake_discord, tmp_path):
    """A replay of Alice and Zephyrine's finished table was posted; Zephyrine forgets
    herself: the post no longer names her (its picture is gone; it says why), Replay
    draws it anew with "a former player" rather than pointing to the old post, and the
    game keeps no post."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    fake_discord.add_user("Zephyrine")
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user="Zephyrine")).message
    await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    people = {u.id: u for u in (fake_discord.user("alice"), fake_discord.user("Zephyrine"))}
    while game.row.is_open:
        seat = game.to_act()
        who = people[game.row.seats[seat]["user_id"]]
        game = (await bot.tables.act(game.id, game.row.version, Actor(who.id, who.name),
                                     game.engine.computer_action(game.state, seat))).game
    await bot.boards.messages.refresh(game)
    await discord_driver.settle()
    board = fake_discord.get_message(game.row.board_message_id)
    first = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    post = fake_discord.get_message(first.record.original_message_id)
    assert post["attachments"] and "Zephyrine" in json.dumps(post)
    assert len((await bot.tables.load(game.id)).data.replays) == 1
    await _forget(discord_driver, "Zephyrine")
    post = fake_discord.get_message(post["id"])
    assert "Zephyrine" not in _shown(post) and not post["attachments"]
    assert post["content"].startswith("🎞️ This replay was taken down")
    assert (await bot.tables.load(game.id)).data.replays == []
    board = fake_discord.get_message(game.row.board_message_id)
    again = await discord_driver.click(board, button(board, "table.replay"), user="bob")
    await discord_driver.settle()
    assert not again.ephemeral
    drawn = fake_discord.get_message(again.record.original_message_id)
    assert drawn["attachments"] and "Zephyrine" not in _shown(drawn)
    assert "a former player" in drawn["content"]


@pytest.mark.parametrize("stored", [True, False], ids=["stored", "not-stored"])
async def test_a_forget_whose_answer_was_lost_is_told_as_it_is(
        discord_driver, fake_discord, tmp_path, monkeypatch, stored):
    """/forget-me's deletion fails with the connection lost: if it was committed before
    the answer was lost, Zephyrine is told it is done and her board is drawn again
    without her name (it used to say "nothing was changed", and nothing ever redrew the
    board: a second /forget-me found nothing to delete); if not, she is told nothing
    changed, and her results are still there."""
    from db import records
    from db.errors import StorageError

    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    zeph = fake_discord.add_user("Zephyrine")
    _thread, thread_id = await _tinker_in_own_thread(discord_driver, fake_discord, "Zephyrine")
    game = await _play_out(bot, await bot.tables.open_in_channel(thread_id), zeph)
    await discord_driver.settle()
    real = records.forget_player

    async def lost(store, user_id):
        if stored:
            await real(store, user_id)
        raise StorageError("connection was closed in the middle of operation", sent=True)

    monkeypatch.setattr(records, "forget_player", lost)
    prompt = await discord_driver.slash("forget-me", user="Zephyrine")
    done = await discord_driver.click(prompt.message, prompt.custom_ids[0], user="Zephyrine")
    await discord_driver.settle()
    texts = " ".join([done.content or ""] + [f.get("content") or "" for f in done.followups])
    left = [r for r in await bot.store.results() if r["user_id"] == zeph.id]
    board = json.dumps(fake_discord.get_message(game.row.board_message_id)["embeds"])
    if stored:
        assert "Done: your records are gone from every server." in texts, texts
        assert left == [] and "Zephyrine" not in board and "a former player" in board
    else:
        assert "nothing was changed" in texts, texts
        assert left and "Zephyrine" in board


async def test_a_moderator_who_ended_a_table_without_a_seat_is_forgotten(
        discord_driver, fake_discord, tmp_path):
    """A moderator not seated abandons a Steam table ("Zorblax abandoned the game."),
    then uses /forget-me: the line, stored and on the board, no longer names them."""
    from tests.support import abandon, steam_with_bob
    driver, fake = discord_driver, fake_discord
    fake.add_user("Zorblax", moderator=True)
    bot, game = await steam_with_bob(driver, fake, tmp_path,
                                     cogs=("cogs.steam", "cogs.records"))
    await abandon(driver, "steam", "Zorblax")
    await driver.settle()
    assert "Zorblax abandoned the game." in (await bot.tables.load(game.id)).row.events
    prompt = await driver.slash("forget-me", user="Zorblax")
    await driver.click(prompt.message, prompt.custom_ids[0], user="Zorblax")
    await driver.settle()
    after = await bot.tables.load(game.id)
    assert "Zorblax" not in json.dumps(after.row.events)
    assert "Zorblax" not in json.dumps(fake.get_message(after.row.board_message_id))
