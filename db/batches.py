"""Group commit, the part both stores share: writes queue up while one batch is out.

A caller submits one write and waits for its own outcome. The first write starts a
flusher task; it takes the queued writes as a batch, hands the batch to the store's
:meth:`Batcher.run_batch`, and goes on while more arrived meanwhile. One flusher per
store, never a task per write: under a burst the batches grow, alone a write goes alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

_Item = TypeVar("_Item")


class Batcher(Generic[_Item]):
    """A queue of writes sent in batches, in order; see the module's docstring."""

    #: At most this many writes go in one batch (a bound on how long one batch holds the
    #: database, and so on the wait of the first write of the next).
    max_batch = 256

    def __init__(self) -> None:
        self._pending: list[tuple[_Item, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        #: How many batches went and how many writes they held (tests, benchmarks).
        self.batches = 0
        self.writes = 0

    async def submit(self, item: _Item) -> Any:
        """Queue ``item``; return its outcome once the batch holding it is committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._flusher is None:
            self._flusher = asyncio.ensure_future(self._flush())
        return await future

    def next_batch(self) -> list[tuple[_Item, asyncio.Future[Any]]]:
        """Take the writes that go next (the oldest, ``max_batch`` at most)."""
        batch = self._pending[:self.max_batch]
        self._pending = self._pending[self.max_batch:]
        return batch

    async def _flush(self) -> None:
        """Send queued writes, a batch at a time, until none is left."""
        try:
            while self._pending:
                batch = self.next_batch()
                await self.run_batch(batch)
                self.batches += 1
                self.writes += len(batch)
        finally:
            self._flusher = None
            if self._pending:  # queued while the last batch was being answered
                self._flusher = asyncio.ensure_future(self._flush())

    async def run_batch(self, batch: Sequence[tuple[_Item, asyncio.Future[Any]]]) -> None:
        """Write ``batch`` and settle every one of its futures, whatever happens."""
        raise NotImplementedError


def settle(future: asyncio.Future[Any], outcome: Any = None,
           error: BaseException | None = None) -> None:
    """Give a caller its outcome (or error), unless it stopped waiting (cancelled)."""
    if future.done():  # its caller was cancelled: the write stands all the same
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(outcome)


def give_up(batch: Sequence[tuple[Any, asyncio.Future[Any]]], exc: BaseException) -> None:
    """Settle every caller of a batch that failed as a whole with ``exc``.

    An error is passed on; the flusher's own cancellation (the bot stopping) cancels them.
    """
    for _, future in batch:
        if future.done():
            continue
        if isinstance(exc, Exception):
            future.set_exception(exc)
        else:
            future.cancel()
