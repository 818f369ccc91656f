"""The answer clock: an interaction is acknowledged before Discord gives up on it.

Discord fails an interaction that gets no first response within 3 seconds, even when
what it asked for was saved. Anything that waits on the database or on Discord before
answering is slow at times: a locked or slow database, a board picture drawn while a
thousand other clicks queue for the same process, a rate limit. So every such
interaction (a move, a confirmation button, a command) runs a clock from the moment it
arrives until its answer leaves; if the clock rings first (after ``ANSWER_WITHIN``
seconds), the interaction is acknowledged: a click with a deferred update, a command
with Discord's "thinking…" (private when its answer will be), and the answer then goes
through the interaction's webhook (:meth:`AnswerClock.send`, :meth:`AnswerClock.edit`,
:meth:`AnswerClock.tell` choose the way).

One clock per interaction, kept in its ``extras``: a part that answers the same
interaction (starting a game from a command that first looked for a lobby) runs on the
clock already started (:meth:`AnswerClock.of`), never on a second one. One timer handle
per clock (``loop.call_later``), never a sleeping task.
"""

from __future__ import annotations

import asyncio
import logging
from types import TracebackType
from typing import Any

import discord

from bot.boards.send_errors import SEND_ERRORS, send_answer, taken_after_all, tell_privately

log = logging.getLogger(__name__)

#: Seconds an interaction may take before its answer is deferred (Discord allows 3).
ANSWER_WITHIN = 2.0

#: Where an interaction keeps its clock.
_EXTRAS_KEY = "answer_clock"


class AnswerClock:
    """Defers ``interaction`` if it is still unanswered ``within`` seconds from now.

    ``game_id`` names the game in logs. ``private`` defers a command as a private
    "thinking…": only for a command whose every answer is private, since the first
    follow-up takes the deferral's place (a click's deferral is never seen).
    """

    def __init__(self, interaction: discord.Interaction[Any], game_id: int = 0,
                 within: float | None = None, *, private: bool = False) -> None:
        self.interaction = interaction
        self.game_id = game_id
        self.private = private
        self._deferring: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(
            ANSWER_WITHIN if within is None else within, self._ring
        )
        interaction.extras[_EXTRAS_KEY] = self

    @classmethod
    def of(cls, interaction: discord.Interaction[Any], game_id: int = 0, *,
           private: bool = False) -> AnswerClock:
        """Return the clock running for ``interaction``, or start one (see the class)."""
        running = interaction.extras.get(_EXTRAS_KEY)
        if isinstance(running, AnswerClock):
            return running
        return cls(interaction, game_id, private=private)

    async def __aenter__(self) -> AnswerClock:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, error: BaseException | None,
                        trace: TracebackType | None) -> None:
        # Whatever answers next (a refusal raised out of the block) finds the
        # interaction settled, never with a deferral still on its way.
        await self.settle()

    def _ring(self) -> None:
        self._deferring = asyncio.ensure_future(self._defer())

    async def _defer(self) -> None:
        """Acknowledge the slow interaction (a deferral); never raise."""
        if self.interaction.response.is_done():
            return
        try:
            await self.interaction.response.defer(ephemeral=self.private)
        except SEND_ERRORS as exc:
            if taken_after_all(self.interaction, exc, _deferral(self.interaction)):
                log.info("a slow interaction on game %s was deferred after all", self.game_id)
                return
            log.warning("could not defer a slow interaction on game %s: %r", self.game_id, exc)

    async def settle(self) -> None:
        """Stop the clock just before the interaction is answered.

        Afterwards the interaction is either unanswered (answer it directly) or
        acknowledged (answer it through its webhook); never half-way between.
        """
        self._timer.cancel()
        if self._deferring is not None:
            await self._deferring

    def stop(self) -> None:
        """Stop the clock without waiting (the interaction is finished, one way or another)."""
        self._timer.cancel()

    async def send(self, **body: Any) -> None:
        """Answer with a new message (``ephemeral=True``: a private one); may raise one
        of :data:`SEND_ERRORS`."""
        await self.settle()
        await send_answer(self.interaction, **body)

    async def edit(self, **body: Any) -> None:
        """Answer a click by editing the message clicked; may raise one of
        :data:`SEND_ERRORS`."""
        await self.settle()
        await edit_answer(self.interaction, **body)

    async def tell(self, text: str) -> None:
        """Answer with a private line; a failure to send is logged, never raised."""
        await self.settle()
        await tell_privately(self.interaction, text)


def _deferral(interaction: discord.Interaction[Any]) -> discord.InteractionResponseType:
    """Return the kind of response a deferral of ``interaction`` is, as discord.py defers
    it: a command's "thinking…", a click's or a form's update."""
    if interaction.type in (discord.InteractionType.component,
                            discord.InteractionType.modal_submit):
        return discord.InteractionResponseType.deferred_message_update
    return discord.InteractionResponseType.deferred_channel_message


async def edit_answer(interaction: discord.Interaction[Any], **body: Any) -> None:
    """Answer a click by editing its message (after a deferral, through the webhook)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**body)
    else:
        await interaction.response.edit_message(**body)
