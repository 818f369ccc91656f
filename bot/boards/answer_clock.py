"""The answer clock: a click is acknowledged before Discord gives up on it.

Discord fails an interaction that gets no first response within 3 seconds, even when
its move was saved. A click is slow for many reasons: a locked or slow database, a
board picture drawn while a thousand other clicks queue for the same process. The
clock starts when the click arrives and runs until its answer leaves; if it rings
first (after ``ANSWER_WITHIN`` seconds), the click is acknowledged with a deferred
update and its answer becomes an edit of the original message.

One timer handle per click in flight (``loop.call_later``), never a sleeping task.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.boards.send_errors import SEND_ERRORS

log = logging.getLogger(__name__)

#: Seconds a click may take before its answer is deferred (Discord allows 3).
ANSWER_WITHIN = 2.0


class AnswerClock:
    """Defers ``interaction`` if it is still unanswered ``within`` seconds from now."""

    def __init__(self, interaction: discord.Interaction[Any], game_id: int,
                 within: float | None = None) -> None:
        self.interaction = interaction
        self.game_id = game_id
        self._deferring: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(
            ANSWER_WITHIN if within is None else within, self._ring
        )

    def _ring(self) -> None:
        self._deferring = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        """Acknowledge the slow click (a deferred update); never raise."""
        if self.interaction.response.is_done():
            return
        try:
            await self.interaction.response.defer()
        except SEND_ERRORS as exc:
            log.warning("could not defer a slow click on game %s: %r", self.game_id, exc)

    async def settle(self) -> None:
        """Stop the clock just before the click is answered.

        Afterwards the interaction is either unanswered (answer it directly) or
        acknowledged (answer it through its webhook); never half-way between.
        """
        self._timer.cancel()
        if self._deferring is not None:
            await self._deferring

    def stop(self) -> None:
        """Stop the clock without waiting (the click is finished, one way or another)."""
        self._timer.cancel()
