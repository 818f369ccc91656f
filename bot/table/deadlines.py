"""Stored deadlines: one task for every game's vote window and turn timer.

Each game keeps its next deadline in the database (``games.deadline``, indexed), never
in a task of its own, so a server with 100,000 open games holds one sleeping task, and
a restart loses nothing: the loop reads the earliest deadline, sleeps until it (or until
woken by an earlier one), and hands every due game to ``fire``, a few at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.table.errors import StaleBoard, Unavailable
from db.errors import StorageError

log = logging.getLogger(__name__)

#: Games fetched per look at the due list.
BATCH = 100
#: Due games handled at once (each takes its game's lock and saves once).
CONCURRENCY = 8
#: Longest sleep without looking, in case a deadline was stored by another process.
IDLE_LOOK_SECONDS = 30.0
#: How long a game whose deadline could not be handled waits before another try.
RETRY_SECONDS = 5.0
#: How long a game whose deadlines are paused (:class:`Paused`) waits before another look.
PAUSED_LOOK_SECONDS = 60.0
#: How long stopping waits for the deadlines being handled (and the boards for their
#: notices being posted).
STOP_WAIT_SECONDS = 10.0


class Paused(Exception):
    """A game's deadline is not handled now: its server removed the bot, which may be
    added back, or is unavailable at Discord's (nobody there can click meanwhile). It is
    looked at again later."""


class Deadlines:
    """Fires due deadlines through ``fire(game_id)``; one loop for the whole process."""

    def __init__(
        self,
        store: Any,
        fire: Callable[[int], Awaitable[None]],
        clock: Callable[[], float],
        *,
        due: Callable[[float, int], Awaitable[list[tuple[int, float]]]] | None = None,
        following: Callable[[], Awaitable[float | None]] | None = None,
    ) -> None:
        self._fire = fire
        self._clock = clock
        self._due = due or store.due_games
        self._following = following or store.next_deadline
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sleeping_until: float | None = None
        #: Games whose last attempt failed, and when they may be tried again.
        self._retry: dict[int, float] = {}
        #: Whether the last look could not read the store (said once until it can).
        self._unread = False
        #: The batch of due games being handled, if any (stopping lets it finish).
        self._firing: asyncio.Future[None] | None = None
        self.fired = 0

    def wake(self, when: float | None = None) -> None:
        """Tell the loop a deadline at ``when`` was stored (it wakes if that is sooner).

        With no time, the loop looks at once.
        """
        if when is None or self._sleeping_until is None or when < self._sleeping_until:
            self._wake.set()

    def start(self) -> None:
        """Start the loop (once)."""
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="stored-deadlines")

    async def stop(self) -> None:
        """Stop the loop; the deadlines being handled finish first, for up to
        :data:`STOP_WAIT_SECONDS`."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        firing = self._firing
        if firing is not None and not firing.done():
            try:
                await asyncio.wait_for(asyncio.shield(firing), STOP_WAIT_SECONDS)
            except TimeoutError:
                log.warning("stopping while deadlines are still being handled")
                firing.cancel()

    async def run_due(self) -> int:
        """Fire every deadline due now (in batches); return how many games were handled.

        A game still due with the same deadline after being handled waits RETRY_SECONDS,
        so nothing can keep the loop busy.
        """
        handled = 0
        fired: dict[int, float] = {}
        while True:
            now = self._clock()
            due = []
            # Games waiting for their retry are passed over: a batch of failing games
            # does not hide the games due after them.
            for gid, when in await self._due(now, BATCH + len(self._retry)):
                if fired.get(gid) == when:  # (a pause set by the try keeps its length)
                    self._retry[gid] = max(self._retry.get(gid, 0.0), now + RETRY_SECONDS)
                elif self._retry.get(gid, 0.0) <= now:
                    due.append(gid)
                    fired[gid] = when
            if not due:
                return handled
            # Shielded: stopping the loop does not cut a batch off half-way (stop waits).
            self._firing = asyncio.ensure_future(self._fire_all(due))
            await asyncio.shield(self._firing)
            handled += len(due)

    async def _fire_all(self, game_ids: list[int]) -> None:
        gate = asyncio.Semaphore(CONCURRENCY)

        async def one(game_id: int) -> None:
            async with gate:
                try:
                    await self._fire(game_id)
                    self._retry.pop(game_id, None)
                    self.fired += 1
                except Paused:
                    self._retry[game_id] = self._clock() + PAUSED_LOOK_SECONDS
                except StaleBoard:  # saved meanwhile (by another process, in a deploy)
                    log.debug("deadline of game %s was met elsewhere; looking again soon",
                              game_id)
                    self._retry[game_id] = self._clock() + RETRY_SECONDS
                except Unavailable:  # the store says so once per outage
                    log.debug("deadline of game %s waits for the storage; retrying soon",
                             game_id)
                    self._retry[game_id] = self._clock() + RETRY_SECONDS
                except Exception:
                    log.warning("deadline of game %s could not be handled; retrying soon",
                                game_id, exc_info=True)
                    self._retry[game_id] = self._clock() + RETRY_SECONDS

        await asyncio.gather(*(one(gid) for gid in game_ids))

    async def _following_not_retried(self, now: float) -> float | None:
        """Return the earliest deadline within the next idle look of a game not waiting
        for its retry, or None (the loop then sleeps until a retry or its idle look)."""
        try:
            # the retried games stand among the first; one more row reaches past them
            upcoming = await self._due(now + IDLE_LOOK_SECONDS, len(self._retry) + 1)
        except Exception:  # the next look says what went wrong
            log.debug("could not read the next deadline", exc_info=True)
            return now + RETRY_SECONDS
        return next((when for gid, when in upcoming if gid not in self._retry), None)

    async def _run(self) -> None:
        while True:
            # Cleared before the look, so a deadline stored while the loop looks (and
            # perhaps missed by it) wakes the loop's next wait at once.
            self._wake.clear()
            try:
                await self.run_due()
                following = await self._following()
            except StorageError as exc:  # the database may be busy or gone for a while
                if not self._unread:  # said once an outage, not at every look
                    log.warning("could not read stored deadlines (%s); looking again every "
                                "%.0f s", exc, RETRY_SECONDS)
                self._unread = True
                following = self._clock() + RETRY_SECONDS
            except Exception:
                log.warning("could not read stored deadlines; looking again soon", exc_info=True)
                following = self._clock() + RETRY_SECONDS
            else:
                if self._unread:
                    log.info("stored deadlines can be read again")
                self._unread = False
            now = self._clock()
            # A retry time that has passed waits for nothing: the look just made fired
            # the game if it was still due.
            self._retry = {g: t for g, t in self._retry.items() if t > now}
            retry = min(self._retry.values(), default=None)
            if following is not None and following <= now and retry is not None:
                # what is due now is waiting for its retry: the loop sleeps until the
                # next deadline of another game (a paused server's game waits an hour
                # for its server; the vote windows of every other server close on time)
                following = await self._following_not_retried(now)
            candidates = [t for t in (following, retry) if t is not None]
            delay = IDLE_LOOK_SECONDS
            if candidates:
                delay = min(max(min(candidates) - now, 0.0), IDLE_LOOK_SECONDS)
            self._sleeping_until = now + delay
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for may swallow a
                # cancel (stop) that arrives in the step the event is set (a wake).
                async with asyncio.timeout(max(delay, 0.01)):
                    await self._wake.wait()
            except TimeoutError:
                pass
            finally:
                self._sleeping_until = None
