"""Text in any script: split into runs by font, ordered for right-to-left, drawn as a mask.

A string is cut into runs of characters drawn by the same family of the fallback chain
(:func:`bot.pictures.fonts.face_for`). With Pillow's complex layout (raqm) each run is
shaped and its own right-to-left order is handled by FriBiDi; without it the characters of
a right-to-left run are reversed here and Arabic letters keep their isolated forms
(legible, not joined). Runs are laid left to right, in reverse when the string's first
strong character is right-to-left, so an Arabic or Hebrew name with a Latin number reads
in the right order in either case ("דוד 2" is drawn "2 דוד", the space between).

A character no family has is drawn as its compatibility form when the chain has that
("𝓕𝓪𝓷𝓬𝔂" as "Fancy", "𝐁𝐨𝐥𝐝" as "Bold"), or left out, never as a missing-glyph box; a word
of letters none of which can be drawn is drawn "?" (:func:`fold`), and widths are those
of the text as drawn. A combining mark the family of the character before it has no
glyph for is drawn over that character by a family that has one (a keycap by the emoji
font), or left out; a glyph FreeType cannot raster in its face is drawn by a stand-in,
or left out: words never raise.
"""

from __future__ import annotations

import contextlib
import math
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.fonts import (
    CHAIN,
    EMOJI,
    RAQM,
    Font,
    chain_font,
    drawn_as,
    face_for,
    has_glyph,
    is_mark,
    joins,
    keycap,
    layout_font,
    narrow_space,
    rasters,
)

FSI, PDI = "\u2068", "\u2069"
"""A first-strong isolate and its end: the text between reads in its own direction."""

RTL = {"R", "AL"}
"""Bidi classes of right-to-left letters."""

LTR = "\u200e"
"""Put first in a line that reads left to right whatever script it starts with (an
English sentence that starts with a name: "<name> wins with 16"); it is not drawn."""


EMOJI_STYLE = "\ufe0f"
"""Variation selector 16: the character before it is drawn as an emoji."""


def sentence(text: str) -> str:
    """Return ``text``, an English sentence that may start with a right-to-left name, as
    a line that reads left to right (the name itself still right to left)."""
    return LTR + text if _strong(text) else text


@dataclass(frozen=True, slots=True)
class Run:
    """Characters drawn with one family: its index in the chain, the text, its direction.

    An ``over`` run is one combining mark that the family of the run before it has no
    glyph for: it is drawn in a family that has one, over the last character of that run
    (centred on it, above or below it as the mark sits), and takes no width of its own.
    """

    family: int
    text: str
    rtl: bool
    over: bool = False


@dataclass(slots=True)
class _Piece:
    """A run being collected by :func:`runs`."""

    family: int
    text: str
    over: bool = False


KEYCAP = "\u20e3"
"""The combining enclosing keycap: "1\ufe0f\u20e3" is the keycap emoji 1️⃣."""


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
    (right to left when its first strong letter is, unless it starts with :data:`LTR`).

    The text is :func:`fold`-ed first. A mark the run before it has no glyph for is an
    ``over`` run (see :class:`Run`), or left out when no family has it; a keycap
    ("1\ufe0f\u20e3") goes to the emoji font when it draws one.
    """
    left_to_right = text.startswith(LTR)
    text = text.removeprefix(LTR)
    if FSI in text and (left_to_right or not _strong(_ISOLATE.sub("", text))):
        # a line that reads left to right, an isolated name in it read in its own
        # direction as one block (a number in it stays with it)
        parts = (part[1:].removesuffix(PDI) if part.startswith(FSI) else LTR + part
                 for part in _ISOLATE.split(text))
        return tuple(run for part in parts if part.removeprefix(LTR) for run in runs(part))
    text = fold(text)
    pieces: list[_Piece] = []
    for at, char in enumerate(text):
        if pieces and joins(char):
            _attach(pieces, char)
            continue
        family = face_for(char)
        last = pieces[-1] if pieces else None
        if last is not None and not last.over and (
                last.family == family or (char.isspace() and _space_joins(last, text, at))):
            last.text += char
        else:
            pieces.append(_Piece(family, char))
    found = [Run(p.family, p.text, bool(_strong(p.text)), p.over) for p in pieces]
    if _strong(text) and not left_to_right:
        return _right_to_left(found)
    return tuple(found)


_ISOLATE = re.compile(f"({FSI}[^{PDI}]*(?:{PDI}|$))")
"""A first-strong isolate and what it holds (a name made so by
:func:`bot.text.names.isolated`), to its end or the end of the text."""

MISSING = "?"
"""Drawn for a word none of whose letters any family has (see :func:`fold`)."""

_WORDS = re.compile(r"(\s+)")


def _visible(text: str) -> bool:
    """Whether ``text`` holds a character that is not a space, joiner, selector or mark."""
    return any(not (char.isspace() or joins(char)) for char in text)


@lru_cache(maxsize=4096)
def fold(text: str) -> str:
    """Return ``text`` as it is drawn: each character as :func:`bot.pictures.fonts.drawn_as`
    has it (itself, or its compatibility form: "𝓕𝓪𝓷𝓬𝔂" is drawn "Fancy"), or left out.

    Widths are measured on the same folded text (:func:`runs`), so a name is cut as it
    is drawn. A word (between spaces) that held a letter or digit of which nothing is
    left is drawn as :data:`MISSING` ("ᏣᎳᎩ wins" is drawn "? wins"); a word of symbols no
    family has is left out with the space before it ("♛ King ♛" is drawn "King"); text
    of which nothing visible is left at all is drawn "?".
    """
    if "".join(map(drawn_as, text)) == text:
        return text
    parts = _WORDS.split(text)  # words at even places, the spaces between at odd ones
    kept: list[str] = []
    for at in range(0, len(parts), 2):
        word = parts[at]
        drawn = "".join(map(drawn_as, word))
        if _visible(word) and not _visible(drawn):
            if not any(unicodedata.category(c)[0] in "LN" and not drawn_as(c) for c in word):
                continue  # only symbols: left out, with the space before it
            drawn = MISSING
        if at and (kept or not parts[0]):
            kept.append(parts[at - 1])
        kept.append(drawn)
    shown = "".join(kept)
    return shown if _visible(shown) else MISSING


def _attach(pieces: list[_Piece], char: str) -> None:
    """Add ``char``, which belongs to the character before it, to the runs ``pieces``."""
    last = pieces[-1]
    if not is_mark(char) or (not last.over and _draws_mark(last.family, char)):
        if not last.over:  # joiners and selectors after a mark drawn over: nothing to join
            last.text += char
        return
    if char == KEYCAP:  # the emoji font's keycap, or only the digit (an enclosing box
        if not last.over:  # from another font would be wider than the digit's place)
            _keycap(pieces)
        return
    family = face_for(char)
    if has_glyph(family, char):
        pieces.append(_Piece(family, char, over=True))
    # else no family has the mark: it is left out rather than drawn as a box


def _draws_mark(family: int, char: str) -> bool:
    """Whether family ``family`` draws the mark ``char`` over the character before it.

    Noto Sans CJK has a few Latin marks (U+0300, U+0301) whose ink stands right of where
    they are drawn, on the next character's place: when the family that first has the mark
    is another one, that family draws it, over the character (see :class:`Run`).
    """
    if not has_glyph(family, char):
        return False
    if face_for(char) == family:
        return True
    left, _, right, _ = ink_box(family, 24, False, char, False)
    return left < 0 or right <= left


def _keycap(pieces: list[_Piece]) -> bool:
    """Move a keycap's digit (and its selector) from the last run to a run of the emoji
    font with the keycap mark, if that font draws the keycap; return whether it did."""
    last = pieces[-1]
    body = last.text.removesuffix(EMOJI_STYLE)
    if not body or not keycap(body[-1]):
        return False
    sequence = body[-1] + EMOJI_STYLE + KEYCAP
    last.text = body[:-1]
    if not last.text:
        pieces.pop()
    if pieces and pieces[-1].family == EMOJI and not pieces[-1].over:
        pieces[-1].text += sequence
    else:
        pieces.append(_Piece(EMOJI, sequence))
    return True


def _right_to_left(found: list[Run]) -> tuple[Run, ...]:
    """The runs of a string that reads right to left, in drawing order (reversed).

    A left-to-right run keeps its characters in order, so spaces at its ends would land
    on the wrong side of it: they stand apart, between it and its neighbours ("דוד Cohen"
    is drawn "Cohen דוד"). A mark drawn over a run stays after it.
    """
    groups: list[list[Run]] = []
    for run in found:
        if run.over and groups:
            groups[-1].append(run)
            continue
        body = run.text.strip()
        if run.rtl or body == run.text:
            groups.append([run])
            continue
        if not body:
            groups.append([Run(0, run.text, False)])
            continue
        lead = run.text[:len(run.text) - len(run.text.lstrip())]
        trail = run.text[len(run.text.rstrip()):]
        groups += [[Run(0, lead, False)]] if lead else []
        groups.append([Run(run.family, body, False)])
        groups += [[Run(0, trail, False)]] if trail else []
    return tuple(run for group in reversed(groups) for run in group)


def _space_joins(piece: _Piece, text: str, at: int) -> bool:
    """Whether the space at ``text[at]`` belongs to the run before it: after left-to-right
    words (in a font whose space is narrow), or between two right-to-left words (a name
    of several words stays one right-to-left run, its words in their order)."""
    if _strong(piece.text):
        return bool(_strong(text[at + 1:].lstrip()[:1]))
    return narrow_space(piece.family)


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
    return sum(layout_font(r.family, run_size(r, size, bold), bold).getlength(_visual(r))
               for r in runs(text) if not r.over)


#: How far past the primary font's line (its ascent over the baseline, its descent under
#: it) a run's ink may reach, in parts of the text's size, before the run is drawn
#: smaller; and the smallest part of the size it is drawn at.
REACH, LEAST_SIZE = 0.25, 0.7


@lru_cache(maxsize=4096)
def run_size(run: Run, size: int, bold: bool) -> int:
    """Return the size ``run`` is drawn at: ``size``, or smaller for a script whose ink
    reaches far past the primary font's line (Tibetan stacks, Javanese and Balinese
    vowel signs under the letter: Noto Serif Tibetan descends 41 px at 30 px, Noto Sans
    9), so that it stays within :data:`REACH` of the line instead of running into the
    text above or below it, down to :data:`LEAST_SIZE` of ``size``."""
    if run.family == 0 or run.over:
        return size
    line_ascent, line_descent = chain_font(0, size, bold).getmetrics()
    left, top, right, bottom = layout_font(run.family, size, bold).getbbox(
        _visual(run), anchor="ls")
    if right <= left:
        return size
    slack = REACH * size
    scale = 1.0
    if -top > line_ascent + slack:
        scale = min(scale, (line_ascent + slack) / -top)
    if bottom > line_descent + slack:
        scale = min(scale, (line_descent + slack) / bottom)
    return size if scale >= 1.0 else max(round(size * scale), round(size * LEAST_SIZE))


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
    and pasting it afterwards saves most of the cost of text. A glyph FreeType cannot
    raster in its face never raises: see :func:`_draw_apart`.
    """
    words = clean(words)
    found = runs(words)
    # The line stands where the primary font's would, whatever script it holds: a name
    # in a taller script (Arabic) keeps the baseline of the words around it and of the
    # layout's fixed steps; the mask is as tall as its tallest family needs.
    ascent, descent = _metrics({r.family for r in found if not r.over}, size, bold)
    line_ascent, line_descent = chain_font(0, size, bold).getmetrics()
    total = _width(words, size, bold)
    pad = max(2, size // 6)
    placed: list[tuple[Run, Font, str, float, float]] = []  # run, face, text, x, y shift
    x, marks = 0.0, False
    base: tuple[Run, float, float] | None = None
    reach: list[float] = []
    for run in found:
        if run.over:
            if base is not None:
                placed.append(_over(run, *base, reach, size, bold))
                marks = True
            continue
        face = layout_font(run.family, run_size(run, size, bold), bold)
        text = _visual(run)
        advance = face.getlength(text)
        placed.append((run, face, text, x, 0.0))
        base, reach = (run, x, x + advance), []
        x += advance
    left_room, right_room = 0, 0
    if marks:
        ascent, descent, left_room, right_room = _room(placed, total, ascent, descent, size, bold)
    mask = Image.new("L", (max(1, round(total) + 2 * pad + left_room + right_room),
                           ascent + descent + 2 * pad), 0)
    draw = ImageDraw.Draw(mask)
    origin = pad + left_room
    for run, face, text, at, shift in placed:
        where = (origin + at, pad + ascent + shift)
        try:
            draw.text(where, text, font=face, fill=255, anchor="ls")
        except OSError:  # a glyph FreeType cannot raster in this face and weight
            if not run.over:  # (a mark drawn over that cannot raster is left out)
                _draw_apart(draw, where, run, run_size(run, size, bold), bold)
    horizontal, vertical = anchor[0], anchor[1]
    left = round({"l": 0.0, "m": total / 2, "r": total}.get(horizontal, 0.0))
    above = ascent - line_ascent  # the mask's room above the primary font's line
    top = above + {"a": 0, "t": 0, "m": (line_ascent + line_descent) // 2, "s": line_ascent,
                   "d": line_ascent + line_descent,
                   "b": line_ascent + line_descent}.get(vertical, 0)
    ink = mask.getbbox() or (0, 0, 1, 1)
    return TextMask(mask.crop(ink), ink[0] - origin - left, ink[1] - pad - top,
                    (-left, above - top, above + line_ascent + line_descent - top))


ABOVE = {214, 216, 228, 230, 232, 234}
"""Canonical combining classes of marks that stand above their base."""

BELOW = {202, 218, 220, 222, 224, 233}
"""Canonical combining classes of marks that stand below their base."""


def _cluster(text: str) -> str:
    """The last character of ``text`` with the marks, joiners and selectors after it."""
    at = len(text) - 1
    while at > 0 and joins(text[at]):
        at -= 1
    return text[at:]


def _over(mark: Run, base: Run, start: float, end: float, reach: list[float], size: int,
          bold: bool) -> tuple[Run, Font, str, float, float]:
    """Place ``mark`` over the last character of ``base`` (drawn from ``start`` to ``end``):
    centred on its ink, above or below it (and any mark already there, ``reach`` being
    the top and bottom taken so far), or across its middle for an overlay or enclosing
    mark. Return it as :func:`text_mask` draws it."""
    cluster = _cluster(base.text)
    advance = layout_font(base.family, size, bold).getlength(cluster)
    left = start if base.rtl else end - advance  # a right-to-left run ends on its left
    ink_left, ink_top, ink_right, ink_bottom = ink_box(base.family, size, bold, cluster, True)
    if ink_right <= ink_left:  # a space: the middle of its advance
        ink_left, ink_right = 0, round(advance)
    if not reach:  # the first mark over this character
        reach[:] = [float(ink_top), float(ink_bottom)]
    face = chain_font(mark.family, size, bold)  # unshaped: a lone mark gets no dotted circle
    m_left, m_top, m_right, m_bottom = ink_box(mark.family, size, bold, mark.text, False)
    x = left + (ink_left + ink_right) / 2 - (m_left + m_right) / 2
    gap = max(1, size // 15)
    kind = unicodedata.combining(mark.text[0])
    shift = 0.0
    if kind in ABOVE:
        shift = min(0.0, reach[0] - gap - m_bottom)
        reach[0] = m_top + shift
    elif kind in BELOW:
        shift = max(0.0, reach[1] + gap - m_top)
        reach[1] = m_bottom + shift
    elif kind == 1 or unicodedata.category(mark.text[0]) == "Me":
        shift = (ink_top + ink_bottom) / 2 - (m_top + m_bottom) / 2
    return mark, face, mark.text, x, shift


@lru_cache(maxsize=256)
def ink_box(family: int, size: int, bold: bool, text: str,
            shaped: bool) -> tuple[int, int, int, int]:
    """The box of the ink ``text`` lays in family ``family`` (``shaped``: with complex
    layout), from its origin on the baseline: left, top, right, bottom. Pillow's own box
    reaches the origin and the advance whatever the ink (a mark's ink is left of both).
    Empty ink, or text that cannot raster, gives (0, 0, 0, 0)."""
    face = (layout_font if shaped else chain_font)(family, size, bold)
    room = 4 * size
    image = Image.new("L", (2 * room, 2 * room), 0)
    try:
        ImageDraw.Draw(image).text((room, room), text, font=face, fill=255, anchor="ls")
    except OSError:
        return (0, 0, 0, 0)
    ink = image.getbbox()
    if ink is None:
        return (0, 0, 0, 0)
    return (ink[0] - room, ink[1] - room, ink[2] - room, ink[3] - room)


def _room(placed: list[tuple[Run, Font, str, float, float]], total: float, ascent: int,
          descent: int, size: int, bold: bool) -> tuple[int, int, int, int]:
    """The ascent, descent and room left and right of the words a mask needs for marks
    drawn over (a mark over a tall letter can stand above the line)."""
    left = right = 0.0
    up, down = float(ascent), float(descent)
    for run, _, text, x, shift in placed:
        if run.over:
            m_left, m_top, m_right, m_bottom = ink_box(run.family, size, bold, text, False)
            left, right = min(left, x + m_left), max(right, x + m_right)
            up, down = max(up, -(m_top + shift)), max(down, m_bottom + shift)
    return (math.ceil(up), math.ceil(down), math.ceil(-left),
            max(0, math.ceil(right - total)))


def _draw_apart(draw: ImageDraw.ImageDraw, where: tuple[float, float], run: Run, size: int,
                bold: bool) -> None:
    """Draw ``run`` at ``where`` when drawing it whole failed: the characters its face can
    raster as they are, each one it cannot in a stand-in (:func:`_stand_in`), centred in
    the room the run gives it, or not at all. Letters either side of a stand-in are
    shaped apart (Arabic letters next to it lose their joins)."""
    face = layout_font(run.family, size, bold)
    pieces: list[tuple[str, bool]] = []  # logical order: text, whether it rasters
    for cluster in _clusters(run.text):
        fine = rasters(run.family, size, bold, cluster)
        if pieces and pieces[-1][1] and fine:
            pieces[-1] = (pieces[-1][0] + cluster, True)
        else:
            pieces.append((cluster, fine))
    if run.rtl:
        pieces.reverse()
    x, y = where
    for text, fine in pieces:
        shown = text[::-1] if run.rtl and not RAQM else text
        advance = face.getlength(shown)
        if fine:
            _draw_each(draw, (x, y), shown, face)
        else:
            stand_in = _stand_in(run.family, size, bold, text)
            if stand_in is not None:
                stand_face, stand_text = stand_in
                middle = x + (advance - stand_face.getlength(stand_text)) / 2
                draw.text((middle, y), stand_text, font=stand_face, fill=255, anchor="ls")
        x += advance


def _draw_each(draw: ImageDraw.ImageDraw, where: tuple[float, float], text: str,
               face: Font) -> None:
    """Draw ``text`` whole, or, if shaped together its glyphs cannot raster after all,
    character by character, leaving out any that cannot."""
    try:
        draw.text(where, text, font=face, fill=255, anchor="ls")
        return
    except OSError:
        pass
    x, y = where
    for cluster in _clusters(text):
        with contextlib.suppress(OSError):
            draw.text((x, y), cluster, font=face, fill=255, anchor="ls")
        x += face.getlength(cluster)


def _clusters(text: str) -> list[str]:
    """``text`` cut before every character that does not belong to the one before it."""
    found: list[str] = []
    for char in text:
        if found and joins(char):
            found[-1] += char
        else:
            found.append(char)
    return found


def _stand_in(family: int, size: int, bold: bool, text: str) -> tuple[Font, str] | None:
    """What draws ``text`` (one character and its marks) when family ``family`` cannot
    raster it at ``size`` in this weight: the same family in the regular weight, the next
    family of the chain with the character, or U+FFFD in the primary font; None if none
    can (the character is left out)."""
    tries = [(family, False)] if bold else []
    for index in range(family + 1, len(CHAIN)):
        if has_glyph(index, text[0]):
            tries += [(index, bold)] + ([(index, False)] if bold else [])
    for index, weight in tries:
        if rasters(index, size, weight, text):
            return layout_font(index, size, weight), text
    if rasters(0, size, bold, REPLACEMENT):
        return layout_font(0, size, bold), REPLACEMENT
    return None


REPLACEMENT = "\ufffd"
"""The replacement character, drawn for a character no face can raster."""


def forget_words() -> None:
    """Empty the caches of drawn words (runs, widths, masks), as in a process that has
    drawn none yet."""
    fold.cache_clear()
    runs.cache_clear()
    _width.cache_clear()
    text_mask.cache_clear()
