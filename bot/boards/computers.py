"""Computer players (and away seats) moving on their own: one task per table whose turn
is a computer's, through the same table as people, after a short pause each move."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from bot.table.errors import Refusal, StaleBoard, Unavailable
from bot.table.loaded import LoadedGame, Play
from bot.table.service import Tables
from db.errors import StorageError

log = logging.getLogger(__name__)

#: Tries of a computer's move that meets a busy database before a warning is logged, the
#: first wait between them and the longest: a computer never gives up while it is to act.
COMPUTER_RETRIES = 5
COMPUTER_RETRY_SECONDS = 1.0
COMPUTER_RETRY_MAX_SECONDS = 60.0
#: How many times an hour computer players that died of an unexpected error are started
#: again (an error that kills every one of them does not restart them for ever).
COMPUTER_RESTARTS = 100


class ComputerPlayers:
    """Moves every table's computer players in the background."""

    def __init__(self, tables: Tables, delay: float,
                 moved: Callable[[Play], Awaitable[None]]) -> None:
        self.tables = tables
        #: Pause before each computer move (COMPUTER_DELAY_SECONDS).
        self.delay = delay
        #: What the boards do after each computer move (edit the board, notices).
        self.moved = moved
        self._computers: dict[int, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        #: Restarts made in the hour that began at the first of them (monotonic time).
        self._restarts = (0.0, 0)

    async def wake(self, game_id: int) -> None:
        """Make sure a computer player whose turn it is gets moving (after a hiccup)."""
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return
        self.schedule(game)

    def schedule(self, game: LoadedGame) -> None:
        """Start moving computer players of ``game`` if one is to act."""
        if not game.row.is_open or game.broken or not game.computer_to_act():
            return
        task = self._computers.get(game.id)
        if task is not None and not task.done():
            return
        self._computers[game.id] = asyncio.create_task(
            self._run(game.id), name=f"computer-players-{game.id}"
        )

    async def _run(self, game_id: int) -> None:
        failures = 0
        try:
            while not self.tables.closing:
                wait = COMPUTER_RETRY_SECONDS * (2 ** min(failures, 16) - 1)
                await asyncio.sleep(self.delay + min(wait, COMPUTER_RETRY_MAX_SECONDS))
                try:
                    play = await self.tables.computer_move(game_id)
                except (Unavailable, StaleBoard) as refusal:
                    # The database may be down for minutes: the computer tries again, at
                    # most a minute apart, for as long as it is to act.
                    failures += 1
                    if failures == COMPUTER_RETRIES:
                        log.warning("computer player in game %s cannot move yet (%s); it "
                                    "tries again every minute at most", game_id, refusal)
                    continue
                except Refusal as refusal:
                    log.warning("computer player in game %s stopped: %s", game_id, refusal)
                    return
                failures = 0
                if play is None:
                    return
                await self.moved(play)
        except Exception:
            log.exception("computer player in game %s failed; it starts again shortly", game_id)
            self._computers.pop(game_id, None)
            if not self.tables.closing:
                self._restart(game_id)
        finally:
            if self._computers.get(game_id) is asyncio.current_task():
                self._computers.pop(game_id, None)

    def _restart(self, game_id: int) -> None:
        """Start a computer player again a little later, after it died of an error."""
        async def later() -> None:
            await asyncio.sleep(COMPUTER_RETRY_SECONDS * 5)
            await self.wake(game_id)

        now = time.monotonic()
        began, made = self._restarts
        if now - began > 3600:
            began, made = now, 0
        self._restarts = (began, made + 1)
        if made < COMPUTER_RESTARTS:
            task = asyncio.create_task(later(), name=f"computer-restart-{game_id}")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def resume(self, since: float | None = None) -> int:
        """After a restart, let computer players move wherever one is to act; return how
        many (with ``since``, only in games saved at or after it).

        Only running games with a computer player or an away seat are read (one query
        picks them, :meth:`db.base.GameStore.computer_seated_ids`), the most recently
        saved first: that is where a computer's turn left pending by the stop is. Raise
        StorageError when a game could not be read (after scheduling the others), so
        that the resume is tried again. A game whose computer moves here already is
        left to it.
        """
        resumed = 0
        unread: list[int] = []
        for game_id in await self.tables.store.computer_seated_ids(shards=self.tables.shards,
                                                                   since=since):
            task = self._computers.get(game_id)
            if task is not None and not task.done():
                continue
            try:
                game = await self.tables.load(game_id)
            except Unavailable:
                unread.append(game_id)
                continue
            except Refusal:  # damaged, or gone: nothing to move
                continue
            if game.computer_to_act():
                self.schedule(game)
                resumed += 1
        if unread:  # the whole resume is tried again (those scheduled are not twice)
            raise StorageError(f"could not read {len(unread)} games with computer players")
        return resumed

    async def stop(self) -> None:
        """Cancel computer players' pending moves (at shutdown)."""
        tasks = [*self._computers.values(), *self._background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
