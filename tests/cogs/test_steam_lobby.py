"""The Steam to Solar lobby through the offline Discord: the same board for everyone, the
host's private controls, removing and inviting people, Play again with the whole table,
an away player told they are back, and "Invite to Steam to Solar" in a member's menu.

Each test counts what players see: channel messages, private replies, pings, clicks.
"""

from __future__ import annotations

from bot.boards.layout import action_button, phone_lines
from bot.games.protocol import Action
from bot.table.loaded import Actor
from tests.fake_discord import payloads
from tests.support import (
    abandon,
    board_ids,
    button,
    host_board,
    host_does,
    host_panel,
    make_bot,
    pings_sent,
    press,
)

COGS = ("cogs.steam",)
MENU = "Invite to Steam to Solar"


def _actions(ids: list[str]) -> list[str]:
    """The action (or group) at the end of each custom_id."""
    return [cid.split(":", 3)[-1] for cid in ids]


async def _lobby(driver, tmp_path, *people: str):
    """Open a table as Alice and seat ``people``; return the bot and the board."""
    bot = await driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await driver.slash("steam", "new", user="alice")).message
    for name in people:
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    return bot, board


async def test_everyone_sees_the_same_lobby_and_only_the_host_gets_its_controls(
        discord_driver, fake_discord, tmp_path):
    """The lobby board has Join, Leave, Add computer, Host controls and the rules,
    for everyone; "Host controls" answers the host privately with start, close, the
    computers' levels, the people and an invitation, and tells anyone else who hosts."""
    _bot, board = await _lobby(discord_driver, tmp_path, "bob")
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="bob")).message
    assert _actions(board_ids(board, table=True)) == [
        "lobby.join", "lobby.leave", "lobby.computer", "lobby.panel", "table.rules"]
    rows = [[b.get("label") for b in r["components"]] for r in board["components"]]
    assert rows == [["Join", "Leave", "Add computer"], ["Host controls", "Rules & details"]]
    for row in board["components"]:  # each row a phone line: "Add computer player" wrapped
        assert phone_lines([action_button(1, 1, Action(str(i), b["label"]))
                            for i, b in enumerate(row["components"])]) == 1
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.ephemeral and refused.custom_ids == []
    assert refused.content.startswith("Only the host, Alice, can use the host controls. If")
    panel = await host_panel(discord_driver, board)
    assert panel.ephemeral and "Host controls" in panel.content
    assert _actions(panel.custom_ids) == ["lobby.start", "ask.lobby.cancel", "drop", "people",
                                          "lobby.invite"]
    kinds = [c["type"] for c in payloads.iter_components(panel.message["components"])
             if "custom_id" in c]
    assert kinds == [2, 2, 3, 3, 5]  # the invitation picks any member of the server
    people = next(c for c in payloads.iter_components(panel.message["components"])
                  if c.get("custom_id", "").endswith(":people"))
    assert [o["value"] for o in people["options"]] == ["lobby.host.1", "lobby.kick.1"]
    assert len(fake_discord.channel_messages()) == 1  # the board only


async def test_host_removes_a_person_who_may_join_again(discord_driver, fake_discord, tmp_path):
    """The host removes Bob from the controls: the board and the controls both show it,
    Bob can join again, and removing the host or a computer this way is refused."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    done = await host_does(discord_driver, board, "lobby.kick.1")
    assert done.response_type == 7 and done.ephemeral
    assert "Alice removed Bob from the table." in done.content
    assert "people" not in _actions(done.custom_ids)  # nobody else is seated now
    board = fake_discord.get_message(board["id"])
    assert "Bob" not in board["embeds"][0]["fields"][0]["value"]
    board = (await discord_driver.click(board, button(board, "lobby.join"), user="bob")).message
    assert "2. Bob" in board["embeds"][0]["fields"][0]["value"]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s["name"] for s in game.row.seats] == ["Alice", "Bob"]


async def test_stale_controls_are_redrawn_not_applied(discord_driver, fake_discord, tmp_path):
    """Controls opened before someone joined are drawn for an older table: a choice on
    them redraws them as the table is now instead of removing the wrong seat."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    panel = await host_panel(discord_driver, board)
    fake_discord.add_user("carol")
    await discord_driver.click(board, button(board, "lobby.join"), user="carol")
    redrawn = await press(discord_driver, panel.message, "lobby.kick.1", "alice")
    assert redrawn.response_type == 7 and "changed meanwhile" in redrawn.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s["name"] for s in game.row.seats] == ["Alice", "Bob", "Carol"]
    assert all(f":{game.row.version}:" in cid for cid in redrawn.custom_ids)
    # "Close the table", which asks first, is redrawn the same way, not refused as out
    # of date with a link to the public board
    board = fake_discord.get_message(board["id"])
    panel = await host_panel(discord_driver, board)
    fake_discord.add_user("dave")
    await discord_driver.click(board, button(board, "lobby.join"), user="dave")
    redrawn = await press(discord_driver, panel.message, "ask.lobby.cancel", "alice")
    assert redrawn.response_type == 7 and "changed meanwhile" in redrawn.content
    assert (await bot.tables.open_in_channel(fake_discord.channel_id)) is not None


async def test_host_invites_any_member_with_one_mention(discord_driver, fake_discord, tmp_path):
    """The host picks a member in the controls' member select: one channel message
    mentions that member (and pings nobody else); a bot or someone seated is refused
    privately, and nothing is posted."""
    _bot, board = await _lobby(discord_driver, tmp_path, "bob")
    fake_discord.add_user("carol")
    carol = fake_discord.user("carol").id
    panel = await host_panel(discord_driver, board)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    before = len(fake_discord.channel_messages())
    invited = await discord_driver.pick_member(panel.message, select, "carol", user="alice")
    assert invited.response_type == 7 and invited.content.startswith("Invited Carol.")
    [message] = fake_discord.channel_messages()[before:]
    assert fake_discord.pings(message) == {carol}
    assert "Alice invites you to Steam to Solar" in message["content"]
    assert "Join" in message["content"]
    seated = await discord_driver.pick_member(panel.message, select, "bob", user="alice")
    assert seated.ephemeral and "already seated" in seated.content
    robot = payloads.user(999, "Robo", bot=True)
    bot_pick = await discord_driver.pick_member(
        panel.message, select, "carol", user="alice",
        resolved={"users": {str(carol): {**robot, "id": str(carol)}}, "members": {}})
    assert bot_pick.ephemeral and "Bots cannot" in bot_pick.content
    assert len(fake_discord.channel_messages()) == before + 1


async def test_play_again_seats_the_whole_table(discord_driver, fake_discord, tmp_path):
    """Play again opens the lobby with every person still playing at the end of the last
    game seated (the presser hosts; one who resigned is not, and may join) and the same
    computers at their levels; each person may leave, nobody is pinged, and the host
    starts with two clicks."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="bob")).message
    board = await host_board(discord_driver, board, "lobby.level.2.hard")
    board = await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    for name in ("alice", "bob"):  # both people give up: the game is over
        await discord_driver.settle()
        board = fake_discord.get_message(game.row.board_message_id)
        ask = await discord_driver.click(board, button(board, "ask.resign"), user=name)
        await discord_driver.click(ask.message, ask.custom_ids[0], user=name)
    assert (await bot.tables.load(game.id)).row.status == "over"
    final = fake_discord.get_message(game.row.board_message_id)
    again = await discord_driver.click(final, button(final, "table.again"), user="bob")
    assert not again.ephemeral and fake_discord.pings(again.message) == set()
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert lobby.row.status == "lobby" and lobby.host_id == fake_discord.user("bob").id
    assert [(s["name"], s.get("level")) for s in lobby.row.seats] == [
        ("Bob", None), ("Ada (computer)", "hard")]
    joined = await discord_driver.click(again.message, button(again.message, "lobby.join"),
                                        user="alice")
    new_board = joined.message
    left = await discord_driver.click(new_board, button(new_board, "lobby.leave"), user="alice")
    assert left.response_type == 7
    lobby = await bot.tables.load(lobby.id)
    assert [s["name"] for s in lobby.row.seats] == ["Bob", "Ada (computer)"]
    started = await host_does(discord_driver, left.message, "lobby.start", "bob")
    assert started.response_type == 7
    assert (await bot.tables.load(lobby.id)).row.status == "active"


def _actor(fake, name):
    """The table's actor for one of the fake's users."""
    return Actor(fake.user(name).id, name.title())


async def test_away_player_clicking_out_of_turn_is_told_privately(discord_driver, fake_discord,
                                                                 tmp_path):
    """An away player who clicks during someone else's turn plays their seat again and is
    told so privately, in one line."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    board = await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    waiting = 1 - game.to_act()
    name = ("alice", "bob")[waiting]
    row = await bot.store.get_game(game.id)
    row.seats[waiting]["away"] = True
    await bot.store.save_game(row, row.version)  # as a second turn timer would leave it
    game = await bot.tables.load(game.id)
    assert game.row.seats[waiting].get("away"), "the seat could not be marked away"
    board = fake_discord.get_message(game.row.board_message_id)
    cid = next(c for c in board_ids(board) if ":ask." not in c)
    kind = next(c["type"] for c in payloads.iter_components(board["components"])
                if c.get("custom_id") == cid)
    if kind == 2:
        result = await discord_driver.click(board, cid, user=name)
    else:
        option = next(c for c in payloads.iter_components(board["components"])
                      if c.get("custom_id") == cid)["options"][0]["value"]
        result = await discord_driver.select(board, cid, [option], user=name)
    assert result.response_type == 7
    [back] = result.followups
    assert back["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL
    assert back["content"].startswith("Welcome back: you play your own seat again.")
    assert not (await bot.tables.load(game.id)).row.seats[waiting].get("away")


async def test_member_menu_opens_a_table_with_that_member_invited(discord_driver, fake_discord,
                                                                  tmp_path):
    """Apps → Invite to Steam to Solar on Bob opens a table here whose message mentions
    Bob alone; the host using it again on Carol invites her with one message; anyone
    else, or a channel busy with another game, is refused privately."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam", "cogs.tinker")))
    bob = fake_discord.user("bob").id
    opened = await discord_driver.user_command(MENU, "bob", user="alice")
    assert not opened.ephemeral and fake_discord.pings(opened.message) == {bob}
    lobby = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert lobby.row.kind == "steam" and lobby.row.status == "lobby"
    assert [s["name"] for s in lobby.row.seats] == ["Alice"]
    fake_discord.add_user("carol")
    carol = fake_discord.user("carol").id
    again = await discord_driver.user_command(MENU, "carol", user="alice")
    assert not again.ephemeral and fake_discord.pings(again.message) == {carol}
    refused = await discord_driver.user_command(MENU, "carol", user="bob")
    assert refused.ephemeral and "Only the host" in refused.content
    assert len(fake_discord.channel_messages()) == 2
    await bot.tables.abandon(fake_discord.channel_id, _actor(fake_discord, "alice"))
    await discord_driver.slash("tinker", "start", user="alice")
    busy = await discord_driver.user_command(MENU, "bob", user="alice")
    assert busy.ephemeral and "already has a game of" in busy.content


async def test_member_menu_is_a_user_command_in_servers_only(discord_driver, fake_discord,
                                                             tmp_path):
    """The menu entry is synced as a user command (type 2) that only works in servers."""
    await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    [menu] = [c for c in fake_discord.commands if c["name"] == MENU]
    assert menu["type"] == 2
    assert menu.get("contexts") in (None, [0]) and menu.get("dm_permission") is False


async def test_a_full_lobby_and_its_host_controls_fit_one_phone_screen(
        discord_driver, fake_discord, tmp_path):
    """Five seats (three people, two computers): the lobby board and the host's controls
    are each at most 600 px tall at phone width, as the preview tool draws them."""
    from tests.cogs.board_messages import PHONE_BUDGET, Message, need_preview, phone_heights

    for name in ("carol", "dave"):
        fake_discord.add_user(name)
    _bot, board = await _lobby(discord_driver, tmp_path, "bob", "carol")
    for _ in range(2):
        board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                            user="alice")).message
    panel = await host_panel(discord_driver, board)
    assert panel.ephemeral
    preview = need_preview()
    shown = [Message(fake_discord.get_message(board["id"]), b""), Message(panel.message, b"")]
    heights = phone_heights(preview, shown)
    assert max(heights) <= PHONE_BUDGET, heights


async def test_the_host_who_cannot_leave_is_told_the_buttons_that_close_the_table(
        discord_driver, fake_discord, tmp_path):
    """The host alone at the table (with a computer player) cannot leave it, nor remove
    themselves: the private answer names the buttons that close it, which exist."""
    _bot, board = await _lobby(discord_driver, tmp_path)
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    left = await discord_driver.click(board, button(board, "lobby.leave"), user="alice")
    assert left.ephemeral
    assert "**Host controls**, then **Close the table**" in left.content
    panel = (await host_panel(discord_driver, board)).message
    labels = [item.get("label") for row in panel["components"] for item in row["components"]]
    assert "Close the table" in labels and "Cancel" not in labels
    assert "Host controls" in [item.get("label") for row in board["components"]
                               for item in row["components"]]


#: A member's permissions in a channel they cannot see.
NO_VIEW = payloads.EVERYONE_PERMISSIONS & ~payloads.VIEW_CHANNEL


async def test_a_member_who_cannot_see_the_channel_is_not_invited(
        discord_driver, fake_discord, tmp_path):
    """The member select, the start command's invite option and the member menu each
    refuse privately to invite someone who cannot see the channel (Discord sends their
    permissions there with the choice): nothing is posted for them, nobody is pinged."""
    _bot, board = await _lobby(discord_driver, tmp_path)
    dave = fake_discord.add_user("dave", permissions=NO_VIEW)
    panel = await host_panel(discord_driver, board)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    before = len(fake_discord.channel_messages())
    picked = await discord_driver.pick_member(panel.message, select, "dave", user="alice")
    assert picked.ephemeral and "cannot see this channel" in picked.content
    assert fake_discord.channel_messages()[before:] == []
    menu = await discord_driver.user_command("Invite to Steam to Solar", "dave", user="alice")
    assert menu.ephemeral and "cannot see this channel" in menu.content
    other = fake_discord.add_channel("another-table")
    opened = await discord_driver.slash("steam", "new", {"invite": dave}, user="alice",
                                        channel=other)
    assert dave.id not in fake_discord.pings(opened.message)
    assert any("Not invited: Dave." in (f.get("content") or "") for f in opened.followups)
    assert dave.id not in pings_sent(fake_discord)
    # two members shown alike are two members: both named
    namesake = fake_discord.add_user("DAVE", permissions=NO_VIEW)
    third = fake_discord.add_channel("a-third-table")
    opened = await discord_driver.slash("steam", "new", {"invite": dave, "invite2": namesake},
                                        user="alice", channel=third)
    assert any("Not invited: Dave, Dave." in (f.get("content") or "")
               for f in opened.followups), opened.followups


async def test_an_invitation_from_controls_left_open_after_closing_says_it_is_closed(
        discord_driver, fake_discord, tmp_path):
    """Host controls opened twice: the table closed on one copy, an invitation from the
    other is refused as closed (not as started)."""
    _bot, board = await _lobby(discord_driver, tmp_path)
    first = await host_panel(discord_driver, board)
    second = await host_panel(discord_driver, board)
    asked = await press(discord_driver, first.message, "ask.lobby.cancel", "alice")
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    fake_discord.add_user("carol")
    select = next(cid for cid in second.custom_ids if cid.startswith("u1:"))
    invited = await discord_driver.pick_member(second.message, select, "carol", user="alice")
    assert invited.ephemeral and invited.content == "This table was closed."


async def test_a_table_where_everyone_is_away_can_be_abandoned_by_its_people(
        discord_driver, fake_discord, tmp_path):
    """Both people's timers ran out twice: nobody plays for themselves and the table
    waits for them. Its people may still end it, by a majority of them."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    await host_board(discord_driver, board, "lobby.start")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    row = await bot.store.get_game(game.id)
    for seat in row.seats:
        seat["away"] = True
    await bot.store.save_game(row, row.version)
    asked = await abandon(discord_driver, "steam", "alice")
    assert "asks to abandon" in (await bot.tables.load(game.id)).row.events[-1], asked.content
    await abandon(discord_driver, "steam", "bob")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"


async def test_a_full_lobby_says_it_is_full_not_press_join(discord_driver, fake_discord,
                                                           tmp_path):
    """Five seated: Join is greyed out, so the lobby says the table is full and who
    starts it, not "Press Join"."""
    _bot, board = await _lobby(discord_driver, tmp_path, "bob")
    for _ in range(3):
        board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                            user="alice")).message
    text = board["embeds"][0]["description"]
    assert text.startswith("The table is full: the host starts from **Host controls**")
    assert "Press **Join**" not in text


async def test_a_member_invited_by_steam_new_is_invited_once(discord_driver, fake_discord,
                                                            tmp_path):
    """/steam new invite:Carol pings Carol once: inviting her again, from the host's
    controls or from Apps, is refused privately with a link to the board that invited
    her, and nobody is pinged again. Once she joins, the board's "Invited:" line leaves
    her out (it names those still to come, here Dave)."""
    fake_discord.add_user("carol")
    fake_discord.add_user("dave")
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    carol, dave = fake_discord.user("carol"), fake_discord.user("dave")
    made = await discord_driver.slash("steam", "new", {"invite": carol}, user="alice")
    assert pings_sent(fake_discord) == [carol.id]
    panel = await host_panel(discord_driver, made.message)
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    again = await discord_driver.pick_member(panel.message, select, "carol", user="alice")
    assert again.ephemeral and "invited already" in again.content, again.content
    assert made.message["id"] in again.content
    apps = await discord_driver.user_command("Invite to Steam to Solar", "carol", user="alice")
    assert apps.ephemeral and "invited already" in apps.content, apps.content
    invited = await discord_driver.pick_member(panel.message, select, "dave", user="alice")
    assert invited.content.startswith("Invited Dave.")
    await discord_driver.settle()
    assert pings_sent(fake_discord) == [carol.id, dave.id]
    board = fake_discord.get_message(made.message["id"])
    assert board["content"] == f"Invited: <@{carol.id}>"
    await discord_driver.click(board, button(board, "lobby.join"), user="carol")
    await discord_driver.settle()
    assert not fake_discord.get_message(made.message["id"]).get("content")
    assert pings_sent(fake_discord) == [carol.id, dave.id]


async def test_close_the_table_asks_first_as_abandon_does(discord_driver, fake_discord, tmp_path):
    """"Close the table" sits beside "Start" in the host controls: a tap asks first, in
    the words /steam abandon uses, and only "Yes" closes the lobby. Bob keeps his seat
    until then."""
    bot, board = await _lobby(discord_driver, tmp_path, "bob")
    panel = await host_panel(discord_driver, board)
    row = [c["label"] for c in panel.message["components"][0]["components"]]
    assert row == ["Start", "Close the table"]
    asked = await press(discord_driver, panel.message, "ask.lobby.cancel", "alice")
    assert asked.ephemeral and asked.content == (
        "Close this Steam to Solar table? Everyone seated leaves it. (Dismiss this message "
        "to keep the table open.)")  # nobody plays yet: the table is kept, not play
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and [s.name for s in game.seats] == ["Alice", "Bob"]
    await discord_driver.click(asked.message, asked.custom_ids[0], user="alice")
    await discord_driver.settle()
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    assert (await bot.tables.load(game.id)).row.status == "abandoned"


async def test_the_lobby_footer_names_both_people_an_event_is_about(discord_driver,
                                                                    fake_discord, tmp_path):
    """With ordinary long names, the lobby's footer still says whom the host removed and
    whom they handed the host role to (a one-line cut ended "Alexandra
    Konstantinopoulou removed…")."""
    host, guest = "alexandra konstantinopoulou", "bartholomew fitzgerald"
    for name in (host, guest, "carol"):
        fake_discord.add_user(name)
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user=host)).message
    for name in (guest, "carol"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    board = await host_board(discord_driver, board, "lobby.kick.1", host)
    footer = board["embeds"][0]["footer"]["text"]
    assert "Bartholomew Fitzgerald" not in board["embeds"][0]["fields"][0]["value"]
    assert footer == "Alexandra Konstantinopoulou removed Bartholomew Fitzgerald from the table."
    board = await host_board(discord_driver, board, "lobby.host.1", host)
    footer = board["embeds"][0]["footer"]["text"]
    assert footer.rstrip(".").endswith("Carol"), footer


async def test_join_or_leave_a_moment_after_the_start_is_told_so(discord_driver, fake_discord,
                                                                  tmp_path):
    """Carol's Join and Bob's Leave reach the bot a moment after Alice started the table:
    Carol is told the seats are taken (watch, or open a table elsewhere), Bob that he is
    seated in the game and whose turn it is; nothing changes."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    lobby = (await discord_driver.slash("steam", "new", user="alice")).message
    lobby = (await discord_driver.click(lobby, button(lobby, "lobby.join"), user="bob")).message
    join = fake_discord.component_payload(lobby, button(lobby, "lobby.join"), user="carol")
    leave = fake_discord.component_payload(lobby, button(lobby, "lobby.leave"), user="bob")
    await host_board(discord_driver, lobby, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.status == "active"
    carol = await discord_driver.feed(join)
    assert carol.ephemeral and carol.content.startswith(
        "The host started the game a moment before your click, so its seats are taken")
    assert "/steam new" in carol.content
    bob = await discord_driver.feed(leave)
    whose = game.seat_name(game.to_act())
    assert bob.ephemeral and "you are seated in it" in bob.content
    assert (f"It is {whose}'s turn." in bob.content or "It is your turn." in bob.content)
    after = await bot.tables.load(game.id)
    assert after.row.version == game.row.version and len(after.seats) == 2


async def test_join_on_a_lobby_board_left_behind_shows_the_game(discord_driver, fake_discord,
                                                                tmp_path):
    """The bot may not edit the channel's messages when Alice starts the table, so its
    board still shows the lobby: Carol's Join there brings it up to date (the game) and
    tells her the seats were taken."""
    fake_discord.add_user("carol")
    bot = await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    lobby = (await discord_driver.slash("steam", "new", user="alice")).message
    lobby = (await discord_driver.click(lobby, button(lobby, "lobby.join"), user="bob")).message
    fake_discord.fail_next("*", r"^/channels/\d+/messages", 403, code=50001, times=10_000)
    await host_board(discord_driver, lobby, "lobby.start")
    await discord_driver.settle()
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None and game.row.status == "active"
    left = fake_discord.get_message(game.row.board_message_id)
    assert any(i.endswith("lobby.join") for i in board_ids(left))  # left behind
    carol = await discord_driver.click(left, button(left, "lobby.join"), user="carol")
    await discord_driver.settle()
    now = fake_discord.get_message(game.row.board_message_id)
    assert board_ids(now) and not any(i.endswith("lobby.join") for i in board_ids(now))
    said = [carol.content or "", *(m.get("content") or "" for m in carol.followups)]
    assert any(s.startswith("The host started the game a moment before your click")
               for s in said), said


async def test_a_namesake_is_named_as_seated_in_the_lobby_lines(discord_driver, fake_discord,
                                                                tmp_path):
    """Two members called Sam join, seated "Sam" and "Sam (2)": when "Sam (2)" adds a
    computer player and leaves, the board's lines name "Sam (2)", never the other Sam."""
    fake_discord.add_user("sam")
    fake_discord.add_user("SAM")
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",)))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    for name in ("sam", "SAM"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    assert "3. Sam (2)" in board["embeds"][0]["fields"][0]["value"]
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="SAM")).message
    assert board["embeds"][0]["footer"]["text"].startswith("Sam (2) added ")
    board = (await discord_driver.click(board, button(board, "lobby.leave"),
                                        user="SAM")).message
    embed = board["embeds"][0]
    assert "2. Sam" in embed["fields"][0]["value"]
    assert embed["footer"]["text"].endswith("Sam (2) left."), embed["footer"]["text"]
