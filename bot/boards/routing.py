"""Board clicks: routed straight from the interaction to the boards, by their custom_id.

A custom_id carries a format tag, the game id, the board version and the action (or,
for a select, the group; the chosen option is the action). The bot keeps nothing per
message: ``TableBot.on_interaction`` (``bot/client.py``) passes every component
interaction to :func:`route_click`, which takes those whose custom_id starts with a
board's tag (``g1:`` buttons, ``s1:`` selects, ``u1:`` selects of members), reads them
with :func:`read_click` and calls ``Boards.handle_click``. So every board works after a
restart, in the sharded client too, and each click is handled once, in the one task
discord.py starts for ``on_interaction``. Other components (the DynamicItems of
``cogs/``) are left to discord.py.

Board components are not DynamicItems: for each click on one, discord.py would rebuild
every component of the message as a ``View`` (``View.from_message``) only to find the
one clicked, and run it in a task of its own.

Every custom_id with a board's tag is parsed strictly (``bot.boards.layout.parse_button_id``):
one the bot could not have drawn (forged, damaged, out-of-range numbers, other scripts'
digits, a button's tag on a select or the other way round) is answered privately with
:data:`NOT_VALID` and never reaches the game table. A click whose handling raises is
logged with its traceback and answered privately when it has no answer yet (or only a
deferral).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol

import discord

from bot.boards.custom_ids import (
    BUTTON_TAG,
    SELECT_TAG,
    USER_SELECT_TAG,
    is_action_id,
    parse_button_id,
    parse_select_id,
    parse_user_select_id,
)
from bot.boards.send_errors import SEND_ERRORS

log = logging.getLogger(__name__)

#: The private answer to a component whose custom_id (or chosen value) the bot never drew.
NOT_VALID = "That button is not valid."
#: The private answer to a board select sent with no chosen value.
NOTHING_CHOSEN = "Nothing was chosen."
#: The private answer to a click whose handling failed before it was answered.
FAILED = "Something went wrong on our side. If the board did not change, please try again."

#: The starts of the custom_ids routed to the boards (every one of them is answered).
BUTTON_PREFIX = f"{BUTTON_TAG}:"
SELECT_PREFIX = f"{SELECT_TAG}:"
USER_SELECT_PREFIX = f"{USER_SELECT_TAG}:"

_BUTTON = discord.ComponentType.button.value
_SELECT = discord.ComponentType.select.value
_USER_SELECT = discord.ComponentType.user_select.value
_DEFERRED = (
    discord.InteractionResponseType.deferred_channel_message,
    discord.InteractionResponseType.deferred_message_update,
)


class Click(NamedTuple):
    """A board click to apply: the game, the board version it was drawn for, the action."""

    game_id: int
    version: int
    action: str


class ClickHandler(Protocol):
    """What board clicks are handed to (``bot.boards.service.Boards``)."""

    async def handle_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        """Apply the click's action to the board at ``version`` and answer it."""


def read_click(data: Mapping[str, Any]) -> Click | str | None:
    """Read a component interaction's ``data``: what it asks of a board.

    None when the custom_id has no board's tag (not a board's component); the private
    answer (:data:`NOT_VALID`, :data:`NOTHING_CHOSEN`) when it has one but cannot be
    applied; else the :class:`Click`, a select's chosen value being its action.
    """
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str):
        return None
    if custom_id.startswith(BUTTON_PREFIX):
        parsed = parse_button_id(custom_id)
        if parsed is None or data.get("component_type") != _BUTTON:
            return NOT_VALID
        return Click(parsed.game_id, parsed.version, parsed.key)
    if custom_id.startswith(SELECT_PREFIX):
        parsed = parse_select_id(custom_id)
        if parsed is None or data.get("component_type") != _SELECT:
            return NOT_VALID
        value = _chosen(data)
        if value is None:
            return NOTHING_CHOSEN
        if not is_action_id(value):
            return NOT_VALID
        return Click(parsed.game_id, parsed.version, value)
    if custom_id.startswith(USER_SELECT_PREFIX):
        return _read_user_select(custom_id, data)
    return None


def _chosen(data: Mapping[str, Any]) -> str | None:
    """Return a select's first chosen value, "" when it is not text, None when nothing
    was chosen."""
    values = data.get("values")
    if not values or not isinstance(values, list):
        return None
    value = values[0]
    return value if isinstance(value, str) else ""


def _read_user_select(custom_id: str, data: Mapping[str, Any]) -> Click | str:
    """Read a member select: its group and the chosen member's id make the action."""
    parsed = parse_user_select_id(custom_id)
    if parsed is None or data.get("component_type") != _USER_SELECT:
        return NOT_VALID
    value = _chosen(data)
    if value is None:
        return NOTHING_CHOSEN
    if not value.isascii() or not value.isdigit() or len(value) > 20:
        return NOT_VALID
    action = f"{parsed.key}.{value}"
    if not is_action_id(action):
        return NOT_VALID
    return Click(parsed.game_id, parsed.version, action)


async def refuse(interaction: discord.Interaction[Any], text: str = NOT_VALID) -> None:
    """Answer a click privately with ``text`` (by default :data:`NOT_VALID`); never raise."""
    try:
        await interaction.response.send_message(text, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not refuse a board component: %s", exc)


def carried_by(message: discord.Message | None, game_id: int) -> bool:
    """Whether ``message`` (the one clicked) carries a component of game ``game_id``, as
    every message the bot draws for a game does (its boards, its private pages and
    controls); a click on another message is forged (a modified client may send any
    custom_id), and is answered as not valid rather than drawn over that message. True
    when Discord sent no message to compare."""
    if message is None:
        return True
    for row in message.components:
        for item in getattr(row, "children", (row,)):
            custom_id = getattr(item, "custom_id", None)
            if not isinstance(custom_id, str):
                continue
            parsed = (parse_button_id(custom_id) or parse_select_id(custom_id)
                      or parse_user_select_id(custom_id))
            if parsed is not None and parsed.game_id == game_id:
                return True
    return False


async def route_click(boards: ClickHandler, interaction: discord.Interaction[Any]) -> bool:
    """Handle ``interaction`` if it is a click on a board; return whether it was one.

    Called for every interaction; anything but a component with a board's tag is left
    alone (False). A click whose handling raises is logged and, when it was not answered
    yet (or only deferred), answered privately; the exception goes no further.
    """
    if interaction.type is not discord.InteractionType.component:
        return False
    click = read_click(interaction.data or {})
    if click is None:
        return False
    if isinstance(click, str):
        await refuse(interaction, click)
        return True
    if not carried_by(interaction.message, click.game_id):
        await refuse(interaction, NOT_VALID)
        return True
    try:
        await boards.handle_click(interaction, click.game_id, click.version, click.action)
    except Exception:
        data: Mapping[str, Any] = interaction.data or {}
        log.exception("board click %r failed", data.get("custom_id"))
        await _report_failure(interaction)
    return True


async def _report_failure(interaction: discord.Interaction[Any]) -> None:
    """Tell the clicker privately that their click failed, unless it was answered."""
    try:
        if not interaction.response.is_done():
            await interaction.response.send_message(FAILED, ephemeral=True)
        elif interaction.response.type in _DEFERRED:
            await interaction.followup.send(FAILED, ephemeral=True)
    except SEND_ERRORS as exc:
        log.warning("could not report a failed board click: %s", exc)
