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
from bot.pictures.palette import CARD_DIM, CARD_EDGE, CARD_FACE, CARD_INK, HIGHLIGHT, SUIT_ORDER
from bot.pictures.shapes import paste_icon


@dataclass(frozen=True, slots=True)
class Size:
    """A face size: pixels, fonts and icon size; ``named`` faces print the card's name."""

    width: int
    height: int
    top_font: int
    icon: int
    named: bool


FULL = Size(118, 158, 30, 34, True)
"""A full face: value, suits in a row, name on two lines."""

MINI = Size(56, 100, 20, 21, False)
"""A narrow face for trains and long rows: rank or value on top, suits stacked."""

TILE = Size(50, 50, 0, 20, False)
"""A square tile with only the suits, for cleared locations."""

RANK_SHORT = {"Ace": "A", "Excuse": "0"}
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


def _lines(name: str, width: int, size: int) -> tuple[list[str], int]:
    """Split ``name`` into at most two lines that fit ``width``; return them and the size."""
    words = name.split()
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    while True:
        face = font(size, True)
        best: list[str] = [name]
        if len(words) > 1:
            splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
            best = list(min(splits, key=lambda p: max(measure.textlength(x, font=face) for x in p)))
        if all(measure.textlength(line, font=face) <= width for line in best) or size <= 12:
            return best, size
        size -= 1


@lru_cache(maxsize=512)
def _face(key: tuple[str, str, str, tuple[str, ...]], size: Size, mark: Mark) -> Image.Image:
    name, rank, value, suits = key
    w, h = size.width, size.height
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    face = (226, 222, 214) if mark == "dim" else CARD_FACE
    edge = HIGHLIGHT if mark == "count" else CARD_EDGE
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=9, fill=face, outline=edge,
                           width=4 if mark == "count" else 2)
    ink = CARD_DIM if mark == "dim" else CARD_INK
    top = value or RANK_SHORT.get(rank, rank)
    if size.top_font and not value and rank == "Crown":
        crown = round(size.top_font * 1.1)
        paste_icon(image, "crown", 8 if size.named else (w - crown) / 2, 4, crown)
    elif size.top_font:
        fitted = size.top_font
        room = w / 2 if size.named else w - 8
        while fitted > 14 and draw.textlength(top, font=font(fitted, True)) > room:
            fitted -= 1
        if size.named:
            draw.text((9, 5), top, font=font(fitted, True), fill=ink)
        else:
            draw.text((w / 2, 6), top, font=font(fitted, True), fill=ink, anchor="ma")
    if size.named:
        row = len(suits) * size.icon + max(0, len(suits) - 1) * 2
        x = (w - row) / 2
        for suit in suits:
            paste_icon(image, suit, x, 44, size.icon)
            x += size.icon + 2
        lines, fitted = _lines(name, w - 10, 19)
        y = h - 10 - len(lines) * (fitted + 3)
        for line in lines:
            draw.text((w / 2, y), line, font=font(fitted, True), fill=ink, anchor="ma")
            y += fitted + 3
    elif size.top_font:
        y = 6 + size.top_font + 6
        for suit in suits:
            paste_icon(image, suit, (w - size.icon) / 2, y, size.icon)
            y += size.icon + 1
    else:
        count = len(suits)
        for i, suit in enumerate(suits):
            col, line = (i % 2, i // 2) if count > 1 else (0.5, 0.5)
            step = size.icon + 2
            paste_icon(image, suit, 3 + col * step, 3 + line * step, size.icon)
    if mark == "dim":
        veil = Image.new("RGBA", (w, h), (*face, 110))
        image.alpha_composite(veil)
    return image


def face(card: Mapping[str, Any] | None, size: Size = FULL, mark: Mark = "") -> Image.Image:
    """Return the card's face as an RGBA image (cached)."""
    return _face(card_key(card), size, mark)


def paste_card(target: Image.Image, card: Mapping[str, Any] | None, x: float, y: float,
               size: Size = FULL, mark: Mark = "") -> None:
    """Paste the card's face with its top-left corner at (x, y)."""
    picture = face(card, size, mark)
    target.paste(picture, (round(x), round(y)), picture)


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
