"""Combining marks the font of the character before them lacks are not drawn as boxes:
keycaps (1️⃣, #️⃣) are the emoji font's keycaps, other marks (王̶, さくら̲) are drawn over
their character by a family that has them, or left out."""

from __future__ import annotations

import unicodedata

import pytest

from bot.pictures import script
from bot.pictures.fonts import CHAIN, EMOJI, RAQM, face_for, has_glyph, is_mark, layout_font
from bot.pictures.script import ink_box, runs, text_mask, width
from tests.ci import missing

KEYCAPS = ["Player 1\ufe0f\u20e3", "#\ufe0f\u20e3 Kim", "1\u20e3", "🚂1\ufe0f\u20e3"]
MARKED = ["王\u0336小\u0336明\u0336", "さくら\u0332", "Zoë 王\u0301", "😀\u0301 ok",
          "王\u0332\u0332", "さ\u0308", "דוד\u0336"]


def _boxes(name: str) -> list[tuple[str, str]]:
    """Visible characters drawn by a family without a glyph for them."""
    return [(char, CHAIN[run.family].name) for run in runs(name) for char in run.text
            if not (char.isspace() or unicodedata.category(char) == "Cf"
                    or "\ufe00" <= char <= "\ufe0f") and not has_glyph(run.family, char)]


@pytest.mark.parametrize("name", KEYCAPS + MARKED)
def test_no_mark_is_drawn_as_a_box(name: str) -> None:
    assert _boxes(name) == []
    assert text_mask(name, 30, True, "la").mask.getbbox() is not None


@pytest.mark.parametrize("name", KEYCAPS)
def test_a_keycap_is_the_emoji_fonts_keycap(name: str) -> None:
    if not RAQM:  # Pillow's complex layout shapes the emoji font's keycap ligature
        missing("Pillow has no complex layout here: apt-get install libfribidi0")
    found = runs(name)
    keycap = [r for r in found if "\u20e3" in r.text]
    assert len(keycap) == 1 and keycap[0].family == EMOJI and not keycap[0].over
    assert keycap[0].text.endswith("1\ufe0f\u20e3") or keycap[0].text.endswith("#\ufe0f\u20e3")
    # one glyph: not the emoji font's digit with its keycap beside it
    emoji = layout_font(EMOJI, 30)
    assert emoji.getlength(keycap[0].text[-3:]) < 1.5 * emoji.getlength(keycap[0].text[-3])


def test_without_the_keycap_ligature_the_digit_is_drawn_alone(monkeypatch) -> None:
    """Without complex layout Noto Emoji has no keycap for the digit: the keycap mark is
    left out (another font's enclosing box is wider than the digit and runs into the
    letters beside it)."""
    script.forget_words()
    monkeypatch.setattr(script, "keycap", lambda base: False)
    try:
        assert runs("Player 1\ufe0f\u20e3") == runs("Player 1\ufe0f")
        assert width("Player 1\ufe0f\u20e3", 30) == width("Player 1\ufe0f", 30)
    finally:
        script.forget_words()


def test_a_mark_the_cjk_font_lacks_is_drawn_over_its_character() -> None:
    found = runs("王\u0336小")
    assert [(r.text, r.over) for r in found] == [("王", False), ("\u0336", True), ("小", False)]
    assert found[1].family == face_for("\u0336") == 0
    assert width("王\u0336小", 30) == width("王小", 30)  # the mark takes no room
    struck, plain = text_mask("王\u0336", 30, False, "la"), text_mask("王", 30, False, "la")
    assert struck.mask.tobytes() != plain.mask.tobytes()
    # the stroke lies on the character, not beside it
    assert struck.mask.width <= plain.mask.width + 1


def test_marks_above_and_below_stand_clear_of_a_tall_character() -> None:
    """Noto Sans places its acute for a lowercase letter: over 王 it is moved up to clear
    the character's ink, a low line below it, and a second one below the first."""
    acute, base = ink_box(0, 30, False, "\u0301", False), ink_box(3, 30, False, "王", True)
    marked = text_mask("王\u0301", 30, False, "ls")
    assert marked.top < base[1] - (acute[3] - acute[1])  # the acute stands above the top
    low = text_mask("王\u0332", 30, False, "ls")
    double = text_mask("王\u0332\u0332", 30, False, "ls")
    assert low.top + low.mask.height > base[3]
    assert double.top + double.mask.height > low.top + low.mask.height


def test_the_cjk_fonts_own_acute_is_not_used_beside_its_character() -> None:
    """Noto Sans CJK has U+0301 but draws it right of where it is placed (on the next
    character's place): Noto Sans's acute is drawn over the character instead."""
    assert has_glyph(3, "\u0301")
    found = runs("王\u0301")
    assert [(r.family, r.over) for r in found] == [(3, False), (0, True)]
    assert [(r.family, r.over) for r in runs("e\u0301")] == [(0, False)]  # Latin: shaped


def test_a_mark_no_family_has_is_left_out() -> None:
    missing = "\U00011038"  # Brahmi vowel sign AA: no family of the chain has Brahmi
    assert is_mark(missing) and not any(has_glyph(i, missing) for i in range(len(CHAIN)))
    assert runs("王" + missing) == runs("王")
    assert runs("Ada" + missing) == runs("Ada")


def test_variation_selectors_are_not_marks_drawn_over() -> None:
    assert not is_mark("\ufe0f") and not is_mark("\u034f") and is_mark("\u0301")
    assert runs("☕\ufe0f ok")[0].text.startswith("☕\ufe0f")
