"""Drill: one game's stored state is damaged; that game says so, every other goes on."""

import json

import pytest

from db.rows import NewGame
from db.store import Store
from tests.drills.checks import checked_games
from tests.support import Clock, abandon, board_ids, make_bot

COGS = ("cogs.tinker",)


def _unknown_schema(raw):
    state = json.loads(raw)
    state["schema"] = 999
    return json.dumps(state)


@pytest.mark.parametrize(
    "damage", [lambda raw: raw[: len(raw) // 2], _unknown_schema], ids=["bad-json", "schema-999"]
)
async def test_damaged_game_is_reported_and_can_be_abandoned(
    discord_driver, fake_discord, tmp_path, damage
):
    """A damaged state: clicks say "damaged", it can be abandoned, every other game plays on."""
    fake = fake_discord
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    damaged_channel = fake.add_channel("damaged")
    damaged = (await discord_driver.slash("tinker", "start", user="alice",
                                          channel=damaged_channel)).message
    healthy = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(damaged_channel)
    raw = game.row.raw_state
    await bot.store.connection.execute(  # noticed by the save's compare-and-swap (KeptRows)
        "UPDATE games SET state = ?, updated_at = updated_at + 1 WHERE id = ?",
        (damage(raw), game.id),
    )

    click = await discord_driver.click(damaged, board_ids(damaged)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    played = await discord_driver.click(healthy, board_ids(healthy)[0], user="bob")
    assert played.response_type == 7

    ended = await abandon(discord_driver, "tinker", "alice", channel=damaged_channel)
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(damaged_channel) is None
    board = fake.get_message(damaged["id"])
    assert board_ids(board) == [] and "damaged" in board["embeds"][0]["footer"]["text"]
    fresh = await discord_driver.slash("tinker", "start", user="alice", channel=damaged_channel)
    assert board_ids(fresh.message)

    await bot.store.connection.execute("DELETE FROM games WHERE id = ?", (game.id,))
    statuses = sorted(status for status, _, _ in checked_games(tmp_path / "bot.db").values())
    assert statuses == ["active", "active"]


@pytest.mark.parametrize(("column", "value"), [
    ("kind", "chess"), ("seats", '"nobody"'), ("seats", "[1, 2]"), ("extra", "[1]"),
    ("extra", '{"poll": 5}'),
], ids=["unknown-kind", "seats-not-a-list", "seats-not-seats", "extra-not-an-object",
        "extra-poll-unreadable"])
async def test_a_damaged_row_is_reported_abandoned_and_the_channel_plays_again(
    discord_driver, fake_discord, tmp_path, column, value
):
    """A row this code cannot read (a kind it no longer has, unreadable seats or table
    data): a click says it is damaged, a start names the game in the way, the starter can
    abandon it, and the channel starts a new game."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ?, updated_at = updated_at + 1 WHERE id = ?",
        (value, game.id),
    )
    bot.store.kept.drop()  # as another process would: the kept row is out of date
    click = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    busy = await discord_driver.slash("tinker", "start", user="bob")
    assert busy.ephemeral
    ended = await abandon(discord_driver, "tinker", "alice")
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    fresh = await discord_driver.slash("tinker", "start", user="alice")
    assert board_ids(fresh.message)


@pytest.mark.parametrize(("column", "value"), [
    ("seats", '[{"user_id": 1, "na'), ("extra", "{poll: none"), ("options", "not json"),
    ("events", "[\"half"), ("events", "null"), ("events", "5"), ("seats", '"nobody"'),
    ("options", "[]"), ("extra", "[1]"),
], ids=["seats-not-json", "extra-not-json", "options-not-json", "events-not-json",
        "events-null", "events-number", "seats-text", "options-list", "extra-list"])
async def test_a_column_that_is_not_json_is_a_damaged_game(
    discord_driver, fake_discord, tmp_path, column, value, backend
):
    """Seats, options, events or table data whose stored text is not JSON, or JSON of
    another kind (``null`` where a list is kept): the store still reads the row (on both
    backends), a click says the game is damaged, a start
    names the game in the way, the starter abandons it and the channel plays again; a
    member of it can still /forget-me."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ?, updated_at = updated_at + 1 WHERE id = ?",
        (value, game.id),
    )
    bot.store.kept.drop()
    row = await bot.store.get_game(game.id)
    assert row is not None and row.damaged == (column,)
    click = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
    busy = await discord_driver.slash("tinker", "start", user="bob")
    assert busy.ephemeral
    ended = await abandon(discord_driver, "tinker", "alice")
    assert "abandoned" in ended.followups[0]["content"]
    assert await bot.tables.open_in_channel(fake_discord.channel_id) is None
    fresh = await discord_driver.slash("tinker", "start", user="alice")
    assert board_ids(fresh.message)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ? WHERE id = ?", (value, game.id))
    alice = fake_discord.user("alice").id
    assert await bot.store.forget_player(alice, "a former player") >= 0
    after = await bot.store.get_game(game.id)
    assert after is not None and after.starter_id == 0


@pytest.mark.parametrize("value", ['[{"user_id": 1, "na', '"nobody"'],
                         ids=["not-json", "json-text"])
async def test_damaged_seats_do_not_stop_the_work_over_every_game(tmp_path, backend, value):
    """The queries over every open game (the idle sweep; the computer players resumed
    after a restart) count a damaged row's seats as none, on both backends, instead of
    failing for every game."""
    clock = Clock()
    store = await Store.open(tmp_path / "s.db", clock)
    try:
        games = []
        for channel in (1, 2):
            games.append(await store.create_game(NewGame(
                guild_id=1, channel_id=channel, kind="toy", status="active", starter_id=7,
                seats=[{"user_id": 100 + i, "name": f"P{i}"} for i in range(3)], options={},
                only_starter=False, state={"count": 0}, events=[])))
        healthy, damaged = games
        await store.connection.execute("UPDATE games SET seats = ? WHERE id = ?",
                                       (value, damaged.id))
        assert await store.active_multiseat_ids() == [healthy.id]
        clock.advance(10 * 86400)
        cutoffs = {group: clock() - 3600 for group in ("lobby", "solo", "multi")}
        assert await store.idle_games(cutoffs) == [healthy.id, damaged.id]
    finally:
        await store.close()


@pytest.mark.parametrize("column, value", [
    ("extra", '{"mode": "fast", "thread": false, "poll": 5}'), ("seats", "[1, 2]"),
    ("kind", "chess"),
], ids=["extra-holds-a-number-for-the-vote", "seats-of-numbers", "a-kind-this-bot-lacks"])
async def test_a_damaged_game_with_a_deadline_keeps_what_it_had(
    discord_driver, fake_discord, tmp_path, column, value, backend
):
    """Seats or table data that are JSON but hold what no game has, or a game of a kind
    this bot lacks (a later version of the bot may have it), keep them as they were
    when the deadline loop clears the game's deadline: the game stays damaged (never
    played on from an empty table data), and its seats and table data are kept for
    whoever mends the row (as they are when the stored text is not JSON)."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    board = (await discord_driver.slash("tinker", "start", {"players": "fast"},
                                        user="alice")).message
    game = await bot.tables.open_in_channel(fake_discord.channel_id)
    await bot.store.connection.execute(
        f"UPDATE games SET {column} = ?, deadline = ?, updated_at = updated_at + 1 "
        "WHERE id = ?", (value, bot.clock() - 1, game.id))
    bot.store.kept.drop()
    before = await bot.store.get_game(game.id)
    assert before is not None
    await bot.deadlines.run_due()
    await discord_driver.settle()
    bot.store.kept.drop()
    after = await bot.store.get_game(game.id)
    assert after is not None and after.deadline is None
    assert (after.seats, after.extra) == (before.seats, before.extra)
    click = await discord_driver.click(board, board_ids(board)[0], user="bob")
    assert click.ephemeral and "damaged" in click.content
