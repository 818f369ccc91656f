"""Every Noto Sans family the font wheels ship is in the fallback chain, so names in
Gujarati, Gurmukhi, Kannada, Telugu, Malayalam, Oriya, Sinhala, Lao and Myanmar are
drawn with their glyphs, not boxes; Latin is still found in the first family."""

from __future__ import annotations

from pathlib import Path

import manimgx_fonts
import pytest

from bot.pictures import fonts
from bot.pictures.fonts import CHAIN, face_for, has_glyph, joins
from bot.pictures.script import runs, text_mask

NAMES = {"Gujarati": "ગુજરાતી Patel", "Kannada": "ಠ_ಠ", "Gurmukhi": "ਪੰਜਾਬੀ",
         "Telugu": "తెలుగు", "Malayalam": "മലയാളം", "Oriya": "ଓଡ଼ିଆ", "Sinhala": "සිංහල",
         "Lao": "ລາວ", "Myanmar": "မြန်မာ"}


def test_every_shipped_family_is_in_the_chain() -> None:
    shipped = {p.name for p in Path(manimgx_fonts.__file__).parent.glob("NotoSans*.ttf")
               if "Italic" not in p.name}
    assert shipped <= {p.name for p in CHAIN}


@pytest.mark.parametrize(("script", "name"), NAMES.items())
def test_names_in_the_added_scripts_draw_their_own_glyphs(script: str, name: str) -> None:
    for char in name:
        if char.isspace() or joins(char):
            continue
        family = face_for(char)
        assert has_glyph(family, char), (name, char)
        assert script in CHAIN[family].name or family == 0 or char in "_", (char, CHAIN[family])
    for run in runs(name):  # the marks and signs after a letter have a glyph in its font
        assert all(has_glyph(run.family, c) for c in run.text if not c.isspace()), run
    assert text_mask(name, 30, True, "la").mask.getbbox() is not None


def test_added_families_come_after_the_others() -> None:
    """A character keeps the family it had before the chain grew."""
    first = [p.name for p in CHAIN[:14]]
    assert first[:6] == ["NotoSans[wght].ttf", "NotoSansArabic[wght].ttf",
                         "NotoSansHebrew[wght].ttf", "NotoSansCJK-VF.otf.ttc",
                         "NotoSansSymbols[wght].ttf", "NotoEmoji[wght].ttf"]
    assert first[-1] == "NotoSansKhmer[wght].ttf"
    assert CHAIN[fonts.EMOJI].name == "NotoEmoji[wght].ttf"


def test_latin_is_found_on_the_first_try(monkeypatch) -> None:
    """The lookup of a Latin character asks the primary font alone, however long the
    chain; only a character no family has asks them all (once: the answer is cached)."""
    asked: list[int] = []
    original = fonts.has_glyph.__wrapped__

    def counting(index: int, char: str) -> bool:
        asked.append(index)
        return original(index, char)

    monkeypatch.setattr(fonts, "has_glyph", counting)
    lookup = fonts.face_for.__wrapped__  # uncached
    for char in "Ada Łukasz Ζωή Ольга 42":
        if not char.isspace():
            asked.clear()
            assert lookup(char) == 0 and asked == [0], char
    asked.clear()
    assert lookup("\U00013000") == 0  # an Egyptian hieroglyph: no family has it
    assert asked == list(range(len(CHAIN)))
