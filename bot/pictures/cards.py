"""Decktet card faces: the value or rank, the suits as coloured shapes, the name.

Faces are cached: a board pastes the same few dozen faces again and again. A card is
read from view data (``name``, ``rank``, ``value``, ``suits``); missing fields draw as
blanks, never as an error.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures.fonts import font
from bot.pictures.palette import (
    CARD_EDGE,
    CARD_FACE,
    CARD_INK,
    DIM_FACE,
    HIGHLIGHT,
    RGB,
    SUIT_ORDER,
)
from bot.pictures.script import text_mask, width
from bot.pictures.shapes import paste_icon
from bot.text.widths import closed, group_start


@dataclass(frozen=True, slots=True)
class Size:
    """A face size: pixels, fonts and icon size; ``named`` faces print the card's name."""

    width: int
    height: int
    top_font: int
    icon: int
    named: bool


FULL = Size(170, 176, 36, 38, True)
"""A full face: value, suits in a row, the name on up to two lines at 30 px."""

MINI = Size(46, 88, 30, 20, False)
"""A narrow face for trains and rows: rank or value on top, suits two by two."""

TILE = Size(50, 50, 0, 20, False)
"""A square tile with only the suits, for cleared locations."""

NAME_FONT = 30
"""The size of names on full faces."""

EDGE = 5
"""The width of the gold edge of a face marked ``"count"`` (other faces have 2 px)."""

RANK_SHORT = {"Ace": "A", "Excuse": "0", "Pawn": "P", "Court": "C"}
"""Short labels for ranks on faces without a value (a Crown gets a drawn crown)."""

Mark = str
"""How a face is marked: ``""`` plain, ``"count"`` (gold edge) or ``"dim"`` (faded)."""


def card_key(card: Mapping[str, Any] | None) -> tuple[str, str, str, tuple[str, ...]]:
    """Return the hashable facts of a card from view data (name, rank, value, suits)."""
    if not isinstance(card, Mapping):
        return ("?", "", "", ())
    suits = card.get("suits") or ()
    ordered = tuple(s for s in SUIT_ORDER if s in suits) + tuple(
        str(s) for s in suits if s not in SUIT_ORDER
    )
    value = card.get("value")
    return (str(card.get("name") or "?"), str(card.get("rank") or ""),
            "" if value is None else str(value), ordered)


def two_lines(name: str, room: float, size: int, bold: bool = False) -> list[str]:
    """Split ``name`` into at most two lines that fit ``room``, the longer of the two as
    short as it can be (a word too long is cut)."""
    words = name.split()
    if width(name, size, bold) <= room or len(words) < 2:
        return [fit_line(name, size, room, bold)]
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    best = min(splits, key=lambda p: max(width(x, size, bold) for x in p))
    return [fit_line(line, size, room, bold) for line in best]


def fit_line(words: str, size: int, room: float, bold: bool = False) -> str:
    """Return ``words`` cut with an ellipsis to fit ``room`` ("…" alone when nothing
    fits), never inside an emoji, a flag or a syllable (:func:`bot.text.widths.group_start`),
    with any isolate the cut opens closed after the "…" (:func:`bot.text.widths.closed`:
    what follows a right-to-left name on its line stays out of it)."""
    if width(words, size, bold) <= room:
        return words
    while words and width(closed(words + "…"), size, bold) > room:
        words = words[:group_start(words, len(words) - 1)]
    return closed(words.rstrip() + "…")


def _write(image: Image.Image, x: float, y: float, words: str, size: int, bold: bool,
           ink: RGB, anchor: str) -> None:
    drawn = text_mask(words, size, bold, anchor)
    image.paste(ink, (round(x) + drawn.left, round(y) + drawn.top), drawn.mask)


@lru_cache(maxsize=512)
def _face(key: tuple[str, str, str, tuple[str, ...]], size: Size, mark: Mark) -> Image.Image:
    name, rank, value, suits = key
    w, h = size.width, size.height
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    ground = DIM_FACE if mark == "dim" else CARD_FACE
    edge = HIGHLIGHT if mark == "count" else CARD_EDGE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=9, fill=ground, outline=edge,
                           width=EDGE if mark == "count" else 2)
    ink = CARD_INK
    top = value or RANK_SHORT.get(rank, rank)
    if size.top_font and not value and rank == "Crown":
        crown = round(size.top_font * 1.1) if size.named else w - 12
        paste_icon(image, "crown", 8 if size.named else (w - crown) / 2, 4, crown)
    elif size.top_font:
        top = fit_line(top, size.top_font, w - 6)
        if size.named:
            _write(image, 10, 4, top, size.top_font, True, ink, "la")
        else:
            _write(image, w / 2, 2, top, size.top_font, True, ink, "ma")
    if size.named:
        span = len(suits) * size.icon + max(0, len(suits) - 1) * 4
        x = (w - span) / 2
        for suit in suits:
            paste_icon(image, suit, x, 50, size.icon)
            x += size.icon + 4
        lines = two_lines(name, w - 10, NAME_FONT)
        # The last line's descenders (g, y, p, J) end above the widest edge (the gold one)
        # and the row inside it, whatever the mark: every face keeps the same layout.
        y = h - EDGE - font(NAME_FONT).getmetrics()[1] - 2 - (len(lines) - 1) * (NAME_FONT + 4)
        for line in lines:
            _write(image, w / 2, y, line, NAME_FONT, False, ink, "ms")
            y += NAME_FONT + 4
    elif size.top_font:
        step = size.icon + 2
        for i, suit in enumerate(suits[:4]):
            lone = len(suits) % 2 == 1 and i == len(suits) - 1
            left = (w - size.icon) / 2 if lone else (w - 2 * step) / 2 + (i % 2) * step + 1
            paste_icon(image, suit, left, 40 + (i // 2) * step, size.icon)
    else:
        count = len(suits)
        step = size.icon + 2
        for i, suit in enumerate(suits):
            col, row = (float(i % 2), float(i // 2)) if count > 1 else (0.5, 0.5)
            paste_icon(image, suit, 3 + col * step, 3 + row * step, size.icon)
    return image


def face(card: Mapping[str, Any] | None, size: Size = FULL, mark: Mark = "") -> Image.Image:
    """Return the card's face as an RGBA image (cached)."""
    return _face(card_key(card), size, mark)


def card_back(target: Image.Image, x: float, y: float, size: Size, count: int | None) -> None:
    """Draw a face-down pile at (x, y) with its number of cards on it."""
    draw = ImageDraw.Draw(target)
    w, h = size.width, size.height
    draw.rounded_rectangle((x, y, x + w, y + h), radius=9, fill=(88, 64, 120),
                           outline=(220, 210, 240), width=2)
    draw.rounded_rectangle((x + 8, y + 8, x + w - 8, y + h - 8), radius=6, outline=(150, 120, 190),
                           width=2)
    if count is not None:
        draw.text((x + w / 2, y + h / 2), str(count), font=font(30, True), fill=(255, 255, 255),
                  anchor="mm")
