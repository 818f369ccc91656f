"""A start after the bot was down, and what it makes good of that time; the notes of
being alive that tell the next start how long it was.

At a start the bot reads when it was last alive (:class:`bot.alive.AliveNotes`) and keeps
the outage with the recent ones (neither idle time nor turn time), then, in the
background: puts off the running turn timers by it, edits again the boards of the games
saved shortly before it (an edit a stop or a crash left unmade), and, once Discord says
the bot is ready, resumes the computer players and looks for the servers and channels
that went meanwhile (Discord does not say it again). While the bot runs it notes every
:data:`ALIVE_SECONDS` that it is alive, and keeps with the outages the time the database
was out of reach.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import discord

from bot.alive import AliveNotes
from bot.boards.service import Boards
from bot.table import downtime
from bot.table.downtime import Outage
from bot.table.service import Tables
from db.errors import StorageError

log = logging.getLogger(__name__)

#: Why a span of time was not idle or turn time: the store could not be written.
STORE_OUT = "the database was out of reach"

#: How often the running bot notes in the database (``meta``) that it is alive, and at a
#: clean stop once more: the next start knows when the bot was last running (to within
#: this after a crash), every backend alike.
ALIVE_SECONDS = downtime.LOOK_SECONDS

#: At start, the boards of the games (open or ended) saved from this long before the bot
#: was last known alive are edited again (an edit the stop or a crash left unmade, even
#: one Discord refused for a while, then shows): :data:`REDRAW_BATCH` at a time, the
#: newest first. The start of that window is kept in ``meta`` until the redraw is done, so a
#: restart that cuts it short leaves it owed to the next start
#: (:meth:`bot.alive.AliveNotes.owed_redraw`).
REDRAW_MARGIN_SECONDS = 120.0
REDRAW_BATCH = 500
#: An outage shorter than this (two notes of being alive) is not counted: the note read
#: may be another process's that still serves the same shards (a deploy's overlap).
BRIEF_OUTAGE_SECONDS = 2 * ALIVE_SECONDS
#: The first wait before computer players are resumed again after a start whose read
#: of them failed; each later wait is twice as long, up to a minute.
RESUME_RETRY_SECONDS = 5.0


class Restart:
    """This process's start over ``tables`` and ``boards``: the outages it counts, and
    the work it does in the background to make good the time the bot was down."""

    def __init__(self, client: discord.Client, tables: Tables, boards: Boards,
                 alive: AliveNotes, clock: Callable[[], float]) -> None:
        self.client = client
        self.tables = tables
        self.boards = boards
        #: The notes of being alive, in the store.
        self.alive = alive
        self.clock = clock
        #: The recent outages before this start, this one's last, and the times the
        #: store was out of reach since (:mod:`bot.table.downtime`): not idle time.
        self.outages: list[Outage] = []
        #: When the bot was last alive before this start (None: not known).
        self.last_alive: float | None = None
        self._redraw: asyncio.Task[None] | None = None
        self._timers: asyncio.Task[None] | None = None
        self._computers: asyncio.Task[None] | None = None
        #: The looks for what Discord said while the bot was down (one a shard when
        #: sharded): :meth:`look_for_missed`.
        self._missed: set[asyncio.Task[None]] = set()

    async def begin(self) -> None:
        """Count the outage before this start with the recent ones (not one as brief as
        the notes a running process keeps), and start putting off the turn timers by it
        and editing again the boards a stop or a crash may have left behind."""
        last_alive = await self.alive.recall_alive()
        self.last_alive = last_alive
        started = self.clock()
        down = None if last_alive is None else max(0.0, started - last_alive)
        if down is not None and down < BRIEF_OUTAGE_SECONDS:
            # As young as the notes a running process keeps: another process may be
            # serving these shards still (a deploy's overlap), or the restart was
            # quick; either way no turn timer is worth putting off.
            log.info("these shards were last noted alive %.0f s ago: not counted as "
                     "an outage", down)
        counted = None if down is None or down < BRIEF_OUTAGE_SECONDS else last_alive
        self.outages = await self.alive.note_outage(counted, started)
        self.tables.turns.outages = self.outages
        if counted is not None:
            log.info("the bot was down for %.0f s", down)
            self._timers = asyncio.create_task(self._put_off_timers(),
                                               name="timers-put-off")
        since = await self.alive.owed_redraw(
            None if last_alive is None else last_alive - REDRAW_MARGIN_SECONDS)
        if since is not None:
            self._redraw = asyncio.create_task(self._redraw_recent(since),
                                               name="board-redraw")

    async def note_alive(self) -> None:
        """Note that the bot is alive, and keep with the outages the time the store was
        out of reach and the pauses (the process stood still, Discord out of reach); also
        at a stop: the next start counts them."""
        core = self.tables.core
        core.pauses.look(self.clock())
        trouble = core.trouble
        failure = await self.alive.note_alive()
        if failure is None:
            core.storage_worked()
        else:  # the store out of reach: the time counts from its first failure
            core.storage_failed("noting that the bot is alive", failure)
        spans = [(span, STORE_OUT) for span in trouble.take_closed()]
        spans += [(span, "nobody could play (the bot stood still or Discord was out of "
                         "reach)") for span in core.pauses.take()]
        for (start, length), why in spans:
            if length <= 0:
                continue  # one failure, and the next write worked
            if why != STORE_OUT:  # (the store's own end is logged with its length)
                log.info("%s for %.0f s: not counted as idle or turn time", why, length)
            # counted at once, while it is being stored (a deadline may fire meanwhile)
            self.outages = [*self.outages, (start, length)]
            self.tables.turns.outages = self.outages
            kept = await self.alive.note_outage(start, start + length)
            # as many as are stored: those reaching back past every idle cutoff go
            self.outages = downtime.kept([*self.outages, *kept], self.clock(),
                                         self.alive.keep_seconds)
            self.tables.turns.outages = self.outages

    async def _put_off_timers(self) -> None:
        """Move the running turn timers later by the outage before this start (see
        :meth:`bot.boards.service.Boards.put_off_timers`)."""
        try:
            moved = await self.boards.put_off_timers()
        except StorageError as exc:
            log.warning("could not read the tables whose turn timers the stop held: %s", exc)
            return
        if moved:
            log.info("turn timers of %d tables put off by the time the bot was down", moved)

    async def _redraw_recent(self, since: float) -> None:
        """Edit again the boards of the games saved since ``since`` (see
        :meth:`bot.boards.service.Boards.redraw_recent`); once all are seen to, the
        redraw is no longer owed (:meth:`bot.alive.AliveNotes.owed_redraw`)."""
        try:
            redrawn = await self.boards.redraw_recent(since, REDRAW_BATCH)
        except StorageError as exc:
            log.warning("could not read the games to show again after the start: %s", exc)
            return
        if redrawn is None:
            return  # cut short by the stop: still owed to the next start
        if redrawn:
            log.info("boards of %d recently changed games shown again", redrawn)
        await self.alive.redraw_done()

    def resume_computers(self) -> None:
        """Start letting computer players move wherever one is to act after the start, in
        the background (see :meth:`bot.boards.service.Boards.resume_computers`)."""
        self._computers = asyncio.create_task(self._resume_computers(),
                                              name="computers-resume")

    async def _resume_computers(self) -> None:
        """Resume the computer players; while the database cannot be read, try again, at
        most a minute apart."""
        pause = RESUME_RETRY_SECONDS
        while not self.tables.closing:
            try:
                resumed = await self.boards.resume_computers()
            except StorageError as exc:
                log.warning("could not resume computer players (trying again in %.0f s): %s",
                            pause, exc)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 60.0)
                continue
            if resumed:
                log.info("computer players resumed in %d games", resumed)
            return

    def look_for_missed(self, shards: tuple[tuple[int, ...], int] | None, *,
                        lost_at: float | None = None) -> None:
        """Start looking for the servers and channels of ``shards`` (None: all) that went
        while the bot was down (:meth:`bot.boards.gone.GonePlaces.missed_while_down`), in
        the background: Discord does not say it again. ``lost_at``: after a later READY
        (Discord replaced the gateway session, lost at that time, so what it said since is
        lost too), every open game's server and channel is looked at."""
        task = asyncio.create_task(self._find_missed(shards, lost_at), name="missed-while-down")
        self._missed.add(task)
        task.add_done_callback(self._missed.discard)

    async def _find_missed(self, shards: tuple[tuple[int, ...], int] | None,
                           lost_at: float | None) -> None:
        """Look for what went while the bot was down (or its session lost, at
        ``lost_at``); while the database cannot be read, try again, at most a minute
        apart. Nothing it raises ends more than the look."""
        pause = RESUME_RETRY_SECONDS
        since = self.last_alive if lost_at is None else lost_at
        while not self.tables.closing:
            try:
                await self.boards.messages.gone.missed_while_down(
                    self.client, shards, since, every=lost_at is not None)
            except StorageError as exc:
                log.warning("could not read the servers of the open games at the start "
                            "(trying again in %.0f s): %s", pause, exc)
                await asyncio.sleep(pause)
                pause = min(2 * pause, 60.0)
                continue
            except Exception:
                log.exception("could not look for the servers and channels that went "
                              "while the bot was down")
            return

    async def stop(self) -> None:
        """At shutdown: cancel the start's work still running, and wait for the looks for
        what went while the bot was down to end."""
        missed = list(self._missed)
        for starting in (self._redraw, self._timers, self._computers, *missed):
            if starting is not None:
                starting.cancel()
        await asyncio.gather(*missed, return_exceptions=True)
