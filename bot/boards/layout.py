"""Turning legal actions into board components (buttons and selects) within Discord's limits.

A board's components are first plain data (:class:`BoardButton`, :class:`BoardSelect` and
its :class:`BoardOption`), which the boards adjust (a vote's tally on a label, a computer's
turn disabling them). A board sends them in a :class:`BoardView`, which builds their
action rows itself (``board_view``); panels and private answers turn them into
``discord.ui`` items in a stopped ``discord.ui.View`` (:func:`view_of`). Both send the
same components, their texts shown as they are (a name without its markdown escapes,
:func:`bot.text.names.plain`). Board clicks are routed by their custom_id
(``bot.boards.routing.route_click``), so no item needs a callback, and a stopped view is
one discord.py sends but never keeps.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, ClassVar

import discord

from bot.boards.custom_ids import (
    button_id,
    select_id,
)
from bot.games.protocol import MAX_LABEL, Action
from bot.text.names import plain
from bot.text.widths import shown_width

MAX_ROWS = 5
MAX_BUTTONS_PER_ROW = 5
MAX_SELECT_OPTIONS = 25


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _shown(text: str | None) -> str | None:
    """Return a component's text as it shows: without a name's markdown escapes."""
    return plain(text) if text else text


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

    def to_item(self) -> discord.ui.Button[discord.ui.View]:
        """Return the button as a ``discord.ui`` item."""
        return discord.ui.Button(label=_shown(self.label), custom_id=self.custom_id,
                                 style=self.style, emoji=self.emoji, disabled=self.disabled,
                                 row=self.row)

    def to_dict(self) -> dict[str, Any]:
        """Return the button as Discord takes it (what discord.py's own button sends)."""
        out: dict[str, Any] = {"type": 2, "style": self.style.value, "disabled": self.disabled}
        if self.label:
            out["label"] = plain(self.label)
        out["custom_id"] = self.custom_id
        if self.emoji:
            out["emoji"] = dict(_emoji_dict(self.emoji))
        return out


@functools.lru_cache(maxsize=1024)
def _emoji_dict(emoji: str) -> dict[str, Any]:
    """Return an emoji as a component carries it (read by discord.py, once per emoji)."""
    return dict(discord.PartialEmoji.from_str(emoji).to_dict())


@dataclass(slots=True)
class BoardOption:
    """One option of a board select: what it shows and the action id it chooses."""

    label: str
    value: str
    description: str | None = None

    def to_option(self) -> discord.SelectOption:
        """Return the option as discord.py takes it."""
        return discord.SelectOption(label=plain(self.label), value=self.value,
                                    description=_shown(self.description))

    def to_dict(self) -> dict[str, Any]:
        """Return the option as Discord takes it."""
        out: dict[str, Any] = {"label": plain(self.label), "value": self.value,
                               "default": False}
        if self.description:
            out["description"] = plain(self.description)
        return out


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

    def to_item(self) -> discord.ui.Select[discord.ui.View]:
        """Return the select as a ``discord.ui`` item."""
        return discord.ui.Select(custom_id=self.custom_id, placeholder=_shown(self.placeholder),
                                 disabled=self.disabled, row=self.row,
                                 options=[option.to_option() for option in self.options])

    def to_dict(self) -> dict[str, Any]:
        """Return the select as Discord takes it (what discord.py's own select sends)."""
        out: dict[str, Any] = {"type": 3, "custom_id": self.custom_id, "min_values": 1,
                               "max_values": 1, "disabled": self.disabled, "required": True}
        if self.placeholder:
            out["placeholder"] = plain(self.placeholder)
        if self.options:
            out["options"] = [option.to_dict() for option in self.options]
        return out


@dataclass(slots=True)
class BoardUserSelect:
    """A select of one server member (the host's invitation), as plain data."""

    custom_id: str
    placeholder: str | None = None
    row: int | None = None

    #: A select takes a whole action row.
    width: ClassVar[int] = 5

    def to_item(self) -> discord.ui.UserSelect[discord.ui.View]:
        """Return the select as a ``discord.ui`` item."""
        return discord.ui.UserSelect(custom_id=self.custom_id,
                                     placeholder=_shown(self.placeholder), row=self.row)

    def to_dict(self) -> dict[str, Any]:
        """Return the select as Discord takes it (discord.py's own item builds it)."""
        return dict(self.to_item().to_component_dict())


#: A board component.
BoardItem = BoardButton | BoardSelect
#: A component of a private panel (a board's, or a select of members).
PanelItem = BoardButton | BoardSelect | BoardUserSelect


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
            BoardOption(_clip(a.option or a.label, 100), a.id,
                        _clip(a.description, 100) or None)
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
    groups = [(g, list(members)) for g, members in groupby(actions, key=lambda a: a.group)]
    rows: list[list[BoardItem]] = []
    for group, members in groups:
        if len(members) <= MAX_BUTTONS_PER_ROW:
            rows.append([
                action_button(game_id, version, a, style=discord.ButtonStyle.primary
                              if a.primary else discord.ButtonStyle.secondary)
                for a in members
            ])
        else:
            for part, start in enumerate(range(0, len(members), MAX_SELECT_OPTIONS)):
                chunk = members[start : start + MAX_SELECT_OPTIONS]
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
    return _placed(rows)


def _placed(rows: list[list[BoardItem]]) -> list[BoardItem]:
    """Return the items of ``rows`` in order, each told its row."""
    items: list[BoardItem] = []
    for index, row in enumerate(rows):
        for item in row:
            item.row = index
            items.append(item)
    return items


#: Buttons a row that sit side by side on a 360 px phone, when their labels are short.
PHONE_BUTTONS = 3
#: A phone line of buttons (a 360 px phone), in letters' room (:mod:`bot.text.widths`), what
#: each button takes besides its label, and what a button's own emoji takes (drawn at
#: 16 px with a gap after it): measured with the preview tool and a colour emoji font on
#: rows of two to four buttons of mixed labels, capitals and emoji among them (none the
#: sum calls fitting wraps).
PHONE_LINE_LETTERS, BUTTON_LETTERS, BUTTON_EMOJI_LETTERS = 41, 5, 3.5


def _letters(button: BoardButton) -> float:
    """How much of a phone line ``button`` takes, in letters, its own room included."""
    return (shown_width(plain(button.label or "")) + BUTTON_LETTERS
            + (BUTTON_EMOJI_LETTERS if button.emoji else 0))


def phone_lines(buttons: Sequence[BoardButton]) -> int:
    """Return how many lines a row of ``buttons`` takes on a phone: side by side while
    they fit, the rest wrapped onto the next line (a button wider than a line alone)."""
    lines, used = 0, float(PHONE_LINE_LETTERS)
    for button in buttons:
        width = _letters(button)
        if used + width > PHONE_LINE_LETTERS:
            lines, used = lines + 1, 0.0
        used += width
    return lines


def phone_items(
    game_id: int,
    version: int,
    actions: Sequence[Action],
    *,
    selects: Mapping[str, Sequence[str]] | None = None,
    per_row: int = PHONE_BUTTONS,
) -> list[BoardItem]:
    """Lay out ``actions`` for a phone: selects first, then buttons ``per_row`` a row.

    ``selects`` maps a placeholder to the groups whose actions share one select (each
    option with its description); every other action becomes a button, in the order
    given, the engine's primary ones in the primary style. Where that takes more than
    five rows, :func:`default_items` lays them out instead.
    """
    rows: list[list[BoardItem]] = []
    chosen: set[str] = set()
    for placeholder, groups in (selects or {}).items():
        members = [a for a in actions if a.group in groups]
        chosen.update(groups)
        for part, start in enumerate(range(0, len(members), MAX_SELECT_OPTIONS)):
            chunk = members[start : start + MAX_SELECT_OPTIONS]
            rows.append([action_select(game_id, version, chunk[0].group, chunk,
                                       placeholder=placeholder, part=part)])
    buttons = [
        action_button(game_id, version, a, style=discord.ButtonStyle.primary
                      if a.primary else discord.ButtonStyle.secondary)
        for a in actions if a.group not in chosen
    ]
    rows += [list(buttons[i : i + per_row]) for i in range(0, len(buttons), per_row)]
    if len(rows) > MAX_ROWS:
        return default_items(game_id, version, actions)
    return _placed(rows)


#: The name of a board's vote field.
VOTE_TITLE = "🗳️ The channel is voting"


def vote_line(votes: int, needed: int, closes: float | None, active: int, *,
              giving_up: bool = False) -> str:
    """Return a vote under way in one phone line, for the board's vote field.

    The buttons carry each move's tally, so the line says only how many have voted, how
    many agreeing votes move at once, that a tie goes to the move voted for first (C4),
    and when the window closes (``<t:…:R>``, counted down by Discord); a vote with no
    window is one to give up, needing a majority. With ``giving_up`` (a vote to give up
    stands while the window runs) the tie is left unsaid for what matters more: giving
    up needs its majority before the window closes, which leaves it out (C4).
    """
    cast = f"{votes} vote{'' if votes == 1 else 's'}"
    if closes is None:
        return f"{cast} · giving up needs {needed} of {active}"
    ends = f"ends <t:{int(closes)}:R>"
    if giving_up:
        return f"{cast} · {needed} agreeing move now · {ends} without giving up"
    return f"{cast} · {needed} agreeing move now · tie: first vote · {ends}"


#: The most components a message's action rows hold.
MAX_ITEMS = MAX_ROWS * MAX_BUTTONS_PER_ROW


def view_of(items: Sequence[PanelItem]) -> discord.ui.View:
    """Return a stopped view holding ``items``, used only to send the board's components.

    The bot routes board clicks itself by their custom_id
    (``bot.boards.routing.route_click``), and discord.py keeps no stopped view: a live one
    would be stored per message on every send or edit, its buttons of every board version
    kept for the life of the process. Raises ValueError where the items do not fit.
    """
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item.to_item())
    view.stop()
    return view


class BoardView(discord.ui.View):
    """A stopped view of board items that sends their components as plain data.

    What Discord gets is exactly what :func:`view_of`'s view sends, but no ``discord.ui``
    item is built: a board is drawn anew for every click, and its buttons as discord.ui
    objects were a good part of that. The items are laid out as discord.py lays them out
    (an item's row, or else the first row with room) and refused where discord.ui refuses
    them, with the same ValueError and message. :attr:`items` are the board items it
    sends; as it holds no discord.ui item, discord.py has nothing to dispatch to and never
    keeps it. Nothing can be added to it: a panel that needs more uses :func:`view_of`.
    """

    def __init__(self, items: Sequence[PanelItem]) -> None:
        super().__init__(timeout=None)
        self.stop()
        self._items = list(items)
        widths = [0] * MAX_ROWS
        rows: list[list[dict[str, Any]]] = [[] for _ in range(MAX_ROWS)]
        for count, item in enumerate(self._items):  # in order, as View.add_item takes them
            row = item.row
            if row is not None and not 0 <= row < MAX_ROWS:
                raise ValueError("row cannot be negative or greater than or equal to 5")
            if count >= MAX_ITEMS:
                raise ValueError("maximum number of children exceeded")
            if row is None:
                row = next((r for r, w in enumerate(widths)
                            if w + item.width <= MAX_BUTTONS_PER_ROW), -1)
                if row < 0:
                    raise ValueError("could not find open space for item")
            elif widths[row] + item.width > MAX_BUTTONS_PER_ROW:
                raise ValueError(f"item would not fit at row {row}"
                                 f" ({widths[row] + item.width} > 5 width)")
            widths[row] += item.width
            rows[row].append(item.to_dict())
        self._components = [{"type": 1, "components": row} for row in rows if row]

    def to_components(self) -> list[dict[str, Any]]:
        """Return the action rows as Discord takes them."""
        return list(self._components)

    def has_components_v2(self) -> bool:
        """A board's components are action rows, never Components V2."""
        return False

    @property
    def items(self) -> list[PanelItem]:
        """The board items it sends (its discord.ui ``children`` are none)."""
        return list(self._items)

    def add_item(self, item: discord.ui.Item[Any]) -> BoardView:
        """Refuse: a board's view holds only its board items."""
        raise TypeError("a board's view takes no more items; use view_of for a panel")


def board_view(items: Sequence[PanelItem]) -> BoardView:
    """Return a board's components as a stopped :class:`BoardView` (see there)."""
    return BoardView(items)
