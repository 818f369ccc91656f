"""What a request to Discord may fail with, handled alike wherever the bot sends, and
the one way the bot answers with a new message (privately or not)."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord

#: An HTTP error, a rate limit longer than the client waits (``max_ratelimit_timeout``),
#: or the transport itself (a reset connection, a timeout, an answer that is not JSON).
SEND_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError,
    ValueError,
)

log = logging.getLogger(__name__)

#: How a private question says that nothing happens without an answer.
DISMISS = "Dismiss this message to keep playing."


async def send_answer(interaction: discord.Interaction[Any], **body: Any) -> None:
    """Answer ``interaction`` with a new message (``ephemeral=True``: a private one): its
    first response, or a follow-up once it was answered or deferred. May raise one of
    :data:`SEND_ERRORS`."""
    if not interaction.response.is_done():
        await interaction.response.send_message(**body)
        return
    if body.get("ephemeral"):
        await _drop_public_wait(interaction)
    await interaction.followup.send(**body)


#: Discord's codes for an interaction it no longer knows (its 3 s or 15 min are over).
UNKNOWN_INTERACTION = frozenset({10062, 10015})
#: Discord's code for an interaction answered already.
ALREADY_ANSWERED = 40060
#: Discord's codes for a member not in the server, and a user it does not know.
UNKNOWN_MEMBER = 10007
UNKNOWN_USER = 10013


def answer_lost(error: BaseException) -> bool:
    """Whether ``error``, refusing an interaction's answer, says no other answer can go:
    Discord no longer knows the interaction, or it was answered already."""
    return isinstance(error, discord.HTTPException) and (
        error.code in UNKNOWN_INTERACTION or error.code == ALREADY_ANSWERED)


def taken_after_all(interaction: discord.Interaction[Any], error: BaseException,
                    kind: discord.InteractionResponseType) -> bool:
    """Whether ``error``, refusing ``interaction``'s first response (of ``kind``), says
    that response was taken after all: Discord took it but failed its answer (a 5xx),
    discord.py sent it again, and Discord answered that the interaction is answered
    already (40060). The interaction is then marked answered with ``kind``, as a
    response that went well marks it, so what follows goes through its webhook."""
    if not answered_already(interaction, error):
        return False
    mark_answered(interaction, kind)
    return True


def answered_already(interaction: discord.Interaction[Any], error: BaseException) -> bool:
    """Whether ``error`` says ``interaction`` is answered already (40060) though this
    process does not know it: a response it sent was taken after all (which one, Discord
    does not say)."""
    return (isinstance(error, discord.HTTPException) and error.code == ALREADY_ANSWERED
            and not interaction.response.is_done())


def mark_answered(interaction: discord.Interaction[Any],
                  kind: discord.InteractionResponseType) -> None:
    """Mark ``interaction`` answered with a response of ``kind``, as discord.py marks it
    once a response went: what follows goes through its webhook."""
    interaction.response._response_type = kind


def passing_failure(error: BaseException) -> bool:
    """Whether ``error`` is Discord or the way to it failing for a while (a server
    error, a rate limit, the connection: reset, timed out): the same request may be
    taken later. Not a request it can never take (a 400 is a fault of the bot's own, to
    be seen), nor a channel gone or a permission missing."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, discord.RateLimited | aiohttp.ClientError | OSError)


async def acknowledge(interaction: discord.Interaction[Any]) -> None:
    """Acknowledge a click without a message (the board's edit that follows says it);
    a failure to send is logged, never raised."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer()
    except SEND_ERRORS as exc:
        log.warning("could not acknowledge a click: %r", exc)


async def tell_privately(interaction: discord.Interaction[Any], text: str, *,
                         done: bool = False) -> None:
    """Answer ``interaction`` with a private line (a follow-up if it was answered already);
    a failure to send is logged, never raised. ``done``: what the line tells of happened,
    so a failed answer is tried again (:func:`tell_after_failure`)."""
    try:
        await send_answer(interaction, content=text, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not answer privately: %s", exc)
        if done:
            await tell_after_failure(interaction, text, exc)


async def answered_privately(interaction: discord.Interaction[Any],
                             error: BaseException) -> bool:
    """Whether a command whose public answer ``error`` refused as answered already
    (40060) was answered by a private line: another process's, in a deploy's overlap (a
    stopping one's "restarting"). The interaction is then marked answered, so what
    follows goes as follow-ups."""
    if not answered_already(interaction, error):
        return False
    try:
        original = await interaction.original_response()
    except SEND_ERRORS:
        return False
    if not original.flags.ephemeral:
        return False
    mark_answered(interaction, discord.InteractionResponseType.channel_message)
    return True


async def tell_after_failure(interaction: discord.Interaction[Any], text: str,
                             error: BaseException) -> None:
    """After the answer to ``interaction`` failed with ``error``, though what it asked
    for was done (a vote cast, records deleted, a choice stored): acknowledge it, so the
    member never reads "This interaction failed" for it, and say ``text`` privately
    through its webhook. Nothing is tried when Discord no longer knows the interaction
    or it was answered after all; a failure is logged, never raised."""
    if answer_lost(error):
        return
    try:
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True)
        else:  # a public "thinking…" would take the line's place, shown to everyone
            await _drop_public_wait(interaction)
        await interaction.followup.send(text, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not answer again after a failed answer: %r", exc)


async def _drop_public_wait(interaction: discord.Interaction[Any]) -> None:
    """Delete a slow command's public "thinking…" message still waiting for its answer:
    the first follow-up would take its place, shown to everyone whatever it asks, so a
    private answer must come as a follow-up of its own."""
    if (interaction.type is not discord.InteractionType.application_command
            or interaction.response.type
            is not discord.InteractionResponseType.deferred_channel_message):
        return
    try:
        original = await interaction.original_response()
        if original.flags.loading and not original.flags.ephemeral:
            await original.delete()
    except SEND_ERRORS as exc:  # the answer still goes, as a follow-up
        log.warning("could not take a public wait away before a private answer: %s", exc)
