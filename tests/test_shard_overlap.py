"""Shards in several processes over one database: two processes starting at once, a
deploy's overlap (a new process for a shard while the old one still serves it), and what
each process says it restored."""

from __future__ import annotations

import asyncio
import logging

from bot.alive import AliveNotes
from bot.table import downtime
from bot.table.data import Poll, Vote
from tests.support import ALICE, Clock, make_bot, shard_down

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
    assert new.outages == [] and new._timers is None
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
