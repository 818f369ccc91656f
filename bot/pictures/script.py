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

from bot.pictures.fonts import RAQM, chain_font, face_for, joins, layout_font, narrow_space

RTL = {"R", "AL"}
"""Bidi classes of right-to-left letters."""

LTR = "\u200e"
"""Put first in a line that reads left to right whatever script it starts with (an
English sentence that starts with a name: "<name> wins with 16"); it is not drawn."""


def sentence(text: str) -> str:
    """Return ``text``, an English sentence that may start with a right-to-left name, as
    a line that reads left to right (the name itself still right to left)."""
    return LTR + text if _strong(text) else text


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
    """Return ``text`` as runs of one family each, in the order they are drawn left to right
    (right to left when its first strong letter is, unless it starts with :data:`LTR`)."""
    left_to_right = text.startswith(LTR)
    text = text.removeprefix(LTR)
    pieces: list[list[object]] = []
    for at, char in enumerate(text):
        family = face_for(char)
        if pieces and (joins(char) or (char.isspace() and _space_joins(pieces[-1], text, at))):
            pieces[-1][1] = str(pieces[-1][1]) + char
            continue
        if pieces and pieces[-1][0] == family:
            pieces[-1][1] = str(pieces[-1][1]) + char
        else:
            pieces.append([family, char])
    found = [Run(int(str(f)), str(t), bool(_strong(str(t)))) for f, t in pieces]
    if _strong(text) and not left_to_right:
        found.reverse()
    return tuple(found)


def _is_rtl(piece: list[object]) -> bool:
    return bool(_strong(str(piece[1])))


def _space_joins(piece: list[object], text: str, at: int) -> bool:
    """Whether the space at ``text[at]`` belongs to the run before it: after left-to-right
    words (in a font whose space is narrow), or between two right-to-left words (a name
    of several words stays one right-to-left run, its words in their order)."""
    if _is_rtl(piece):
        return bool(_strong(text[at + 1:].lstrip()[:1]))
    return narrow_space(int(str(piece[0])))


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
    # The line stands where the primary font's would, whatever script it holds: a name
    # in a taller script (Arabic) keeps the baseline of the words around it and of the
    # layout's fixed steps; the mask is as tall as its tallest family needs.
    ascent, descent = _metrics({r.family for r in found}, size, bold)
    line_ascent, line_descent = chain_font(0, size, bold).getmetrics()
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
    above = ascent - line_ascent  # the mask's room above the primary font's line
    top = above + {"a": 0, "t": 0, "m": (line_ascent + line_descent) // 2, "s": line_ascent,
                   "d": line_ascent + line_descent,
                   "b": line_ascent + line_descent}.get(vertical, 0)
    ink = mask.getbbox() or (0, 0, 1, 1)
    return TextMask(mask.crop(ink), ink[0] - pad - left, ink[1] - pad - top,
                    (-left, above - top, above + line_ascent + line_descent - top))


def forget_words() -> None:
    """Empty the caches of drawn words (runs, widths, masks), as in a process that has
    drawn none yet."""
    runs.cache_clear()
    _width.cache_clear()
    text_mask.cache_clear()
