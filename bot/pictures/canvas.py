"""The drawing surface every board uses: text, panels, bars, tags, the ending banner.

Boards draw top to bottom on a tall canvas and keep a running ``y``; :meth:`Canvas.png`
crops to what was drawn. Sizes are at twice a phone's scale (the board is
:data:`WIDTH` pixels wide and shown about half size on a phone), so text stays at 20 px
or more.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.encode import png_bytes
from bot.pictures.fonts import font
from bot.pictures.palette import RGB, Theme

WIDTH = 760
"""Board width in pixels (drawn at 2x a 380 px phone column)."""

MARGIN = 16
"""Space between the picture's edge and its content."""

MAX_HEIGHT = 1400
"""The canvas is this tall before cropping; content below it is cut off."""


@lru_cache(maxsize=2048)
def text_mask(words: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, int, int]:
    """Return ``words`` drawn as a coverage mask and its offset from the anchor point.

    Boards repeat most of their words from one move to the next, so drawing each once
    and pasting it afterwards saves most of the cost of text.
    """
    face = font(size, bold)
    left, top, right, bottom = face.getbbox(words, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), words, font=face, fill=255, anchor=anchor)
    return mask, left, top


class Canvas:
    """A board being drawn: an RGB image, its theme, and helpers that return sizes."""

    def __init__(self, theme: Theme, width: int = WIDTH, height: int = MAX_HEIGHT) -> None:
        self.theme = theme
        self.width = width
        self.image = Image.new("RGB", (width, height), theme.background)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, x: float, y: float, words: str, size: int = 22, *, bold: bool = False,
             fill: RGB | None = None, anchor: str = "la", max_width: int | None = None) -> int:
        """Draw ``words`` at (x, y); shrink the font to fit ``max_width``; return its width."""
        face = font(size, bold)
        if max_width is not None:
            while size > 12 and self.draw.textlength(words, font=face) > max_width:
                size -= 1
                face = font(size, bold)
        mask, left, top = text_mask(words, size, bold, anchor)
        self.image.paste(fill or self.theme.text, (round(x) + left, round(y) + top), mask)
        return round(self.draw.textlength(words, font=face))

    def measure(self, words: str, size: int = 22, *, bold: bool = False) -> int:
        """Return the width ``words`` would take."""
        return round(self.draw.textlength(words, font=font(size, bold)))

    def panel(self, box: tuple[float, float, float, float], *, fill: RGB | None = None,
              outline: RGB | None = None, width: int = 3, radius: int = 12) -> None:
        """Draw a rounded panel."""
        self.draw.rounded_rectangle(box, radius=radius, fill=fill or self.theme.panel,
                                    outline=outline, width=width if outline else 0)

    def bar(self, x: float, y: float, w: float, h: float, value: float, top: float,
            colour: RGB, *, trough: RGB = (30, 32, 36)) -> None:
        """Draw a horizontal bar filled to ``value`` out of ``top``."""
        self.draw.rounded_rectangle((x, y, x + w, y + h), radius=h // 2, fill=trough)
        share = 0.0 if top <= 0 else max(0.0, min(1.0, value / top))
        if share > 0:
            filled = max(h, w * share)
            self.draw.rounded_rectangle((x, y, x + filled, y + h), radius=h // 2, fill=colour)

    def tag(self, x: float, y: float, words: str, colour: RGB, *, size: int = 20,
            ink: RGB = (255, 255, 255), max_width: int | None = None) -> int:
        """Draw ``words`` in a rounded label of ``colour``; return the label's width."""
        face_size = size
        width = self.measure(words, face_size, bold=True)
        if max_width is not None:
            while face_size > 12 and width + 16 > max_width:
                face_size -= 1
                width = self.measure(words, face_size, bold=True)
        self.draw.rounded_rectangle((x, y, x + width + 16, y + size + 10), radius=(size + 10) // 2,
                                    fill=colour)
        self.text(x + 8, y + (size + 10) / 2, words, face_size, bold=True, fill=ink, anchor="lm")
        return width + 16

    def header(self, title: str, detail: str) -> int:
        """Draw the title line (title left, detail right); return the y below it."""
        width = self.text(MARGIN, 12, title, 30, bold=True)
        room = self.width - 3 * MARGIN - width
        self.text(self.width - MARGIN, 28, detail, 22, fill=self.theme.muted, anchor="rm",
                  max_width=room)
        return 58

    def banner(self, y: int, headline: str, detail: str = "") -> int:
        """Draw the ending's headline across the board; return the y below it."""
        height = 64 if not detail else 92
        self.panel((MARGIN, y, self.width - MARGIN, y + height), fill=self.theme.banner)
        inner = self.width - 4 * MARGIN
        self.text(self.width / 2, y + 34, headline, 34, bold=True, fill=self.theme.banner_text,
                  anchor="mm", max_width=inner)
        if detail:
            self.text(self.width / 2, y + 72, detail, 21, fill=self.theme.banner_text,
                      anchor="mm", max_width=inner)
        return y + height + 12

    def png(self, bottom: int) -> bytes:
        """Crop the canvas just below ``bottom`` and return it as PNG bytes."""
        height = max(80, min(self.image.height, bottom + MARGIN))
        return png_bytes(self.image.crop((0, 0, self.width, height)))
