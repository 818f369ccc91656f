"""Benchmark: start-up time and peak memory of the real bot process with many games stored.

For each size (default 0, 10,000 and 100,000 games), builds a database file in a
temporary directory: every game an open Tinker game (the worst case: all of them are
counted and may be resumed at start) in its own channel, with a real dealt state, five
recent events and ten action-log entries. Then starts the bot as a process
(``python -m tests.run_tinker_bot``) on the offline fake Discord twice: a first start
(commands synced, operating system cache cold for this file) and a restart (commands
unchanged). Two times from launching the process: until a click on a stored game's
board (sent as soon as the bot's gateway session is up) is answered with
UPDATE_MESSAGE, and until it logs ``ready: N open games restored``, which discord.py
delays by its ``guild_ready_timeout`` (2 s after the last GUILD_CREATE). Memory is the
process's peak resident set size (VmHWM) at ready.

Run from the repository root: ``python -m bench.startup [--games 0,10000,100000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sqlite3
import tempfile
import time
from pathlib import Path

from bench.common import machine, peak_rss_mb, table
from bot.games.tinker.engine import ENGINE
from db.store import Store
from tests.fake_discord import FakeDiscord
from tests.fake_discord.process import bot_process

ACTIONS_PER_GAME = 10
NOW = 1_800_000_000.0
STATES = [json.dumps(ENGINE.dump(ENGINE.new(seed, 1, {})), separators=(",", ":"))
          for seed in range(50)]
"""The stored games' states: fresh deals, cycled."""


async def build(path: Path, games: int) -> float:
    """Create the database at ``path`` with ``games`` open games; return its size in MB."""
    store = await Store.open(path, lambda: NOW)
    await store.close()
    seats = json.dumps([{"user_id": 101, "name": "Alice", "computer": False}])
    events = json.dumps([f"An event of the game, number {i}." for i in range(5)])
    with sqlite3.connect(path) as conn:
        conn.executemany(
            "INSERT INTO games (id, guild_id, channel_id, kind, status, starter_id, seats,"
            " options, only_starter, state, version, events, board_channel_id,"
            " board_message_id, board_posted_at, created_at, updated_at)"
            " VALUES (?, 1, ?, 'tinker', 'active', 101, ?, '{}', 0, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((i, 10_000 + i, seats, STATES[i % len(STATES)], ACTIONS_PER_GAME, events,
              10_000 + i, 5_000_000 + i, NOW, NOW, NOW) for i in range(1, games + 1)),
        )
        conn.executemany(
            "INSERT INTO actions (game_id, seq, actor_id, action, at) VALUES (?, ?, 101, ?, ?)",
            ((i, seq, '{"seat":0,"action":"choose:event"}', NOW)
             for i in range(1, games + 1) for seq in range(1, ACTIONS_PER_GAME + 1)),
        )
    conn.close()
    return path.stat().st_size / 2**20


def move_to_channel(path: Path, game_id: int, channel_id: int) -> None:
    """Store game ``game_id`` (and its board) in the fake's channel ``channel_id``: a
    click is taken only from its game's own channel."""
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE games SET channel_id = ?, board_channel_id = ? WHERE id = ?",
                     (channel_id, channel_id, game_id))
    conn.close()


def stored_board(fake: FakeDiscord, game_id: int,
                 channel_id: int) -> tuple[dict[str, object], str]:
    """Put a board of stored game ``game_id`` in the fake's channel ``channel_id``; return
    it and a button's custom_id."""
    state = ENGINE.load(json.loads(STATES[game_id % len(STATES)]))
    action = ENGINE.legal_actions(state, 0)[0].id
    custom_id = f"g1:{game_id}:{ACTIONS_PER_GAME}:{action}"
    button = {"type": 2, "style": 2, "label": action, "custom_id": custom_id}
    board = fake.post_message({"content": "board", "components": [
        {"type": 1, "components": [button]}]}, channel_id)
    return board, custom_id


async def start_once(
    fake: FakeDiscord, path: Path, games: int
) -> tuple[float | None, float, float]:
    """Start the bot process over ``path``; click a stored game's board as soon as it is
    connected. Return (seconds until the click is answered, seconds until "ready", peak
    RSS in MB at ready); with no game stored there is nothing to click (None)."""
    env = {"DATABASE_PATH": str(path), "LOG_LEVEL": "INFO"}
    ready = f"ready: {games} open games restored"
    await fake.wait_until(lambda: not fake.gateway.connected, timeout=30)
    game_id = 1 + len(fake.interactions)
    channel_id = fake.add_channel(f"game-{game_id}") if games else 0
    if games:
        move_to_channel(path, game_id, channel_id)
    began = time.monotonic()
    async with bot_process(fake, "-m", "tests.run_tinker_bot", env=env) as proc:
        await fake.gateway.wait_for_sessions(1, timeout=120)
        answered = None
        if games:
            board, custom_id = stored_board(fake, game_id, channel_id)
            payload = fake.component_payload(board, custom_id, user="alice")
            record = fake.register_interaction(payload)
            await fake.dispatch_interaction(payload)
            await fake.wait_until(lambda: record.response_type is not None, timeout=60)
            if record.response_type != 7:
                raise RuntimeError(f"the click was not answered with a board:\n{proc.text}")
            answered = time.monotonic() - began
        while ready not in proc.text:
            if proc.process.returncode is not None:
                raise RuntimeError(f"the bot exited early:\n{proc.text}")
            if time.monotonic() - began > 120:
                raise TimeoutError(f"no {ready!r} after 120 s:\n{proc.text}")
            await asyncio.sleep(0.005)
        seconds = time.monotonic() - began
        rss = peak_rss_mb(proc.process.pid)
        proc.process.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.process.wait(), 30)
    return answered, seconds, rss


async def run(sizes: list[int]) -> list[list[object]]:
    """Build and start each size; return the table rows."""
    rows: list[list[object]] = []
    for games in sizes:
        with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
            path = Path(tmp) / "bot.db"
            began = time.monotonic()
            size = await build(path, games)
            built = time.monotonic() - began
            async with FakeDiscord() as fake:
                for start in ("first start", "restart"):
                    click, ready, rss = await start_once(fake, path, games)
                    answered = "—" if click is None else f"{click:.2f}"
                    rows.append([f"{games:,}", f"{size:.0f}", f"{built:.1f}", start, answered,
                                 f"{ready:.2f}", f"{rss:.0f}"])
    return rows


def main(argv: list[str] | None = None) -> int:
    """Run the start-up benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="0,10000,100000",
                        help="comma-separated numbers of stored games (default 0,10000,100000)")
    args = parser.parse_args(argv)
    sizes = [int(part) for part in args.games.split(",") if part]
    print(f"Start-up of the bot process (Tinker cog) on the fake gateway.\n{machine()}\n")
    rows = asyncio.run(run(sizes))
    print(table(["games stored", "database MB", "built in s", "start", "first click answered s",
                 "ready logged s", "peak RSS MB"], rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
