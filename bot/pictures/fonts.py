"""Fonts for pictures: the Noto families installed with the package, chosen per character.

Every font comes from the ``manimgx-fonts`` and ``manimgx-fonts-cjk`` wheels or this
package's ``noto`` folder (Noto, SIL Open Font License 1.1), never from the host, so every
machine draws the same picture.
:data:`CHAIN` lists the families in the order they are tried; a character is drawn in the
first family that has a glyph for it (a glyph that is not the font's missing-glyph box),
see :func:`face_for`. A character no family has is drawn as its compatibility form
("𝓕𝓪𝓷𝓬𝔂" as "Fancy") or left out, never as a box (:func:`drawn_as`). Bold is the
variable fonts' weight axis at 700. A glyph FreeType cannot raster counts as missing
(:func:`has_glyph`, :func:`rasters`).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from pathlib import Path

import manimgx_fonts
import manimgx_fonts_cjk
from PIL import ImageFont, features

from bot.text.widths import printable

Font = ImageFont.FreeTypeFont
"""What the drawing functions accept as a font."""

_NOTO = Path(manimgx_fonts.__file__).parent
_CJK = Path(manimgx_fonts_cjk.__file__).parent
OWN = Path(__file__).parent / "noto"
"""The package's own Noto families: the scripts and symbols the wheels lack."""

CHAIN: tuple[Path, ...] = (
    _NOTO / "NotoSans[wght].ttf",
    _NOTO / "NotoSansArabic[wght].ttf",
    _NOTO / "NotoSansHebrew[wght].ttf",
    _CJK / "NotoSansCJK-VF.otf.ttc",
    _NOTO / "NotoSansSymbols[wght].ttf",
    _NOTO / "NotoEmoji[wght].ttf",
    _NOTO / "NotoSansDevanagari[wght].ttf",
    _NOTO / "NotoSansThai[wght].ttf",
    _NOTO / "NotoSansArmenian[wght].ttf",
    _NOTO / "NotoSansGeorgian[wght].ttf",
    _NOTO / "NotoSansBengali[wght].ttf",
    _NOTO / "NotoSansTamil[wght].ttf",
    _NOTO / "NotoSansEthiopic[wght].ttf",
    _NOTO / "NotoSansKhmer[wght].ttf",
    _NOTO / "NotoSansGujarati[wght].ttf",
    _NOTO / "NotoSansGurmukhi[wght].ttf",
    _NOTO / "NotoSansKannada[wght].ttf",
    _NOTO / "NotoSansTelugu[wght].ttf",
    _NOTO / "NotoSansMalayalam[wght].ttf",
    _NOTO / "NotoSansOriya[wght].ttf",
    _NOTO / "NotoSansSinhala[wght].ttf",
    _NOTO / "NotoSansLao[wght].ttf",
    _NOTO / "NotoSansMyanmar[wght].ttf",
    *sorted(OWN.glob("*.ttf")),
)
"""The fallback chain: Latin, Greek and Cyrillic first, then Arabic, Hebrew, CJK, symbols,
emoji and further scripts; last, the families of this package's ``noto`` folder (the
scripts and symbols the wheels lack: Tibetan, Thaana, Syriac, Cherokee, Mongolian,
Javanese, Tifinagh, runes, the dingbats of Noto Sans Symbols 2 and more; one weight
each, so their bold is drawn regular). Index 0 is the primary font. A family added later goes at the
end: a character keeps the family it had, and one the primary font has is found on the
first try whatever the chain's length (only a character no family has tries them all,
once: :func:`face_for` is cached)."""

EMOJI = CHAIN.index(_NOTO / "NotoEmoji[wght].ttf")
"""The index of Noto Emoji (monochrome outlines) in :data:`CHAIN`."""

RAQM = bool(features.check("raqm"))
"""Whether Pillow has complex layout here (shaping and bidi); see :mod:`bot.pictures.script`."""

_PROBE = "\U0010fffd"
"""A private-use character no font has: its mask is the font's missing-glyph box."""

BOLD, REGULAR = 700, 400


@lru_cache(maxsize=256)
def chain_font(index: int, size: int, bold: bool = False) -> Font:
    """Return family ``index`` of :data:`CHAIN` at ``size`` px, bold if asked."""
    face = ImageFont.truetype(str(CHAIN[index]), size, layout_engine=ImageFont.Layout.BASIC)
    _weigh(face, bold)
    return face


@lru_cache(maxsize=256)
def layout_font(index: int, size: int, bold: bool = False) -> Font:
    """Like :func:`chain_font`, with complex layout (shaping, bidi) when Pillow has it."""
    engine = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
    face = ImageFont.truetype(str(CHAIN[index]), size, layout_engine=engine)
    _weigh(face, bold)
    return face


def _weigh(face: Font, bold: bool) -> None:
    """Set the weight axis of a variable font (a family of one weight stays as it is)."""
    try:
        axes = face.get_variation_axes()
    except OSError:
        return
    weights: list[float] = []
    for axis in axes:
        wanted = BOLD if bold else REGULAR
        low, high = axis.get("minimum") or wanted, axis.get("maximum") or wanted
        weights.append(max(low, min(high, wanted)))
    face.set_variation_by_axes(weights)


def font(size: int, bold: bool = False) -> Font:
    """Return the primary font (Noto Sans) at ``size`` px."""
    return chain_font(0, size, bold)


@lru_cache(maxsize=64)
def _missing(index: int) -> bytes:
    """The bitmap of family ``index``'s missing-glyph box at the probe size."""
    mask = chain_font(index, 24).getmask(_PROBE)
    return bytes(mask) + repr(mask.size).encode()


@lru_cache(maxsize=8192)
def has_glyph(index: int, char: str) -> bool:
    """Whether family ``index`` draws ``char`` with a glyph of its own (not the box).

    A glyph FreeType cannot raster ("raster overflow") counts as missing: the next family
    with the character draws it.
    """
    try:
        mask = chain_font(index, 24).getmask(char)
    except OSError:
        return False
    return bytes(mask) + repr(mask.size).encode() != _missing(index)


def rasters(index: int, size: int, bold: bool, text: str) -> bool:
    """Whether family ``index`` at ``size`` px (bold if asked) can raster ``text``.

    FreeType gives up on a few glyphs in some weights: Noto Sans Arabic's U+FDFD (﷽) at
    weight 700 raises ``OSError: raster overflow`` at every size. Only text that failed
    to draw is checked (see :func:`bot.pictures.script.text_mask`).
    """
    try:
        layout_font(index, size, bold).getmask(text)
    except OSError:
        return False
    return True


def is_mark(char: str) -> bool:
    """Whether ``char`` is a visible combining mark (drawn over the character before it);
    variation selectors and the grapheme joiner are marks that draw nothing."""
    return unicodedata.category(char) in {"Mn", "Me"} and not (
        "\ufe00" <= char <= "\ufe0f" or char == "\u034f"
        or "\U000e0100" <= char <= "\U000e01ef")


@lru_cache(maxsize=16)
def keycap(base: str) -> bool:
    """Whether the emoji font draws ``base`` followed by U+FE0F U+20E3 as one keycap glyph
    (with complex layout only: the keycap is a ligature)."""
    if not RAQM or base not in "0123456789#*" or len(base) != 1:
        return False
    face = layout_font(EMOJI, 24)
    sequence = base + "\ufe0f\u20e3"
    drawn, plain = face.getmask(sequence), face.getmask(base)
    return (face.getlength(sequence) == face.getlength(base)
            and (bytes(drawn), drawn.size) != (bytes(plain), plain.size))


def joins(char: str) -> bool:
    """Whether ``char`` belongs to the character before it (marks, joiners, selectors)."""
    return unicodedata.category(char) in {"Mn", "Me", "Cf"} or "\ufe00" <= char <= "\ufe0f" or (
        "\U0001f3fb" <= char <= "\U0001f3ff")


@lru_cache(maxsize=64)
def narrow_space(index: int) -> bool:
    """Whether family ``index`` draws a space about as wide as the primary font does (the
    emoji font's is five times as wide: a space after an emoji is drawn in the primary)."""
    return chain_font(index, 30).getlength(" ") <= 1.5 * chain_font(0, 30).getlength(" ")


@lru_cache(maxsize=8192)
def face_for(char: str) -> int:
    """Return the index in :data:`CHAIN` of the first family with a glyph for ``char``.

    Spaces and characters no family has go to the primary font (:func:`drawn_as` keeps
    the latter out of what is drawn).
    """
    if char.isspace() or not printable(char):
        return 0
    for index in range(len(CHAIN)):
        if has_glyph(index, char):
            return index
    return 0


def _drawable(char: str) -> bool:
    """Whether ``char`` is drawn as itself: a space, a joiner or selector (drawn as
    nothing with the character before it), or a character a family has a glyph for."""
    return (char.isspace() or (joins(char) and not is_mark(char))
            or has_glyph(face_for(char), char))


@lru_cache(maxsize=8192)
def drawn_as(char: str) -> str:
    """What a picture draws for ``char``: the character itself when a family of
    :data:`CHAIN` has it (or it is a space, joiner or selector); else its compatibility
    form (NFKC) when the chain draws all of that ("𝓕" is drawn "F", "𝐁" "B", "𝕬" "A");
    else nothing ("" : no family has "♛", Cherokee or Tibetan letters, a private-use
    character, and a missing-glyph box is never drawn)."""
    if _drawable(char):
        return char
    folded = unicodedata.normalize("NFKC", char)
    if folded != char and folded.strip() and all(map(_drawable, folded)):
        return folded
    return ""
