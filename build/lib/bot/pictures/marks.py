"""Tin Realm's marks as shapes: map nodes, card icons, landscape edges, the meeple, stats."""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import ImageDraw

Draw = Callable[[ImageDraw.ImageDraw, int], None]

WATER = (40, 140, 230, 255)
WHITE = (255, 255, 255, 255)
DARK = (30, 30, 34, 255)


def _drop(d: ImageDraw.ImageDraw, s: int, colour: tuple[int, int, int, int] = WATER) -> None:
    d.ellipse((s * 0.22, s * 0.36, s * 0.78, s * 0.92), fill=colour)
    d.polygon([(s * 0.5, s * 0.04), (s * 0.25, s * 0.56), (s * 0.75, s * 0.56)], fill=colour)
    d.ellipse((s * 0.34, s * 0.55, s * 0.46, s * 0.72), fill=(255, 255, 255, 150))


def _tent(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon([(s * 0.5, s * 0.1), (s * 0.04, s * 0.88), (s * 0.96, s * 0.88)],
              fill=(224, 120, 40, 255))
    d.polygon([(s * 0.5, s * 0.42), (s * 0.34, s * 0.88), (s * 0.66, s * 0.88)], fill=DARK)
    d.line([(s * 0.02, s * 0.9), (s * 0.98, s * 0.9)], fill=(120, 70, 30, 255),
           width=round(s * 0.06))


def _flag(d: ImageDraw.ImageDraw, s: int) -> None:
    d.line([(s * 0.24, s * 0.06), (s * 0.24, s * 0.96)], fill=(230, 230, 230, 255),
           width=round(s * 0.09))
    d.polygon([(s * 0.28, s * 0.08), (s * 0.92, s * 0.26), (s * 0.28, s * 0.46)],
              fill=(232, 64, 64, 255))


def _start(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse((s * 0.08, s * 0.08, s * 0.92, s * 0.92), fill=(70, 170, 90, 255))
    d.polygon([(s * 0.36, s * 0.26), (s * 0.76, s * 0.5), (s * 0.36, s * 0.74)], fill=WHITE)


def _dot(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse((s * 0.32, s * 0.32, s * 0.68, s * 0.68), fill=(160, 164, 172, 255))


def _chest(d: ImageDraw.ImageDraw, s: int) -> None:
    d.rounded_rectangle((s * 0.08, s * 0.22, s * 0.92, s * 0.5), radius=s * 0.12,
                        fill=(160, 100, 40, 255))
    d.rectangle((s * 0.08, s * 0.46, s * 0.92, s * 0.88), fill=(138, 84, 32, 255))
    d.line([(s * 0.08, s * 0.48), (s * 0.92, s * 0.48)], fill=(70, 40, 14, 255),
           width=round(s * 0.05))
    d.rectangle((s * 0.42, s * 0.4, s * 0.58, s * 0.6), fill=(250, 200, 60, 255))


def _swords(d: ImageDraw.ImageDraw, s: int) -> None:
    blade, hilt = (110, 118, 134, 255), (176, 40, 40, 255)
    w = round(s * 0.1)
    d.line([(s * 0.14, s * 0.14), (s * 0.86, s * 0.86)], fill=blade, width=w)
    d.line([(s * 0.86, s * 0.14), (s * 0.14, s * 0.86)], fill=blade, width=w)
    d.line([(s * 0.58, s * 0.82), (s * 0.82, s * 0.58)], fill=hilt, width=w)
    d.line([(s * 0.42, s * 0.82), (s * 0.18, s * 0.58)], fill=hilt, width=w)


def _bubble(d: ImageDraw.ImageDraw, s: int) -> None:
    colour = (150, 96, 210, 255)
    d.ellipse((s * 0.06, s * 0.1, s * 0.94, s * 0.74), fill=colour)
    d.polygon([(s * 0.24, s * 0.6), (s * 0.16, s * 0.94), (s * 0.46, s * 0.68)], fill=colour)
    for x in (0.3, 0.5, 0.7):
        d.ellipse((s * (x - 0.06), s * 0.36, s * (x + 0.06), s * 0.48), fill=WHITE)


def _trap(d: ImageDraw.ImageDraw, s: int) -> None:
    steel = (96, 100, 112, 255)
    d.arc((s * 0.08, s * 0.2, s * 0.92, s * 1.04), 180, 360, fill=steel, width=round(s * 0.1))
    teeth = []
    for i in range(7):
        x = s * (0.14 + 0.72 * i / 6)
        teeth.append((x, s * 0.62 if i % 2 == 0 else s * 0.4))
    d.line(teeth, fill=steel, width=round(s * 0.08))
    d.rectangle((s * 0.08, s * 0.62, s * 0.92, s * 0.72), fill=steel)


def _mountain(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon([(s * 0.5, s * 0.12), (s * 0.02, s * 0.9), (s * 0.98, s * 0.9)],
              fill=(130, 136, 150, 255))
    d.polygon([(s * 0.5, s * 0.12), (s * 0.36, s * 0.35), (s * 0.64, s * 0.35)], fill=WHITE)


def _tree(d: ImageDraw.ImageDraw, s: int) -> None:
    d.rectangle((s * 0.43, s * 0.68, s * 0.57, s * 0.96), fill=(110, 70, 30, 255))
    green = (40, 140, 60, 255)
    d.polygon([(s * 0.5, s * 0.04), (s * 0.2, s * 0.44), (s * 0.8, s * 0.44)], fill=green)
    d.polygon([(s * 0.5, s * 0.22), (s * 0.1, s * 0.74), (s * 0.9, s * 0.74)], fill=green)


def _skull(d: ImageDraw.ImageDraw, s: int) -> None:
    bone, rim = (236, 232, 220, 255), round(s * 0.06)
    d.ellipse((s * 0.1, s * 0.02, s * 0.9, s * 0.76), fill=DARK)
    d.rectangle((s * 0.24, s * 0.56, s * 0.76, s * 0.96), fill=DARK)
    d.ellipse((s * 0.1 + rim, s * 0.02 + rim, s * 0.9 - rim, s * 0.76 - rim), fill=bone)
    d.rectangle((s * 0.24 + rim, s * 0.56, s * 0.76 - rim, s * 0.96 - rim), fill=bone)
    d.ellipse((s * 0.26, s * 0.3, s * 0.46, s * 0.5), fill=DARK)
    d.ellipse((s * 0.54, s * 0.3, s * 0.74, s * 0.5), fill=DARK)
    for x in (0.4, 0.5, 0.6):
        d.line([(s * x, s * 0.74), (s * x, s * 0.9)], fill=DARK, width=round(s * 0.04))


def _waterline(d: ImageDraw.ImageDraw, s: int) -> None:
    for row in (0.32, 0.62):
        points = [(s * (0.04 + 0.92 * t / 20),
                   s * row + math.sin(t / 20 * 2 * math.pi * 1.5) * s * 0.1) for t in range(21)]
        d.line(points, fill=WATER, width=round(s * 0.12), joint="curve")


def _meeple(d: ImageDraw.ImageDraw, s: int) -> None:
    body = [(s * 0.5, s * 0.26), (s * 0.86, s * 0.42), (s * 0.94, s * 0.56), (s * 0.66, s * 0.52),
            (s * 0.8, s * 0.96), (s * 0.56, s * 0.96), (s * 0.5, s * 0.78), (s * 0.44, s * 0.96),
            (s * 0.2, s * 0.96), (s * 0.34, s * 0.52), (s * 0.06, s * 0.56), (s * 0.14, s * 0.42)]
    d.polygon(body, fill=(255, 210, 60, 255), outline=DARK, width=round(s * 0.04))
    d.ellipse((s * 0.34, s * 0.02, s * 0.66, s * 0.34), fill=(255, 210, 60, 255), outline=DARK,
              width=round(s * 0.04))


def _heart(d: ImageDraw.ImageDraw, s: int) -> None:
    red = (226, 60, 72, 255)
    d.ellipse((s * 0.06, s * 0.12, s * 0.54, s * 0.6), fill=red)
    d.ellipse((s * 0.46, s * 0.12, s * 0.94, s * 0.6), fill=red)
    d.polygon([(s * 0.1, s * 0.46), (s * 0.9, s * 0.46), (s * 0.5, s * 0.94)], fill=red)


def _bolt(d: ImageDraw.ImageDraw, s: int) -> None:
    d.polygon([(s * 0.58, s * 0.02), (s * 0.16, s * 0.56), (s * 0.46, s * 0.56),
               (s * 0.36, s * 0.98), (s * 0.84, s * 0.4), (s * 0.52, s * 0.4)],
              fill=(250, 210, 50, 255))


def _food(d: ImageDraw.ImageDraw, s: int) -> None:
    d.ellipse((s * 0.1, s * 0.24, s * 0.9, s * 0.96), fill=(214, 70, 50, 255))
    d.line([(s * 0.5, s * 0.3), (s * 0.56, s * 0.06)], fill=(110, 70, 30, 255),
           width=round(s * 0.08))
    d.ellipse((s * 0.56, s * 0.06, s * 0.86, s * 0.22), fill=(60, 160, 70, 255))


def _poison(d: ImageDraw.ImageDraw, s: int) -> None:
    _drop(d, s, (130, 200, 60, 255))


def _star(d: ImageDraw.ImageDraw, s: int) -> None:
    points = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        r = s * (0.48 if i % 2 == 0 else 0.2)
        points.append((s / 2 + math.cos(a) * r, s * 0.53 + math.sin(a) * r))
    d.polygon(points, fill=(250, 200, 70, 255))


def _crown(d: ImageDraw.ImageDraw, s: int) -> None:
    gold = (196, 140, 20, 255)
    d.polygon([(s * 0.06, s * 0.3), (s * 0.3, s * 0.56), (s * 0.5, s * 0.18), (s * 0.7, s * 0.56),
               (s * 0.94, s * 0.3), (s * 0.84, s * 0.84), (s * 0.16, s * 0.84)], fill=gold)
    for x, y in ((0.06, 0.3), (0.5, 0.18), (0.94, 0.3)):
        d.ellipse((s * (x - 0.07), s * (y - 0.07), s * (x + 0.07), s * (y + 0.07)), fill=gold)


MARKS: dict[str, Draw] = {
    "S": _start, "F": _flag, "-": _dot, "water": _drop, "campsite": _tent,
    "loot": _chest, "enemy": _swords, "encounter": _bubble, "trap": _trap,
    "edge:mountain": _mountain, "edge:forest": _tree, "edge:skull": _skull,
    "edge:water": _waterline, "meeple": _meeple,
    "crown": _crown, "health": _heart, "energy": _bolt, "food": _food, "poison": _poison,
    "favor": _star,
}
"""The drawing of each Tin Realm mark, by the name the view uses (edges prefixed ``edge:``)."""
