"""The idle sweep's policy: open games idle past their group's cutoff (a lobby, a one-seat
game, a seated table) end as expired, a bounded batch at a time; a seated table whose
person to act let a computer play on counts as their loss."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.table import polls
from bot.table.abandoning import left_seats
from bot.table.core import TableCore
from bot.table.errors import Refusal
from bot.table.loaded import LoadedGame
from db.errors import StorageError
from db.rows import Shards
from db.sweep import groups, idle_batches

log = logging.getLogger(__name__)


class IdleExpiry:
    """Ends idle games, over the shared :class:`TableCore`."""

    def __init__(self, core: TableCore, waiting: Callable[[int | None], bool]) -> None:
        self.core = core
        #: Whether a server's games wait, never idle: it removed the bot, within its
        #: grace, or Discord reports it unavailable (nobody there can click; once the
        #: bot is back there, they go on).
        self.waiting = waiting

    async def expire_idle(
        self, cutoffs: dict[str, float], ended: Callable[[LoadedGame], Awaitable[None]], *,
        shards: Shards | None = None,
    ) -> int:
        """End every open game idle past its cutoff, a bounded batch at a time and a few
        of a batch at once (:data:`db.sweep.AT_ONCE`), handing each ended game to
        ``ended`` (its board is edited) before the next are read; return how many were
        ended (``shards``: only the games of this process's shards). Nothing of a
        finished batch is kept."""
        count = 0
        try:
            async for ids in idle_batches(self.core.store, cutoffs, shards=shards):
                for group in groups(ids):
                    for game in await asyncio.gather(*(self.expire(i, cutoffs)
                                                       for i in group)):
                        if game is not None:
                            await ended(game)
                            count += 1
        except StorageError as exc:
            log.warning("sweeper could not read games: %s", exc)
        return count

    async def expire(self, game_id: int, cutoffs: dict[str, float]) -> LoadedGame | None:
        """End one game if it is still idle past its group's cutoff; None if not."""
        try:
            async with self.core.hold(game_id):
                game = await self.core.load(game_id)
                group = "lobby" if game.row.status == "lobby" else (
                    "solo" if len(game.seats) <= 1 else "multi")
                if (not game.row.is_open or game.row.updated_at >= cutoffs[group]
                        or self.waiting(game.row.guild_id)):
                    return None
                event = "The game was idle too long and ended."
                left: set[int] = set()
                if self.core.left_to_computers(game):
                    stalled = game.person_to_act()
                    left = left_seats(game, [stalled] if stalled is not None else [])
                    seat = game.seat_of(stalled) if stalled is not None else None
                    if seat is not None:
                        name = game.seat_name(seat)
                        event = (f"The game was idle too long and ended: {name}'s turn "
                                 "waited, so it counts as their loss (a computer plays here).")
                        absent = await self.core.no_part(game, None)
                        if seat in absent:  # (close gives those who never came nothing)
                            event = _never_came(game, name, sorted(left - absent))
                return await self.core.close(game, "expired", event, None, forfeit=left)
        except Refusal as refusal:
            log.warning("sweeper could not end game %s: %s", game_id, refusal)
            return None
        except Exception:  # one game's fault (damaged data) never stops the sweep
            log.warning("sweeper could not end game %s", game_id, exc_info=True)
            return None


def _never_came(game: LoadedGame, name: str, others: list[int]) -> str:
    """Return how a table left idle on the turn of ``name``, who never came to it, ended:
    it counts for nobody but ``others`` (seats of people who played and then resigned
    or walked away: their loss, as a computer plays here)."""
    waited = f"The game was idle too long and ended: it waited for {name}, who never came"
    if not others:
        return f"{waited} to this table, so it counts for nobody."
    lost = polls.join_names(game.seat_name(i) for i in others)
    return (f"{waited} to this table; it counts only as a loss for {lost}, who left it "
            "(a computer plays here).")
