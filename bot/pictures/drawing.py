"""Drawing pictures away from the event loop and its GIL: one dedicated worker process.

:class:`PictureDrawer` sends ``(kind, view, status)`` to a single drawing process
(:mod:`bot.pictures.worker`, started at the first picture and spoken to over its pipes
by the event loop itself, with no helper threads) and awaits the PNG bytes, so drawing
never holds the bot's GIL. The picture cache stays in the parent: a view drawn before
costs a hash. If the worker dies, the next drawing starts a new one and tries once more;
where processes cannot be started at all, or a new worker dies too, drawings run in a
thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from bot.pictures import worker
from bot.pictures.cache import PictureCache, picture_key
from bot.pictures.worker import WORKER_NICENESS

__all__ = ["WORKER_NICENESS", "PictureDrawer", "WorkerDied", "draw_uncached"]

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: The folder that holds the ``bot`` package: the worker starts there, so
#: ``python -m bot.pictures.worker`` finds this very code.
ROOT = Path(__file__).resolve().parents[2]
#: How long :meth:`PictureDrawer.close` waits for the worker to end before killing it.
STOP_SECONDS = 10.0


def draw_uncached(kind: str, view: Mapping[str, Any], status: str) -> tuple[bytes, str | None]:
    """Draw one picture without the cache (what the worker process runs; picklable):
    the picture, and why a plain one stands in for the board (see
    :func:`bot.pictures.drawn`)."""
    from bot.pictures import drawn

    return drawn(kind, dict(view), status)


def _retrieved(task: asyncio.Future[Any]) -> None:
    """Mark a finished exchange's failure as seen (its caller may have been cancelled)."""
    if not task.cancelled():
        task.exception()


class WorkerDied(Exception):
    """The drawing process ended (or its pipes broke) before it answered."""


class DrawingProcess:
    """One running :mod:`bot.pictures.worker`; :meth:`call` runs work in it, in turn."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._turn = asyncio.Lock()

    @classmethod
    async def start(cls) -> DrawingProcess:
        """Start a worker (``OSError`` when no process can be started)."""
        level = logging.getLevelName(logging.getLogger().getEffectiveLevel())
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.pictures.worker", cwd=ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            env={**os.environ, worker.WORKER_LOG_LEVEL: str(level)})
        return cls(process)

    @property
    def pid(self) -> int:
        """The worker's process id."""
        return self.process.pid

    async def call(self, work: Callable[..., _T], *args: Any) -> _T:
        """Return ``work(*args)`` run in the worker; raise what it raised, or WorkerDied.

        The exchange runs to its end even if the caller is cancelled, so the next
        request never reads this one's answer.
        """
        exchange = asyncio.ensure_future(self._exchange(worker.frame((work, args))))
        exchange.add_done_callback(_retrieved)  # a caller that left does not read it
        ok, value = await asyncio.shield(exchange)
        if ok:
            return value
        raise value

    async def _exchange(self, request: bytes) -> tuple[bool, Any]:
        """Send one request and read its answer, each caller in turn."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        async with self._turn:
            try:
                stdin.write(request)
                await stdin.drain()
                head = await stdout.readexactly(worker.HEADER.size)
                body = await stdout.readexactly(worker.HEADER.unpack(head)[0])
            except (asyncio.IncompleteReadError, ConnectionError) as exc:
                raise WorkerDied(f"the drawing process ended ({exc!r})") from exc
        answer: tuple[bool, Any] = pickle.loads(body)
        return answer

    async def stop(self) -> None:
        """End the worker: its input closes after the request under way; killed if it
        has not ended within :data:`STOP_SECONDS` (a drawing that hangs included)."""
        try:
            await asyncio.wait_for(self._end_input(), STOP_SECONDS)
        except TimeoutError:
            self.kill()
            await self.process.wait()

    async def _end_input(self) -> None:
        """Close the worker's input once no request is under way; wait for it to end."""
        async with self._turn:
            if self.process.stdin is not None:
                self.process.stdin.close()
            await self.process.wait()

    def kill(self) -> None:
        """Kill the worker at once (it broke or hangs)."""
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()

    async def end(self) -> None:
        """Kill the worker, close its input and reap it, so none of its pipes is left
        open for the garbage collector to close (after the event loop, perhaps)."""
        self.kill()
        if self.process.stdin is not None:
            self.process.stdin.close()
        await self.process.wait()


class PictureDrawer:
    """Draws board pictures in one worker process; ``await draw(...)`` gives PNG bytes."""

    work: Callable[[str, Mapping[str, Any], str], tuple[bytes, str | None]] = staticmethod(
        draw_uncached)
    """What the worker runs for one picture (a module-level function, so it pickles)."""

    def __init__(self, cache: PictureCache | None = None, *, processes: bool = True) -> None:
        from bot.pictures import CACHE

        self.cache = CACHE if cache is None else cache
        self.processes = processes
        self.restarts = 0
        self._process: DrawingProcess | None = None
        self._starting: asyncio.Lock | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._closed = False

    async def _worker(self) -> DrawingProcess | None:
        """Return the running worker, starting one; None when drawing in a thread."""
        if self._process is not None or not self.processes:
            return self._process
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:  # concurrent first pictures start one worker
            if self._process is None and self.processes:
                try:
                    self._process = await DrawingProcess.start()
                except (OSError, ValueError, NotImplementedError) as error:
                    log.warning("no drawing process (%s); drawing in a thread", error)
                    self.processes = False
        return self._process

    @property
    def in_process(self) -> bool:
        """Whether pictures are drawn in a worker process (False: in a thread)."""
        return self.processes

    async def draw(self, kind: str, view: Mapping[str, Any], status: str = "active", *,
                   what: str = "a game") -> bytes:
        """Return the board of ``kind`` as PNG bytes (``b""`` when nothing is drawn). A
        board that cannot be drawn is logged here, in the bot's log, naming ``what`` it
        is the board of; a plain picture stands in for it."""
        if self._closed:
            raise RuntimeError("the picture drawer is closed")
        if not isinstance(view, Mapping):
            return b""
        key = picture_key(kind, view, status)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        png, failure = await self.run(self.work, kind, dict(view), status)
        if failure is not None:
            log.error("the %s board of %s could not be drawn; a plain picture is shown\n%s",
                      kind, what, failure.rstrip())
        self.cache.put(key, png)
        return png

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """Return ``work(*args)`` run in the worker (``work`` a module-level function
        and ``args`` plain data, so both pickle); a dead worker is replaced once."""
        if self._closed:
            raise RuntimeError("the picture drawer is closed")
        failures = 0
        while True:
            if self._closed:  # closed while this waited (a worker stopped under it)
                raise RuntimeError("the picture drawer is closed")
            process = await self._worker()
            if process is None:
                return await self._in_thread(work, *args)
            try:
                return await process.call(work, *args)
            except WorkerDied:
                await self._drop(process)
                self.restarts += 1
                failures += 1
                if failures >= 2:
                    log.error("the new drawing process died too; drawing in a thread")
                    self.processes = False
                else:
                    log.warning("the drawing process died; starting a new one")

    async def _in_thread(self, work: Callable[..., _T], *args: Any) -> _T:
        """Run ``work(*args)`` in the drawing thread (where there is no worker)."""
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, *args)

    async def _drop(self, process: DrawingProcess) -> None:
        """Forget a worker that died and reap it."""
        if self._process is process:
            self._process = None
        await process.end()

    async def close(self) -> None:
        """Stop the worker (after the drawing under way) or the thread; later draws raise."""
        self._closed = True
        process, self._process = self._process, None
        if process is not None:
            await process.stop()
        if self._thread is not None:
            thread, self._thread = self._thread, None
            await asyncio.to_thread(thread.shutdown, wait=True, cancel_futures=True)

    async def worker_pid(self) -> int | None:
        """The worker process's id (None when drawing in a thread); starts the worker."""
        if self._closed:
            raise RuntimeError("the picture drawer is closed")
        process = await self._worker()
        return None if process is None else process.pid
