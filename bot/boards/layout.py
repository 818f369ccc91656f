"""Turning legal actions into board components (buttons and selects) within Discord's limits.

Board components are the bot's own small types (:class:`BoardButton`, :class:`BoardSelect`
and its :class:`BoardOption`), not ``discord.ui`` items: board clicks are routed by their
custom_id (``bot.boards.routing.route_click``), so no component needs a discord.py callback, and
building a ``discord.ui.Button`` costs several times the dict Discord gets. Each
type's ``to_component_dict`` returns exactly the dict the equivalent ``discord.ui`` item
would (``tests/test_layout_dicts.py`` checks it), and :func:`view_of` wraps them in a
:class:`BoardView`, which discord.py sends as any view but never keeps.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, ClassVar, NamedTuple

import discord

from bot.games.protocol import MAX_LABEL, Action

#: Version tag of the custom_id format; bump it if the format ever changes.
BUTTON_TAG = "g1"
SELECT_TAG = "s1"

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
SELECT_TEMPLATE = rf"{SELECT_TAG}:{_BOARD}:(?P<group>{_GROUP})"

#: The custom_ids the bot routes to the boards (``bot.boards.routing.route_click`` checks their
#: prefix): every one with a board's tag, so a forged or damaged one is answered ("not
#: valid") rather than silently dropped.
BUTTON_ROUTE = rf"(?s){BUTTON_TAG}:.*"
SELECT_ROUTE = rf"(?s){SELECT_TAG}:.*"


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


def is_action_id(value: str) -> bool:
    """Whether ``value`` has the shape of an action id (a select's chosen value must)."""
    return re.fullmatch(ACTION_ID, value, re.ASCII) is not None

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25
MAX_CUSTOM_ID = 100


#: The templates, compiled once: every button a board draws is checked against one.
_BUTTON_SHAPE = re.compile(BUTTON_TEMPLATE)
_SELECT_SHAPE = re.compile(SELECT_TEMPLATE)


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


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@functools.lru_cache(maxsize=256)
def _emoji(text: str) -> dict[str, Any]:
    """Return an emoji as Discord gets it, read the way discord.py reads one (a unicode
    emoji, or a custom one such as ``<:name:id>``); boards use a handful of them."""
    return discord.PartialEmoji.from_str(text).to_dict()


@dataclass(slots=True)
class BoardButton:
    """A board button: the fields of a ``discord.ui.Button`` the boards use, as plain data.

    ``emoji`` is the text discord.py would take (a unicode emoji or ``<:name:id>``);
    ``row`` is the action row (0 to 4), or None for the first row with room.
    """

    label: str | None
    custom_id: str
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    emoji: str | None = None
    disabled: bool = False
    row: int | None = None

    #: How much of an action row the button takes, of five.
    width: ClassVar[int] = 1

    def to_component_dict(self) -> dict[str, Any]:
        """Return the button as Discord gets it: what ``discord.ui.Button`` would send."""
        payload: dict[str, Any] = {"type": 2, "style": self.style.value,
                                   "disabled": bool(self.disabled)}
        if self.label:
            payload["label"] = self.label
        if self.custom_id:
            payload["custom_id"] = self.custom_id
        if self.emoji:
            payload["emoji"] = dict(_emoji(self.emoji))
        return payload


@dataclass(slots=True)
class BoardOption:
    """One option of a board select: what it shows and the action id it chooses."""

    label: str
    value: str
    description: str | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return the option as Discord gets it: what ``discord.SelectOption`` would send."""
        payload: dict[str, Any] = {"label": self.label, "value": self.value, "default": False}
        if self.description:
            payload["description"] = self.description
        return payload


@dataclass(slots=True)
class BoardSelect:
    """A board select (one choice among its options), as plain data."""

    custom_id: str
    options: list[BoardOption] = field(default_factory=list)
    placeholder: str | None = None
    disabled: bool = False
    row: int | None = None

    #: A select takes a whole action row.
    width: ClassVar[int] = 5

    def to_component_dict(self) -> dict[str, Any]:
        """Return the select as Discord gets it: what ``discord.ui.Select`` would send."""
        payload: dict[str, Any] = {
            "type": 3, "custom_id": self.custom_id, "min_values": 1, "max_values": 1,
            "disabled": bool(self.disabled), "required": True,
        }
        if self.placeholder:
            payload["placeholder"] = self.placeholder
        if self.options:
            payload["options"] = [option.to_dict() for option in self.options]
        return payload


#: A board component.
BoardItem = BoardButton | BoardSelect


def action_button(
    game_id: int,
    version: int,
    action: Action,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
    disabled: bool = False,
    row: int | None = None,
) -> BoardButton:
    """Return a button that applies ``action`` to the board at ``version``."""
    return BoardButton(_clip(action.label, MAX_LABEL), button_id(game_id, version, action.id),
                       style, emoji, disabled, row)


def action_select(
    game_id: int,
    version: int,
    group: str,
    actions: Sequence[Action],
    *,
    placeholder: str | None = None,
    row: int | None = None,
    part: int = 0,
) -> BoardSelect:
    """Return a select whose options each apply one of ``actions`` (at most 25)."""
    assert 0 < len(actions) <= MAX_SELECT_OPTIONS
    key = f"{group or 'choose'}.{part}" if part else (group or "choose")
    return BoardSelect(
        custom_id=select_id(game_id, version, key),
        placeholder=_clip(placeholder or f"Choose ({group})" if group else "Choose…", 150),
        options=[
            BoardOption(_clip(a.label, 100), a.id, _clip(a.description, 100) or None)
            for a in actions
        ],
        row=row,
    )


#: An action id with this prefix asks for confirmation before applying the rest.
ASK_PREFIX = "ask."


def default_items(
    game_id: int,
    version: int,
    actions: Sequence[Action],
    *,
    placeholders: Mapping[str, str] | None = None,
) -> list[BoardItem]:
    """Lay out ``actions`` in at most five rows: small groups as buttons, big ones as selects.

    Actions are grouped by ``Action.group`` in the order given. A group of up to five
    actions becomes a row of buttons; a larger one becomes a select (several if needed).
    If that needs more than five rows, every group becomes part of selects instead.
    """
    groups = [(g, list(items)) for g, items in groupby(actions, key=lambda a: a.group)]
    rows: list[list[BoardItem]] = []
    for group, items in groups:
        if len(items) <= MAX_BUTTONS_PER_ROW:
            rows.append([
                action_button(game_id, version, a, style=discord.ButtonStyle.primary
                              if a.primary else discord.ButtonStyle.secondary)
                for a in items
            ])
        else:
            for part, start in enumerate(range(0, len(items), MAX_SELECT_OPTIONS)):
                chunk = items[start : start + MAX_SELECT_OPTIONS]
                hint = (placeholders or {}).get(group)
                rows.append([action_select(game_id, version, group, chunk, part=part,
                                           placeholder=hint)])
    if len(rows) > MAX_ROWS:
        flat = list(actions)
        rows = []
        for part, start in enumerate(range(0, len(flat), MAX_SELECT_OPTIONS)):
            chunk = flat[start : start + MAX_SELECT_OPTIONS]
            rows.append([action_select(game_id, version, "choose", chunk, part=part)])
        if len(rows) > MAX_ROWS:
            raise ValueError(f"{len(flat)} actions do not fit on one board")
    items: list[BoardItem] = []
    for index, row in enumerate(rows):
        for item in row:
            item.row = index
            items.append(item)
    return items


#: The most components a message's action rows hold.
MAX_ITEMS = MAX_ROWS * MAX_BUTTONS_PER_ROW


def _rows(items: Sequence[BoardItem]) -> list[list[BoardItem]]:
    """Return ``items`` in their action rows, the non-empty ones in order.

    As ``discord.ui.View`` places them: an item goes in its ``row``, or without one in the
    first row with room for it when it is added; a row holds five buttons or one select.
    Raises ValueError where discord.py would (a full row, a row past the fifth).
    """
    if len(items) > MAX_ITEMS:
        raise ValueError("maximum number of children exceeded")
    rows: list[list[BoardItem]] = [[] for _ in range(MAX_ROWS)]
    room = [MAX_BUTTONS_PER_ROW] * MAX_ROWS
    for item in items:
        index = item.row
        if index is None:
            index = next((i for i, free in enumerate(room) if free >= item.width), None)
            if index is None:
                raise ValueError("could not find open space for item")
        elif not 0 <= index < MAX_ROWS:
            raise ValueError(f"row cannot be negative or greater than or equal to {MAX_ROWS}")
        if room[index] < item.width:
            raise ValueError(f"item would not fit at row {index}")
        room[index] -= item.width
        rows[index].append(item)
    return [row for row in rows if row]


class BoardView(discord.ui.View):
    """A board's components as discord.py sends them: a view it never keeps.

    discord.py asks a view passed to a send or an edit (a message, an interaction's
    response, a webhook message) for ``to_components()``, whether it has components v2,
    whether it is finished and whether it is dispatchable; then it keeps a view that is
    not finished (stored per message, its items dispatched clicks). A board view answers
    with its action rows, built from its items' dicts at that moment; no components v2;
    finished (as a stopped view) and not dispatchable, so it is never stored. The bot
    routes board clicks itself by their custom_id (``bot.boards.routing.route_click``).

    ``discord.ui.View.__init__`` is not run: a view's set-up (its id, a future to wait
    on, its items' places) is what a board does not need, and costs more than the
    board's components. Every method discord.py calls on a view it sends is answered
    here; adding or removing items is not supported (build a new one with
    :func:`view_of`).
    """

    def __init__(self, items: Sequence[BoardItem]) -> None:
        self._items = list(items)
        self._rows = _rows(self._items)

    def __repr__(self) -> str:
        return f"<{self.__class__.__name__} children={len(self._items)}>"

    @property
    def timeout(self) -> None:
        """None: a board view never times out (nothing waits on it)."""
        return None

    @property
    def children(self) -> list[BoardItem]:  # type: ignore[override]
        """The board's components, in the order given."""
        return list(self._items)

    @property
    def total_children_count(self) -> int:
        """How many components the board has."""
        return len(self._items)

    def walk_children(self) -> Iterator[BoardItem]:  # type: ignore[override]
        """Yield the board's components (none holds others)."""
        yield from self._items

    def to_components(self) -> list[dict[str, Any]]:
        """Return the action rows Discord gets, as ``discord.ui.View`` would lay them out."""
        return [{"type": 1, "components": [item.to_component_dict() for item in row]}
                for row in self._rows]

    def has_components_v2(self) -> bool:
        """False: action rows of buttons and selects only."""
        return False

    def is_finished(self) -> bool:
        """True: a board view is stopped from the start, so discord.py does not keep it."""
        return True

    def is_dispatchable(self) -> bool:
        """False: discord.py dispatches nothing to a board view (the bot routes clicks)."""
        return False

    def is_dispatching(self) -> bool:
        """False: a board view is never in discord.py's view store."""
        return False

    def is_persistent(self) -> bool:
        """False: a board view is not one to add to discord.py's view store."""
        return False

    def stop(self) -> None:
        """Do nothing: a board view is stopped from the start."""


def view_of(items: Sequence[BoardItem]) -> BoardView:
    """Return a view holding ``items``, used only to send the board's components.

    The view is stopped from the start: the bot routes board clicks itself by their
    custom_id (``bot.boards.routing.route_click``), and discord.py keeps no stopped view. A
    live view would be stored per message on every send or edit, its buttons of every
    board version kept for the life of the process and each click dispatched to it too.
    """
    return BoardView(items)
