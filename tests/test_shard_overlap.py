"""Shards in several processes over one database: two processes starting at once, a
deploy's overlap (a new process for a shard while the old one still serves it), and what
each process says it restored."""

from __future__ import annotations

import asyncio
import copy
import logging

from bot.alive import AliveNotes
from bot.boards.service import START_CLAIM, START_CLAIM_SECONDS, claim_value
from bot.table import downtime
from bot.table.data import Poll, Vote
from tests.support import ALICE, Clock, board_ids, button, make_bot, shard_down

HOUR = 3600.0


async def test_outages_of_two_processes_starting_at_once_are_both_kept(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """Shard 1's process was down two hours while shard 0's ran; then both start at once,
    each reading the stored outages before the other stores its own: shard 1's two
    hours are still there at its next start (its idle games do not end early)."""
    clock = Clock()
    a, down = await shard_down(discord_driver, tmp_path, clock, 1, 2 * HOUR)
    await discord_driver.close_client(a)
    clock.advance(90)
    read = AliveNotes._outages
    both_read = asyncio.Barrier(2)
    waited: set[int] = set()

    async def read_at_once(self, key):
        outages = await read(self, key)
        if id(self) not in waited:  # each process's first read of outages
            waited.add(id(self))
            await asyncio.wait_for(both_read.wait(), 5)
            if self.shards[0] == (0,):
                await asyncio.sleep(0.3)  # shard 0's process stores second
        return outages

    monkeypatch.setattr(AliveNotes, "_outages", read_at_once)
    a, b = await asyncio.gather(
        discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=0)),
        discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=1)))
    monkeypatch.setattr(AliveNotes, "_outages", read)
    await discord_driver.close_client(b)
    clock.advance(90)
    b = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2, SHARD_IDS=1))
    assert downtime.down_between(b.outages, down, down + 2 * HOUR) == 2 * HOUR


async def test_a_new_process_started_while_the_old_one_serves_counts_no_outage(
        discord_driver, fake_discord, tmp_path, caplog):
    """A deploy's overlap: the old process of shard 0 noted 20 s ago that it is alive
    (it does every 30 s) when the new one starts: the bot was not down, so nothing is
    logged as an outage, stored, or put off."""
    clock = Clock()
    old = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                              SHARD_IDS=0))
    await old.alive.note_alive()
    clock.advance(20)
    with caplog.at_level(logging.INFO):
        new = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                                  SHARD_IDS=0))
    assert new.outages == [] and new.restart._timers is None
    assert not [r for r in caplog.records if "was down" in r.getMessage()]
    assert any("not counted as an outage" in r.getMessage() for r in caplog.records)


async def test_a_vote_window_closed_by_both_processes_of_a_deploy_warns_of_nothing(
        discord_driver, fake_discord, tmp_path, caplog):
    """Both processes of shard 0 close the same due vote windows: each window moves once
    (the compare-and-swap), and the one that finds it done says nothing alarming."""
    clock = Clock()
    old = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                              SHARD_IDS=0))
    new = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                              SHARD_IDS=0))
    ids = []
    for n in range(4):
        guild = fake_discord.add_guild(f"G{n}", shard=0, shard_count=2)
        game = await old.tables.start("toy", guild_id=guild.id, channel_id=guild.channel_id,
                                      starter=ALICE)
        game.data.poll = Poll(0, clock.now + 5, [Vote(1, "A", "add1", "Add 1", clock.now)],
                              ["add1"])
        await old.tables.core.save_table(game)
        ids.append(game.id)
    clock.advance(10)
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        await asyncio.gather(old.deadlines.run_due(), new.deadlines.run_due())
    for game_id in ids:
        assert (await new.tables.load(game_id)).row.version == 1
    assert not [r for r in caplog.records if r.name.startswith(("bot", "db", "discord"))]


def _versions(message: dict) -> set[str]:
    """The board versions a message's buttons carry."""
    return {custom_id.split(":")[2] for custom_id in board_ids(message)}


async def test_a_board_posted_by_the_old_process_is_the_one_the_new_one_edits(
        discord_driver, fake_discord, tmp_path):
    """A deploy's overlap: the new process keeps a game; the old one answers
    ``/toy board`` with a new board. The new process's own edits (the vote's window
    closing) go to the new board, not the retired one, and the next vote on it counts."""
    clock = Clock()
    fake_discord.add_user("carol")
    old = await discord_driver.login(make_bot(tmp_path, clock=clock))
    new = await discord_driver.login(make_bot(tmp_path, clock=clock))
    discord_driver.client = new
    first = (await discord_driver.slash("toy", "start", {"players": "vote"}, user="alice")).message
    await discord_driver.click(first, button(first, "add1"), user="alice")  # kept here
    clock.advance(1)
    discord_driver.client = old
    moved = (await discord_driver.slash("toy", "board", user="alice")).message
    assert moved["id"] != first["id"]
    discord_driver.client = new
    vote = await discord_driver.click(moved, button(moved, "add2"), user="bob")
    assert (vote.content or "").startswith("Your vote: Add 2")
    await discord_driver.settle()
    clock.advance(31)
    await new.deadlines.run_due()  # the window closes: Bob's add 2 is chosen
    await discord_driver.settle()
    game = await new.tables.load(1)
    assert game.row.board_message_id == int(moved["id"]) and game.row.version == 2
    board = fake_discord.get_message(moved["id"])
    assert _versions(board) == {"2"}
    click = await discord_driver.click(board, button(board, "add1"), user="alice")
    assert (click.content or "").startswith("Your vote: Add 1")  # counted, not refused


async def test_a_board_the_other_process_drew_back_heals_at_the_next_click(
        discord_driver, fake_discord, tmp_path, monkeypatch):
    """A deploy's overlap: the new process's start redraw draws a game as it read it, and
    its edit lands after the old process answered a newer move on that board. The next
    click on the board (now showing the older version) brings it up to date and tells
    the clicker their click did nothing."""
    from bot.boards.messages import BoardMessages

    clock = Clock()
    old = await discord_driver.login(make_bot(tmp_path, clock=clock))
    board = (await discord_driver.slash("toy", "start", user="alice")).message
    board = (await discord_driver.click(board, button(board, "add1"), user="alice")).message
    await old.alive.note_alive()
    clock.advance(20)
    new = make_bot(tmp_path, clock=clock)
    drawing, drawn = asyncio.Event(), asyncio.Event()
    real = BoardMessages._board_now

    async def slow(self, game, *, stored):
        if self.bot is new and not drawn.is_set():
            drawing.set()
            await drawn.wait()  # the redraw's picture is being drawn
        return await real(self, game, stored=stored)

    monkeypatch.setattr(BoardMessages, "_board_now", slow)
    await discord_driver.login(new)
    await asyncio.wait_for(drawing.wait(), 10)
    discord_driver.client = old
    moved = await discord_driver.click(board, button(board, "add2"), user="bob")
    assert _versions(moved.message) == {"2"}
    drawn.set()
    await asyncio.wait_for(new.restart._redraw, 10)
    shown = fake_discord.get_message(board["id"])
    assert _versions(shown) == {"1"}  # the redraw landed last
    # the old process showed version 2 itself: only the click tells the board is behind
    click = await discord_driver.click(shown, button(shown, "add1"), user="bob")
    assert click.response_type == 7 and _versions(click.message) == {"2"}
    assert "nothing was done" in click.followups[0]["content"]
    assert (await new.tables.load(1)).row.version == 2


async def test_a_shard_process_counts_only_its_own_games_restored(
        discord_driver, fake_discord, tmp_path):
    """"ready: N open games restored" counts the process's own shards' games."""
    zero = await discord_driver.login(make_bot(tmp_path, SHARD_COUNT=2, SHARD_IDS=0))
    for n, shard in enumerate((0, 0, 0, 1)):
        guild = fake_discord.add_guild(f"R{n}", shard=shard, shard_count=2)
        await zero.tables.start("toy", guild_id=guild.id, channel_id=guild.channel_id,
                                starter=ALICE)
    one = await discord_driver.login(make_bot(tmp_path, SHARD_COUNT=2, SHARD_IDS=1))
    assert one.restored == 1


async def _start_in_overlap(driver, fake, tmp_path, *, stopping: bool = False,
                            thread: bool = False):
    """Hand one /tinker start (``thread``: in a thread of its own) to the two processes of
    a deploy's overlap, as Discord does (both sessions of the shard get every event),
    the old one stopping (SIGTERM) if ``stopping``; return the new process and the
    interaction's record."""
    old = await driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    new = await driver.login(make_bot(tmp_path, cogs=("cogs.tinker",)))
    old.tables.closing = stopping  # as close() sets it first
    options = [{"name": "thread", "type": 3, "value": "yes"}] if thread else []
    payload = fake.slash_payload("tinker", path=["start"], options=options, user="alice")
    before = asyncio.all_tasks()
    for client in (old, new):
        client._connection.parse_interaction_create(copy.deepcopy(dict(payload)))
    await driver.settle(before)
    await driver.settle()
    return new, fake.interactions[int(payload["id"])]


async def test_a_start_both_processes_get_starts_one_game_and_answers_once(
        discord_driver, fake_discord, tmp_path, backend):
    """/tinker start reaches both processes of a deploy: one takes it (its claim is stored
    first) and answers with the board; the other says nothing. The starter never reads
    "this channel already has a game", and the board is the public answer."""
    new, record = await _start_in_overlap(discord_driver, fake_discord, tmp_path)
    game = await new.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    original = fake_discord.get_message(record.original_message_id)
    assert original is not None and board_ids(original) and not original.get("flags")
    assert game.row.board_message_id == int(original["id"])
    assert record.followup_ids == []  # nothing said privately
    assert [m["id"] for m in fake_discord.channel_messages() if board_ids(m)] == [original["id"]]


async def test_a_start_the_stopping_process_refuses_still_shows_the_board(
        discord_driver, fake_discord, tmp_path, backend):
    """The old process has had SIGTERM: its answer to the start is the private "the bot is
    restarting", at once, while the new process starts the game; the new one posts the
    board in the channel (never takes the private line for its board) and tells the
    starter their game is on."""
    new, record = await _start_in_overlap(discord_driver, fake_discord, tmp_path,
                                          stopping=True)
    game = await new.tables.open_in_channel(fake_discord.channel_id)
    assert game is not None
    original = fake_discord.get_message(record.original_message_id)
    assert original is not None and original.get("flags", 0) & 64  # the private line
    boards = [m for m in fake_discord.channel_messages() if board_ids(m)]
    assert [int(m["id"]) for m in boards] == [game.row.board_message_id]
    assert game.row.board_message_id != int(original["id"])
    told = [fake_discord.get_message(i) for i in record.followup_ids]
    assert any("Your game is on" in (m or {}).get("content", "") for m in told)


async def test_a_thread_start_both_processes_get_opens_one_thread(
        discord_driver, fake_discord, tmp_path, backend):
    """With threads on, one start reaching both processes opens one thread and one game
    (the thread is opened after the start's claim)."""
    new, _record = await _start_in_overlap(discord_driver, fake_discord, tmp_path,
                                           thread=True)
    games = await new.store.query("SELECT id, channel_id FROM games WHERE status = 'active'")
    threads = [c for c in fake_discord.channels.values() if c.get("type") in (11, 12)]
    assert len(games) == 1 and len(threads) == 1


async def test_old_start_claims_are_dropped_by_the_sweep(discord_driver, fake_discord,
                                                         tmp_path, backend):
    """A start's claim is kept an hour (an overlap lasts seconds), then the sweep drops
    it; newer claims stay."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, cogs=("cogs.tinker",)))
    await discord_driver.slash("tinker", "start", user="alice")
    clock.advance(START_CLAIM_SECONDS + 60)
    await bot.boards.tables.store.set_meta(f"{START_CLAIM}1", claim_value(clock(), "x"))
    await bot.sweep_once()
    kept = await bot.store.query("SELECT key FROM meta WHERE key LIKE 'start_claim:%'")
    assert kept == [(f"{START_CLAIM}1",)]


async def test_a_thread_start_the_stopping_process_refuses_says_where_the_game_is(
        discord_driver, fake_discord, tmp_path, backend):
    """With threads on, the stopping process's private "restarting" answers first: the
    process that took the start opens the thread and its game, and tells the starter
    privately where it is (not only "try again")."""
    new, record = await _start_in_overlap(discord_driver, fake_discord, tmp_path,
                                          stopping=True, thread=True)
    games = await new.store.query("SELECT id, channel_id FROM games WHERE status = 'active'")
    assert len(games) == 1
    told = [(fake_discord.get_message(i) or {}) for i in record.followup_ids]
    assert [m.get("content", "") for m in told if m.get("flags", 0) & 64] == [
        f"🧵 Alice started Tinker in <#{games[0][1]}>"]
