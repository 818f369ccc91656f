"""The heartbeat the running bot writes, and how the health check judges it."""

import asyncio
import json
import os
import threading
import time
from pathlib import Path

import pytest

import bot.health as health
from bot.health import (
    STOPPED,
    Heartbeat,
    HeartbeatWriter,
    check,
    database_problem,
    gateway_state,
    health_file,
    judge,
    read_heartbeat,
    write_heartbeat,
)
from db.errors import StorageError
from db.store import Store
from tests.support import Clock, make_bot, make_settings, set_read_only


class FakeStore:
    """A store whose ``query`` answers ``SELECT 1`` or fails like a dropped database."""

    def __init__(self, fail=False):
        self.fail = fail
        self.queries = []

    async def query(self, sql, params=None):
        self.queries.append(sql)
        if self.fail:
            raise OSError("connection refused")
        return [(1,)]


class FakeWebSocket:
    """The parts of a discord.py gateway websocket the heartbeat reads."""

    def __init__(self, latency, open=True):
        self.latency, self.open = latency, open


class FakeClient:
    """The parts of a discord.Client the heartbeat reads (its websocket up, as after READY)."""

    def __init__(self, ready=True, closed=False, latency=0.0421, store=None):
        self.ready, self.closed, self.latency = ready, closed, latency
        self.ws = FakeWebSocket(latency)
        self.store = store if store is not None else FakeStore()

    def is_ready(self):
        return self.ready

    def is_closed(self):
        return self.closed


def test_heartbeat_round_trip(tmp_path):
    """A written heartbeat reads back equal; the file is one line of JSON."""
    beat = Heartbeat(1_800_000_000.5, True, True, 42.1, 77)
    path = tmp_path / "sub" / "health.json"
    write_heartbeat(path, beat)
    assert read_heartbeat(path) == beat
    assert json.loads(path.read_text())["connected"] is True
    assert [p.name for p in path.parent.iterdir()] == ["health.json"]  # no partial file left


def test_judge_names_every_problem():
    """Stale, disconnected and database down are each reported; a good beat has none."""
    now = 1000.0
    assert judge(Heartbeat(now - 89, True, True), now) == []
    problems = judge(Heartbeat(now - 91, False, False), now)
    assert len(problems) == 3
    assert "91 s old" in problems[0]


def test_check_reports_a_missing_or_foreign_file(tmp_path):
    """No file, or a JSON file that is not a heartbeat, is a problem, not an exception."""
    assert "no heartbeat file" in check(tmp_path / "none.json")[0]
    other = tmp_path / "other.json"
    other.write_text('{"time": "soon"}')
    assert "not valid" in check(other)[0]


def test_health_file_default_and_setting(tmp_path):
    """Default: health.json beside the database; the settings' HEALTH_FILE wins."""
    assert health_file("data/tablehouse.db").as_posix() == "data/health.json"
    assert health_file(make_settings(tmp_path)) == tmp_path / "health.json"
    beat = tmp_path / "run" / "beat.json"
    assert health_file(make_settings(tmp_path, HEALTH_FILE=beat)) == beat


def test_health_file_comes_from_the_settings_not_the_environment(tmp_path, monkeypatch):
    """The file is the one the settings were read with: the process environment, read
    once by load_settings (and checked there), is not read again behind their back."""
    monkeypatch.setenv("HEALTH_FILE", str(tmp_path / "from-the-shell.json"))
    assert health_file(make_settings(tmp_path)) == tmp_path / "health.json"


def test_health_file_per_shard_process(tmp_path):
    """With SHARD_IDS, each process's default file names its shards; HEALTH_FILE still wins."""
    sharded = make_settings(tmp_path, SHARD_COUNT=4, SHARD_IDS="3,2")
    assert health_file(sharded) == tmp_path / "health-shards-2-3.json"
    pair = make_settings(tmp_path, SHARD_COUNT=2, SHARD_IDS="0,1")
    assert health_file(pair) == tmp_path / "health-shards-0-1.json"  # as .env.example says
    assert health_file(make_settings(tmp_path, SHARD_COUNT=4)) == tmp_path / "health.json"
    chosen = make_settings(tmp_path, SHARD_COUNT=4, SHARD_IDS="3,2", HEALTH_FILE="beat.json")
    assert health_file(chosen).as_posix() == "beat.json"


def test_gateway_state():
    """Connected only when ready, not closed and the websocket up; latency in ms, None
    when not known (no websocket, or no heartbeat acknowledged on it: not connected)."""
    assert gateway_state(FakeClient()) == (True, 42.1)
    assert gateway_state(FakeClient(ready=False))[0] is False
    assert gateway_state(FakeClient(closed=True))[0] is False
    assert gateway_state(FakeClient(latency=float("nan"))) == (False, None)
    assert gateway_state(FakeClient(latency=float("inf"))) == (False, None)
    assert gateway_state(object()) == (False, None)


async def test_database_check():
    """SELECT 1 through a store's query when it has no health of its own; a failure or no
    store at all is a problem, said in words."""
    store = FakeStore()
    assert await database_problem(store) is None and store.queries == ["SELECT 1"]
    assert "connection refused" in (await database_problem(FakeStore(fail=True)) or "")
    assert await database_problem(None) == "the bot has no database"
    assert await database_problem(object()) == "the database cannot be asked"


@pytest.mark.error_logs_expected
async def test_a_deleted_database_file_makes_the_bot_unhealthy(tmp_path):
    """The SQLite file deleted while the bot runs: a read still works (SQLite keeps the
    unlinked file open), yet the heartbeat says the database is down, and why."""
    store = await Store.open(tmp_path / "bot.db", Clock())
    try:
        client = FakeClient(store=store)
        writer = HeartbeatWriter(client, tmp_path / "health.json", clock=lambda: 1234.0)
        assert (await writer.beat()).database is True
        (tmp_path / "bot.db").unlink()
        assert await store.query("SELECT 1") == [(1,)]
        beat = await writer.beat()
        assert beat.database is False and "deleted" in (beat.problem or "")
        problems = check(tmp_path / "health.json", now=1234.0)
        assert len(problems) == 1 and problems[0].startswith("the last database check failed:")
    finally:
        await store.close()


async def test_a_refused_write_makes_the_bot_unhealthy_until_one_is_stored(tmp_path):
    """Every save refused (a read-only database): unhealthy, saying the last write was
    refused; the next stored write makes it healthy again."""
    store = await Store.open(tmp_path / "bot.db", Clock())
    try:
        await store.set_meta("k", "1")
        assert await store.health_problem() is None
        await set_read_only(store, True)
        with pytest.raises(StorageError):
            await store.set_meta("k", "2")
        assert "last write was refused" in (await database_problem(store) or "")
        await set_read_only(store, False)
        await store.set_meta("k", "3")
        assert await database_problem(store) is None
    finally:
        await store.close()


async def test_writer_beats_and_stops(tmp_path):
    """The writer's beat is at once on the file; stopping leaves a 'not connected' beat."""
    path = tmp_path / "health.json"
    client = FakeClient()
    writer = HeartbeatWriter(client, path, interval=0.01, clock=lambda: 1234.0)
    beat = await writer.beat()
    assert beat.connected and beat.database and read_heartbeat(path) == beat
    client.store.fail = True
    assert (await writer.beat()).database is False
    writer.start()
    await writer.stop()
    assert read_heartbeat(path).connected is False
    # the last beat of a clean stop says so, not that a database check failed
    assert check(path, now=1234.0) == ["the bot was stopped"]


async def _ticks(gaps, count=20):
    """Sleep ``count`` short times, noting how long the loop took to answer each."""
    last = time.monotonic()
    for _ in range(count):
        await asyncio.sleep(0.02)
        now = time.monotonic()
        gaps.append(now - last)
        last = now


async def test_the_heartbeat_is_written_off_the_event_loop(tmp_path, monkeypatch):
    """A disk that takes 0.3 s to answer does not stall the loop: every write, the last
    one of stop() too, runs in another thread, and stop() returns once it has landed."""
    loop_thread = threading.get_ident()
    writers = []
    real_replace = os.replace

    def slow_replace(src, dst):
        writers.append(threading.get_ident())
        time.sleep(0.3)
        real_replace(src, dst)

    monkeypatch.setattr(health.os, "replace", slow_replace)
    path = tmp_path / "health.json"
    writer = HeartbeatWriter(FakeClient(), path, interval=60)
    gaps = []
    beat, _ = await asyncio.gather(writer.beat(), _ticks(gaps))
    assert read_heartbeat(path) == beat
    writer.start()
    await asyncio.gather(writer.stop(), _ticks(gaps))
    assert read_heartbeat(path).problem == STOPPED
    assert len(writers) >= 2 and loop_thread not in writers
    assert max(gaps) < 0.2, f"the event loop stood still for {max(gaps):.2f} s"


async def test_a_beat_being_written_at_the_stop_lands_before_the_last_one(tmp_path,
                                                                         monkeypatch):
    """A beat whose write is under way when the bot stops cannot be called back: it lands
    first, and stop()'s last heartbeat after it, so the file says the bot was stopped."""
    entered, release = threading.Event(), threading.Event()
    real_replace = os.replace
    landed = []

    def held_replace(src, dst):  # the first write waits until released
        if not entered.is_set():
            entered.set()
            release.wait(5)
        real_replace(src, dst)
        landed.append(read_heartbeat(Path(dst)).problem)

    monkeypatch.setattr(health.os, "replace", held_replace)
    path = tmp_path / "health.json"
    writer = HeartbeatWriter(FakeClient(), path, interval=60)
    writer.start()  # its first beat is written at once
    for _ in range(500):
        if entered.is_set():
            break
        await asyncio.sleep(0.01)
    assert entered.is_set()
    asyncio.get_running_loop().call_later(0.2, release.set)
    await writer.stop()
    assert landed == [None, STOPPED]
    assert check(path) == ["the bot was stopped"]


async def test_the_bot_writes_its_heartbeat_beside_the_database(discord_driver, fake_discord,
                                                                tmp_path):
    """A logged-in bot writes a fresh, healthy heartbeat; closing it turns the check red."""
    bot = make_bot(tmp_path)
    await discord_driver.login(bot)
    path = tmp_path / "health.json"
    for _ in range(500):  # the loop's own first beat, written at once, lands first
        if path.exists():
            break
        await asyncio.sleep(0.01)
    beat = await bot.heartbeat.beat()
    assert beat.database is True
    assert read_heartbeat(path) == beat
    assert abs(beat.time - time.time()) < 60
    await discord_driver.close_client(bot)
    assert check(path) == ["the bot was stopped"]


def test_unwritable_says_why_the_bot_could_not_write_its_heartbeat(tmp_path, monkeypatch):
    """The heartbeat is written beside its file and renamed over it: a folder the
    process may not write is named, even when the file exists and may be written; a path
    that is a folder, or runs through a file, is named; a writable folder is None."""
    from bot.health import unwritable

    target = tmp_path / "data" / "health.json"
    assert unwritable(target) is None
    target.parent.mkdir()
    target.write_text("{}", encoding="utf-8")
    assert unwritable(target) is None
    folder = str(target.parent)
    real = os.access
    monkeypatch.setattr(os, "access", lambda path, mode, *a, **k:
                        not (str(path) == folder and mode & os.W_OK) and real(path, mode))
    assert "may not write in" in (unwritable(target) or "")  # the file alone is writable
    monkeypatch.setattr(os, "access", real)
    (tmp_path / "made.json").mkdir()
    assert "is a folder" in (unwritable(tmp_path / "made.json") or "")
    assert "is a file" in (unwritable(target / "inside.json") or "")


def test_the_check_matches_what_writing_the_heartbeat_needs(tmp_path):
    """Where :func:`unwritable` finds nothing wrong the heartbeat is written, and where
    the path is a folder writing it fails, as the check says it would."""
    from bot.health import unwritable

    good = tmp_path / "deep" / "health.json"
    assert unwritable(good) is None
    health.write_heartbeat(good, health.Heartbeat(time=1.0, connected=True, database=True))
    bad = tmp_path / "a-folder"
    bad.mkdir()
    assert unwritable(bad) is not None
    with pytest.raises(OSError):
        health.write_heartbeat(bad, health.Heartbeat(time=1.0, connected=True, database=True))
