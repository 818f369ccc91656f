"""The custom_ids of board components: what a board's buttons and selects carry (a
format tag, the game, the board version, the action or group), how they are built and
how strictly a click's is read back (:mod:`bot.boards.routing`)."""

from __future__ import annotations

import re
from typing import NamedTuple

#: The longest custom_id Discord takes.
MAX_CUSTOM_ID = 100

#: Version tags of the custom_id format of a board's buttons and selects; bump them if
#: the format ever changes.
BUTTON_TAG = "g1"
#: (see :data:`BUTTON_TAG`)
SELECT_TAG = "s1"
#: A select of members: the action is its group, a dot, and the chosen member's id.
USER_SELECT_TAG = "u1"

#: The largest game id or board version a custom_id may carry (SQLite's 63-bit integers).
MAX_NUMBER = 2**63 - 1

#: An action id (also a select's chosen value): ASCII letters, digits and ``_.:+-``.
ACTION_ID = r"[A-Za-z0-9_.:+\-]{1,40}"
#: A game id or board version: ASCII digits, no leading zero, at most 19 of them.
_NUMBER = r"(?:0|[1-9][0-9]{0,18})"
_GROUP = r"[A-Za-z0-9_.\-]{1,40}"

#: The exact shape of the custom_ids the bot draws (checked when a board is built).
_BOARD = rf"(?P<game>{_NUMBER}):(?P<version>{_NUMBER})"
BUTTON_TEMPLATE = rf"{BUTTON_TAG}:{_BOARD}:(?P<action>{ACTION_ID})"
#: (see :data:`BUTTON_TEMPLATE`)
SELECT_TEMPLATE = rf"{SELECT_TAG}:{_BOARD}:(?P<group>{_GROUP})"
#: (see :data:`BUTTON_TEMPLATE`)
USER_SELECT_TEMPLATE = rf"{USER_SELECT_TAG}:{_BOARD}:(?P<group>{_GROUP})"


class BoardId(NamedTuple):
    """A parsed board custom_id: the game, the board version, and the action or group."""

    game_id: int
    version: int
    key: str


def _parse(custom_id: str, template: str) -> BoardId | None:
    match = re.fullmatch(template, custom_id, re.ASCII)
    if match is None:
        return None
    game_id, version = int(match["game"]), int(match["version"])
    if game_id > MAX_NUMBER or version > MAX_NUMBER:
        return None
    return BoardId(game_id, version, match.group(3))


def parse_button_id(custom_id: str) -> BoardId | None:
    """Return the parts of a board button's custom_id, or None if the bot never drew it.

    Strict: ASCII digits only (``int()`` and ``\\d`` would also take other scripts'
    digits), no leading zeros, numbers within 63 bits, an action id of the allowed shape.
    """
    return _parse(custom_id, BUTTON_TEMPLATE)


def parse_select_id(custom_id: str) -> BoardId | None:
    """Return the parts of a board select's custom_id (the key is its group), or None."""
    return _parse(custom_id, SELECT_TEMPLATE)


def parse_user_select_id(custom_id: str) -> BoardId | None:
    """Return the parts of a member select's custom_id (the key is its group), or None."""
    return _parse(custom_id, USER_SELECT_TEMPLATE)


def is_action_id(value: str) -> bool:
    """Whether ``value`` has the shape of an action id (a select's chosen value must)."""
    return re.fullmatch(ACTION_ID, value, re.ASCII) is not None


#: The templates, compiled once: every button a board draws is checked against one.
_BUTTON_SHAPE = re.compile(BUTTON_TEMPLATE)
_SELECT_SHAPE = re.compile(SELECT_TEMPLATE)
_USER_SELECT_SHAPE = re.compile(USER_SELECT_TEMPLATE)


def _checked(custom_id: str, shape: re.Pattern[str]) -> str:
    assert len(custom_id) <= MAX_CUSTOM_ID, f"custom_id over {MAX_CUSTOM_ID}: {custom_id!r}"
    assert shape.fullmatch(custom_id), f"custom_id does not parse: {custom_id!r}"
    return custom_id


def button_id(game_id: int, version: int, action_id: str) -> str:
    """Return the custom_id of an action button: tag, game, board version, action."""
    return _checked(f"{BUTTON_TAG}:{game_id}:{version}:{action_id}", _BUTTON_SHAPE)


def select_id(game_id: int, version: int, group: str) -> str:
    """Return the custom_id of an action select: tag, game, board version, group."""
    safe = re.sub(r"[^A-Za-z0-9_.\-]", "-", group or "choose")[:40]
    return _checked(f"{SELECT_TAG}:{game_id}:{version}:{safe}", _SELECT_SHAPE)


def user_select_id(game_id: int, version: int, group: str) -> str:
    """Return the custom_id of a member select: tag, game, board version, action group."""
    return _checked(f"{USER_SELECT_TAG}:{game_id}:{version}:{group}", _USER_SELECT_SHAPE)
