"""Leftovers: messages the bot meant to take back (a turn notice whose turn passed, a
lobby's invitation, a board a newer one replaced) while Discord failed for a while.

discord.py already retries a request a few times over some seconds; a delete or edit
that still fails for a passing reason (a server error, a rate limit, the connection) is
tried again here later, a few times, by one task for the whole process, so an old
"it is your turn" line does not stay in the channel for good. One refused for good (the
message or channel gone, a permission missing) is not tried again. A notice whose post
was stopped on its way (its turn passed) is looked for after the first wait: Discord may
have taken it all the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.boards.send_errors import SEND_ERRORS, passing_failure

log = logging.getLogger(__name__)

#: How long after each failed try the next one comes, in seconds.
RETRY_SECONDS = (30.0, 120.0, 600.0)
#: The most leftovers waiting at once: past it the oldest is given up.
MOST_WAITING = 1000

#: One try at taking a message back.
Job = Callable[[], Awaitable[Any]]


class Leftovers:
    """Takes back messages, trying again later those Discord failed to take back."""

    def __init__(self, retry_seconds: tuple[float, ...] = RETRY_SECONDS) -> None:
        self.retry_seconds = retry_seconds
        #: The jobs waiting: when each is due (the loop's time), what it takes back,
        #: its job, how many tries it has had.
        self._waiting: list[tuple[float, str, Job, int]] = []
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()

    async def take_back(self, what: str, job: Job) -> bool:
        """Run ``job`` (a delete or edit of the message ``what`` names, for the log) now;
        if Discord fails it for a while, try again later. Return whether it was done now
        (a message gone already counts as done)."""
        if await self._try(what, job, 0):
            return True
        self._keep(what, job, 1)
        return False

    def later(self, what: str, job: Job) -> None:
        """Run ``job`` after the first wait (and again later, if Discord fails it for a
        while): for a message Discord may take a moment to show."""
        self._keep(what, job, 1)

    @property
    def waiting(self) -> int:
        """How many messages wait for another try."""
        return len(self._waiting)

    async def _try(self, what: str, job: Job, tries: int) -> bool:
        """Try ``job`` once; False only when it failed for a passing reason."""
        try:
            await job()
        except SEND_ERRORS as exc:
            if not passing_failure(exc):
                return True  # gone already, or never allowed: nothing to try again
            if tries >= len(self.retry_seconds):
                log.warning("gave up taking back %s: %s", what, exc)
                return True
            log.info("could not take back %s yet: %s", what, exc)
            return False
        return True

    def _keep(self, what: str, job: Job, tries: int) -> None:
        """Keep ``job`` for another try, and make sure the task that tries is running."""
        due = asyncio.get_running_loop().time() + self.retry_seconds[tries - 1]
        self._waiting.append((due, what, job, tries))
        if len(self._waiting) > MOST_WAITING:
            self._waiting.sort(key=lambda w: w[0])
            log.warning("too many messages to take back: gave up %s", self._waiting.pop(0)[1])
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="leftovers")
        else:
            self._wake.set()

    async def _run(self) -> None:
        """Try each waiting job again when it is due, until none is left."""
        loop = asyncio.get_running_loop()
        while self._waiting:
            self._wake.clear()
            wait = min(w[0] for w in self._waiting) - loop.time()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), wait)
                continue  # look again: a job may have come, or come due
            now = loop.time()
            due = [w for w in self._waiting if w[0] <= now]
            self._waiting = [w for w in self._waiting if w[0] > now]
            for _, what, job, tries in due:
                if not await self._try(what, job, tries):
                    self._keep(what, job, tries + 1)

    async def stop(self) -> None:
        """Stop trying (at the bot's stop); what still waits stays in the channel."""
        if self._waiting:
            log.info("%d messages not taken back at the stop", len(self._waiting))
        self._waiting.clear()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
