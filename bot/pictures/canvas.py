"""The drawing surface every board uses: text, panels, bars, tags, cards, icons, banner.

Boards draw top to bottom and keep a running ``y``; :meth:`Canvas.png` encodes only what
was drawn. A board is :data:`WIDTH` pixels wide and shown about 280 px wide on a phone, so
text a player reads is at least :data:`MIN_TEXT` pixels (about 11 px on the phone); text
that does not fit is cut with an ellipsis, never shrunk below that. Every element's box
is recorded in :attr:`Canvas.boxes`, so tests can check that nothing leaves the picture.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from bot.pictures import encode
from bot.pictures.cards import FULL, Mark, Size, card_back, face, fit_line
from bot.pictures.palette import CARD_INK, RGB, Theme
from bot.pictures.script import text_mask, width
from bot.pictures.shapes import icon
from bot.text.widths import NUMBERED

WIDTH = 760
"""Board width in pixels (shown about 280 px wide on a 360 px phone)."""

MARGIN = 16
"""Space between the picture's edge and its content."""

MAX_HEIGHT = 1100
"""The canvas is this tall; content below it is cut off."""

MIN_TEXT = 30
"""The smallest text a player must read, in pixels at :data:`WIDTH`."""

HEADLINE = 36
"""The size of an ending banner's headline (its detail line is :data:`MIN_TEXT`)."""

BANNER_ROOM = WIDTH - 4 * MARGIN
"""The width an ending banner's lines have on a board :data:`WIDTH` wide."""

DETAIL_LINE = 40
"""The distance from one of an ending banner's detail lines to the next."""

LAYERS = 160
"""Cached layers kept (rows, strips, tracks: a few KB to about 400 KB each with their
encoding, so some 40 MB at most)."""

Box = tuple[float, float, float, float]
Painter = Callable[..., None]
"""Draws a layer: called with a :class:`Canvas` and the layer's arguments."""


def fit(words: str, size: int, room: float | None, bold: bool = False) -> str:
    """Return ``words``, cut with an ellipsis if wider than ``room`` at ``size`` (only the
    ellipsis when the first character alone is too wide, nothing if that is too). A
    name numbered to tell it apart from another ("Christopher Robinson (2)") keeps its
    number ("Christopher… (2)")."""
    if room is None or width(words, size, bold) <= room:
        return words
    numbered = NUMBERED.fullmatch(words)
    if numbered is not None:
        rest = room - width(numbered["number"], size, bold)
        base = fit(numbered["base"], size, rest, bold)
        if base not in ("", "…"):
            return base + numbered["number"]
    cut = fit_line(words, size, room, bold)
    if cut != "…":
        return cut
    return "…" if words and width("…", size, bold) <= room else ""


class Canvas:
    """A board being drawn: an RGB image, its theme, and drawing methods that return sizes."""

    def __init__(self, theme: Theme, width: int = WIDTH, height: int = MAX_HEIGHT, *,
                 transparent: bool = False) -> None:
        self.theme = theme
        self.width = width
        self.transparent = transparent
        self.image = (Image.new("RGBA", (width, height), (0, 0, 0, 0)) if transparent
                      else Image.new("RGB", (width, height), theme.background))
        self.draw = ImageDraw.Draw(self.image)
        self.boxes: list[tuple[str, Box]] = []
        self.sizes: list[int] = []
        self.bottom = 0
        self.height = height
        self.bands: list[tuple[int, encode.Band]] = []
        self.covered: list[str] = []

    def record(self, what: str, box: Box, *, layered: bool = False) -> None:
        """Note that ``what`` was drawn in ``box`` (left, top, right, bottom).

        Anything drawn over the rows of a band pasted earlier (see :meth:`layer`) takes
        that band out of the encoder's reuse, so the picture stays exact.
        """
        self.boxes.append((what, box))
        if not layered:
            self._touch(box[1], box[3])

    def _touch(self, top: float, bottom: float) -> None:
        """Drop the bands whose rows meet the rows ``top`` to ``bottom``."""
        if self.bands:
            self.bands = [(row, band) for row, band in self.bands
                          if bottom <= row or top >= row + band.height]

    def text(self, x: float, y: float, words: str, size: int = MIN_TEXT, *, bold: bool = False,
             fill: RGB | None = None, anchor: str = "la", max_width: float | None = None) -> int:
        """Draw ``words`` at (x, y), cut to ``max_width``; return the drawn width."""
        words = fit(words, size, max_width, bold)
        if not words:
            return 0
        drawn_mask = text_mask(words, size, bold, anchor)
        mask, (left, top, bottom) = drawn_mask.mask, drawn_mask.line
        at = (round(x) + drawn_mask.left, round(y) + drawn_mask.top)
        self._touch(at[1], at[1] + mask.height)
        self._ink(fill or self.theme.text, at, mask)
        drawn = width(words, size, bold)
        self.record(f"text:{words}", (round(x) + left, round(y) + top,
                                      round(x) + left + drawn, round(y) + bottom))
        self.sizes.append(size)
        return drawn

    def _ink(self, colour: RGB, at: tuple[int, int], mask: Image.Image) -> None:
        """Lay ``colour`` through ``mask`` at ``at`` (composited on a transparent layer)."""
        if self.transparent and at[0] >= 0 and at[1] >= 0:
            solid = Image.new("RGBA", mask.size, (*colour, 0))
            solid.putalpha(mask)
            self.image.alpha_composite(solid, at)
        else:
            self.image.paste(colour, at, mask)

    def _put(self, picture: Image.Image, x: float, y: float) -> None:
        """Paste an RGBA ``picture`` with its own alpha at (x, y)."""
        at = (round(x), round(y))
        if self.transparent and at[0] >= 0 and at[1] >= 0:
            self.image.alpha_composite(picture, at)
        else:
            self.image.paste(picture, at, picture)

    def layer(self, paint: Painter, args: tuple[Hashable, ...], size: tuple[int, int],
              x: float, y: float, *, opaque: bool = False) -> None:
        """Paste the layer ``paint(canvas, *args)`` draws on a ``size`` canvas of its own.

        Layers are cached by theme, painter, arguments and size, so a part of a board
        that did not change since an earlier picture is pasted, not drawn again. An
        ``opaque`` layer starts from the theme's background and is copied whole (for a
        part that lies on the background and overlaps nothing); otherwise it is
        transparent and pasted through its alpha.
        """
        image, boxes, sizes, band = _layer(self.theme, paint, args, size, opaque)
        at = (round(x), round(y))
        if opaque:
            right, bottom = at[0] + image.width, at[1] + image.height
            self.covered += [what for what, box in self.boxes if box[1] < bottom
                             and box[3] > at[1] and box[0] < right and box[2] > at[0]]
            self._touch(at[1], bottom)
            self.image.paste(image, at)
        else:
            self.record("layer", (x, y, x + image.width, y + image.height))
            self._put(image, x, y)
        for what, box in boxes:
            self.record(what, (box[0] + x, box[1] + y, box[2] + x, box[3] + y), layered=True)
        self.sizes.extend(sizes)
        if band is not None and at[0] == 0 and image.width == self.width and at[1] >= 0:
            self.bands.append((at[1], band))

    def measure(self, words: str, size: int = MIN_TEXT, *, bold: bool = False) -> int:
        """Return the width ``words`` would take."""
        return width(words, size, bold)

    def panel(self, box: Box, *, fill: RGB | None = None, outline: RGB | None = None,
              width: int = 3, radius: int = 12) -> None:
        """Draw a rounded panel."""
        self.draw.rounded_rectangle(box, radius=radius, fill=fill or self.theme.panel,
                                    outline=outline, width=width if outline else 0)
        self.record("panel", box)

    def frame(self, box: Box, colour: RGB, width: int = 3, radius: int = 10) -> None:
        """Draw a rounded outline only."""
        self.draw.rounded_rectangle(box, radius=radius, outline=colour, width=width)
        self.record("frame", box)

    def dashed(self, box: Box, colour: RGB, width: int = 4, dash: int = 12,
               gap: int = 8) -> None:
        """Draw a square outline of dashes: a frame told from a solid one by its shape,
        not only by its colour (red and green look alike to a red-green colour-blind
        player)."""
        half = width / 2  # inside the box, as an outline is drawn
        left, top, right, bottom = box[0] + half, box[1] + half, box[2] - half, box[3] - half
        for a, b, vertical, at in ((left, right, False, top), (left, right, False, bottom),
                                   (top, bottom, True, left), (top, bottom, True, right)):
            start = a
            while start < b:
                end = min(start + dash, b)
                self.draw.line((at, start, at, end) if vertical else (start, at, end, at),
                               fill=colour, width=width)
                start = end + gap
        self.record("dashed", box)

    def bar(self, x: float, y: float, w: float, h: float, value: float, top: float,
            colour: RGB, *, trough: RGB = (30, 32, 36)) -> None:
        """Draw a horizontal bar filled to ``value`` out of ``top``."""
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=trough)
        share = 0.0 if top <= 0 else max(0.0, min(1.0, value / top))
        if share > 0:
            filled = max(h, w * share)
            self.draw.rounded_rectangle((x, y, x + filled, y + h), radius=h // 2, fill=colour)
        self.record("bar", (x, y, x + w, y + h))

    def tag(self, x: float, y: float, words: str, colour: RGB, *, size: int = MIN_TEXT,
            ink: RGB = CARD_INK, max_width: float | None = None) -> int:
        """Draw ``words`` in a rounded label of ``colour``; return the label's width."""
        words = fit(words, size, None if max_width is None else max_width - 16, True)
        w = self.measure(words, size, bold=True) + 16
        height = size + 8
        self.draw.rounded_rectangle((x, y, x + w, y + height), radius=height // 2, fill=colour)
        self.record("tag", (x, y, x + w, y + height))
        self.text(x + 8, y + height / 2, words, size, bold=True, fill=ink, anchor="lm")
        return w

    def card(self, card: Mapping[str, Any] | None, x: float, y: float, size: Size = FULL,
             mark: Mark = "") -> None:
        """Paste a card's face with its top-left corner at (x, y)."""
        self._put(face(card, size, mark), x, y)
        self.record("card", (x, y, x + size.width, y + size.height))

    def back(self, x: float, y: float, size: Size, count: int | None) -> None:
        """Draw a face-down pile with its number of cards."""
        card_back(self.image, x, y, size, count)
        self.record("pile", (x, y, x + size.width, y + size.height))

    def icon(self, name: str, x: float, y: float, size: int) -> None:
        """Paste icon ``name`` with its top-left corner at (x, y)."""
        self._put(icon(name, size), x, y)
        self.record(f"icon:{name}", (x, y, x + size, y + size))

    def header(self, title: str, detail: str) -> int:
        """Draw the title line (title left, detail right); return the y below it."""
        used = self.text(MARGIN, 8, title, 34, bold=True)
        room = self.width - 3 * MARGIN - used
        self.text(self.width - MARGIN, 10, detail, MIN_TEXT, fill=self.theme.muted,
                  anchor="ra", max_width=room)
        return 56

    def banner(self, y: int, headline: str, detail: str = "") -> int:
        """Draw the ending's headline across the board, and below it each line of
        ``detail`` (lines split at "\\n"); return the y below it."""
        lines = detail.split("\n") if detail else []
        height = 56 + DETAIL_LINE * len(lines)
        self.panel((MARGIN, y, self.width - MARGIN, y + height), fill=self.theme.banner)
        inner = self.width - 4 * MARGIN
        self.text(self.width / 2, y + 28, headline, HEADLINE, bold=True,
                  fill=self.theme.banner_text,
                  anchor="mm", max_width=inner)
        for i, line in enumerate(lines):
            self.text(self.width / 2, y + 74 + i * DETAIL_LINE, line, MIN_TEXT,
                      fill=self.theme.banner_text, anchor="mm", max_width=inner)
        return y + height + 10

    def png(self, bottom: int) -> bytes:
        """Return the canvas down to just below ``bottom`` as PNG bytes."""
        height = min(self.image.height, max(80, bottom + MARGIN))
        self.height = height
        return encode.png_banded(self.image, self.theme, self.bands, height)


@lru_cache(maxsize=LAYERS)
def _layer(theme: Theme, paint: Painter, args: tuple[Hashable, ...], size: tuple[int, int],
           opaque: bool) -> tuple[Image.Image, tuple[tuple[str, Box], ...], tuple[int, ...],
                                  encode.Band | None]:
    """Draw a layer once: its image, the boxes drawn in it, its text sizes, its band."""
    c = Canvas(theme, size[0], size[1], transparent=not opaque)
    paint(c, *args)
    return c.image, tuple(c.boxes), tuple(c.sizes), encode.Band(c.image) if opaque else None


def clear_layers() -> None:
    """Forget every cached layer (the benchmark starts each round from none)."""
    _layer.cache_clear()
