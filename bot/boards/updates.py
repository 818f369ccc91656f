"""The edits the bot makes of boards by itself, with no click to answer.

Votes, closed voting windows and computer players change a board with no click to
answer: those edits are made at most once an interval per board, however the changes
arrive (:meth:`BoardUpdates.update_soon`), and at most :data:`MAX_UPDATING` boards at
once, the others waiting their turn. Such an edit that Discord refuses for a while (a
rate limit longer than the client waits, a server error, a 403) is made again: after the
wait Discord asks for, else after a pause that doubles each time, a few times at most,
and not at all once a newer board is shown.

At a clean stop the edits already asked for are made at once, without waiting for their
interval, for up to :data:`FLUSH_SECONDS` (:meth:`BoardUpdates.stop`). What a stop or a
crash still left undone is made after the next start: the boards of the games saved
shortly before the bot was last alive are edited again (:meth:`BoardUpdates.redraw`,
asked by :meth:`bot.boards.service.Boards.redraw_recent`), posting no board.

Each edit itself is :meth:`bot.boards.messages.BoardMessages.refresh`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import TYPE_CHECKING

import discord

from bot.boards.threads import refused_access
from bot.table.errors import Refusal, Unavailable
from bot.table.service import LoadedGame

if TYPE_CHECKING:
    from bot.boards.messages import BoardMessages

log = logging.getLogger(__name__)

#: How many boards' last edit times are kept before the old ones are forgotten.
EDITED_KEPT = 1000

#: How many times in a row the bot tries one of its own edits of a board that Discord
#: refuses (the first try included) before it leaves the board as it is.
EDIT_TRIES = 5

#: How long a clean stop waits for the board edits already asked for (seconds).
FLUSH_SECONDS = 5.0

#: Boards edited again at once after a start (:meth:`BoardUpdates.redraw`).
REDRAW_AT_ONCE = 10
#: The most boards the bot edits by itself at once (see ``BoardUpdates.update_soon``).
MAX_UPDATING = 64


class BoardUpdates:
    """The bot's own edits of the boards of ``messages``, one at a time per board."""

    def __init__(self, messages: BoardMessages) -> None:
        #: The board messages whose boards are edited (:meth:`BoardMessages.refresh`),
        #: and what they know of the version each board shows.
        self.messages = messages
        #: When the bot last edited each board by itself (monotonic seconds), and which
        #: save of the game that edit showed (:func:`_saved`).
        self._edited: dict[int, float] = {}
        self._drawn: dict[int, tuple[int, float]] = {}
        #: Boards waiting for an edit (votes, closed windows), and the task editing each;
        #: boards whose last such edit Discord refused, to be tried again.
        self._dirty: set[int] = set()
        self._retrying: set[int] = set()
        #: Games whose board was left unedited because the game could not be read (a
        #: start's redraw of them stays owed).
        self._unread: set[int] = set()
        #: Boards whose edit asked for is only the start's redraw's (posts no board).
        self._quiet: set[int] = set()
        self._latest: dict[int, LoadedGame] = {}
        self._updaters: dict[int, asyncio.Task[None]] = {}
        #: The most boards edited by the bot itself at once (each edit waits on Discord's
        #: rate limits); the boards asked for beyond them wait here, in order, holding
        #: only their ids (the game is read again when its turn comes).
        self.max_updating = MAX_UPDATING
        self._waiting: dict[int, None] = {}
        #: Pause between two edits of one board made by the bot itself (not a click's
        #: answer).
        self.edit_interval = 1.0
        #: Set when a clean stop makes the edits asked for at once (no interval to wait).
        self._flush = asyncio.Event()
        #: Set once the stop is done with edits: none is asked for after it.
        self._stopped = False

    def forget(self, game_id: int) -> None:
        """Forget the edits asked for of a game whose board is gone with its channel."""
        self._dirty.discard(game_id)
        self._waiting.pop(game_id, None)
        self._retrying.discard(game_id)
        self._quiet.discard(game_id)
        self._latest.pop(game_id, None)

    def update_soon(self, game_id: int, game: LoadedGame | None = None, *,
                    repost: bool = True) -> None:
        """Edit the game's board soon; edits asked for meanwhile are made as one.

        Votes and closed windows change a board without a click to answer: at most one
        edit per board is in flight, and a burst of votes costs one or two edits.
        ``game`` is the game as just saved, which spares reading it again; of two such
        asks answered out of the order they were saved in (votes leave the version as it
        is), the one saved last is drawn. Without ``repost`` (the start's redraw) the
        edit posts no board (see :meth:`BoardMessages.refresh`), unless an ordinary ask
        joins it. After :meth:`stop` nothing is edited (the next start edits the boards
        of the games saved just before the stop).
        """
        if self._stopped:
            return
        if repost:
            self._quiet.discard(game_id)
        elif game_id not in self._dirty:
            self._quiet.add(game_id)
        if game is not None:
            held = self._latest.get(game_id)
            if held is None or _saved(held) <= _saved(game):
                self._latest[game_id] = game
        else:
            self._latest.pop(game_id, None)
        self._dirty.add(game_id)
        task = self._updaters.get(game_id)
        if task is not None and not task.done():
            return
        if len(self._updaters) >= self.max_updating:
            self._waiting[game_id] = None
            self._latest.pop(game_id, None)
            return
        self._start_update(game_id)

    def _start_update(self, game_id: int) -> None:
        """Start the task that edits the game's board."""
        self._updaters[game_id] = asyncio.create_task(
            self._update(game_id), name=f"board-update-{game_id}")

    def _next_waiting(self) -> None:
        """Start the edits of boards waiting for their turn, while there is room."""
        while self._waiting and len(self._updaters) < self.max_updating and not self._stopped:
            game_id = next(iter(self._waiting))
            del self._waiting[game_id]
            if game_id not in self._updaters and game_id in self._dirty:
                self._start_update(game_id)

    async def _update(self, game_id: int) -> None:
        """Edit the game's board while edits of it are asked for (or a refused one is to
        be made again), at most once an interval; then start a board waiting its turn."""
        messages = self.messages
        tries = 0  # edits of this board Discord refused in a row
        retry_at = -math.inf
        repost = True  # False while the edit made is only the start's redraw's
        try:
            # Closing does not stop it: the edits asked for before the stop are made
            # (stop waits for them, and no longer than FLUSH_SECONDS).
            while game_id in self._dirty or game_id in self._retrying:
                # However votes arrive, the bot edits one board at most once an interval
                # (but at a clean stop, which makes what was asked for at once).
                wait = max(self._edited.get(game_id, -math.inf) + self.edit_interval,
                           retry_at) - time.monotonic()
                if wait > 0 and not self._flush.is_set():
                    with contextlib.suppress(TimeoutError):
                        async with asyncio.timeout(wait):
                            await self._flush.wait()
                asked = game_id in self._dirty  # else only a refused edit is made again
                if not asked and (game_id not in self._retrying or self._flush.is_set()):
                    break  # forgotten meanwhile (its channel is gone), or stopping
                if asked:
                    repost = game_id not in self._quiet
                    self._quiet.discard(game_id)
                self._dirty.discard(game_id)
                self._retrying.discard(game_id)
                game = self._latest.pop(game_id, None)
                if game is None:
                    try:
                        game = await messages.tables.load(game_id)
                    except Unavailable:  # the database is out of reach: read again later
                        tries += 1
                        if tries >= EDIT_TRIES:
                            log.warning("gave up reading game %s to edit its board", game_id)
                            self._unread.add(game_id)
                            return
                        retry_at = time.monotonic() + self.edit_interval * 2 ** tries
                        if asked:  # still asked for, as it was (a board of the same
                            self._dirty.add(game_id)  # version too: a vote's tally)
                            if not repost:
                                self._quiet.add(game_id)
                        else:
                            self._retrying.add(game_id)
                        continue
                    except Refusal:  # gone, or damaged: nothing to show
                        return
                self._unread.discard(game_id)
                shown = messages.shown.get(game_id, -1)
                if messages.behind(game) or _saved(game) < self._drawn.get(
                        game_id, (-1, -math.inf)) or (not asked and shown == game.row.version):
                    continue  # a newer board is already shown (since the edit refused)
                failed = await messages.refresh(game, keep=shown == game.row.version,
                                                repost=repost)
                self._edited[game_id] = time.monotonic()
                if failed is None:
                    self._drawn[game_id] = _saved(game)
                    tries = 0
                    if self._waiting and game_id in self._dirty:
                        # Asked for again while other boards wait their turn: this one
                        # waits behind them rather than keeping its place for ever.
                        self._waiting[game_id] = None
                        return
                    continue
                tries += 1
                pause = self._refused(game, failed, tries)
                if pause is not None:
                    retry_at = time.monotonic() + pause
                    self._retrying.add(game_id)
                else:
                    messages.let_go(game)  # given up
        except Exception:
            log.warning("could not update the board of game %s", game_id, exc_info=True)
        finally:
            self._updaters.pop(game_id, None)
            self._latest.pop(game_id, None)
            self._retrying.discard(game_id)
            self._next_waiting()
            if len(self._edited) > EDITED_KEPT:  # forget boards edited long ago
                horizon = time.monotonic() - self.edit_interval
                for old in [g for g, at in self._edited.items() if at < horizon]:
                    del self._edited[old]
                    self._drawn.pop(old, None)

    def _refused(self, game: LoadedGame, failed: BaseException, tries: int) -> float | None:
        """Note that Discord refused the bot's own edit of ``game``'s board ``tries`` times
        in a row; return how long to wait before it is made again, or None when it is not:
        a refusal that trying again cannot change, or :data:`EDIT_TRIES` made (logged).
        The wait is what Discord asked for, and at least an edit interval doubled per try.
        """
        if self.messages.shown.get(game.id, -1) <= game.row.version:
            # Not shown after all (a vote's tally keeps the version): the edit made again
            # is not taken for one already made.
            self.messages.shown.pop(game.id, None)
        if refused_access(failed):
            # shut out of the channel: trying again in seconds changes nothing; a click
            # shows the board meanwhile, and the next edit asked for tries again
            self.messages.locked_out.setdefault(game.id, False)
            return None
        if isinstance(failed, discord.HTTPException) and not (
                failed.status in (403, 429) or failed.status >= 500):
            return None
        if tries >= EDIT_TRIES:
            log.warning("gave up editing the board of game %s after %d tries: %s", game.id,
                        tries, failed)
            return None
        wanted = failed.retry_after if isinstance(failed, discord.RateLimited) else 0.0
        return max(wanted, self.edit_interval * 2 ** tries)

    async def redraw(self, game_ids: list[int]) -> bool:
        """Edit the boards of ``game_ids`` again, each as its game is stored now: after a
        start, for the games whose last edit a stop or a crash may have left unmade.
        Return whether every board was seen to (False when the stop came first).

        The edits go the way of every edit the bot makes by itself
        (:meth:`update_soon`: one at a time per board, at most once an interval, never
        over a newer board), :data:`REDRAW_AT_ONCE` boards at a time. They post no
        board (see :meth:`BoardMessages.refresh` without ``repost``): a board deleted or
        past its edit limit is left as it is, and a message no longer its game's board is
        not edited. A game that could not be read, however often tried, leaves the
        redraw unfinished (False).
        """
        seen_to = True
        for start in range(0, len(game_ids), REDRAW_AT_ONCE):
            batch = game_ids[start:start + REDRAW_AT_ONCE]
            for game_id in batch:
                self.update_soon(game_id, repost=False)
                if game_id in self._waiting:  # the redraw keeps to its own batches
                    del self._waiting[game_id]
                    self._start_update(game_id)
            tasks = [t for g in batch if (t := self._updaters.get(g)) is not None]
            if tasks:
                await asyncio.wait(tasks)
            if self._stopped:
                return False
            seen_to = seen_to and not self._unread.intersection(batch)
        return seen_to

    async def stop(self, timeout: float = FLUSH_SECONDS) -> None:
        """At shutdown: make the board edits already asked for now, without waiting for
        their interval (a refused edit is not tried again), for up to ``timeout``
        seconds; cancel what is left then. Nothing is edited afterwards."""
        self._flush.set()
        loop = asyncio.get_running_loop()
        until = loop.time() + timeout
        # A finished edit starts one that waited for its turn: wait for those too.
        while self._updaters and (left := until - loop.time()) > 0:
            await asyncio.wait(list(self._updaters.values()), timeout=left)
        if self._updaters or self._waiting:
            log.warning("stopping with %d board edits not made",
                        len(self._updaters) + len(self._waiting))
        self._stopped = True
        self._waiting.clear()
        tasks = list(self._updaters.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _saved(game: LoadedGame) -> tuple[int, float]:
    """When ``game`` was saved, in the order of its saves: its version, then the save's
    time (which every save moves forward)."""
    return game.row.version, game.row.updated_at
