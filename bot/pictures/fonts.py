"""Fonts for pictures: DejaVu Sans when the system has it, else Pillow's bundled font.

The bot must draw on a fresh machine with only pip installs, so every lookup falls back:
a DejaVu file from the usual places, then ``ImageFont.load_default(size=...)`` (Pillow's
own scalable font, with FreeType), then Pillow's small bitmap font.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont
"""What the drawing helpers accept as a font."""

_DIRS = (
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/dejavu",
    "/usr/share/fonts/TTF",
    "/usr/local/share/fonts",
    "/Library/Fonts",
    "C:/Windows/Fonts",
)
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=2)
def font_file(bold: bool) -> str | None:
    """Return the path of a DejaVu Sans file (bold or regular), or None if none is found."""
    for folder in _DIRS:
        path = Path(folder) / _FILES[bold]
        if path.is_file():
            return str(path)
    return None


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """Return a font of ``size`` pixels, bold if asked and available."""
    path = font_file(bold) or font_file(False)
    if path is not None:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    try:
        return ImageFont.load_default(size=size)
    except (TypeError, ImportError, OSError):
        return ImageFont.load_default()
