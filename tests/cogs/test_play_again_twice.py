"""Play again pressed on an ended board after someone else pressed it first points to the
table just opened, to join it (not "finish or abandon it first")."""

from __future__ import annotations

import pytest

from bot.table.loaded import Actor
from tests.support import (
    Clock,
    abandon,
    button,
    host_board,
    make_bot,
    resign,
    seated_steam,
    steam_with_bob,
)


async def _abandoned_table(driver, fake, tmp_path, **options):
    """Alice and Bob's table (with ``options``), started, then abandoned by a moderator:
    return the bot and its ended board."""
    bot, old = await steam_with_bob(driver, fake, tmp_path, **options)
    await abandon(driver, "steam", "mod")
    await driver.settle()
    return bot, fake.get_message((await bot.tables.load(old.id)).row.board_message_id)


async def test_play_again_pressed_second_points_to_the_new_table(discord_driver, fake_discord,
                                                                tmp_path):
    driver, fake = discord_driver, fake_discord
    fake.add_user("carol")
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=Clock()))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"}, user="alice")).message
    for name in ("bob", "carol"):
        board = (await driver.click(board, button(board, "lobby.join"), user=name)).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    for name in ("alice", "carol"):  # two resign: Bob wins, the game is over
        now = await bot.tables.load(game.id)
        shown = fake.get_message(now.row.board_message_id)
        ask = await driver.click(shown, button(shown, "ask.resign"), user=name)
        await driver.click(ask.message, ask.custom_ids[0], user=name)
        await driver.settle()
    final = fake.get_message((await bot.tables.load(game.id)).row.board_message_id)
    again = await driver.click(final, button(final, "table.again"), user="bob")
    assert again.response_type == 4 and not again.ephemeral  # Bob's new lobby
    # Alice, a moment later, presses Play again on the old end board too.
    old = fake.get_message(final["id"])
    second = await driver.click(old, button(old, "table.again"), user="alice")
    assert second.ephemeral
    assert "Finish or abandon it first" not in second.content, second.content
    assert second.content.startswith("Bob opened a new table already: press **Join** on it")


async def test_play_again_by_someone_who_did_not_play_seats_only_them(
        discord_driver, fake_discord, tmp_path):
    """Carol, who did not sit at the table, presses Play again on its ended board: the
    new table seats her alone (and its computers); the last table's players are not
    seated at a table they never chose."""
    driver, fake = discord_driver, fake_discord
    fake.add_user("carol")
    bot, ended = await _abandoned_table(driver, fake, tmp_path)
    await driver.click(ended, button(ended, "table.again"), user="carol")
    game = await bot.tables.open_in_channel(fake.channel_id)
    assert game.row.status == "lobby" and [s.name for s in game.seats] == ["Carol"]


async def test_play_again_pressed_second_by_a_player_seated_already_says_so(
        discord_driver, fake_discord, tmp_path):
    """Alice's Play again seats Bob, who was still playing; Bob pressing it a moment later
    is told he has a seat at the new table (and how to leave it), not sent to a Join that
    would answer "already seated". Alice pressing again is pointed to her own table."""
    driver, fake = discord_driver, fake_discord
    bot, ended = await _abandoned_table(driver, fake, tmp_path)
    await driver.click(ended, button(ended, "table.again"), user="alice")
    await driver.settle()
    new = await bot.tables.open_in_channel(fake.channel_id)
    assert [s.name for s in new.seats] == ["Alice", "Bob"]
    bob = await driver.click(fake.get_message(ended["id"]), button(ended, "table.again"),
                             user="bob")
    assert bob.ephemeral and bob.content == (
        f"Alice opened a new table and seated you already: {new.link}. "
        "Press **Leave** there if you'd rather not play.")
    alice = await driver.click(fake.get_message(ended["id"]), button(ended, "table.again"),
                               user="alice")
    assert alice.content == f"You opened a new table already: {new.link}"


async def test_play_again_on_a_game_retention_emptied_seats_the_table(
        discord_driver, fake_discord, tmp_path):
    """A finished table that retention has emptied (its state gone, its seats kept) still
    offers Play again on its board: pressing it opens the next table with its people,
    instead of failing ("This interaction failed"), with the table's turn timer and
    notices setting: retention keeps how the table played, not who did what."""
    driver, fake = discord_driver, fake_discord
    bot, ended = await _abandoned_table(driver, fake, tmp_path, turn_timer="10 min",
                                        notices="off")
    game = await bot.tables.load(int(button(ended, "table.again").split(":")[1]))
    assert await bot.store.prune_finished(before=game.row.updated_at + 10) == 1
    assert (await bot.tables.load(game.id)).state is None
    again = await driver.click(fake.get_message(ended["id"]), button(ended, "table.again"),
                               user="alice")
    assert again.response_type == 4 and not again.ephemeral
    new = await bot.tables.open_in_channel(fake.channel_id)
    assert new.row.status == "lobby" and [s.name for s in new.seats] == ["Alice", "Bob"]
    assert (new.data.turn_seconds, new.data.notices) == (600, False)


async def test_play_again_after_retention_leaves_out_who_resigned(discord_driver, fake_discord,
                                                                  tmp_path):
    """Alice, Bob and Carol's table: Carol resigns, and Alice and Bob finish it; once
    retention has emptied it, Play again by Alice still seats Bob and not Carol (the
    results of the game say who had resigned)."""
    driver, fake = discord_driver, fake_discord
    bot, game = await seated_steam(driver, fake, tmp_path)
    shown = fake.get_message(game.row.board_message_id)
    ask = await driver.click(shown, button(shown, "ask.resign"), user="carol")
    await driver.click(ask.message, ask.custom_ids[0], user="carol")
    await driver.settle()
    people = {fake.user(n).id: fake.user(n) for n in ("alice", "bob")}
    ended = await bot.tables.load(game.id)
    while ended.row.is_open:  # Alice and Bob play it out
        seat = ended.to_act()
        who = people[ended.seats[seat].user_id]
        ended = (await bot.tables.act(ended.id, ended.row.version, Actor(who.id, who.name),
                                      ended.engine.computer_action(ended.state, seat))).game
    await bot.boards.messages.refresh(ended)
    await driver.settle()
    assert await bot.store.prune_finished(before=ended.row.updated_at + 10) == 1
    final = fake.get_message(ended.row.board_message_id)
    again = await driver.click(final, button(final, "table.again"), user="alice")
    assert again.response_type == 4
    new = await bot.tables.open_in_channel(fake.channel_id)
    assert [s.name for s in new.seats] == ["Alice", "Bob"]


async def test_play_again_leaves_out_who_left_the_server(discord_driver, fake_discord,
                                                        tmp_path):
    """Bob was banned (or left the server) after Alice and Bob's table: Play again by
    Alice opens the next table with her alone, not with a seat for Bob, who could never
    click and would stall it on his turn."""
    driver, fake = discord_driver, fake_discord
    bot, ended = await _abandoned_table(driver, fake, tmp_path)
    fake.remove_member("bob")
    again = await driver.click(fake.get_message(ended["id"]), button(ended, "table.again"),
                               user="alice")
    assert again.response_type == 4 and not again.ephemeral
    new = await bot.tables.open_in_channel(fake.channel_id)
    assert new.row.status == "lobby" and [s.name for s in new.seats] == ["Alice"]


async def _seated_again(driver, fake, tmp_path, clock):
    """Alice and Bob's table, abandoned by a moderator; Alice presses Play again, which
    seats Bob again in the new lobby. Return the bot and the lobby."""
    bot = await driver.login(make_bot(tmp_path, cogs=("cogs.steam",), clock=clock))
    board = (await driver.slash("steam", "new", {"first": "me (the host)"},
                                user="alice")).message
    board = (await driver.click(board, button(board, "lobby.join"), user="bob")).message
    await host_board(driver, board, "lobby.start")
    await driver.settle()
    first = await bot.tables.open_in_channel(fake.channel_id)
    await abandon(driver, "steam", "mod")
    final = fake.get_message((await bot.tables.load(first.id)).row.board_message_id)
    await driver.click(final, button(final, "table.again"), user="alice")
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    assert lobby.seat_of(fake.user("bob").id) is not None
    return bot, lobby


async def test_a_player_seated_again_who_never_came_has_no_result(discord_driver, fake_discord,
                                                                  tmp_path):
    """Alice presses Play again on her table with Bob, which seats Bob again, and starts
    at once; Bob never clicks. Handed to a computer, his seat plays to the end: the game
    gives him no result and no rating (he never chose to play it), and the end board says
    he never came. Alice's result stands."""
    driver, fake = discord_driver, fake_discord
    clock = Clock()
    bot, lobby = await _seated_again(driver, fake, tmp_path, clock)
    await host_board(driver, fake.get_message(lobby.row.board_message_id), "lobby.start")
    await driver.settle()
    alice, bob = fake.user("alice"), fake.user("bob")
    game = await bot.tables.load(lobby.id)
    while game.row.is_open:
        seat = game.to_act()
        if game.seats[seat].user_id == bob.id and not game.seats[seat].away:
            clock.advance(61)
            await driver.slash("steam", "away", {"player": bob}, user="alice")
        elif game.seats[seat].user_id == alice.id:
            await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                                 game.engine.computer_action(game.state, seat))
        else:
            await bot.tables.computer_move(game.id)
        game = await bot.tables.load(game.id)
    assert game.row.status == "over"
    assert await bot.store.results(bob.id) == []
    assert [r["game_id"] for r in await bot.store.results(alice.id)] == [game.id]
    rated = await bot.store.query("SELECT user_id FROM ratings", {})
    assert (bob.id,) not in [tuple(r) for r in rated]
    await bot.boards.messages.refresh(game)
    text = fake.get_message(game.row.board_message_id)["embeds"][0]["description"]
    assert "Bob never came: no result for them." in text


async def test_a_player_seated_again_who_asked_to_end_the_table_came(discord_driver,
                                                                     fake_discord, tmp_path):
    """Bob, seated again by Alice's Play again at a table with a computer, asks to
    abandon it (an ask is not a logged move) and Alice's ask ends it: both lose it, as
    the question told them; Bob's ask shows he came."""
    driver, fake = discord_driver, fake_discord
    bot, lobby = await _seated_again(driver, fake, tmp_path, Clock())
    board = fake.get_message(lobby.row.board_message_id)
    board = (await driver.click(board, button(board, "lobby.computer"), user="alice")).message
    await host_board(driver, board, "lobby.start")
    alice, bob = fake.user("alice"), fake.user("bob")
    game = await bot.tables.load(lobby.id)
    await bot.tables.act(game.id, game.row.version, Actor(alice.id, "Alice"),
                         game.engine.computer_action(game.state, game.to_act()))
    await abandon(driver, "steam", "bob")
    assert (await bot.tables.load(game.id)).row.is_open
    await abandon(driver, "steam", "alice")
    assert (await bot.tables.load(game.id)).row.status == "abandoned"
    for person in (alice, bob):
        lost = [r["outcome"] for r in await bot.store.results(person.id)
                if r["game_id"] == game.id]
        assert lost == ["loss"], person.name


@pytest.mark.parametrize("pruned", [False, True])
async def test_play_again_leaves_out_who_was_seated_for_the_last_table_and_never_came(
        discord_driver, fake_discord, tmp_path, pruned):
    """Bob played one table with Alice; her Play again seated him at the next, where he
    never pressed anything (it got no result of his). Her next Play again does not seat
    him a third time (nor have him pinged at every table she starts and resigns); he may
    join. So too once retention has emptied that table (``pruned``): it was played to
    its end, which gives everyone who took part a result, and he has none."""
    driver, fake = discord_driver, fake_discord
    bot, _game = await steam_with_bob(driver, fake, tmp_path, first="me (the host)")
    alice, bob = fake.user("alice").id, fake.user("bob").id

    async def resign_and_play_again(prune: bool = False) -> list[int | None]:
        """Alice resigns the table under way (retention empties it if ``prune``) and
        presses Play again: who is seated."""
        game = await bot.tables.open_in_channel(fake.channel_id)
        await resign(driver, fake.get_message(game.row.board_message_id), "alice")
        over = await bot.tables.load(game.id)
        if prune:
            assert await bot.store.prune_finished(before=over.row.updated_at + 10) >= 1
            assert (await bot.tables.load(game.id)).state is None
        ended = fake.get_message(over.row.board_message_id)
        await driver.click(ended, button(ended, "table.again"), user="alice")
        lobby = await bot.tables.open_in_channel(fake.channel_id)
        return [s.user_id for s in lobby.seats]

    assert await resign_and_play_again() == [alice, bob]  # he played the first table
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    await host_board(driver, fake.get_message(lobby.row.board_message_id), "lobby.start")
    await driver.settle()
    assert await resign_and_play_again(pruned) == [alice]  # he never came to the second


async def test_play_again_seats_who_asked_to_end_the_table_it_follows(
        discord_driver, fake_discord, tmp_path):
    """Bob, seated again by Play again, asked to abandon the new table before his first
    turn and Alice's ask ended it: he took part (an ask is no logged move), so her next
    Play again seats him again."""
    driver, fake = discord_driver, fake_discord
    bot, ended = await _abandoned_table(driver, fake, tmp_path)
    again = await driver.click(ended, button(ended, "table.again"), user="alice")
    await host_board(driver, again.message, "lobby.start")
    await driver.settle()
    game = await bot.tables.open_in_channel(fake.channel_id)
    alice, bob = fake.user("alice").id, fake.user("bob").id
    assert [s.user_id for s in game.seats] == [alice, bob]
    await abandon(driver, "steam", "bob")
    await abandon(driver, "steam", "alice")
    game = await bot.tables.load(game.id)
    assert game.row.status == "abandoned" and game.data.absent == []
    board = fake.get_message(game.row.board_message_id)
    await driver.click(board, button(board, "table.again"), user="alice")
    lobby = await bot.tables.open_in_channel(fake.channel_id)
    assert [s.user_id for s in lobby.seats] == [alice, bob]
