"""Names in any script draw with real glyphs; every colour a player reads has 3:1 contrast."""

from __future__ import annotations

import pytest

from bot.pictures.fonts import CHAIN, OWN, face_for, has_glyph, joins
from bot.pictures.palette import SUIT_COLOURS, contrast, read_pairs
from bot.pictures.script import runs, sentence, text_mask, width
from tests.pictures.widest import LONG_NAMES

NAMES = (*LONG_NAMES, "Ŝtefan Łukasz", "Νίκος", "Ольга", "ישראל", "فاطمة", "李华", "たろう",
         "タロウ", "이서연", "🐉🔥", "🇯🇵 Kenji", "👍🏽 ok")


def test_fonts_come_with_the_package() -> None:
    """Every family is a file of the installed wheels or of the package's own folder,
    never the host's; the folder's fonts are listed in its licence."""
    for path in CHAIN:
        assert path.is_file()
        assert ("site-packages" in str(path) or "dist-packages" in str(path)
                or path.parent == OWN)
    assert (OWN / "LICENSE").read_text().count("SIL Open Font License") >= 2


@pytest.mark.parametrize("name", NAMES)
def test_every_character_has_a_real_glyph(name: str) -> None:
    for char in name:
        if char.isspace() or joins(char):
            continue
        assert has_glyph(face_for(char), char), (name, char, hex(ord(char)))


def test_missing_glyphs_are_detected() -> None:
    # Noto Sans has no Han characters: the check must see its box, and fall back.
    assert not has_glyph(0, "王")
    assert face_for("王") != 0
    assert has_glyph(0, "A") and face_for("A") == 0


@pytest.mark.parametrize("name", NAMES)
def test_names_draw_visible_ink(name: str) -> None:
    mask = text_mask(name, 30, True, "la").mask
    assert mask.getbbox() is not None
    assert width(name, 30) > 10 * len(name.split())


def test_right_to_left_names_read_right_to_left() -> None:
    arabic = runs("محمد علي")  # one right-to-left run: its words keep their order
    assert [r.text for r in arabic] == ["محمد علي"]
    assert arabic[0].rtl and arabic[0].family != 0
    hebrew_with_number = runs("דוד 7")
    assert hebrew_with_number[0].text.strip() == "7"
    assert [r.text for r in runs("Zoë 王")] == ["Zoë ", "王"]


def test_an_english_sentence_starting_with_a_right_to_left_name_reads_left_to_right() -> None:
    """"<name> wins with 16": the name stays one right-to-left run, drawn first (on the
    left), and the English words follow it; each name of a list of scores likewise."""
    line = runs(sentence("ليلى خالد wins with 16"))
    assert [(r.text, r.rtl) for r in line] == [("ليلى خالد", True), (" wins with 16", False)]
    scores = runs(sentence("محمد عبد الرحمن 13 · عبدالله بن سلمان 9"))
    assert [r.text for r in scores] == ["محمد عبد الرحمن", " 13 · ", "عبدالله بن سلمان", " 9"]
    # a line of its own reads right to left, the space between its parts
    assert [r.text for r in runs("ليلى خالد wins")] == ["wins", " ", "ليلى خالد"]
    assert sentence("Ada wins") == "Ada wins"  # nothing added where it is not needed
    assert width(sentence("ليلى wins"), 30) == width("ليلى wins", 30)  # the mark takes no room


def test_an_isolated_name_reads_as_one_block_in_its_own_direction() -> None:
    """A name the bot isolates (it holds a right-to-left letter) reads the same in a
    sentence as on its own row: "דוד 99" is "99 דוד" in both, its number with it, not
    against the score after it; and a name numbered by the table ("דוד (2)", only the
    name isolated) keeps its number after it, as Discord shows it."""
    def drawn(text: str) -> list[str]:
        return [r.text.strip() for r in runs(text) if r.text.strip()]

    name = "\u2068דוד 99\u2069"
    assert drawn(name) == ["99", "דוד"]
    assert drawn(sentence(f"{name} wins with 26")) == ["99", "דוד", "wins with 26"]
    assert drawn(sentence(f"{name} 26 · Bob 24")) == ["99", "דוד", "26 · Bob 24"]
    assert drawn("\u2068דוד\u2069 (2)") == ["דוד", "(2)"]
    arabic = "\u2068أحمد Smith\u2069"
    assert drawn(sentence(f"{arabic} 13 · Bob 9")) == ["Smith", "أحمد", "13 · Bob 9"]


def test_a_line_in_a_taller_script_keeps_the_baseline_of_the_primary_font() -> None:
    """Noto Sans Arabic stands taller than Noto Sans (ascent 42 against 33 at 30 px): a
    line holding an Arabic name still stands on the primary font's line, so the English
    words beside it, and the layout's fixed steps below it, are where a Latin line's are."""
    for anchor in ("la", "lm", "ls"):
        latin = text_mask("Ada rearranges trains", 30, True, anchor)
        arabic = text_mask(sentence("عبدالله بن سلمان rearranges trains"), 30, True, anchor)
        assert arabic.line[1:] == latin.line[1:], anchor
        # the mask still holds all of the taller script's ink
        assert arabic.top + arabic.mask.height >= latin.top + latin.mask.height


def test_emoji_sequences_stay_in_one_run() -> None:
    family = runs("👨\u200d👩\u200d👧")
    assert len(family) == 1 and family[0].family == face_for("👨")


def test_a_space_after_an_emoji_is_as_narrow_as_any_other() -> None:
    """The emoji font's space is five times the primary's: a name like "🚂🔥 Choo" is
    drawn with the space of the letters after it, as wide as the parts apart."""
    assert width("🚂🔥 Choo", 30) == width("🚂🔥", 30) + width(" Choo", 30)
    assert width("🚂🔥 Choo", 30) < width("🚂🔥", 30) + width("Choo", 30) + 15
    assert [r.text for r in runs("🚂🔥 Choo Choo")] == ["🚂🔥", " Choo Choo"]
    assert [r.text for r in runs("Ada 🚂 Bo")] == ["Ada ", "🚂", " Bo"]


def test_every_read_colour_has_three_to_one_contrast() -> None:
    failing = [(what, round(contrast(ink, ground), 2)) for what, ink, ground in read_pairs()
               if contrast(ink, ground) < 3]
    assert failing == []


def test_contrast_formula() -> None:
    assert contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert contrast((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)
    assert len({colour for colour in SUIT_COLOURS.values()}) == 6


def test_without_complex_layout_right_to_left_runs_are_reversed(monkeypatch) -> None:
    from bot.pictures import script

    monkeypatch.setattr(script, "RAQM", False)
    hebrew = script.Run(2, "דוד", True)
    assert script._visual(hebrew) == "דוד"[::-1]
    assert script._visual(script.Run(0, "Ann", False)) == "Ann"


@pytest.mark.parametrize("anchor", ["la", "mm", "rs", "ld"])
@pytest.mark.parametrize("words", ["Journey 3/13", "deck 12 · discard 4", "Ølga gy"])
def test_a_text_mask_is_cut_to_its_ink_and_pastes_the_words_as_drawn(
        words: str, anchor: str) -> None:
    """Only inked pixels are pasted (the mask is its own ink's box), yet the words land
    where Pillow draws them with the same font and anchor, pixel for pixel."""
    from PIL import Image, ImageDraw

    from bot.pictures.fonts import layout_font

    drawn = text_mask(words, 30, False, anchor)
    assert drawn.mask.getbbox() == (0, 0, *drawn.mask.size)
    ours = Image.new("RGB", (500, 120), (43, 45, 49))
    ours.paste((236, 238, 242), (150 + drawn.left, 60 + drawn.top), drawn.mask)
    pillow = Image.new("RGB", (500, 120), (43, 45, 49))
    ImageDraw.Draw(pillow).text((150, 60), words, font=layout_font(0, 30), fill=(236, 238, 242),
                                anchor=anchor)
    assert ours.tobytes() == pillow.tobytes()
    left, top, bottom = drawn.line  # the line box: from the words' start, ascent to descent
    ascent, descent = layout_font(0, 30).getmetrics()
    assert bottom - top == ascent + descent
    share = {"l": 0.0, "m": 0.5, "r": 1.0}[anchor[0]]
    assert abs(left + share * width(words, 30)) <= 1
    assert top == {"a": 0, "m": -((ascent + descent) // 2), "s": -ascent,
                   "d": -(ascent + descent)}[anchor[1]]
