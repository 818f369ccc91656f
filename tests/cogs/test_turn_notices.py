"""Turn notices through the offline Discord (ruling C6): a ping only for a player who has
not acted within the grace time, one line with a link button, each member's own choice
of being pinged, and what the lobby's invitation and a moved board leave behind."""

from __future__ import annotations

import asyncio

import pytest

from bot.games.steam.engine import ENGINE
from tests.support import (
    Clock,
    abandon,
    button,
    host_board,
    make_bot,
    pings_sent,
    press,
    seated_steam,
)

COGS = ("cogs.steam", "cogs.help", "cogs.records")


def _notices(fake) -> list[dict]:
    """The turn notices now in the channel."""
    return [m for m in fake.channel_messages()
            if "your turn" in (m.get("content") or "")]


async def _two_seats(driver, fake, tmp_path, clock, options=None, **settings):
    """Alice and Bob at a started table (``/steam new`` with ``options``), Alice first;
    return the bot and the game."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock, **settings))
    board = (await driver.slash("steam", "new", {"first": "me (the host)", **(options or {})},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


async def _play(driver, fake, bot, names=("alice", "bob")) -> None:
    """The person to act plays one action, at once."""
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    seat = game.to_act()
    result = await press(driver, board, game.engine.computer_action(game.state, seat),
                         names[seat])
    assert result.response_type == 7, result.content
    await driver.settle()


async def test_c6_two_players_who_act_within_the_grace_time_are_never_pinged(
        discord_driver, fake_discord, tmp_path):
    """C6: a two-seat game played briskly (every move within 45 s of the turn coming)
    posts no turn notice and sends no ping, however many turns pass."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    assert game.data.notice_due is not None and game.row.deadline == clock.now + 45
    for _ in range(30):
        clock.advance(20)
        assert await bot.deadlines.run_due() == 0
        if await bot.tables.open_in_channel(fake_discord.channel_id) is None:
            break
        await _play(discord_driver, fake_discord, bot)
    assert pings_sent(fake_discord) == []
    assert _notices(fake_discord) == []


async def test_c6_a_late_player_is_pinged_once_in_one_line_with_a_board_button(
        discord_driver, fake_discord, tmp_path):
    """C6: a player who has not acted 45 s after their turn came is pinged once: one line
    that names them, with an "Open the board" link button and no raw link."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    clock.advance(44)
    assert await bot.deadlines.run_due() == 0
    clock.advance(2)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice]
    [notice] = _notices(fake_discord)
    assert "\n" not in notice["content"] and "https://" not in notice["content"]
    assert f"<@{alice}>" in notice["content"]
    [link] = [c for row in notice["components"] for c in row["components"]]
    assert link["style"] == 5 and link["label"] == "Open the board"
    assert link["url"].endswith(f"/{game.row.board_message_id}")
    clock.advance(600)
    assert await bot.deadlines.run_due() == 0  # once: the notice is not sent again
    assert pings_sent(fake_discord) == [alice]
    # Alice plays her turn out: it passes to Bob, and her notice, now past, is deleted.
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        assert len(_notices(fake_discord)) == 1  # still her turn: the notice stays
        await _play(discord_driver, fake_discord, bot)
    assert _notices(fake_discord) == []


async def test_c6_the_grace_time_survives_a_restart(discord_driver, fake_discord, tmp_path):
    """C6: the waiting notice is a stored deadline: after a restart the late player is
    pinged once, by the new process's deadline loop."""
    clock = Clock()
    await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    assert pings_sent(fake_discord) == []
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [fake_discord.user("alice").id]
    clock.advance(46)
    assert await bot.deadlines.run_due() == 0
    assert len(pings_sent(fake_discord)) == 1


async def test_c6_no_grace_time_pings_at_once(discord_driver, fake_discord, tmp_path):
    """C6 with TURN_NOTICE_GRACE_SECONDS=0: the notice pings the moment the turn comes."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock,
                                 TURN_NOTICE_GRACE_SECONDS=0)
    assert game.data.notice_due is None
    assert pings_sent(fake_discord) == [fake_discord.user("alice").id]
    alice, bob = fake_discord.user("alice").id, fake_discord.user("bob").id
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(discord_driver, fake_discord, bot)
    assert pings_sent(fake_discord) == [alice, bob]


async def test_a_member_who_chose_no_pings_is_named_without_a_ping(discord_driver, fake_discord,
                                                                    tmp_path):
    """A member chooses "Don't ping me" privately from /help; their late turn's notice
    still names them in the channel, but notifies nobody. The choice is stored, so it
    holds after a restart, and "Ping me" turns pings back on."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    helped = await discord_driver.slash("help", user="alice")
    assert helped.ephemeral and "pings:show" in helped.custom_ids
    shown = await discord_driver.click(helped.message, "pings:show", user="alice")
    assert shown.ephemeral and "ping" in shown.content.lower()
    assert set(shown.custom_ids) == {"pings:on", "pings:off"}
    chosen = await discord_driver.click(shown.message, "pings:off", user="alice")
    assert chosen.response_type == 7 and "do not ping you" in chosen.content
    assert await bot.store.turn_pings(alice) is False
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    [notice] = _notices(fake_discord)
    assert f"<@{alice}>" in notice["content"] and fake_discord.pings(notice) == set()
    assert pings_sent(fake_discord) == []
    again = await discord_driver.click(chosen.message, "pings:on", user="alice")
    assert again.response_type == 7 and await bot.store.turn_pings(alice) is True


async def test_rules_and_details_of_a_table_offers_the_ping_choice(discord_driver,
                                                                   fake_discord, tmp_path):
    """Every page of Rules & details of a seated table carries the button that opens the
    ping choice."""
    clock = Clock()
    _bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    board = fake_discord.get_message(game.row.board_message_id)
    rules = await discord_driver.click(board, button(board, "table.rules"), user="bob")
    assert rules.ephemeral and rules.custom_ids[-1] == "pings:show"
    pages = [c for c in rules.custom_ids if ":table.rules." in c]
    assert len(pages) >= 4  # rules, icons, the table, trains, last turns
    turned = await discord_driver.click(rules.message, pages[-1], user="bob")
    assert turned.custom_ids[-1] == "pings:show"
    shown = await discord_driver.click(turned.message, "pings:show", user="bob")
    assert shown.ephemeral and set(shown.custom_ids) == {"pings:on", "pings:off"}


async def test_forget_me_removes_the_ping_choice(discord_driver, fake_discord, tmp_path):
    """/forget-me offers to delete a member's ping choice even with no results, and does."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    bob = fake_discord.user("bob").id
    await bot.boards.pings.choose(bob, False)
    asked = await discord_driver.slash("forget-me", user="bob")
    assert asked.ephemeral and "turn-ping choice" in asked.content
    done = await discord_driver.click(asked.message, asked.custom_ids[0], user="bob")
    assert done.response_type == 7
    assert await bot.store.turn_pings(bob) is None
    assert await bot.boards.pings.wants_ping(bob) is True


async def test_the_invitation_leaves_the_board_when_the_game_starts(discord_driver,
                                                                   fake_discord, tmp_path):
    """ "Invited: @Bob" is the lobby's text until Bob joins; the started game's board has
    none, and a board posted again leaves one line with a masked link behind."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    lobby = await discord_driver.slash("steam", "new", {"invite": fake_discord.user("bob")},
                                       user="alice")
    assert lobby.message["content"].startswith("Invited:")
    board = (await discord_driver.click(lobby.message, button(lobby.message, "lobby.join"),
                                        user="bob")).message
    assert not board["content"]
    board = await host_board(discord_driver, board, "lobby.start")
    await discord_driver.settle()
    assert not fake_discord.get_message(board["id"])["content"]
    await discord_driver.slash("steam", "board", user="bob")
    old = fake_discord.get_message(board["id"])
    assert "\n" not in old["content"] and old["content"].startswith("This board moved: [")
    assert "](https://discord.com/channels/" in old["content"]


async def test_c6_a_notice_held_back_while_the_player_plays_is_never_posted(
        discord_driver, fake_discord, tmp_path):
    """A turn notice whose post a channel rate limit holds back while the player plays
    their turn out is dropped: nobody who just played is pinged, and no notice names
    them while it is someone else's turn."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    alice = fake.user("alice").id
    game = await bot.tables.open_in_channel(fake.channel_id)
    # Alice's grace time passes; the notice's post meets a short channel rate limit.
    fake.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=2.0)
    after = len(fake.requests)
    clock.advance(46)
    bot.deadlines.wake(None)
    await fake.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    # Meanwhile Alice plays her whole turn (she is here now).
    while (g := await bot.tables.load(game.id)).person_to_act() == alice:
        board = fake.get_message(g.row.board_message_id)
        result = await press(driver, board, g.engine.computer_action(g.state, g.to_act()),
                             "alice")
        assert result.response_type == 7, result.content
    await asyncio.sleep(2.5)  # the rate limit passes
    await driver.settle()
    now = await bot.tables.load(game.id)
    assert now.person_to_act() != alice
    notices = [m for m in fake.channel_messages() if "your turn" in (m.get("content") or "")]
    # Nothing in the channel should tell Alice it is her turn, and she, who just played,
    # should not have been pinged after her move.
    assert [m["content"] for m in notices if f"<@{alice}>" in m["content"]] == []
    assert pings_sent(fake) == []


async def _post_held(driver, fake, bot, clock, seconds: float) -> dict:
    """Let Alice's grace time pass while Discord takes her notice but holds its answer
    back ``seconds``; return the notice as the channel shows it."""
    fake.hold_next("POST", r"/channels/\d+/messages$", seconds)
    after = len(fake.requests)
    clock.advance(46)
    bot.deadlines.wake(None)
    await fake.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    [posted] = _notices(fake)
    return posted


async def test_c6_a_notice_discord_took_while_its_post_was_stopped_is_deleted(
        discord_driver, fake_discord, tmp_path):
    """Alice plays while her notice's post is on its way and Discord has taken it but not
    answered yet: the bot stops waiting for it, and deletes the line once Discord shows
    it, so no "your turn" line names Alice while it is Bob's turn."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, game = await _two_seats(driver, fake, tmp_path, clock)
    bot.boards.leftovers.retry_seconds = (0.05,)
    alice = fake.user("alice").id
    posted = await _post_held(driver, fake, bot, clock, 2.0)  # its answer held back
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(driver, fake, bot)
    assert await _gone_later(driver, fake, int(posted["id"]))
    assert [m for m in _notices(fake) if f"<@{alice}>" in m["content"]] == []
    await asyncio.sleep(2.1)  # the held answer comes, to nobody waiting
    await driver.settle()


async def test_c6_a_busy_channel_still_finds_the_notice_stopped_on_its_way(
        discord_driver, fake_discord, tmp_path):
    """Sixty messages went to the channel just before Alice's notice, whose post was
    stopped while Discord took it: the look for it reads the channel from the newest
    back, so it still finds and deletes the notice."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, game = await _two_seats(driver, fake, tmp_path, clock)
    bot.boards.leftovers.retry_seconds = (0.05,)
    alice = fake.user("alice").id
    for n in range(60):
        fake.post_message({"content": f"chatter {n}"})
    posted = await _post_held(driver, fake, bot, clock, 1.0)
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(driver, fake, bot)
    assert await _gone_later(driver, fake, int(posted["id"]))
    await asyncio.sleep(1.1)
    await driver.settle()


async def test_c6_the_look_for_a_stopped_notice_spares_the_next_tables_notice(
        discord_driver, fake_discord, tmp_path):
    """Alice's notice is stopped on its way; before the look for it runs, the table is
    ended, Play again opens the next one and Alice gets its first notice, in the same
    words. The look spares it: it takes back only a notice linking to the old board."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, game = await _two_seats(driver, fake, tmp_path, clock)
    bot.boards.leftovers.retry_seconds = (3.0,)
    stopped = await _post_held(driver, fake, bot, clock, 0.5)
    await _play(driver, fake, bot)  # the post is stopped: the look comes in 3 s
    await asyncio.sleep(0.6)
    await driver.settle()
    await abandon(driver, "steam", "mod")
    await driver.settle()
    ended = fake.get_message((await bot.tables.load(game.id)).row.board_message_id)
    await driver.click(ended, button(ended, "table.again"), user="alice")
    await driver.settle()
    new = await bot.tables.open_in_channel(fake.channel_id)
    await host_board(driver, fake.get_message(new.row.board_message_id), "lobby.start")
    await driver.settle()
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await driver.settle()
    posted = (await bot.tables.load(new.id)).data.notice.message
    await asyncio.sleep(3.5)  # the old table's look runs
    await driver.settle()
    assert fake.get_message(stopped["id"]) is None
    assert fake.get_message(posted) is not None
    assert (await bot.tables.load(new.id)).data.notice.message == posted


async def _a_step_while_held_back(driver, fake, bot, game_id, after):
    """Wait until the held-back post is asked for, then play one step of Alice's turn (a
    fixed deal whose first turn has several) while it waits."""
    await fake.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    alice = fake.user("alice").id
    g = await bot.tables.load(game_id)
    board = fake.get_message(g.row.board_message_id)
    result = await press(driver, board, g.engine.computer_action(g.state, g.to_act()), "alice")
    assert result.response_type == 7, result.content
    assert (await bot.tables.load(game_id)).person_to_act() == alice  # still her turn
    await asyncio.sleep(2.5)  # the rate limit passes
    await driver.settle()


async def _fixed_deal(driver, fake, tmp_path, clock, **options):
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)", **options},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    bot.tables.core.seeds = lambda: 1  # Alice's first turn has several steps
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


async def test_c6_a_notice_held_back_while_the_player_takes_a_step_is_never_posted(
        discord_driver, fake_discord, tmp_path):
    """A turn notice held back by a rate limit while its player takes a step of her turn
    (still hers) is not posted: she is plainly playing."""
    clock = Clock()
    bot, game = await _fixed_deal(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=2.0)
    after = len(fake_discord.requests)
    clock.advance(46)
    bot.deadlines.wake(None)
    await _a_step_while_held_back(discord_driver, fake_discord, bot, game.id, after)
    assert pings_sent(fake_discord) == [] and _notices(fake_discord) == []


async def test_c6_a_reminder_held_back_while_the_player_takes_a_step_is_never_posted(
        discord_driver, fake_discord, tmp_path):
    """The timer's reminder held back while its player takes a step of her turn is not
    posted: her step started the timer again, so its warning is no longer true."""
    clock = Clock()
    bot, game = await _fixed_deal(discord_driver, fake_discord, tmp_path, clock,
                                  turn_timer="2 min")
    alice = fake_discord.user("alice").id
    clock.advance(46)
    await bot.deadlines.run_due()  # the turn notice
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice]
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=2.0)
    after = len(fake_discord.requests)
    clock.advance(120 - 46 + 1)
    bot.deadlines.wake(None)
    await _a_step_while_held_back(discord_driver, fake_discord, bot, game.id, after)
    timer = (await bot.tables.load(game.id)).data.timer
    assert timer is not None and timer.strikes == 0
    assert [m for m in fake_discord.channel_messages()
            if "still your turn" in (m.get("content") or "")] == []
    assert pings_sent(fake_discord) == [alice]


async def _later(driver, bot, clock, seconds: float) -> None:
    """Move the clock on ``seconds`` and let the deadlines due by then run."""
    clock.advance(seconds)
    await bot.deadlines.run_due()
    await driver.settle()


async def test_c6_a_player_reading_the_rules_on_their_turn_is_not_pinged_meanwhile(
        discord_driver, fake_discord, tmp_path):
    """C6: Alice's turn comes; 30 s in she opens Rules & details to plan it, and 30 s
    later turns a page. She is at the table: the notice's grace starts again with each,
    so the 45 s notice never pings her while she reads; 45 s after she last looked, it
    does."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id

    await _later(discord_driver, bot, clock, 30)
    board = fake_discord.get_message(game.row.board_message_id)
    details = await discord_driver.click(board, button(board, "table.rules"), user="alice")
    assert details.ephemeral
    await _later(discord_driver, bot, clock, 30)
    page = next(c["custom_id"] for row in details.message["components"]
                for c in row["components"] if c.get("custom_id", "").endswith(".trains.0"))
    await discord_driver.click(details.message, page, user="alice")
    await _later(discord_driver, bot, clock, 40)
    assert pings_sent(fake_discord) == []
    await _later(discord_driver, bot, clock, 6)
    assert pings_sent(fake_discord) == [alice]


async def test_c6_a_player_posting_the_board_on_their_turn_is_not_pinged_then(
        discord_driver, fake_discord, tmp_path):
    """C6: Alice's turn comes; 40 s in she posts the board again (/steam board) to play
    it: she is at the table, so the notice's grace starts again; Bob posting it changes
    nothing for her."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id

    await _later(discord_driver, bot, clock, 40)
    posted = await discord_driver.slash("steam", "board", user="alice")
    assert posted.message["embeds"]
    await _later(discord_driver, bot, clock, 40)
    assert pings_sent(fake_discord) == []
    await discord_driver.slash("steam", "board", user="bob")
    await _later(discord_driver, bot, clock, 6)
    assert pings_sent(fake_discord) == [alice]


async def test_c6_a_standing_notice_opens_the_board_posted_again(discord_driver,
                                                                   fake_discord, tmp_path):
    """Alice is pinged; Bob posts the board again (/steam board): the notice's button
    opens the new board, not the message it replaced; the notice keeps its words."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(46)
    await bot.deadlines.run_due()
    await discord_driver.settle()
    [before] = _notices(fake_discord)
    await discord_driver.slash("steam", "board", user="bob")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    [notice] = _notices(fake_discord)
    [link] = [c for row in notice["components"] for c in row["components"]]
    assert link["url"] == game.link and link["url"].endswith(f"/{game.row.board_message_id}")
    assert notice["id"] == before["id"] and notice["content"] == before["content"]


async def _whole_turn(driver, fake, bot, game_id) -> None:
    """The person to act plays their whole turn, answered by ``bot``'s process."""
    driver.client = bot
    who = (await bot.tables.load(game_id)).person_to_act()
    while (await bot.tables.load(game_id)).person_to_act() == who:
        await _play(driver, fake, bot)


async def test_a_deploys_two_processes_leave_one_turn_notice(discord_driver, fake_discord,
                                                            tmp_path, backend):
    """A deploy's overlap: the old and the new process each post and take back turn
    notices of one table. Each takes back the stored notice too, not only the one it
    posted itself, so the channel never holds two "your turn" lines."""
    clock = Clock()
    old, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    new = await discord_driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    for poster, player in ((old, new), (new, old), (old, new)):
        clock.advance(46)
        discord_driver.client = poster
        assert await poster.deadlines.run_due() == 1  # the grace is over: a notice
        await discord_driver.settle()
        assert len(_notices(fake_discord)) == 1
        await _whole_turn(discord_driver, fake_discord, player, game.id)
        await discord_driver.settle()
        assert _notices(fake_discord) == []  # taken back by the process that moved


async def _gone_later(driver, fake, message_id: int) -> bool:
    """Whether the message ``message_id`` is deleted within a second."""
    for _ in range(100):
        if fake.get_message(message_id) is None:
            return True
        await asyncio.sleep(0.01)
        await driver.settle()
    return False


async def test_a_notice_discord_fails_to_delete_is_deleted_at_a_later_try(
        discord_driver, fake_discord, tmp_path):
    """Alice's notice stays while Discord fails its delete (a 503) when her turn passes,
    and is deleted at the next try: no "your turn" line for a turn long gone."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, game = await _two_seats(driver, fake, tmp_path, clock)
    bot.boards.leftovers.retry_seconds = (0.05,)
    alice = fake.user("alice").id
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await driver.settle()
    [notice] = _notices(fake)
    fake.fail_next("DELETE", rf"/messages/{notice['id']}$", 503)
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(driver, fake, bot)
    assert fake.get_message(notice["id"]) is not None  # the delete failed
    assert await _gone_later(driver, fake, int(notice["id"]))
    assert bot.boards.leftovers.waiting == 0


async def test_an_old_board_discord_fails_to_retire_is_retired_at_a_later_try(
        discord_driver, fake_discord, tmp_path):
    """`/steam board` posts the board again while Discord fails the old board's edit (a
    503): the old one still becomes the one-line "This board moved" at the next try, so
    no second set of live buttons stays in the channel."""
    driver, fake = discord_driver, fake_discord
    bot, game = await _two_seats(driver, fake, tmp_path, Clock())
    bot.boards.leftovers.retry_seconds = (0.05,)
    old = game.row.board_message_id
    fake.fail_next("PATCH", rf"/messages/{old}$", 503)
    await driver.slash("steam", "board", user="bob")
    assert fake.get_message(old)["components"]  # the edit failed
    for _ in range(100):
        if not fake.get_message(old)["components"]:
            break
        await asyncio.sleep(0.01)
    moved = fake.get_message(old)
    assert moved["content"].startswith("This board moved: [") and not moved["components"]


@pytest.mark.usefixtures("away_at_once")
async def test_a_board_posted_again_after_a_delete_is_where_the_notice_leads(
        discord_driver, fake_discord, tmp_path):
    """Bob's turn notice stands; a moderator deletes the board, and Alice's "/steam away"
    ask edits it, which posts it again. The notice's button now opens the new board,
    not the deleted one."""
    driver, fake = discord_driver, fake_discord
    bot, game = await seated_steam(driver, fake, tmp_path,
                                   settings={"TURN_NOTICE_GRACE_SECONDS": 0})
    while game.to_act() == 0:
        board = fake.get_message(game.row.board_message_id)
        await press(driver, board, ENGINE.computer_action(game.state, 0), "alice")
        await driver.settle()
        game = await bot.tables.open_in_channel(fake.channel_id)
    [notice] = _notices(fake)
    old = game.row.board_message_id
    fake.delete_message(fake.channel_id, old)
    await driver.slash("steam", "away", {"player": fake.user("bob")}, user="alice")
    await driver.settle()
    game = await bot.tables.load(game.id)
    assert game.row.board_message_id != old
    assert fake.get_message(game.row.board_message_id) is not None
    [link] = [c["url"] for row in fake.get_message(notice["id"])["components"]
              for c in row["components"]]
    assert link.endswith(f"/{game.row.board_message_id}"), link


async def _nothing(*_args: object, **_kwargs: object) -> None:
    """Work a process that died never did."""


async def _run_deadlines(driver, bot, clock, rounds: int = 10) -> None:
    """Let the clock run for ``rounds`` spells of ten minutes, deadlines fired."""
    for _ in range(rounds):
        clock.advance(600)
        await bot.deadlines.run_due()
        await driver.settle()


async def test_c6_a_notice_whose_wait_ended_just_before_a_crash_is_posted_after_the_start(
        discord_driver, fake_discord, tmp_path, backend):
    """The grace time runs out and the process dies before the notice is posted: it is
    kept with the table until it is out, so the restarted bot pings Alice once."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    bot.boards.notices.announce = _nothing  # the process dies before the post
    bot.alive.note_alive = _nothing
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert pings_sent(fake_discord) == []
    assert (await bot.tables.load(game.id)).data.notice_due is not None
    clock.advance(20)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await _run_deadlines(discord_driver, bot, clock)
    assert pings_sent(fake_discord) == [alice] and len(_notices(fake_discord)) == 1
    assert (await bot.tables.load(game.id)).data.notice_due is None


async def test_c6_a_notice_cut_off_by_a_clean_stop_is_posted_after_the_start(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """The notice's post waits out a rate limit when the host stops the bot, which cuts
    it off after its wait: the restarted bot posts it."""
    monkeypatch.setattr("bot.client.STOP_WAIT_SECONDS", 0.5)
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    fake_discord.fail_next("POST", r"/channels/\d+/messages$", 429, retry_after=3.0)
    after = len(fake_discord.requests)
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await fake_discord.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await asyncio.sleep(3.5)
    await _run_deadlines(discord_driver, bot, clock)
    assert pings_sent(fake_discord) == [alice] and len(_notices(fake_discord)) == 1


async def test_c6_a_notice_sent_at_once_survives_a_crash_before_its_post(
        discord_driver, fake_discord, tmp_path):
    """With no grace time the notice goes with the move; a crash between the move's save
    and the post leaves it owed, and the restarted bot pings Bob."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock,
                                 TURN_NOTICE_GRACE_SECONDS=0)
    alice, bob = fake_discord.user("alice").id, fake_discord.user("bob").id
    assert pings_sent(fake_discord) == [alice]
    bot.boards.notices.announce = _nothing  # the process dies before the post
    bot.alive.note_alive = _nothing
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(discord_driver, fake_discord, bot)
    assert pings_sent(fake_discord) == [alice]
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock,
                                                TURN_NOTICE_GRACE_SECONDS=0))
    await _run_deadlines(discord_driver, bot, clock)
    assert pings_sent(fake_discord) == [alice, bob]
    assert (await bot.tables.load(game.id)).person_to_act() == bob


async def test_c6_a_notice_whose_post_is_slow_is_not_fired_again_a_minute_later(
        discord_driver, fake_discord, tmp_path):
    """The grace time ends and the notice's post is slow (Discord holds its answer): a
    minute on, the deadline loop finds it still owed and fires it again, but that second
    try finds it out and leaves it: Alice is pinged once."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    fake_discord.hold_next("POST", r"/channels/\d+/messages$", 2.0)
    after = len(fake_discord.requests)
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await fake_discord.wait_for_request("POST", r"/channels/\d+/messages$", after=after)
    clock.advance(61)  # a minute on the bot's clock while the post is on its way
    await bot.deadlines.run_due()
    await asyncio.sleep(2.5)
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice] and len(_notices(fake_discord)) == 1
    await _run_deadlines(discord_driver, bot, clock, rounds=3)
    assert pings_sent(fake_discord) == [alice]


async def test_c6_a_notice_discord_took_just_before_a_crash_is_not_posted_again(
        discord_driver, fake_discord, tmp_path, backend):
    """The grace time runs out, Discord takes the notice's post, and the process dies
    before the post is stored: the restarted bot's try is named as the first was, so
    Discord gives the first back. Alice is pinged once, and the one line is the table's
    notice (deleted when her turn passes), not a line nobody takes back."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    alice = fake_discord.user("alice").id
    bot.tables.remember_notice = _nothing  # the process dies before the post is stored
    bot.alive.note_alive = _nothing
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [alice] and len(_notices(fake_discord)) == 1
    clock.advance(20)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    await _run_deadlines(discord_driver, bot, clock)
    assert pings_sent(fake_discord) == [alice] and len(_notices(fake_discord)) == 1
    stored = (await bot.tables.load(game.id)).data
    assert stored.notice_due is None
    [line] = _notices(fake_discord)
    assert stored.notice is not None and stored.notice.message == int(line["id"])
    while (await bot.tables.load(game.id)).person_to_act() == alice:
        await _play(discord_driver, fake_discord, bot)
    await _run_deadlines(discord_driver, bot, clock)
    assert [f"<@{alice}>" in m["content"] for m in _notices(fake_discord)] == [False]


async def test_c6_a_notice_posted_but_not_stored_is_stored_at_the_next_try(
        discord_driver, fake_discord, tmp_path):
    """The notice goes out but storing it fails once: the next try finds the post this
    process made under the same nonce and stores it, rather than deleting it and posting
    again (Discord refuses a nonce whose message was deleted). Alice keeps one notice."""
    clock = Clock()
    bot, game = await _two_seats(discord_driver, fake_discord, tmp_path, clock)
    real, calls = bot.tables.remember_notice, []

    async def fails_once(*args, **kwargs):
        calls.append(args)
        if len(calls) > 1:
            await real(*args, **kwargs)

    bot.tables.remember_notice = fails_once
    clock.advance(46)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    [first] = _notices(fake_discord)
    clock.advance(61)  # the deadline loop tries the notice, still owed, again
    await _run_deadlines(discord_driver, bot, clock, rounds=2)
    stored = (await bot.tables.load(game.id)).data
    assert _notices(fake_discord) == [first] and stored.notice_due is None
    assert stored.notice is not None and stored.notice.message == int(first["id"])
    assert pings_sent(fake_discord) == [fake_discord.user("alice").id]


async def test_c6_a_reminder_discord_took_just_before_a_crash_is_not_posted_again(
        discord_driver, fake_discord, tmp_path):
    """The turn timer's reminder is kept until it is out as a notice is, and every try
    at it carries one nonce: after a crash, Discord gives the first post back."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock,
                                  {"turn_timer": "2 min"})
    alice = fake_discord.user("alice").id
    clock.advance(46)  # Alice's turn notice
    await bot.deadlines.run_due()
    await discord_driver.settle()
    bot.tables.remember_notice = _nothing  # the process dies before the reminder is stored
    bot.alive.note_alive = _nothing
    clock.advance(80)  # the timer runs out: the reminder
    await bot.deadlines.run_due()
    await discord_driver.settle()

    def reminders() -> list[dict]:
        return [m for m in fake_discord.channel_messages()
                if "still your turn" in (m.get("content") or "")]

    assert len(reminders()) == 1
    clock.advance(5)
    bot = await discord_driver.restart(make_bot(tmp_path, cogs=COGS, clock=clock))
    for _ in range(3):
        clock.advance(30)
        await bot.deadlines.run_due()
        await discord_driver.settle()
    assert len(reminders()) == 1 and pings_sent(fake_discord) == [alice, alice]


async def test_c6_each_notice_carries_a_nonce_of_its_own(discord_driver, fake_discord,
                                                        tmp_path):
    """Notices to the same person on their next turns, on a clock standing still, each
    carry a nonce no other notice had: Discord never takes a new notice for an old one
    (which it would give back, or refuse when deleted)."""
    clock = Clock()
    bot, _game = await _two_seats(discord_driver, fake_discord, tmp_path, clock,
                                  TURN_NOTICE_GRACE_SECONDS=0)
    for _ in range(4):
        await _play(discord_driver, fake_discord, bot)
    await _run_deadlines(discord_driver, bot, clock, rounds=1)
    nonces = [r.json.get("nonce") for r in fake_discord.requests
              if r.method == "POST" and "your turn" in str((r.json or {}).get("content"))]
    assert len(nonces) >= 3 and None not in nonces and len(set(nonces)) == len(nonces)
    assert all(len(n) <= 25 for n in nonces)


async def test_a_ping_choice_that_cannot_be_read_is_not_shown_as_chosen(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Alice chose not to be pinged; while the database cannot be read, opening her choice
    tells her it could not be read now, not that she is pinged (the notices themselves
    ping her meanwhile: a turn is not left unsaid)."""
    from db.errors import StorageError

    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.help", "cogs.records")))
    await bot.store.set_turn_pings(fake_discord.user("alice").id, False)
    helped = await discord_driver.slash("help", user="alice")

    async def locked(*args, **kwargs):
        raise StorageError("database is locked")

    monkeypatch.setattr(bot.store, "turn_pings", locked)
    shown = await discord_driver.click(helped.message, "pings:show", user="alice")
    assert shown.ephemeral and shown.custom_ids == []
    assert shown.content == "Your choice could not be read just now. Please try again in a moment."
    assert await bot.boards.pings.wants_ping(fake_discord.user("alice").id) is True
    monkeypatch.undo()
    shown = await discord_driver.click(helped.message, "pings:show", user="alice")
    assert "do not ping you" in shown.content


async def test_a_ping_choice_holds_at_once_in_every_process_of_a_sharded_bot(
        discord_driver, fake_discord, tmp_path):
    """A member turns pings off in a server that shard 0's process serves: the process of
    shard 1, which read their choice moments before for a notice in one of its servers,
    pings them no more (the choice is read for each notice, not remembered)."""
    clock = Clock()
    zero = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                               SHARD_IDS=0))
    one = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                              SHARD_IDS=1))
    member = 4242
    assert await one.boards.pings.wants_ping(member)  # a turn notice in a shard 1 server
    await zero.boards.pings.choose(member, False)     # "Don't ping me" in a shard 0 server
    assert await zero.boards.pings.wants_ping(member) is False
    assert await one.boards.pings.wants_ping(member) is False
