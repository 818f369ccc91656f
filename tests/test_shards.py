"""Shards (SHARD_COUNT, SHARD_IDS): one process runs some shards and only their games' work."""

from __future__ import annotations

import discord
import pytest

from bot.config import ConfigError, load_settings
from bot.table.data import Poll, Vote
from tests.support import ALICE, Clock, make_bot


def _guild_on(shard: int, count: int = 2, base: int = 1) -> int:
    """Return a guild id whose shard is ``shard`` of ``count``."""
    guild = base << 22
    while (guild >> 22) % count != shard:
        guild += 1 << 22
    return guild


def test_shard_settings_are_checked():
    """SHARD_COUNT and SHARD_IDS are read strictly, with errors naming the setting."""
    settings = load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "3, 1"})
    assert settings.shard_count == 4 and settings.shard_ids == (1, 3)
    with pytest.raises(ConfigError, match="SHARD_IDS"):
        load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2", "SHARD_IDS": "2"})
    with pytest.raises(ConfigError, match="SHARD_COUNT"):
        load_settings({"DISCORD_TOKEN": "t", "SHARD_IDS": "0"})
    with pytest.raises(ConfigError, match="SHARD_COUNT"):
        load_settings({"DISCORD_TOKEN": "t", "SHARD_COUNT": "٢"})


def test_a_sharded_process_is_an_auto_sharded_client(tmp_path):
    """With SHARD_COUNT the bot runs discord.py's sharded client for its SHARD_IDS."""
    bot = make_bot(tmp_path, SHARD_COUNT=2, SHARD_IDS=1)
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_ids == [1] and bot.shard_count == 2
    assert bot.shard_filter == ((1,), 2) and not bot.syncs_commands
    first = make_bot(tmp_path, SHARD_COUNT=2, SHARD_IDS=0)
    assert first.syncs_commands
    plain = make_bot(tmp_path)
    assert not isinstance(plain, discord.AutoShardedClient) and plain.shard_filter is None


async def test_background_work_only_for_this_process_shards(discord_driver, fake_discord,
                                                            tmp_path):
    """Deadlines fire only for games of this process's shards; the other's are left alone."""
    clock = Clock()
    bot = await discord_driver.login(make_bot(tmp_path, clock=clock, SHARD_COUNT=2,
                                              SHARD_IDS=1))
    assert not bot.synced  # shard 0's process syncs the commands
    tables = bot.tables
    games = {}
    for shard in (0, 1):
        game = await tables.start("toy", guild_id=_guild_on(shard), channel_id=900 + shard,
                                  starter=ALICE)
        game.data.poll = Poll(0, clock.now + 5, [Vote(1, "A", "add1", "Add 1", clock.now)],
                              ["add1"])
        await tables.core.save_table(game)
        games[shard] = game.id
    clock.advance(10)
    assert await bot.deadlines.run_due() == 1
    # The window closed with its move (its board's channel is none the fake has, so the
    # board's edit may call the game off right after: a version more).
    mine = await tables.load(games[1])
    assert mine.row.version >= 1 and "A chose: Add 1." in mine.row.events
    assert (await tables.load(games[0])).row.version == 0
