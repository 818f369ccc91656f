"""The bot as a real process on the fake gateway: SIGKILL loses no acknowledged move,
SIGTERM shuts down cleanly."""

import asyncio
import signal
import sqlite3

from tests.fake_discord.process import bot_process
from tests.support import button


async def _callback_for(fake, payload, timeout=15):
    await fake.wait_until(
        lambda: fake.interactions[int(payload["id"])].response_type is not None, timeout=timeout
    )
    return fake.interactions[int(payload["id"])]


async def _start_game(fake):
    payload = fake.slash_payload("toy", path=("start",), user="alice")
    assert await fake.dispatch_interaction(payload) == 1
    record = await _callback_for(fake, payload)
    assert record.response_type == 4
    return fake.get_message(record.original_message_id)


async def _click(fake, board, action):
    payload = fake.component_payload(board, button(board, action), user="bob")
    await fake.dispatch_interaction(payload)
    record = await _callback_for(fake, payload)
    return record, fake.get_message(board["id"])


async def test_sigkill_mid_game_keeps_every_acknowledged_move(fake_discord, tmp_path):
    """A bot killed with SIGKILL mid-game comes back with every acknowledged move."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    acknowledged = 0
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        await fake_discord.gateway.wait_for_sessions(1, timeout=30)
        board = await _start_game(fake_discord)
        for _ in range(4):
            record, board = await _click(fake_discord, board, "add1")
            assert record.response_type == 7
            acknowledged += 1
        proc.process.send_signal(signal.SIGKILL)
        await proc.process.wait()
    await fake_discord.wait_until(lambda: not fake_discord.gateway.connected, timeout=15)
    with sqlite3.connect(tmp_path / "bot.db") as conn:
        count, version, status = conn.execute(
            "SELECT json_extract(state, '$.count'), version, status FROM games"
        ).fetchone()
        log_entries = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert (count, version, status, log_entries) == (acknowledged, acknowledged, "active", 4)
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        await fake_discord.gateway.wait_for_sessions(1, timeout=30)
        await _wait_for_output(proc, "ready: 1 open games restored")
        record, board = await _click(fake_discord, board, "add2")
        assert record.response_type == 7
        assert f"Count: **{acknowledged + 2}**" in board["embeds"][0]["description"]
    assert " ERROR " not in proc.text, proc.text  # the restarted bot logged no error


async def _wait_for_output(proc, text, timeout=15.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while text not in "".join(proc.output):
        assert loop.time() < deadline, f"{text!r} never appeared:\n{''.join(proc.output)}"
        await asyncio.sleep(0.05)


async def test_sigterm_shuts_down_cleanly(fake_discord, tmp_path):
    """SIGTERM closes the Discord connection and the database, exit code 0."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        await fake_discord.gateway.wait_for_sessions(1, timeout=30)
        await _start_game(fake_discord)
        await _wait_for_output(proc, "open games restored")
        proc.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.process.wait(), 15)
    text = "".join(proc.output)
    assert code == 0, text
    assert "database closed" in text
    assert "invite link: https://discord.com/oauth2/authorize" in text
    assert "1 open games restored" not in text and "0 open games restored" in text
    assert "fake-bot-token" not in text
    assert "Traceback" not in text and " ERROR " not in text, text


async def test_sync_command_syncs_and_exits(fake_discord, tmp_path):
    """`python -m bot sync` pushes every game's commands to Discord, then exits 0."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db")}
    async with bot_process(fake_discord, "-m", "bot", "sync", env=env) as proc:
        code = await asyncio.wait_for(proc.process.wait(), 30)
    text = "".join(proc.output)
    assert code == 0, text
    assert "application commands synced; exiting" in text and " ERROR " not in text, text
    names = {c["name"] for c in fake_discord.commands}
    assert {"tinker", "tinrealm", "steam", "help", "stats", "leaderboard"} <= names


async def _wait_text(proc, text: str, count: int = 1, timeout: float = 30) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while proc.text.count(text) < count:
        assert loop.time() < end, proc.text
        await asyncio.sleep(0.05)


async def test_sigterm_while_starting_stops_cleanly(fake_discord, tmp_path):
    """A stop while the bot is still starting (its command sync held up by Discord's rate
    limit): the bot stops with exit 0 and no traceback, as a service manager expects."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    fake_discord.fail_next("PUT", r"/applications/\d+/commands", 429, retry_after=4.0)
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        await fake_discord.wait_until(
            lambda: any(r.method == "PUT" for r in fake_discord.requests), timeout=30)
        proc.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.process.wait(), 20)
    assert code == 0, proc.text
    assert "Traceback" not in proc.text and "stopped" in proc.text
    assert " ERROR " not in proc.text, proc.text


async def test_a_new_gateway_session_is_not_logged_as_a_start(fake_discord, tmp_path):
    """Discord replaces the gateway session (it cannot be resumed): the log says so in
    one line, not with the start's invite link and restored-games count again."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        await _wait_text(proc, "open games restored")
        fake_discord.gateway.sessions.clear()  # the session cannot be resumed
        await fake_discord.gateway.close()
        await _wait_text(proc, "gateway session re-established")
        proc.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.process.wait(), 20) == 0
    assert proc.text.count("open games restored") == 1 and proc.text.count("invite link") == 1
    assert "voice will NOT be supported" not in proc.text
    assert " ERROR " not in proc.text, proc.text


async def test_sync_stopped_before_it_synced_fails(fake_discord, tmp_path):
    """`python -m bot sync` stopped while the sync waits out a rate limit: nothing was
    synced, so it exits 1 and says so (a deploy script must not take it for done)."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db")}
    fake_discord.fail_next("PUT", r"/applications/\d+/commands", 429, retry_after=4.0)
    async with bot_process(fake_discord, "-m", "bot", "sync", env=env) as proc:
        await fake_discord.wait_until(
            lambda: any(r.method == "PUT" for r in fake_discord.requests), timeout=30)
        proc.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.process.wait(), 20)
    assert code == 1, proc.text
    assert "Stopped before the application commands were synced." in proc.text
    assert fake_discord.commands == [] and "Traceback" not in proc.text


async def _exit_of(fake, tmp_path, after_ready=None) -> tuple[int, str]:
    """Run the toy bot until it ends by itself (``after_ready``: done once it is
    ready); return its exit code and output."""
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    async with bot_process(fake, "-m", "tests.run_toy_bot", env=env) as proc:
        if after_ready is not None:
            await _wait_text(proc, "open games restored")
            await after_ready()
        code = await asyncio.wait_for(proc.process.wait(), 90)
    return code, proc.text


async def test_a_token_reset_while_running_says_what_to_do(fake_discord, tmp_path):
    """The token is reset in the developer portal while the bot runs: Discord closes the
    gateway with 4004, and the bot ends (exit 1) saying to copy the token again, as at a
    start with a bad token, with no traceback."""
    async def reset_token() -> None:
        fake_discord.token = "the-new-token"
        fake_discord.gateway.sessions.clear()
        await fake_discord.gateway.close()

    code, text = await _exit_of(fake_discord, tmp_path, reset_token)
    assert code == 1 and "Traceback" not in text, text
    assert "Discord refused the token in DISCORD_TOKEN" in text


async def test_sharding_required_says_to_set_shard_count(fake_discord, tmp_path):
    """Discord closes the gateway with 4011 (sharding required, past 2,500 servers): the
    bot ends (exit 1) naming SHARD_COUNT, with no traceback."""
    async def refuse(ws, shard_id=0, shard_count=1):
        await ws.close(code=4011, message=b"Sharding required.")

    fake_discord.gateway._identify = refuse
    code, text = await _exit_of(fake_discord, tmp_path)
    assert code == 1 and "Traceback" not in text, text
    assert "SHARD_COUNT" in text and "sharding required" in text


async def test_discord_in_trouble_at_the_start_says_so(fake_discord, tmp_path):
    """Discord answers 503 at login (an outage): the bot ends (exit 1) saying Discord is
    having trouble and to try again, with no traceback."""
    fake_discord.fail_next("GET", r"/users/@me", 503, times=50)
    code, text = await _exit_of(fake_discord, tmp_path)
    assert code == 1 and "Traceback" not in text, text
    assert "Discord is having trouble" in text
