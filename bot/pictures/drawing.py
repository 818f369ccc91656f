"""Drawing pictures away from the event loop and its GIL: one dedicated worker process.

:class:`PictureDrawer` sends ``(kind, view, status)`` to a single worker process
(``ProcessPoolExecutor(max_workers=1)`` with the ``forkserver`` context, or ``spawn``
where there is no forkserver) and awaits the PNG bytes, so drawing never holds the bot's
GIL. The picture cache stays in the parent: a view drawn before costs a hash. If the
worker dies, the next drawing starts a new one and tries once more; where processes
cannot be started at all, or a new worker dies too, drawings run in a thread instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.pictures.cache import PictureCache, picture_key

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: How much lower the worker's scheduling priority is than the bot's: where both want
#: the same processor, the event loop answering clicks goes first and the picture waits.
WORKER_NICENESS = 5
#: How often a worker checks that the bot process is still there (seconds).
PARENT_CHECK_SECONDS = 1.0


def draw_uncached(kind: str, view: Mapping[str, Any], status: str) -> bytes:
    """Draw one picture without the cache (what the worker process runs; picklable)."""
    from bot.pictures import draw_picture

    return draw_picture(kind, dict(view), status)


def _watch_parent(parent: int) -> None:
    """End the worker as soon as the bot process that started it is gone (even killed)."""
    while True:
        time.sleep(PARENT_CHECK_SECONDS)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # the id was taken by another user's process
            os._exit(0)


def _warm(parent: int) -> None:
    """Watch the bot process, yield the processor to it (:data:`WORKER_NICENESS`), and
    load the drawing modules and fonts in the worker before the first picture."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watch",
                     daemon=True).start()
    from bot.pictures import draw_picture

    draw_picture("tinker", {}, "active")


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class PictureDrawer:
    """Draws board pictures in one worker process; ``await draw(...)`` gives PNG bytes."""

    work: Callable[[str, Mapping[str, Any], str], bytes] = staticmethod(draw_uncached)
    """What the worker runs for one picture (a module-level function, so it pickles)."""

    def __init__(self, cache: PictureCache | None = None, *, processes: bool = True) -> None:
        from bot.pictures import CACHE

        self.cache = CACHE if cache is None else cache
        self.processes = processes
        self.restarts = 0
        self._executor: Executor | None = None
        self._closed = False

    def _start(self) -> Executor:
        """Return the running executor, starting a process (or, failing that, a thread)."""
        if self._executor is not None:
            return self._executor
        if self.processes:
            try:
                self._executor = ProcessPoolExecutor(max_workers=1, mp_context=_context(),
                                                     initializer=_warm,
                                                     initargs=(os.getpid(),))
                return self._executor
            except (OSError, ValueError, NotImplementedError) as error:
                log.warning("no drawing process (%s); drawing in a thread", error)
                self.processes = False
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pictures")
        return self._executor

    @property
    def in_process(self) -> bool:
        """Whether pictures are drawn in a worker process (False: in a thread)."""
        return self.processes

    async def draw(self, kind: str, view: Mapping[str, Any], status: str = "active") -> bytes:
        """Return the board of ``kind`` as PNG bytes (``b""`` when nothing is drawn)."""
        if self._closed:
            raise RuntimeError("the picture drawer is closed")
        if not isinstance(view, Mapping):
            return b""
        key = picture_key(kind, view, status)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        png = await self.run(self.work, kind, dict(view), status)
        self.cache.put(key, png)
        return png

    async def run(self, work: Callable[..., _T], *args: Any) -> _T:
        """Return ``work(*args)`` run in the worker (``work`` a module-level function
        and ``args`` plain data, so both pickle); a dead worker is replaced once."""
        if self._closed:
            raise RuntimeError("the picture drawer is closed")
        loop = asyncio.get_running_loop()
        failures = 0
        while True:
            executor = self._start()
            try:
                return await loop.run_in_executor(executor, work, *args)
            except BrokenProcessPool:
                self._drop(executor)
                self.restarts += 1
                failures += 1
                if failures >= 2:
                    log.error("the new drawing process died too; drawing in a thread")
                    self.processes = False
                else:
                    log.warning("the drawing process died; starting a new one")

    def _drop(self, executor: Executor) -> None:
        if self._executor is executor:
            self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the worker (waiting for a drawing under way); later draws raise."""
        self._closed = True
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    async def worker_pid(self) -> int | None:
        """The worker process's id (None when drawing in a thread); starts the worker."""
        if not self.processes:
            return None
        executor = self._start()
        if not isinstance(executor, ProcessPoolExecutor):
            return None
        return await asyncio.get_running_loop().run_in_executor(executor, os.getpid)
