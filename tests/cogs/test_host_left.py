"""A lobby whose host left the server (or was kicked or banned from it): nobody seated
could start or close the table, so the first seated person to press "Host controls"
hosts it, and the host's seat goes. A host still in the server keeps the role, until
they have done nothing in the lobby for ten minutes: then the first seated person to
press "Host controls" hosts it, and the host keeps their seat."""

from __future__ import annotations

import asyncio
import math

import pytest

import bot.boards.hosting as hosting
from bot.table.data import TableData
from bot.table.errors import Refusal
from bot.table.loaded import Actor
from bot.table.lobby import HOST_AWAY_SECONDS, LOBBY_CANCEL, LOBBY_CLAIM, LOBBY_JOIN
from tests.support import (
    ALICE,
    BOB,
    Clock,
    button,
    host_board,
    host_does,
    host_panel,
    make_bot,
    open_tables,
)

COGS = ("cogs.steam",)
MEMBER = r"^/guilds/\d+/members/\d+$"


#: What a seated person is told while the host is here, before the time it names.
WAIT = ("Only the host, Alice, can use the host controls. If Alice still does nothing "
        "here <t:{}:R>, press **Host controls** again to host the table yourself.")


async def _lobby(driver, fake, tmp_path, clock=None):
    """Alice opens a table; Bob and Carol join; return the bot and the board."""
    fake.add_user("carol")
    bot = await driver.login(make_bot(tmp_path, cogs=COGS, clock=clock))
    board = (await driver.slash("steam", "new", user="alice")).message
    for name in ("bob", "carol"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    return bot, board


def _asked(fake, first: int) -> list[int]:
    """The statuses of the member reads made since request ``first``."""
    return [r.status for r in fake.requests[first:]
            if r.method == "GET" and "/members/" in r.path]


async def test_a_seated_player_hosts_the_table_of_a_host_who_left(discord_driver,
                                                                  fake_discord, tmp_path):
    """Alice leaves the server: Bob's "Host controls" gives him the controls, the board
    says so and shows Alice's seat gone, and Bob can start the game; Carol is told Bob
    hosts now."""
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path)
    fake_discord.remove_member("alice")
    first = len(fake_discord.requests)
    panel = await host_panel(discord_driver, board, "bob")
    await discord_driver.settle()
    assert panel.ephemeral and "Host controls" in panel.content
    assert "Alice left the server; Bob hosts now." in panel.content
    assert _asked(fake_discord, first) == [404]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s.name for s in game.seats] == ["Bob", "Carol"]
    assert game.host_id == fake_discord.user("bob").id
    board = fake_discord.get_message(board["id"])
    seated = board["embeds"][0]["fields"][0]["value"]
    assert "Alice" not in seated and "Bob" in seated
    assert board["embeds"][0]["footer"]["text"] == "Alice left the server; Bob hosts now."
    refused = await host_panel(discord_driver, board, "carol")
    assert refused.content.startswith("Only the host, Bob, can use the host controls.")
    board = await host_board(discord_driver, board, "lobby.start", user="bob")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.status == "active" and len(game.seats) == 2


async def test_a_host_still_in_the_server_keeps_the_table(discord_driver, fake_discord,
                                                          tmp_path):
    """Alice is still a member: Bob is told she hosts, after one read of her membership,
    and when he may take the role if she does nothing; someone not seated is told who
    hosts without any read; nothing changes."""
    clock = Clock()
    opened = clock()
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.add_user("dave")
    first = len(fake_discord.requests)
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.content == WAIT.format(math.ceil(opened + HOST_AWAY_SECONDS))
    assert _asked(fake_discord, first) == [200]
    first = len(fake_discord.requests)
    refused = await host_panel(discord_driver, board, "dave")
    assert refused.content == "Only the host, Alice, can use the host controls."
    assert _asked(fake_discord, first) == []
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s.name for s in game.seats] == ["Alice", "Bob", "Carol"]


async def test_a_failed_membership_read_changes_nothing(discord_driver, fake_discord,
                                                        tmp_path):
    """Discord fails the read of the host's membership (a server error): the host keeps
    the table and Bob is told who hosts; nothing is logged as an error."""
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path)
    fake_discord.remove_member("alice")
    fake_discord.fail_next("GET", MEMBER, 503)  # (discord.py does not try a 503 again)
    first = len(fake_discord.requests)
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.content.startswith("Only the host, Alice, can use the host controls.")
    assert _asked(fake_discord, first) == [503]
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.host_id == fake_discord.user("alice").id


async def test_the_claim_is_never_a_button(discord_driver, fake_discord, tmp_path):
    """A forged board button for the claim is refused: only Discord's word that the host
    left lets a seated person take the role."""
    bot, _board = await _lobby(discord_driver, fake_discord, tmp_path)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    bob = fake_discord.user("bob")
    with pytest.raises(Refusal, match="Only the host, Alice"):
        await bot.tables.act(game.id, game.row.version, Actor(bob.id, "Bob"), LOBBY_CLAIM)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.host_id == fake_discord.user("alice").id and len(game.seats) == 3


async def test_only_a_seated_person_other_than_the_host_takes_the_role(
        discord_driver, fake_discord, tmp_path):
    """The table service hands the role on only to a seated person who is not the host,
    and only while the lobby is open."""
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    alice, dave = fake_discord.user("alice"), fake_discord.add_user("dave")
    for who in (Actor(alice.id, "Alice"), Actor(dave.id, "Dave")):
        with pytest.raises(Refusal, match="Only the host, Alice"):
            await bot.tables.claim_host(game.id, who, alice.id)
    carol = fake_discord.user("carol")
    play = await bot.tables.claim_host(game.id, Actor(carol.id, "Carol"), alice.id)
    assert play.game.host_id == carol.id and [s.name for s in play.game.seats] == [
        "Bob", "Carol"]
    await host_board(discord_driver, fake_discord.get_message(board["id"]), "lobby.start",
                     user="carol")
    with pytest.raises(Refusal):
        await bot.tables.claim_host(game.id, Actor(fake_discord.user("bob").id, "Bob"),
                                    carol.id)


async def test_two_seated_players_pressing_at_once_leave_one_host(discord_driver,
                                                                 fake_discord, tmp_path,
                                                                 monkeypatch):
    """Alice left; Bob and Carol press "Host controls" together, Carol's read of Alice's
    membership answered only after Bob took the role: Bob hosts, both keep their seats,
    and Carol is told Bob hosts (the claim is of the host Discord was asked about)."""
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path)
    fake_discord.remove_member("alice")
    real, carol = hosting.left_server, fake_discord.user("carol").id
    bob_done = asyncio.Event()

    async def late_for_carol(interaction, host_id):
        answer = await real(interaction, host_id)
        if interaction.user.id == carol:
            await bob_done.wait()
        return answer

    monkeypatch.setattr(hosting, "left_server", late_for_carol)
    carols = asyncio.ensure_future(host_panel(discord_driver, board, "carol"))
    await asyncio.sleep(0)
    try:
        bobs = await host_panel(discord_driver, board, "bob")
    finally:
        bob_done.set()
    told = await carols
    await discord_driver.settle()
    assert "Bob hosts now" in bobs.content
    assert told.content == "Only the host, Bob, can use the host controls."
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert [s.name for s in game.seats] == ["Bob", "Carol"]
    assert game.host_id == fake_discord.user("bob").id


async def test_a_seated_player_hosts_the_table_of_a_host_who_does_nothing(
        discord_driver, fake_discord, tmp_path):
    """Alice, still a member, does nothing in the lobby for ten minutes after adding a
    computer player: Bob's "Host controls" gives him the controls, Alice keeps her seat,
    the board says so, and Alice is now the one told who hosts."""
    clock = Clock()
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(300)
    moved = clock()
    board = (await discord_driver.click(board, button(board, "lobby.computer"),
                                        user="alice")).message
    clock.advance(HOST_AWAY_SECONDS - 1)  # (ten minutes after the lobby opened, not her move)
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.content == WAIT.format(math.ceil(moved + HOST_AWAY_SECONDS))
    clock.advance(1)
    panel = await host_panel(discord_driver, board, "bob")
    await discord_driver.settle()
    said = "Alice was idle 10 min; Bob hosts now."
    assert panel.ephemeral and "Host controls" in panel.content and said in panel.content
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.host_id == fake_discord.user("bob").id
    assert [s.name for s in game.seats if not s.computer] == ["Alice", "Bob", "Carol"]
    board = fake_discord.get_message(board["id"])
    assert board["embeds"][0]["footer"]["text"] == said
    refused = await host_panel(discord_driver, board, "alice")
    assert refused.content.startswith("Only the host, Bob, can use the host controls.")
    await host_board(discord_driver, board, "lobby.start", user="bob")
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.row.status == "active" and len(game.seats) == 4


async def test_what_the_host_does_keeps_the_role(discord_driver, fake_discord, tmp_path):
    """The host's moves and invitations count as being here (what others do does not):
    nine minutes after each, a seated person is still told to wait; a member not seated
    never takes the role."""
    clock = Clock()
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path, clock)
    fake_discord.add_user("dave")
    fake_discord.add_user("erin")
    clock.advance(540)
    panel = await host_panel(discord_driver, board, "alice")
    select = next(cid for cid in panel.custom_ids if cid.startswith("u1:"))
    invited = await discord_driver.pick_member(panel.message, select, "erin", user="alice")
    await discord_driver.settle()
    assert invited.content.startswith("Invited Erin.")
    clock.advance(540)
    board = (await discord_driver.click(fake_discord.get_message(board["id"]),
                                        button(board, "lobby.join"), user="dave")).message
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.content == WAIT.format(math.ceil(clock() - 540 + HOST_AWAY_SECONDS))
    clock.advance(HOST_AWAY_SECONDS)
    await host_does(discord_driver, board, "lobby.kick.3")  # Alice removes Dave
    clock.advance(540)
    refused = await host_panel(discord_driver, fake_discord.get_message(board["id"]), "carol")
    assert refused.content.startswith("Only the host, Alice,")
    clock.advance(60)
    outsider = await host_panel(discord_driver, fake_discord.get_message(board["id"]), "dave")
    assert outsider.content == "Only the host, Alice, can use the host controls."
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.host_id == fake_discord.user("alice").id


def test_when_the_host_was_last_here_is_stored() -> None:
    """``host_seen`` reads back as written; rows stored before it read as never seen."""
    data = TableData(host_seen=1_800_000_600.5)
    assert TableData.from_json(data.to_json()).host_seen == 1_800_000_600.5
    assert TableData.from_json({}).host_seen is None
    assert "host_seen" not in TableData().to_json()


async def test_time_the_bot_was_down_is_not_the_host_doing_nothing(tmp_path) -> None:
    """Alice opens a table, Bob joins; ten seconds later the bot is down for an hour.
    Back up, Alice has had ten seconds of a bot she could act on: Bob may not take the
    role yet (as turn timers and /steam away leave outages out), and is told a time
    that leaves the outage out too."""
    clock = Clock()
    async with open_tables(tmp_path / "t.db", clock) as tables:
        game = await tables.open_lobby("steam", guild_id=1, channel_id=5, host=ALICE)
        await tables.act(game.id, game.row.version, BOB, LOBBY_JOIN)
        clock.advance(10)
        down_from = clock()
    clock.advance(3600)
    async with open_tables(tmp_path / "t.db", clock) as tables:
        tables.turns.outages = [(down_from, 3600.0)]  # as the bot's start notes it
        clock.advance(5)
        game = await tables.load(game.id)
        assert tables.host_away_at(game) == game.data.host_seen + 3600 + HOST_AWAY_SECONDS
        with pytest.raises(Refusal, match="Only the host, Alice"):
            await tables.claim_host(game.id, BOB, None)
        clock.advance(HOST_AWAY_SECONDS - 15)
        play = await tables.claim_host(game.id, BOB, None)
        assert play.game.host_id == BOB.user_id


async def test_the_host_opening_the_controls_is_here(discord_driver, fake_discord, tmp_path):
    """Alice opens her controls a few seconds before the ten minutes are up (to start the
    table): Bob, pressing "Host controls" just after, does not take the role."""
    clock = Clock()
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path, clock)
    clock.advance(HOST_AWAY_SECONDS - 10)
    panel = await host_panel(discord_driver, board, "alice")
    assert "Host controls" in panel.content
    clock.advance(10)
    refused = await host_panel(discord_driver, board, "bob")
    assert refused.content == WAIT.format(math.ceil(clock() - 10 + HOST_AWAY_SECONDS))
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    assert game.host_id == fake_discord.user("alice").id


async def test_a_closed_lobby_s_host_controls_say_it_closed(discord_driver, fake_discord,
                                                            tmp_path):
    """"Host controls" on the board of a table closed before it started (a board not yet
    edited) says so, not that the game started."""
    bot, board = await _lobby(discord_driver, fake_discord, tmp_path)
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    alice = Actor(fake_discord.user("alice").id, "Alice")
    await bot.tables.act(game.id, game.row.version, alice, LOBBY_CANCEL)
    told = await host_panel(discord_driver, board, "alice")
    assert told.content == "This table was closed before its game started."


async def test_a_double_click_taking_the_host_controls_opens_them_twice(
        discord_driver, fake_discord, tmp_path):
    """Alice has been idle past the host's wait; Bob double-clicks Host controls: one
    click takes the role, the other finds it his and opens the controls too, never
    "Only the host, Bob, can use the host controls." to Bob himself."""
    clock = Clock()
    fake_discord.add_user("carol")
    await discord_driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await discord_driver.slash("steam", "new", user="alice")).message
    for name in ("bob", "carol"):
        board = (await discord_driver.click(board, button(board, "lobby.join"),
                                            user=name)).message
    clock.advance(HOST_AWAY_SECONDS + 1)
    clicks = [fake_discord.component_payload(board, button(board, "lobby.panel"), user="bob")
              for _ in range(2)]
    answers = await asyncio.gather(*(discord_driver.feed(c) for c in clicks))
    said = [a.content for a in answers]
    assert not any(s.startswith("Only the host") for s in said), said
    assert all(a.custom_ids for a in answers), said  # the controls, twice
