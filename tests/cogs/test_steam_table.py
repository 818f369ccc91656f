"""A Steam to Solar table that keeps moving (rulings C2, C6): notices, timers, seats, endings."""

from __future__ import annotations

import copy

import pytest

from bot.games.steam.engine import ENGINE
from bot.table.loaded import Actor
from cogs.steam import SteamCog
from tests.support import (
    Clock,
    board_ids,
    button,
    every_page,
    host_board,
    host_panel,
    loaded,
    make_bot,
    press,
)

COGS = ("cogs.steam",)


def _notices(fake) -> list[dict]:
    """The turn notices in the channel (messages that mention someone)."""
    return [m for m in fake.channel_messages() if "it is your turn" in (m.get("content") or "")
            or "still your turn" in (m.get("content") or "")]


async def _lobby(driver, tmp_path, *, clock=None, options=None, people=(),
                 computers: int = 0, **settings):
    """Open a table as Alice (to play first), seat ``people`` and computers; return the
    bot and the lobby's board."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock or Clock(),
                                      **settings))
    opts = {"first": "me (the host)", **(options or {})}
    board = (await driver.slash("steam", "new", opts, user="alice")).message
    for name in people:
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    for _ in range(computers):
        board = (await driver.click(board, button(board, "lobby.computer"),
                                    user="alice")).message
    return bot, board


async def _table(driver, fake, tmp_path, *, clock=None, options=None, people=("bob",),
                 computers: int = 0, **settings):
    """Open a table as Alice, seat ``people`` and computers, start it with Alice first."""
    bot, board = await _lobby(driver, tmp_path, clock=clock, options=options, people=people,
                              computers=computers, **settings)
    board = await host_board(driver, board, "lobby.start")
    await driver.settle()
    return bot, board


async def _bob_away(driver, fake, tmp_path):
    """Seat Alice, Bob and Carol, hand Bob's seat to a computer (Alice and Carol ask, at
    once: see ``away_at_once``); return the bot and the game."""
    fake.add_user("carol")
    bot, _board = await _table(driver, fake, tmp_path, people=("bob", "carol"))
    for voter in ("alice", "carol"):
        await driver.slash("steam", "away", {"player": fake.user("bob")}, user=voter)
    await driver.settle()
    return bot, await bot.tables.open_in_channel(fake.channel_id)


async def _play_turn(driver, fake, bot, seat_user: dict[int, str]):
    """Let the person to act play one action chosen by the computer player's logic."""
    game = await bot.tables.open_in_channel(fake.channel_id)
    board = fake.get_message(game.row.board_message_id)
    seat = game.to_act()
    action = game.engine.computer_action(game.state, seat)
    result = await press(driver, board, action, seat_user[seat])
    await driver.settle()
    return result


async def test_c6_turn_notice_mentions_only_the_player_and_replaces_the_last(
    discord_driver, fake_discord, tmp_path
):
    """C6: when the turn passes to a person they get one mention (at once with no grace
    time); the last notice is deleted."""
    bot, _board = await _table(discord_driver, fake_discord, tmp_path,
                               TURN_NOTICE_GRACE_SECONDS=0)
    alice, bob = fake_discord.user("alice").id, fake_discord.user("bob").id
    notices = _notices(fake_discord)
    assert len(notices) == 1 and fake_discord.pings(notices[0]) == {alice}
    seen = set()
    for _ in range(12):
        await _play_turn(discord_driver, fake_discord, bot, {0: "alice", 1: "bob"})
        notices = _notices(fake_discord)
        assert len(notices) <= 1
        if notices:
            seen |= fake_discord.pings(notices[0])
    assert seen == {alice, bob}


async def test_c6_notices_can_be_turned_off(discord_driver, fake_discord, tmp_path):
    """A table started with notices off posts none."""
    bot, _board = await _table(discord_driver, fake_discord, tmp_path,
                               options={"notices": "off"})
    for _ in range(4):
        await _play_turn(discord_driver, fake_discord, bot, {0: "alice", 1: "bob"})
    assert _notices(fake_discord) == []


async def test_c6_turn_timer_reminds_then_a_computer_plays_until_the_person_clicks(
    discord_driver, fake_discord, tmp_path
):
    """C6: the timer reminds once, then a computer plays the seat until its person clicks."""
    clock = Clock()
    bot, _board = await _table(discord_driver, fake_discord, tmp_path, clock=clock,
                               options={"turn_timer": "2 min"})
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.to_act() == 0 and game.data.timer.at == clock.now + 120
    assert game.row.deadline == clock.now + 45  # the turn notice's grace time comes first
    clock.advance(121)  # the reminder pings once, in place of the waiting notice
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    reminder = _notices(fake_discord)
    assert len(reminder) == 1 and "still your turn" in reminder[0]["content"]
    assert fake_discord.pings(reminder[0]) == {fake_discord.user("alice").id}
    clock.advance(121)
    assert await bot.deadlines.run_due() == 1
    await discord_driver.settle()
    game = await bot.tables.load(game.id)
    assert game.row.seats[0].get("away")
    assert any("turn timer ran out twice" in e for e in game.row.events)
    assert not game.pictured and "💤" in str(SteamCog(None).embed(game).to_dict())
    for _ in range(50):  # the computer moves for Alice
        if game.to_act() == 1:
            break
        await discord_driver.settle()
        game = await bot.tables.load(game.id)
    assert game.to_act() == 1, "the computer did not move for away Alice"
    await _play_turn(discord_driver, fake_discord, bot, {0: "alice", 1: "bob"})
    game = await bot.tables.load(game.id)
    board = fake_discord.get_message(game.row.board_message_id)
    # Alice clicks a button of the table, even on a board a move behind: she is back.
    stale = copy.deepcopy(board)
    chosen = next(c for row in stale["components"] for c in row["components"]
                  if c["custom_id"].startswith(("g1:", "s1:")) and ":ask." not in c["custom_id"]
                  and ":table." not in c["custom_id"])
    cid = chosen["custom_id"]
    version = int(cid.split(":")[2])
    values = [chosen["options"][0]["value"]] if chosen["type"] == 3 else None
    for row in stale["components"]:  # as the player's phone still shows it
        for c in row["components"]:
            c.pop("disabled", None)
    payload = fake_discord.component_payload(stale, cid, values=values, user="alice")
    result = await discord_driver.feed(payload)
    game = await bot.tables.load(game.id)
    assert not game.row.seats[0].get("away"), (version, game.row.version)
    assert result.response_type == 7
    assert any("is back" in e for e in game.row.events)


async def test_c6_majority_hands_an_absent_seat_to_a_computer(discord_driver, fake_discord,
                                                                tmp_path):
    """C6: the other seated players, by majority, hand an absent player's seat to a
    computer; absent means keeping the table waiting: it is their turn and it has waited
    a minute for them. Before, the asks are refused and not counted: Bob, who is only
    thinking over a move, cannot have his seat taken by one impatient player."""
    fake_discord.add_user("carol")
    clock = Clock()
    bot, _board = await _table(discord_driver, fake_discord, tmp_path, clock=clock,
                               people=("bob", "carol"))
    bob = {"player": fake_discord.user("bob")}
    early = await discord_driver.slash("steam", "away", bob, user="alice")
    assert early.ephemeral and early.content == (
        "Bob is not keeping the table waiting: once it is their turn and they have not "
        "played for a minute, ask again.")
    seats = {0: "alice", 1: "bob", 2: "carol"}
    while (await bot.tables.open_in_channel(fake_discord.channel_id)).to_act() != 1:
        await _play_turn(discord_driver, fake_discord, bot, seats)
    clock.advance(20)
    soon = await discord_driver.slash("steam", "away", bob, user="alice")
    assert soon.ephemeral and soon.content == (
        "Bob has kept the table waiting less than a minute: give them time (ask again in "
        "40 s).")
    clock.advance(40)
    first = await discord_driver.slash("steam", "away", bob, user="alice")
    assert first.ephemeral and first.content == (
        "Alice asks to hand Bob's seat to a computer (1 of 2 needed).")
    await discord_driver.settle()  # the board's footer says so, for everyone
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    board = fake_discord.get_message(game.row.board_message_id)
    assert "Alice asks to hand Bob's seat" in board["embeds"][0]["footer"]["text"]
    assert not [m for m in fake_discord.channel_messages()
                if "asks to hand" in (m.get("content") or "")]
    stranger = await discord_driver.slash("steam", "away", bob,
                                          user="dave" if "dave" in fake_discord.users else "bob")
    assert stranger.ephemeral
    done = await discord_driver.slash("steam", "away", bob, user="carol")
    assert "handed Bob's seat to a computer" in done.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.seats[1].get("away")


async def test_c6_a_move_clicked_as_an_away_ask_is_made_still_counts(discord_driver,
                                                                      fake_discord, tmp_path):
    """C6: Alice asks to hand Bob's seat to a computer just as Bob, back at last, clicks
    his move on the board as he saw it: the ask changes nothing Bob may do, so his move
    is made, not refused as made on an old board; the ask stays in the board's footer."""
    fake_discord.add_user("carol")
    clock = Clock()
    bot, _board = await _table(discord_driver, fake_discord, tmp_path, clock=clock,
                               people=("bob", "carol"))
    seats = {0: "alice", 1: "bob", 2: "carol"}
    while (await bot.tables.open_in_channel(fake_discord.channel_id)).to_act() != 1:
        await _play_turn(discord_driver, fake_discord, bot, seats)
    clock.advance(60)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    seen = fake_discord.get_message(game.row.board_message_id)
    asked = await discord_driver.slash("steam", "away", {"player": fake_discord.user("bob")},
                                       user="alice")
    assert asked.content.startswith("Alice asks to hand Bob's seat to a computer")
    move = await press(discord_driver, seen, game.engine.computer_action(game.state, 1), "bob")
    assert move.response_type == 7 and not move.followups, move.content
    await discord_driver.settle()
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version + 1 and not after.seats[1].away
    assert any("Alice asks to hand Bob's seat" in e for e in after.row.events)


@pytest.mark.usefixtures("away_at_once")
async def test_c6_rules_button_brings_an_away_player_back(discord_driver, fake_discord,
                                                           tmp_path):
    """C6: an away player who only opens "Rules & details" plays their own seat again;
    the rules are still answered privately and the board says they are back."""
    bot, game = await _bob_away(discord_driver, fake_discord, tmp_path)
    assert game.row.seats[1].get("away")
    board = fake_discord.get_message(game.row.board_message_id)
    rules = next(c["custom_id"] for row in board["components"] for c in row["components"]
                 if c.get("custom_id", "").endswith(":table.rules"))
    answer = await discord_driver.click(board, rules, user="bob")
    await discord_driver.settle()
    assert answer.ephemeral and answer.embeds  # the rules, privately
    game = await bot.tables.load(game.id)
    assert not game.row.seats[1].get("away")
    assert any("Bob is back" in e for e in game.row.events)
    board = fake_discord.get_message(game.row.board_message_id)
    assert "💤" not in str(board["embeds"][0])
    rules = next(c["custom_id"] for row in board["components"] for c in row["components"]
                 if c.get("custom_id", "").endswith(":table.rules"))
    again = await discord_driver.click(board, rules, user="bob")  # not away: nothing changes
    await discord_driver.settle()
    assert again.ephemeral
    assert (await bot.tables.load(game.id)).row.version == game.row.version


async def test_lobby_host_removes_computers_and_hands_the_host_role(discord_driver,
                                                                     fake_discord, tmp_path):
    """C6: the host is marked, may remove a computer player and hand the host role on."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="bob")).message
    seated = board["embeds"][0]["fields"][0]["value"]
    assert "Alice 👑" in seated and "(computer) 🤖" in seated
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.ephemeral and "Only the host, Alice," in refused.content
    assert refused.custom_ids == []
    board = await host_board(discord_driver, board, "lobby.drop.2")
    assert "🤖" not in board["embeds"][0]["fields"][0]["value"]
    board = await host_board(discord_driver, board, "lobby.host.1")
    assert "Bob 👑" in board["embeds"][0]["fields"][0]["value"]
    board = (await discord_driver.click(board, button(board, "lobby.leave"), user="bob")).message
    assert "Alice 👑" in board["embeds"][0]["fields"][0]["value"]
    alone = await discord_driver.click(board, button(board, "lobby.leave"), user="alice")
    assert alone.ephemeral and "Close the table" in alone.content


async def test_new_table_invites_members_with_one_mention(discord_driver, fake_discord, tmp_path):
    """/steam new may name members to invite: the lobby's message mentions them once."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    result = await discord_driver.slash("steam", "new", {"invite": fake_discord.user("bob")},
                                        user="alice")
    assert fake_discord.pings(result.message) == {fake_discord.user("bob").id}
    board = (await discord_driver.click(result.message, button(result.message, "lobby.join"),
                                        user="bob")).message
    assert fake_discord.pings(board) <= {fake_discord.user("bob").id}  # edits ping nobody new


async def test_end_shows_places_and_play_again_brings_the_computers(discord_driver,
                                                                    fake_discord, tmp_path):
    """The end lists places 1st to Nth in words; Play again opens a lobby with the computers."""
    bot, _board = await _table(discord_driver, fake_discord, tmp_path, people=(), computers=1)
    while True:
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        if game is None:
            break
        if game.to_act() == 0:
            await _play_turn(discord_driver, fake_discord, bot, {0: "alice"})
        else:
            await discord_driver.settle()
    ended = await bot.store.get_game(game_id := 1)
    board = fake_discord.get_message(ended.board_message_id)
    text = board["embeds"][0]["description"]
    # who won (or who share the win); the picture has the places
    assert text.startswith("🏁 ") and ("wins" in text or "share the win" in text)
    [picture] = board["attachments"]
    alt = picture["description"]
    assert "win" in alt and all(name in alt for name in ("Alice", "Ada", "computer"))
    again = await discord_driver.click(board, button(board, "table.again"), user="alice")
    assert again.response_type == 4
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert lobby.id != game_id and lobby.row.status == "lobby"
    assert [s.get("computer") for s in lobby.row.seats] == [False, True]


@pytest.mark.usefixtures("away_at_once")
async def test_play_again_seats_only_the_people_still_playing_at_the_end(
        discord_driver, fake_discord, tmp_path):
    """Play again does not seat a person who resigned or whose seat a computer played at
    the end: they are not pinged by a table they never joined (each may join it)."""
    driver, fake = discord_driver, fake_discord
    for name in ("carol", "dave"):
        fake.add_user(name)
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    for name in ("bob", "carol", "dave"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    dave = fake.user("dave")
    await driver.slash("steam", "away", {"player": dave}, user="alice")
    await driver.slash("steam", "away", {"player": dave}, user="bob")
    for user in ("bob", "carol", "alice"):  # all resign: Dave's computer wins
        now = await bot.tables.load(game.id)
        shown = fake.get_message(now.row.board_message_id)
        ask = await driver.click(shown, button(shown, "ask.resign"), user=user)
        await driver.click(ask.message, ask.custom_ids[0], user=user)
        await driver.settle()
    ended = await bot.tables.load(game.id)
    assert not ended.row.is_open and ended.seats[3].away
    final = fake.get_message(ended.row.board_message_id)
    # the board says what Dave's records say (C6): his seat won, he walked away
    status = final["embeds"][0]["description"]
    assert "Dave wins" in status and "💤 Dave was away at the end: it counts as a loss." in status
    [dave_result] = await bot.store.results(fake.user("dave").id)
    assert dave_result["outcome"] == "loss" and dave_result["detail"]["away"]
    await driver.click(final, button(final, "table.again"), user="alice")
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    assert [s.name for s in lobby.seats] == ["Alice"]


def test_computer_options_are_not_live_during_its_turn():
    """While a computer player is choosing, the board's options are disabled, but Resign,
    which a person seated may do at any time (S10), is live."""
    from bot.boards.service import Boards
    from cogs.steam import SteamCog

    state = ENGINE.new(5, 2, {"names": ["Alice", "Ada (computer)"], "start_seat": 1})
    game = loaded(ENGINE, state, seats=2)
    assert game.seats[1].computer
    boards = Boards(None, None, images=False)  # type: ignore[arg-type]
    boards.register(SteamCog(None))
    body = boards.drawing.render(game)
    items = [i for i in body["view"].items if "table." not in (i.custom_id or "")]
    live = [i.custom_id.rsplit(":", 1)[-1] for i in items if not i.disabled]
    assert len(items) > 1 and live == ["ask.resign"]


def test_an_away_seats_moves_are_not_live_while_a_computer_plays_it():
    """S10, C6: Alice is away and a computer plays her turn: the board offers none of her
    moves (her coming back is any click), but Bob, seated, may still resign."""
    from dataclasses import replace

    from bot.boards.service import Boards
    from cogs.steam import SteamCog

    state = ENGINE.new(5, 2, {"names": ["Alice", "Bob"], "start_seat": 0})
    game = loaded(ENGINE, state, seats=2)
    game.seats[0] = replace(game.seats[0], away=True)
    game.seats[1] = replace(game.seats[1], computer=False, user_id=101)
    assert game.computer_to_act() and game.to_act() == 0
    boards = Boards(None, None, images=False)  # type: ignore[arg-type]
    boards.register(SteamCog(None))
    items = [i for i in boards.drawing.render(game)["view"].items
             if "table." not in (i.custom_id or "")]
    live = [i.custom_id.rsplit(":", 1)[-1] for i in items if not i.disabled]
    assert len(items) > 1 and live == ["ask.resign"]


async def test_rules_and_details_list_every_train(discord_driver, fake_discord, tmp_path):
    """With the picture the board is short; "Rules & details" lists the river and all trains."""
    _bot, board = await _table(discord_driver, fake_discord, tmp_path, people=(), computers=1)
    game_board = fake_discord.get_message(board["id"])
    result = await discord_driver.click(game_board, button(game_board, "table.rules"),
                                        user="alice")
    assert result.ephemeral
    pages = {e["title"]: e for e in await every_page(discord_driver, result, "alice")}
    names = [f["name"] for f in pages["The river and the piles"]["fields"]]
    values = [f["value"] for f in pages["The river and the piles"]["fields"]]
    assert names[0].startswith("River") and names[1] == "Deck" and "Pawns" in values[1]
    assert names[2].startswith("Discard pile")  # what the computer knows, anyone can read
    trains = [f["name"] for f in pages["Every player's trains"]["fields"]]
    assert any("Alice" in n for n in trains) and any("(computer)" in n for n in trains)
    table = {f["name"]: f["value"] for f in pages["This table and its icons"]["fields"]}
    # a late arriver reads who hosts and how the table plays, not "the channel votes"
    assert table["At this table"] == "Hosted by Alice · 2 seats, each played on its own turn"


async def test_computer_moves_edit_a_board_at_most_once_per_interval(discord_driver,
                                                                     fake_discord, tmp_path):
    """Computer players moving at once cost at most one board edit per BOARD_EDIT_SECONDS."""
    import time

    bot, board = await _lobby(discord_driver, tmp_path, computers=3, BOARD_EDIT_SECONDS=0.5)
    board = await host_board(discord_driver, board, "lobby.start")
    started = time.monotonic()
    before = len(fake_discord.requests)
    moves = 0
    for _ in range(3):
        game = await bot.tables.open_in_channel(fake_discord.channel_id)
        if game is None:
            break
        version = game.row.version
        await _play_turn(discord_driver, fake_discord, bot, {0: "alice"})
        game = await bot.tables.load(game.id)
        moves += game.row.version - version
    elapsed = time.monotonic() - started
    edits = [r for r in fake_discord.requests[before:]
             if r.method == "PATCH" and "/channels/" in r.path and "/messages/" in r.path]
    print(f"\n{moves} moves (3 by Alice), {len(edits)} board edits in {elapsed:.1f} s")
    assert moves > len(edits) >= 1
    assert len(edits) <= elapsed / 0.5 + 3
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    if game is not None:  # the board ends up showing the latest move
        shown = board_ids(fake_discord.get_message(game.row.board_message_id))
        assert shown and all(f":{game.row.version}:" in cid for cid in shown)


async def test_deck_and_computer_levels_travel_from_lobby_to_game_and_play_again(
        discord_driver, fake_discord, tmp_path):
    """S1/S2 and the computer's levels through Discord: /steam new deck courts, the host sets
    a computer to Hard and another is added at Normal; the game plays the Courts with those
    levels, only the host may set a level, and Play again brings both computers back as
    they were."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", {"deck": "courts",
                                                         "first": "me (the host)"},
                                        user="alice")).message
    for _ in range(2):
        board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                            user="alice")).message
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.ephemeral and "Only the host" in refused.content
    board = await host_board(discord_driver, board, "lobby.level.1.hard")
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s.get("level") for s in lobby.row.seats] == [None, "hard", "normal"]
    assert "Hard" in board["embeds"][0]["fields"][0]["value"]
    board = await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.view()["deck_kind"] == "courts"
    assert [p.level for p in game.state.players][1:] == ["hard", "normal"]
    await bot.tables.abandon(fake_discord.channel_id,
                             Actor(fake_discord.users["alice"].id, "Alice"))
    ended = await bot.tables.load(game.id)
    await bot.boards.messages.refresh(ended)
    final = fake_discord.get_message(board["id"])
    again = await discord_driver.click(final, button(final, "table.again"), user="alice")
    new = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert new is not None and new.id != game.id and again is not None
    assert new.row.options.get("deck") == "courts" and "levels" not in new.row.options
    assert [s.get("level") for s in new.row.seats if s.get("computer")] == ["hard", "normal"]


@pytest.mark.usefixtures("away_at_once")
async def test_an_away_player_asking_to_resign_is_welcomed_back_and_asked(
        discord_driver, fake_discord, tmp_path):
    """C6: an away player who presses Resign on the current board is back at once, told
    so, and asked to confirm (coming back moved the board on: the question is about the
    board as it is now, not refused as out of date); confirming resigns their seat."""
    bot, game = await _bob_away(discord_driver, fake_discord, tmp_path)
    assert game.row.seats[1].get("away") and game.to_act() == 0
    board = fake_discord.get_message(game.row.board_message_id)
    ask = await discord_driver.click(board, button(board, "ask.resign"), user="bob")
    assert ask.ephemeral
    assert ask.content.startswith("Welcome back: you play your own seat again.")
    assert "out of date" not in ask.content and "Resign" in ask.content
    back = await bot.tables.load(game.id)
    assert not back.row.seats[1].get("away") and back.row.version == game.row.version + 1
    await discord_driver.click(ask.message, ask.custom_ids[0], user="bob")
    await discord_driver.settle()
    after = await bot.tables.load(game.id)
    assert after.row.version > back.row.version
    assert any("resign" in event.lower() for event in after.row.events), after.row.events


async def test_play_again_keeps_each_computers_name_and_level(discord_driver, fake_discord,
                                                             tmp_path):
    """The host removes Ada and sets Brass to Hard; at Play again Brass is still the hard
    one and Cog the normal one (names players learned stay with their levels)."""
    bot, board = await _lobby(discord_driver, tmp_path, computers=3)
    board = await host_board(discord_driver, board, "lobby.drop.1")
    board = await host_board(discord_driver, board, "lobby.level.1.hard")
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    before = [(s["name"], s.get("level")) for s in lobby.row.seats if s.get("computer")]
    assert before == [("Brass (computer)", "hard"), ("Cog (computer)", "normal")]
    await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await discord_driver.settle()
    shown = fake_discord.get_message(game.row.board_message_id)
    ask = await discord_driver.click(shown, button(shown, "ask.resign"), user="alice")
    await discord_driver.click(ask.message, ask.custom_ids[0], user="alice")
    await discord_driver.settle()
    final = fake_discord.get_message(game.row.board_message_id)
    await discord_driver.click(final, button(final, "table.again"), user="alice")
    again = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [(s["name"], s.get("level")) for s in again.row.seats if s.get("computer")] == before


async def test_play_again_never_names_a_computer_like_a_person(discord_driver, fake_discord,
                                                               tmp_path):
    """A member shown "Ada (Computer)" sat at the last table beside a computer: at Play
    again the computer still gets a name no person there has."""
    from bot.text.alike import alike

    fake_discord.add_user("ada (computer)")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("steam", "new", {"first": "me (the host)"},
                                        user="alice")).message
    board = (await discord_driver.click(board, button(board, "lobby.join"),
                                        user="ada (computer)")).message
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for name in ("alice", "ada (computer)"):
        await discord_driver.settle()
        shown = fake_discord.get_message(game.row.board_message_id)
        ask = await discord_driver.click(shown, button(shown, "ask.resign"), user=name)
        await discord_driver.click(ask.message, ask.custom_ids[0], user=name)
    await discord_driver.settle()
    final = fake_discord.get_message(game.row.board_message_id)
    await discord_driver.click(final, button(final, "table.again"), user="ada (computer)")
    again = await bot.tables.open_in_channel(fake_discord.channel_id)
    names = [s["name"] for s in again.row.seats]
    assert len(names) == 2 and len({alike(n) for n in names}) == 2, names
