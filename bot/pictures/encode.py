"""Turning a drawn board into compact PNG bytes, quickly.

Boards are flat colours, so a palette PNG keeps them sharp and small. The palette is
fixed once per theme (:func:`theme_palette`): every colour the boards use, and for each
ink on each ground the in-between shades that anti-aliased edges make. Each picture is
mapped to it without dithering, so no colour search runs per picture. The rows are
deflated with zlib-ng (the same format as zlib; at the levels used here about 1.6 times
as fast as zlib at the same level, and 5 to 9 % smaller) at light levels; the files
stay far below the size limit.
"""

from __future__ import annotations

import struct
from functools import lru_cache

from PIL import Image
from zlib_ng import zlib_ng as zlib

from bot.pictures import palette as colours
from bot.pictures.palette import RGB, Theme

COMPRESS_LEVEL = 2
"""Deflate level of the rows drawn anew (``python -m bench.pictures --compress-level N``
compares others); the cached bands, compressed once, use :data:`BAND_LEVEL`."""

STEPS = (1 / 3, 2 / 3)
"""Where the in-between shades of an edge sit, from the ground to the ink."""

EXTRA: tuple[RGB, ...] = (
    (0, 0, 0), (255, 255, 255), (30, 32, 36), (84, 88, 98), (110, 110, 116), (88, 64, 120),
    (220, 210, 240), (150, 120, 190), (236, 190, 60), (92, 80, 40), (120, 96, 30),
    (62, 66, 76), (86, 90, 100), (96, 100, 110), (120, 124, 134), (170, 140, 80),
    (224, 176, 60), (255, 220, 120), (80, 84, 94), (40, 30, 20), (92, 44, 44),
    (220, 64, 72), (240, 196, 40), (214, 120, 60), (130, 196, 60), (176, 140, 240),
    (40, 140, 230), (224, 120, 40), (232, 64, 64), (70, 170, 90), (160, 164, 172),
    (160, 100, 40), (138, 84, 32), (250, 200, 60), (96, 100, 112), (130, 136, 150),
    (40, 140, 60), (110, 70, 30), (236, 232, 220), (255, 210, 60), (226, 60, 72),
    (250, 210, 50), (214, 70, 50), (60, 160, 70), (250, 200, 70), (196, 140, 20),
    (240, 240, 236), (150, 96, 210), (110, 118, 134), (176, 40, 40), (150, 110, 20),
)
"""Colours of marks, bars, tags and piles that are not in a theme or the suit table."""


def _mix(ground: RGB, ink: RGB, share: float) -> RGB:
    r, g, b = (round(a + (z - a) * share) for a, z in zip(ground, ink, strict=True))
    return (r, g, b)


@lru_cache(maxsize=8)
def theme_palette(theme: Theme) -> Image.Image:
    """Return the fixed 256-colour palette image for boards in ``theme``."""
    suits = tuple(colours.SUIT_COLOURS.values())
    light = (colours.CARD_FACE, colours.DIM_FACE, colours.CHIP)
    inks = (theme.text, theme.muted, colours.HIGHLIGHT, colours.GOOD, colours.BAD,
            colours.CARD_INK)
    grounds = (theme.background, theme.panel, theme.banner)
    pairs: list[tuple[RGB, RGB]] = [(g, i) for g in grounds for i in inks]
    pairs += [(g, colours.CARD_FACE) for g in grounds]
    pairs += [(face, ink) for face in light
              for ink in (colours.CARD_INK, colours.CARD_DIM, colours.CARD_EDGE, *suits)]
    pairs += [(theme.banner, theme.banner_text), (colours.GOOD, colours.CARD_INK),
              (colours.HIGHLIGHT, colours.CARD_INK), (theme.panel, colours.HIGHLIGHT)]
    found: list[RGB] = []
    seen: set[RGB] = set()

    def add(colour: RGB) -> None:
        if colour not in seen and len(found) < 256:
            seen.add(colour)
            found.append(colour)

    for colour in (*grounds, theme.text, theme.muted, theme.banner_text, *light, *suits,
                   colours.CARD_INK, colours.CARD_DIM, colours.CARD_EDGE, colours.HIGHLIGHT,
                   colours.GOOD, colours.BAD, colours.MUTED, colours.TEXT, colours.PANEL,
                   *EXTRA):
        add(colour)
    for step in STEPS:
        for ground, ink in pairs:
            add(_mix(ground, ink, step))
    while len(found) < 256:
        found.append(found[-1])
    image = Image.new("P", (1, 1))
    image.putpalette([channel for colour in found for channel in colour])
    return image


class Band:
    """Full-width rows of a picture that come from a cached layer, encoded once per theme.

    ``image`` is the layer (RGB, as wide as the picture). :meth:`encoded` gives its rows,
    mapped to the theme's palette with PNG's filter byte (none) before each row, as a
    raw deflate piece ending on a full flush (so pieces of different bands can follow
    one another in one zlib stream), with the rows' Adler-32 and length.
    """

    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self._encoded: dict[Theme, Piece] = {}

    @property
    def height(self) -> int:
        """Rows in the band."""
        return self.image.height

    def encoded(self, theme: Theme) -> Piece:
        """Return the band's piece for ``theme``, computed once."""
        found = self._encoded.get(theme)
        if found is None:
            found = _piece(self.image, theme, BAND_LEVEL)
            self._encoded[theme] = found
        return found


BAND_LEVEL = 5
"""Deflate level of cached bands, compressed once and reused by the next pictures. Many
bands serve one picture only (a layer changes with the move: four in five of Tinker's),
so a band's level costs what it would cost drawn anew: level 6 took 40 % longer than
level 5 for 3 % fewer bytes."""


def _rows(image: Image.Image, theme: Theme) -> bytes:
    """``image`` mapped to the palette, each row led by a zero filter byte."""
    paletted = image.quantize(palette=theme_palette(theme), dither=Image.Dither.NONE)
    framed = Image.new("P", (image.width + 1, image.height), 0)
    framed.paste(paletted, (1, 0))
    return framed.tobytes()


Piece = tuple[bytes, int, int]
"""A raw deflate piece (full flush, not final), the Adler-32 and the length of its rows."""

ADLER = 65521
"""The Adler-32 modulus."""


def _piece(image: Image.Image, theme: Theme, level: int) -> Piece:
    """The filtered rows of ``image`` as a raw deflate piece, with their checksum."""
    raw = _rows(image, theme)
    packer = zlib.compressobj(level, zlib.DEFLATED, -15)
    return packer.compress(raw) + packer.flush(zlib.Z_FULL_FLUSH), zlib.adler32(raw), len(raw)


def adler_join(first: int, second: int, length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's and the second's length.

    With A = 1 + the sum of the bytes and B = the sum of A after each byte (both modulo
    65521): joined, A = A1 + A2 - 1 and B = B1 + B2 + length * (A1 - 1).
    """
    a1, b1 = first & 0xFFFF, first >> 16
    a2, b2 = second & 0xFFFF, second >> 16
    a = (a1 + a2 - 1) % ADLER
    b = (b1 + b2 + length * (a1 - 1)) % ADLER
    return (b << 16) | a


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def png_banded(image: Image.Image, theme: Theme, bands: list[tuple[int, Band]],
               height: int | None = None) -> bytes:
    """Return ``image`` as a palette PNG, reusing the encoded rows of cached ``bands``.

    ``bands`` are (top row, band) pairs whose rows in ``image`` are exactly the band's
    image; they must not overlap. The rows between them are mapped and compressed now
    (all of them when there are no bands). Only the top ``height`` rows are kept (all
    of them by default), so a canvas taller than its board needs no crop of its own;
    a band that reaches below them is left out and its rows within them compressed now.
    The result decodes to the same pixels as Pillow's own PNG of those rows mapped to
    the palette.
    """
    height = image.height if height is None else min(height, image.height)
    width = image.width
    rgb = image if image.mode == "RGB" else image.crop((0, 0, width, height)).convert("RGB")
    bands = [(top, band) for top, band in bands if top + band.height <= height]
    pieces: list[bytes] = []
    check = 1
    row = 0
    for top, band in [*sorted(bands, key=lambda b: b[0]), (height, None)]:
        if top > row:
            packed, adler, length = _piece(rgb.crop((0, row, width, top)), theme,
                                           COMPRESS_LEVEL)
            check = adler_join(check, adler, length)
            pieces.append(packed)
        if band is None:
            break
        packed, adler, length = band.encoded(theme)
        check = adler_join(check, adler, length)
        pieces.append(packed)
        row = top + band.height
    pieces.append(zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, -15).flush())
    stream = b"\x78\x9c" + b"".join(pieces) + struct.pack(">I", check)
    colours = theme_palette(theme).getpalette() or []
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"PLTE", bytes(colours[:768])) + _chunk(b"IDAT", stream)
            + _chunk(b"IEND", b""))
