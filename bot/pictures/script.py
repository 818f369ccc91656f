"""Text in any script: split into runs by font, ordered for right-to-left, drawn as a mask.

A string is cut into runs of characters drawn by the same family of the fallback chain
(:func:`bot.pictures.fonts.face_for`). With Pillow's complex layout (raqm) each run is
shaped and its own right-to-left order is handled by FriBiDi; without it the characters of
a right-to-left run are reversed here and Arabic letters keep their isolated forms
(legible, not joined). Runs are laid left to right, in reverse when the string's first
strong character is right-to-left, so an Arabic or Hebrew name with a Latin number reads
in the right order in either case.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.fonts import RAQM, chain_font, face_for, joins, layout_font

RTL = {"R", "AL"}
"""Bidi classes of right-to-left letters."""


@dataclass(frozen=True, slots=True)
class Run:
    """Characters drawn with one family: its index in the chain, the text, its direction."""

    family: int
    text: str
    rtl: bool


def clean(text: str) -> str:
    """``text`` on one line: control characters (line breaks, tabs) become spaces."""
    if text.isprintable():
        return text
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)


def _strong(text: str) -> bool | None:
    """True if the first strong character is right-to-left, False if left-to-right."""
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in RTL:
            return True
        if kind == "L":
            return False
    return None


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[Run, ...]:
    """Return ``text`` as runs of one family each, in the order they are drawn left to right."""
    pieces: list[list[object]] = []
    for char in text:
        family = face_for(char)
        if pieces and (joins(char) or (char.isspace() and not _is_rtl(pieces[-1]))):
            pieces[-1][1] = str(pieces[-1][1]) + char
            continue
        if pieces and pieces[-1][0] == family:
            pieces[-1][1] = str(pieces[-1][1]) + char
        else:
            pieces.append([family, char])
    found = [Run(int(str(f)), str(t), bool(_strong(str(t)))) for f, t in pieces]
    if _strong(text):
        found.reverse()
    return tuple(found)


def _is_rtl(piece: list[object]) -> bool:
    return bool(_strong(str(piece[1])))


def _visual(run: Run) -> str:
    """The run's characters in drawing order when Pillow cannot order them itself."""
    if RAQM or not run.rtl:
        return run.text
    return run.text[::-1]


def width(text: str, size: int, bold: bool = False) -> int:
    """Return the drawn width of ``text`` in pixels."""
    return round(_width(clean(text), size, bold))


@lru_cache(maxsize=4096)
def _width(text: str, size: int, bold: bool) -> float:
    return sum(layout_font(r.family, size, bold).getlength(_visual(r)) for r in runs(text))


def _metrics(families: set[int], size: int, bold: bool) -> tuple[int, int]:
    """The largest ascent and descent of the primary font and ``families`` at ``size``."""
    ascent, descent = chain_font(0, size, bold).getmetrics()
    for family in families:
        a, d = chain_font(family, size, bold).getmetrics()
        ascent, descent = max(ascent, a), max(descent, d)
    return ascent, descent


@dataclass(frozen=True, slots=True)
class TextMask:
    """Words drawn as a coverage mask, cut to its ink, placed against the anchor point.

    The mask goes at (``left``, ``top``) from the anchor point; the line the words stand
    on (from its ascent to its descent, as wide as the words) is ``line`` from it, as
    (left, top, bottom). Only the ink is pasted: pasting a colour through a mask costs
    the same for every pixel of it, inked or not.
    """

    mask: Image.Image
    left: int
    top: int
    line: tuple[int, int, int]


@lru_cache(maxsize=4096)
def text_mask(words: str, size: int, bold: bool, anchor: str) -> TextMask:
    """Return ``words`` drawn as a coverage mask and where it goes from the anchor point.

    ``anchor`` is Pillow's two letters: horizontal ``l``, ``m`` or ``r``; vertical ``a``
    (ascender), ``t`` (same), ``m`` (middle), ``s`` (baseline), ``d`` or ``b`` (descender).
    Boards repeat most of their words from one move to the next, so drawing each once
    and pasting it afterwards saves most of the cost of text.
    """
    words = clean(words)
    found = runs(words)
    ascent, descent = _metrics({r.family for r in found}, size, bold)
    total = _width(words, size, bold)
    pad = max(2, size // 6)
    mask = Image.new("L", (max(1, round(total) + 2 * pad), ascent + descent + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    x = float(pad)
    for run in found:
        face = layout_font(run.family, size, bold)
        text = _visual(run)
        draw.text((x, pad + ascent), text, font=face, fill=255, anchor="ls")
        x += face.getlength(text)
    horizontal, vertical = anchor[0], anchor[1]
    left = round({"l": 0.0, "m": total / 2, "r": total}.get(horizontal, 0.0))
    top = {"a": 0, "t": 0, "m": (ascent + descent) // 2, "s": ascent,
           "d": ascent + descent, "b": ascent + descent}.get(vertical, 0)
    ink = mask.getbbox() or (0, 0, 1, 1)
    return TextMask(mask.crop(ink), ink[0] - pad - left, ink[1] - pad - top,
                    (-left, -top, ascent + descent - top))


def forget_words() -> None:
    """Empty the caches of drawn words (runs, widths, masks), as in a process that has
    drawn none yet."""
    runs.cache_clear()
    _width.cache_clear()
    text_mask.cache_clear()
