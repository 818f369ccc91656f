"""Colours: the board's theme per ending, suit colours, and the card face's inks."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
"""A colour as red, green, blue."""

SUIT_COLOURS: dict[str, RGB] = {
    "Moons": (96, 78, 196),
    "Suns": (226, 142, 0),
    "Waves": (24, 118, 204),
    "Leaves": (46, 150, 62),
    "Wyrms": (200, 46, 52),
    "Knots": (128, 84, 40),
}
"""One distinct colour per suit, readable on the light card face."""

SUIT_ORDER: tuple[str, ...] = tuple(SUIT_COLOURS)
"""The project's suit order: Moons, Suns, Waves, Leaves, Wyrms, Knots."""

CARD_FACE: RGB = (246, 240, 226)
CARD_EDGE: RGB = (70, 62, 52)
CARD_INK: RGB = (34, 30, 26)
CARD_DIM: RGB = (150, 142, 130)
HIGHLIGHT: RGB = (255, 204, 64)
GOOD: RGB = (88, 196, 110)
BAD: RGB = (232, 88, 80)
MUTED: RGB = (148, 154, 164)
TEXT: RGB = (236, 238, 242)
PANEL: RGB = (54, 57, 64)


@dataclass(frozen=True, slots=True)
class Theme:
    """The colours of one board: background, panels, text, and the headline's colours."""

    background: RGB
    panel: RGB
    text: RGB
    muted: RGB
    banner: RGB
    banner_text: RGB


ACTIVE = Theme((43, 45, 49), PANEL, TEXT, MUTED, (64, 68, 78), TEXT)
WON = Theme((26, 58, 40), (40, 82, 56), TEXT, (168, 200, 176), (60, 156, 88), (255, 255, 255))
LOST = Theme((62, 30, 32), (86, 46, 48), TEXT, (206, 168, 168), (178, 54, 54), (255, 255, 255))
ENDED = Theme((46, 46, 50), (62, 62, 68), (206, 206, 210), (140, 140, 146), (96, 96, 104), TEXT)

THEMES: dict[str, Theme] = {"active": ACTIVE, "won": WON, "lost": LOST, "ended": ENDED}
"""Themes by ending: ``active``, ``won``, ``lost`` and ``ended`` (abandoned, expired)."""
