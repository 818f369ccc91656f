"""The heartbeat file the running bot writes, and the check ``python -m bot health`` makes.

Every :data:`HEARTBEAT_SECONDS` the bot writes one small JSON file (``HEALTH_FILE``;
default ``health.json`` beside the SQLite database, so ``data/health.json``, or one
per process with ``SHARD_IDS``, see :func:`health_file`): the time,
whether the Discord gateway is connected, its latency, and whether the store can save:
what the store itself knows (its ``health_problem``: the SQLite files still the ones it
writes, the last write stored, PostgreSQL within reach) and a read it answers. The
check passes when that file is fresh (under :data:`MAX_AGE_SECONDS`) and says connected
and database up; when the database is not, the file says why. A process that hangs or
dies stops writing, so its file goes stale: no network call is needed to notice.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from discord.ext import tasks

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 30.0
"""How often the running bot writes its heartbeat."""

MAX_AGE_SECONDS = 90.0
"""A heartbeat older than this means the bot is not healthy (three missed beats)."""

DATABASE_CHECK_SECONDS = 5.0
"""How long the database check may take before it counts as failed."""


STOP_SECONDS = 5.0
"""How long stopping waits for a beat in progress."""


class HealthError(Exception):
    """The heartbeat file is missing or unreadable; the message says which."""


#: What the last heartbeat of a bot that stopped cleanly says (no database check ran).
STOPPED = "the bot was stopped"


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """One heartbeat, as written to the file."""

    time: float
    connected: bool
    database: bool
    latency_ms: float | None = None
    pid: int = 0
    #: Why the database check failed (None when it passed, or nothing was said).
    problem: str | None = None

    def to_json(self) -> str:
        """Return the heartbeat as one line of JSON."""
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Heartbeat:
        """Parse a heartbeat file's text; raise HealthError if it is not one."""
        try:
            data = json.loads(text)
            latency = data.get("latency_ms")
            problem = data.get("problem")
            return cls(
                time=float(data["time"]),
                connected=data["connected"] is True,
                database=data["database"] is True,
                latency_ms=None if latency is None else float(latency),
                pid=int(data.get("pid", 0)),
                problem=None if problem is None else str(problem),
            )
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise HealthError(f"the heartbeat file is not valid ({exc!r})") from None


def health_file(target: Any) -> Path:
    """Return the heartbeat file for ``target`` (the settings, or the database's path).

    The settings' ``health_file`` (``HEALTH_FILE``, read and checked by
    :func:`bot.config.load_settings`) if set; else ``health.json`` beside the SQLite
    database, or ``health-shards-0-1.json`` there for a process running only shards 0
    and 1 (``SHARD_IDS``), so that processes sharing one folder never share one heartbeat.
    """
    chosen = getattr(target, "health_file", None)
    if chosen is not None:
        return Path(chosen)
    folder = Path(getattr(target, "database_path", target)).parent
    shard_ids = tuple(getattr(target, "shard_ids", ()) or ())
    if shard_ids:
        return folder / f"health-shards-{'-'.join(str(i) for i in shard_ids)}.json"
    return folder / "health.json"


def unwritable(path: Path) -> str | None:
    """Return why this process could not write its heartbeat to ``path``, or None when
    it can. The heartbeat is written beside ``path`` and renamed over it
    (:func:`write_heartbeat`), so what counts is the folder (or the nearest folder that
    exists, to make it in), and that ``path`` is not a folder itself. Checked where the
    bot starts, so that it stops at once rather than warn every 30 s and be reported
    unhealthy."""
    if path.is_dir():
        return f"{str(path)!r} is a folder, not a file"
    folder = path.absolute().parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{str(path)!r} cannot be made: {str(folder)!r} is a file"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{str(path)!r} cannot be written: the bot may not write in {str(folder)!r}"
    return None


def write_heartbeat(path: Path, beat: Heartbeat) -> None:
    """Write ``beat`` to ``path`` atomically (a reader never sees half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_text(beat.to_json() + "\n", encoding="utf-8")
    os.replace(partial, path)


def read_heartbeat(path: Path) -> Heartbeat:
    """Read the heartbeat at ``path``; raise HealthError if it is missing or damaged."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise HealthError(f"no heartbeat file at {path} (is the bot running?)") from None
    except OSError as exc:
        raise HealthError(f"cannot read the heartbeat file {path}: {exc}") from None
    return Heartbeat.from_json(text)


def judge(beat: Heartbeat, now: float, max_age: float = MAX_AGE_SECONDS) -> list[str]:
    """Return what is wrong with ``beat`` at time ``now`` (empty when healthy)."""
    problems = []
    age = now - beat.time
    if age > max_age:
        problems.append(f"the last heartbeat is {age:.0f} s old (over {max_age:.0f} s)")
    if beat.problem == STOPPED and not beat.connected:  # the last beat of a clean stop
        return [*problems, STOPPED]
    if not beat.connected:
        problems.append("the bot is not connected to Discord")
    if not beat.database:
        problems.append("the last database check failed"
                        + (f": {beat.problem}" if beat.problem else ""))
    return problems


def check(path: Path, now: float | None = None, max_age: float = MAX_AGE_SECONDS) -> list[str]:
    """Return what is wrong with the bot whose heartbeat is at ``path`` (empty when healthy)."""
    try:
        beat = read_heartbeat(path)
    except HealthError as exc:
        return [str(exc)]
    return judge(beat, time.time() if now is None else now, max_age)


def gateway_state(client: Any) -> tuple[bool, float | None]:
    """Return whether ``client`` (a discord.Client) is connected, and its latency in ms.

    Connected means READY was received, the client is not closed, and its gateway
    connection is up now (:func:`gateway_up`): discord.py keeps its ready flag while it
    tries to reconnect a connection that dropped, so that flag alone is not enough.
    """
    try:
        connected = bool(client.is_ready()) and not client.is_closed()
        latency = float(client.latency)
    except (AttributeError, TypeError, ValueError):
        return False, None
    connected = connected and gateway_up(client)
    if not math.isfinite(latency):
        return connected, None
    return connected, round(latency * 1000, 1)


def gateway_up(client: Any) -> bool:
    """Whether every gateway connection of ``client`` is up now: for an
    AutoShardedClient each of its shards (any one down means down), else its one
    websocket. A connection is up when its websocket is there and open and its
    heartbeat latency is finite: when a connection drops, discord.py stops its
    keep-alive (the latency becomes infinite) and closes its socket, and keeps that
    websocket until a new one is connected."""
    try:
        shards = getattr(client, "shards", None)
        if isinstance(shards, Mapping):
            return bool(shards) and all(
                _up(not shard.is_closed(), shard.latency) for shard in shards.values())
        ws = getattr(client, "ws", None)
        return ws is not None and _up(ws.open, ws.latency)
    except (AttributeError, TypeError, ValueError):
        return False


def _up(is_open: Any, latency: Any) -> bool:
    """Whether a websocket that says ``is_open`` with ``latency`` (s) is up."""
    return math.isfinite(float(latency)) and bool(is_open)


async def database_problem(store: Any, timeout: float = DATABASE_CHECK_SECONDS) -> str | None:
    """Return why ``store`` cannot save right now, or None when it can.

    A store with ``health_problem`` (both backends) answers from what it knows: its
    files, its last write, a read. Any other store is asked a ``SELECT 1`` through its
    ``query``. Not answering within ``timeout`` is a problem too.
    """
    if store is None:
        return "the bot has no database"
    ask = getattr(store, "health_problem", None)
    query = getattr(store, "query", None)
    if ask is None and query is None:
        return "the database cannot be asked"
    try:
        # asyncio.timeout, not wait_for: 3.11's wait_for can swallow a cancellation that
        # meets the query's answer, and the heartbeat loop would then never stop.
        async with asyncio.timeout(timeout):
            if ask is not None:
                problem: str | None = await ask()
            elif query is not None:
                rows = await query("SELECT 1")
                problem = None if rows and next(iter(rows[0])) == 1 else "SELECT 1 failed"
    except TimeoutError:
        problem = f"the database did not answer within {timeout:.0f} s"
    except Exception as exc:
        problem = f"the database check failed: {exc}"
    if problem is not None:
        log.warning("database check failed: %s", problem)
    return problem


async def take_pulse(client: Any, clock: Callable[[], float] = time.time) -> Heartbeat:
    """Return a heartbeat for ``client`` now: gateway state and a database check."""
    connected, latency = gateway_state(client)
    problem = await database_problem(getattr(client, "store", None))
    return Heartbeat(clock(), connected, problem is None, latency, os.getpid(), problem)


class HeartbeatWriter:
    """Writes ``client``'s heartbeat to a file every ``interval`` seconds.

    It runs as a ``discord.ext.tasks`` loop, like the bot's sweeper: one long-lived task
    that survives a failed beat and that the test driver does not wait for.
    """

    def __init__(
        self,
        client: Any,
        path: Path,
        interval: float = HEARTBEAT_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.client = client
        self.path = path
        self.clock = clock
        self._loop = tasks.loop(seconds=interval, name="heartbeat")(self.beat)
        # The file is written in a thread of its own, never on the event loop (a disk
        # that stalls must not stall the bot), and by one thread only: the writes land
        # in the order they were asked for, so an older beat never lands after a newer
        # one (stop()'s last one), whoever was cancelled meanwhile.
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="heartbeat")

    def start(self) -> None:
        """Start writing (once); the first heartbeat is written at once."""
        if not self._loop.is_running():
            self._loop.start()

    async def beat(self) -> Heartbeat:
        """Take the pulse and write it now; return it. A failed write is a warning."""
        beat = await take_pulse(self.client, self.clock)
        await self._write(beat)
        return beat

    async def _write(self, beat: Heartbeat) -> None:
        """Write ``beat`` in the writer's thread, after every write asked for before it.

        Cancelling the wait drops a write that has not begun; one under way finishes
        (a thread cannot be interrupted), still before any write asked for later.
        """
        written = asyncio.wrap_future(self._writer.submit(write_heartbeat, self.path, beat))
        try:
            await written
        except OSError as exc:
            log.warning("could not write the heartbeat file %s: %s", self.path, exc)

    async def stop(self) -> None:
        """Stop writing and leave a last heartbeat saying the bot is not connected."""
        task = self._loop.get_task()
        if task is None:
            return
        self._loop.cancel()
        await asyncio.wait({task}, timeout=STOP_SECONDS)
        if not task.done():
            log.warning("the heartbeat loop did not stop within %.0f s", STOP_SECONDS)
        last = Heartbeat(self.clock(), False, False, None, os.getpid(), STOPPED)
        # Awaited to the end (a cancelled stop() still leaves it to land), after any
        # beat still being written: the file is left saying the bot was stopped.
        await asyncio.shield(self._write(last))
