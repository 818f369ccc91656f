"""Vector icons drawn as shapes: the six suits and Tin Realm's marks, cached as small images.

Every icon is drawn four times larger than asked and scaled down, which smooths its
edges; the result is an RGBA image pasted with its own alpha. Nothing here needs an
emoji font.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.pictures.palette import RGB, SUIT_COLOURS

SCALE = 4
"""How much larger icons are drawn before being scaled down."""

CLEAR = (0, 0, 0, 0)
Draw = Callable[[ImageDraw.ImageDraw, int], None]


def _rgba(colour: RGB, alpha: int = 255) -> tuple[int, int, int, int]:
    return (*colour, alpha)


def _moon(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Moons"])
    d.ellipse((s * 0.08, s * 0.08, s * 0.92, s * 0.92), fill=c)
    d.ellipse((s * 0.34, s * 0.0, s * 1.12, s * 0.78), fill=CLEAR)


def _sun(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Suns"])
    mid = s / 2
    for i in range(8):
        a = i * math.pi / 4
        tip = (mid + math.cos(a) * s * 0.49, mid + math.sin(a) * s * 0.49)
        left = (mid + math.cos(a + 0.32) * s * 0.28, mid + math.sin(a + 0.32) * s * 0.28)
        right = (mid + math.cos(a - 0.32) * s * 0.28, mid + math.sin(a - 0.32) * s * 0.28)
        d.polygon([tip, left, right], fill=c)
    d.ellipse((mid - s * 0.27, mid - s * 0.27, mid + s * 0.27, mid + s * 0.27), fill=c)


def _waves(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Waves"])
    for row in (0.26, 0.5, 0.74):
        points = [
            (s * (0.06 + 0.88 * t / 24), s * row + math.sin(t / 24 * 2 * math.pi * 1.5) * s * 0.08)
            for t in range(25)
        ]
        d.line(points, fill=c, width=max(1, round(s * 0.11)), joint="curve")


def _leaf(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Leaves"])
    base, tip = (s * 0.16, s * 0.84), (s * 0.88, s * 0.12)
    points = []
    for i in range(21):
        t = i / 20
        x = base[0] + (tip[0] - base[0]) * t
        y = base[1] + (tip[1] - base[1]) * t
        bulge = math.sin(t * math.pi) * s * 0.24
        points.append((x + bulge * 0.707, y + bulge * 0.707))
    for i in range(20, -1, -1):
        t = i / 20
        x = base[0] + (tip[0] - base[0]) * t
        y = base[1] + (tip[1] - base[1]) * t
        bulge = math.sin(t * math.pi) * s * 0.24
        points.append((x - bulge * 0.707, y - bulge * 0.707))
    d.polygon(points, fill=c)
    d.line([(s * 0.04, s * 0.96), (s * 0.7, s * 0.3)], fill=(255, 255, 255, 200),
           width=max(1, round(s * 0.05)))


def _wyrm(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Wyrms"])
    points = [
        (s * (0.14 + 0.64 * t / 30), s * 0.5 + math.sin(t / 30 * 2 * math.pi) * s * 0.26)
        for t in range(31)
    ]
    d.line(points, fill=c, width=round(s * 0.16), joint="curve")
    hx, hy = points[-1]
    d.ellipse((hx - s * 0.05, hy - s * 0.14, hx + s * 0.2, hy + s * 0.1), fill=c)
    d.ellipse((hx + s * 0.06, hy - s * 0.06, hx + s * 0.11, hy - s * 0.01),
              fill=(255, 255, 255, 255))
    tx, ty = points[0]
    d.polygon([(tx, ty - s * 0.08), (tx, ty + s * 0.08), (s * 0.02, ty + s * 0.02)], fill=c)


def _knot(d: ImageDraw.ImageDraw, s: int) -> None:
    c = _rgba(SUIT_COLOURS["Knots"])
    mid, r, ring = s / 2, s * 0.2, s * 0.2
    for i in range(3):
        a = -math.pi / 2 + i * 2 * math.pi / 3
        cx, cy = mid + math.cos(a) * ring, mid + math.sin(a) * ring + s * 0.04
        d.ellipse((cx - r - s * 0.05, cy - r - s * 0.05, cx + r + s * 0.05, cy + r + s * 0.05),
                  outline=c, width=round(s * 0.09))


SUIT_SHAPES: dict[str, Draw] = {
    "Moons": _moon, "Suns": _sun, "Waves": _waves,
    "Leaves": _leaf, "Wyrms": _wyrm, "Knots": _knot,
}
"""The drawing of each suit's icon."""


@lru_cache(maxsize=256)
def icon(name: str, size: int) -> Image.Image:
    """Return the icon ``name`` (a suit, or a mark of :mod:`bot.pictures.marks`) at ``size`` px.

    An unknown name gives a grey dot, so odd data still draws.
    """
    from bot.pictures.marks import MARKS

    big = size * SCALE
    image = Image.new("RGBA", (big, big), CLEAR)
    draw = ImageDraw.Draw(image)
    shape = SUIT_SHAPES.get(name) or MARKS.get(name)
    if shape is None:
        draw.ellipse((big * 0.35, big * 0.35, big * 0.65, big * 0.65), fill=(150, 150, 150, 255))
    else:
        shape(draw, big)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def paste_icon(target: Image.Image, name: str, x: float, y: float, size: int) -> None:
    """Paste icon ``name`` with its top-left corner at (``x``, ``y``)."""
    picture = icon(name, size)
    target.paste(picture, (round(x), round(y)), picture)
