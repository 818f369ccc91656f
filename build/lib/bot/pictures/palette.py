"""Colours: the board's theme per ending, suit colours, the card face's inks, and contrast.

Suit marks are always drawn on a light ground (a card face, or a light chip disc on the
chip panel), and every suit colour has at least 3:1 contrast against it (WCAG 1.4.11);
suits are told apart by shape as well as colour. :func:`contrast` computes the WCAG ratio.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
"""A colour as red, green, blue."""

SUIT_COLOURS: dict[str, RGB] = {
    "Moons": (92, 64, 190),
    "Suns": (176, 96, 0),
    "Waves": (20, 104, 184),
    "Leaves": (34, 124, 48),
    "Wyrms": (196, 40, 48),
    "Knots": (128, 84, 40),
}
"""One distinct colour per suit, at least 3:1 against the card face and the chip disc."""

SUIT_ORDER: tuple[str, ...] = tuple(SUIT_COLOURS)
"""The project's suit order: Moons, Suns, Waves, Leaves, Wyrms, Knots."""

CARD_FACE: RGB = (246, 240, 226)
DIM_FACE: RGB = (226, 222, 214)
CHIP: RGB = (236, 232, 222)
CARD_EDGE: RGB = (70, 62, 52)
CARD_INK: RGB = (34, 30, 26)
CARD_DIM: RGB = (150, 142, 130)
HIGHLIGHT: RGB = (255, 204, 64)
GOOD: RGB = (88, 196, 110)
BAD: RGB = (255, 128, 118)
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


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: RGB) -> float:
    """Return the WCAG relative luminance of ``colour`` (0 black to 1 white)."""
    r, g, b = (_channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """Return the WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


COUNTING_PANEL: RGB = (92, 80, 40)
"""The gold-brown cell behind a chip suit that counts for the challenge."""

TAGS: tuple[RGB, ...] = (GOOD, HIGHLIGHT, (226, 168, 72), (150, 150, 156))
"""Label colours that carry dark card ink (to play, here/next, away, resigned)."""


def read_pairs() -> list[tuple[str, RGB, RGB]]:
    """Every (what, ink, ground) a player reads, in every theme, for contrast checks."""
    pairs: list[tuple[str, RGB, RGB]] = []
    for mood, theme in THEMES.items():
        for ground_name, ground in (("background", theme.background), ("panel", theme.panel)):
            for ink_name, ink in (("text", theme.text), ("muted", theme.muted),
                                  ("highlight", HIGHLIGHT), ("good", GOOD), ("bad", BAD)):
                pairs.append((f"{mood} {ink_name} on {ground_name}", ink, ground))
        pairs.append((f"{mood} banner text", theme.banner_text, theme.banner))
    for ink_name, ink in (("text", TEXT), ("highlight", HIGHLIGHT), ("bad", BAD)):
        pairs.append((f"{ink_name} on a counting chip cell", ink, COUNTING_PANEL))
    for ground_name, ground in (("card face", CARD_FACE), ("faded face", DIM_FACE),
                                ("chip disc", CHIP)):
        pairs.append((f"card ink on {ground_name}", CARD_INK, ground))
        for suit, colour in SUIT_COLOURS.items():
            pairs.append((f"{suit} on {ground_name}", colour, ground))
    for tag in TAGS:
        pairs.append((f"card ink on tag {tag}", CARD_INK, tag))
    return pairs
