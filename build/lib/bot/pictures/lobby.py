"""A lobby's picture: the seats taken so far, or nothing when the view names no one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.pictures.canvas import MARGIN, MIN_TEXT, Canvas
from bot.pictures.endings import Ending

MAX_SEATS = 5
"""Seats at a Steam to Solar table."""


def _names(view: Mapping[str, Any]) -> list[str]:
    """The seated names, from ``players`` (with ``name``) or ``seats``/``names`` lists."""
    for key in ("players", "seats", "names"):
        value = view.get(key)
        if isinstance(value, list) and value:
            return [str(v.get("name") or "?") if isinstance(v, Mapping) else str(v)
                    for v in value]
    return []


def board(view: Mapping[str, Any], end: Ending) -> Canvas | None:
    """Draw the table with one chair per seat; None if no one is named."""
    names = _names(view)
    if not names:
        return None
    c = Canvas(end.theme, height=240)
    y = c.header("Table open", f"{len(names)} seated")
    slots = max(MAX_SEATS, len(names))
    cell = (c.width - 2 * MARGIN) / slots
    for i in range(slots):
        x = MARGIN + i * cell
        taken = i < len(names)
        c.panel((x + 4, y, x + cell - 4, y + 70), fill=c.theme.panel if taken else
                c.theme.background, outline=c.theme.muted, width=2)
        c.text(x + cell / 2, y + 35, names[i] if taken else "free", MIN_TEXT, bold=taken,
               fill=c.theme.text if taken else c.theme.muted, anchor="mm",
               max_width=int(cell) - 16)
    c.bottom = y + 70
    return c


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return a small table with one chair per seat, or ``b""`` if no one is named."""
    c = board(view, end)
    return b"" if c is None else c.png(c.bottom)
