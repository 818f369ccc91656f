"""Walking the idle open games a bounded batch at a time (the sweeper's side of the store).

:func:`idle_batches` pages through :meth:`~db.base.GameStore.idle_games` by id (keyset
pagination: each batch starts after the last id of the one before), so a sweep of
100,000 due games never asks the database for more than one batch, and holds nothing of
a batch once the next is asked for: only ids travel.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from db.base import GameStore
from db.rows import Shards

#: Ids per batch: enough to keep the database busy, few enough that ending a batch's
#: games at once (each loaded, ended, saved) holds a few megabytes at most.
BATCH = 100

#: Games of a batch ended at once: their reads and saves still share the database's
#: round trips, and the loop's own work when they come back (decoding, encoding each
#: game) stays a few milliseconds, however busy the machine is.
AT_ONCE = 10


def groups(ids: list[int], size: int = AT_ONCE) -> list[list[int]]:
    """Return ``ids`` cut in runs of at most ``size``, in order."""
    return [ids[i:i + size] for i in range(0, len(ids), size)]


async def idle_batches(
    store: GameStore, cutoffs: dict[str, float], *, size: int = BATCH,
    shards: Shards | None = None,
) -> AsyncIterator[list[int]]:
    """Yield the ids of open games idle past their group's cutoff, ascending, at most
    ``size`` at a time; the next batch is read only when the caller asks for it."""
    after = 0
    while batch := await store.idle_games(cutoffs, limit=size, after_id=after, shards=shards):
        yield batch
        after = batch[-1]
