"""Drill: the bot process is killed with SIGKILL while 100 games are being clicked.

Every wait is on something observable (an answer recorded by the fake, a gateway
session, the fake's connections closing, a log line) and bounded; nothing sleeps for a
guessed time. What the players saw is read from the fake once it has processed every
byte the dead process sent, not from the players' own bookkeeping, which can lag it.
"""

import asyncio
import contextlib
import random
import signal

from tests.drills.checks import checked_games
from tests.fake_discord.payloads import iter_components
from tests.fake_discord.process import bot_process

GAMES = 100
CLICKS_BEFORE_KILL = 3 * GAMES


def _live_ids(message):
    return [c["custom_id"] for c in iter_components(message.get("components") or [])
            if c.get("type") == 2 and not c.get("disabled")]


def _version(custom_id):
    return int(custom_id.split(":")[2])


def _shown_version(message):
    """The board version a stored board message shows, or None if it has no buttons."""
    versions = {_version(c["custom_id"]) for c in iter_components(message.get("components") or [])
                if str(c.get("custom_id", "")).startswith(("g1:", "s1:"))}
    assert len(versions) <= 1, versions
    return versions.pop() if versions else None


async def _answer(fake, payload, timeout=30):
    record = fake.register_interaction(payload)
    await fake.dispatch_interaction(payload)
    await fake.wait_until(lambda: record.response_type is not None, timeout=timeout)
    return record


async def _start(fake, channel_id):
    payload = fake.slash_payload("tinker", path=("start",), user="alice", channel_id=channel_id)
    record = await _answer(fake, payload)
    assert record.response_type == 4, record
    return record.original_message_id


async def _until(condition, what, timeout=30.0):
    """Poll ``condition`` (something the fake does not announce) until it holds, bounded."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"{what} did not happen within {timeout} s"
        await asyncio.sleep(0.01)


async def _new_session(fake, proc, known=frozenset(), timeout=30.0):
    """Wait until a gateway session not in ``known`` is connected (this process's)."""
    def fresh():
        return [s for s in fake.gateway.connected if s.session_id not in known]

    try:
        await fake.wait_until(lambda: bool(fresh()), timeout=timeout)
    except TimeoutError:
        raise AssertionError(f"the bot never connected:\n{proc.text}") from None


def _fake_connections(fake):
    return len(fake._runner.server.connections)


async def test_sigkill_while_100_games_are_clicked(fake_discord, tmp_path):
    """SIGKILL mid-clicks: every acknowledged move kept, nothing corrupt, every board works."""
    fake = fake_discord
    # The drill is about the kill, not Discord's 3 s answer deadline: on a loaded machine a
    # slow answer would be refused (10062) and its click never acknowledged.
    fake.response_deadline = None
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    channels = [fake.add_channel(f"table-{i}") for i in range(GAMES)]
    boards: dict[int, int] = {}
    clicked: dict[int, tuple[int, int]] = {}  # interaction id -> (channel, board version)
    chooser = random.Random(7)
    stop = asyncio.Event()
    answered = 0

    async def player(channel_id):
        nonlocal answered
        while not stop.is_set():
            live = _live_ids(fake.get_message(boards[channel_id]))
            if not live:
                return
            custom_id = chooser.choice(live)
            payload = fake.component_payload(boards[channel_id], custom_id, user="bob")
            clicked[int(payload["id"])] = (channel_id, _version(custom_id))
            record = await _answer(fake, payload)
            assert record.response_type == 7, record
            answered += 1

    async with bot_process(fake, "-m", "tests.run_tinker_bot", env=env) as proc:
        await _new_session(fake, proc)
        starts = await asyncio.gather(*(_start(fake, c) for c in channels))
        boards.update(zip(channels, starts, strict=True))
        players = [asyncio.create_task(player(c)) for c in channels]
        await fake.wait_until(lambda: answered >= CLICKS_BEFORE_KILL, timeout=90)
        stop.set()  # no new click from now on; those dispatched stay in flight
        in_flight = [i for i in clicked if fake.interactions[i].response_type is None]
        proc.process.send_signal(signal.SIGKILL)
        await proc.process.wait()
        # The fake may still be reading what the process wrote before it died: wait until
        # it has closed every connection (gateway and HTTP), so the boards it stores are final.
        await _until(lambda: _fake_connections(fake) == 0, "the fake closing the connections")
        for task in players:
            task.cancel()
        for task in players:
            with contextlib.suppress(asyncio.CancelledError):
                await task
    assert in_flight, "the kill came when no click was in flight"

    games = checked_games(tmp_path / "bot.db")
    by_channel = {channel: (status, version) for status, version, channel in games.values()}
    assert set(by_channel) == set(channels)
    acknowledged: dict[int, int] = {}
    for interaction_id, (channel_id, version) in clicked.items():
        if fake.interactions[interaction_id].response_type == 7:
            acknowledged[channel_id] = max(acknowledged.get(channel_id, 0), version + 1)
    behind = set()
    for channel_id in channels:
        status, version = by_channel[channel_id]
        assert acknowledged.get(channel_id, 0) <= version  # every acknowledged move is kept
        shown = _shown_version(fake.get_message(boards[channel_id]))
        if shown is None:
            assert status == "over"
            continue
        assert shown <= version <= shown + 1  # at most the one click in flight beyond
        if version > shown:
            behind.add(channel_id)
    assert len(behind) <= len(in_flight)
    open_games = sum(1 for status, _ in by_channel.values() if status == "active")

    known = set(fake.gateway.sessions)
    async with bot_process(fake, "-m", "tests.run_tinker_bot", env=env) as proc:
        await _new_session(fake, proc, known)
        for channel_id in channels:
            status, version = by_channel[channel_id]
            live = _live_ids(fake.get_message(boards[channel_id]))
            if not live:
                assert status == "over"
                continue
            payload = fake.component_payload(boards[channel_id], live[0], user="bob")
            record = await _answer(fake, payload)
            assert record.response_type == 7, (channel_id, record)
            if channel_id not in behind:
                continue
            # The kill came after this move was saved and before its answer: the board
            # is one version behind. The click is not applied; it brings the board up to
            # date, and the board works from then on.
            healed = fake.get_message(boards[channel_id])
            assert _shown_version(healed) in (version, None)
            healed_live = _live_ids(healed)
            if not healed_live:  # the move in flight was the game's last
                assert status == "over"
                continue
            click = fake.component_payload(healed, healed_live[0], user="bob")
            assert (await _answer(fake, click)).response_type == 7
        await _until(lambda: f"ready: {open_games} open games restored" in proc.text,
                     "the restarted bot logging ready")
        assert "Traceback" not in proc.text and " ERROR " not in proc.text, proc.text
    checked_games(tmp_path / "bot.db")
