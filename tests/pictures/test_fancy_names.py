"""Names no family of the chain has glyphs for are never drawn as boxes: "fancy text"
letters (Mathematical Alphanumeric Symbols) are drawn as their compatibility form (NFKC),
other characters are left out, and a word of letters of which nothing is left is "?".
Widths are those of the text as drawn; Arabic, CJK and emoji are drawn as before."""

from __future__ import annotations

import copy
import unicodedata

import pytest

from bot.pictures import draw_picture, script
from bot.pictures.canvas import fit
from bot.pictures.fonts import CHAIN, OWN, drawn_as, face_for, has_glyph
from bot.pictures.script import MISSING, fold, runs, text_mask, width
from tests.pictures.conftest import image, play

FANCY = {"𝓕𝓪𝓷𝓬𝔂 𝓝𝓪𝓶𝓮": "Fancy Name", "𝐁𝐨𝐥𝐝 𝐁𝐨𝐛": "Bold Bob", "𝕬𝖑𝖎𝖈𝖊": "Alice",
         "𝙼𝚘𝚗𝚘 𝟙𝟚𝟛": "Mono 123", "𝓙𝓸 🫩": "Jo"}
#: Characters no family has: Egyptian hieroglyphs and cuneiform, an emoji newer than Noto
#: Emoji, a private-use character.
UNDRAWN = ["𓀀 Pharaoh", "𒐫𒐫 Cuneiform", "🫩 Face 🫩", "Ada \ue000 Lovelace", "Ra 𓀀𓀁"]
ONLY_UNDRAWN = ["𓀀𓀁", "𒐫𒐫", "𓀀 𒐫", "\ue000", "🫩 🫩"]
SCRIPTS = ["محمد عبد الرحمن", "さくら🌸山田太郎", "李小龍", "🎮👾 Gamer😀Dude 🇯🇵",
           "👨\u200d👩\u200d👧 1\ufe0f\u20e3", "דוד Cohen", "Zoë 王\u0301", "Ｆｕｌｌ ①",
           "देवनागरी"]
#: Names in scripts and symbols the wheels lack, drawn by this package's ``noto`` fonts.
MORE_SCRIPTS = ["ᏣᎳᎩ Cherokee", "བསྟན་འཛིན", "ᠮᠣᠩᠭᠣᠯ Mongol", "ܐܪܡܝܐ Syriac", "އަހުމަދު",
                "ⴰⵎⴰⵣⵉⵖ Tifinagh", "ꦗꦮ Javanese", "ᐃᓄᒃᑎᑐᑦ", "ߒߞߏ", "ꆈꌠ Yi", "ᱚᱞ Ol Chiki",
                "ᚠᚢᚦ", "♛ King ♛", "✧ Star ✧", "ꕥ Vai ꕥ", "(ﾉ◕ヮ◕)ﾉ*:･ﾟ✧", "𞤀𞤣𞤤𞤢𞤥"]


def _boxes(text: str) -> list[tuple[str, str]]:
    """Visible characters a run draws with a family that has no glyph for them (boxes)."""
    return [(char, CHAIN[run.family].name) for run in runs(text) for char in run.text
            if not (char.isspace() or unicodedata.category(char) == "Cf"
                    or "\ufe00" <= char <= "\ufe0f" or "\U0001f3fb" <= char <= "\U0001f3ff")
            and not has_glyph(run.family, char)]


def _pixels(text: str, bold: bool = True) -> tuple[bytes, tuple[int, int], int, int]:
    drawn = text_mask(text, 30, bold, "la")
    return drawn.mask.tobytes(), drawn.mask.size, drawn.left, drawn.top


@pytest.mark.parametrize(("fancy", "plain"), FANCY.items())
def test_a_fancy_name_draws_the_pixels_of_its_plain_form(fancy: str, plain: str) -> None:
    assert not any(has_glyph(i, "𝓕") for i in range(len(CHAIN)))  # no family has them
    assert _boxes(fancy) == []
    assert fold(fancy) == plain
    for bold in (True, False):
        assert _pixels(fancy, bold) == _pixels(plain, bold)
        assert width(fancy, 30, bold) == width(plain, 30, bold)


@pytest.mark.parametrize("name", UNDRAWN)
def test_characters_no_family_has_draw_no_box(name: str) -> None:
    assert _boxes(name) == []
    assert text_mask(name, 30, True, "la").mask.getbbox() is not None
    assert all(char in fold(name) or not drawn_as(char) for char in name if not char.isspace())


def test_left_out_words_read_well() -> None:
    assert fold("🫩 King 🫩") == "King"
    assert fold("A 🫩 B") == "A B"
    assert fold("𓀀𓀁 Pharaoh") == "? Pharaoh"
    assert fold("𓀀𓀁 wins with 15") == "? wins with 15"
    assert _pixels("🫩 King 🫩") == _pixels("King")


@pytest.mark.parametrize("name", MORE_SCRIPTS)
def test_names_in_scripts_the_wheels_lack_are_drawn_as_written(name: str) -> None:
    """Tibetan, Thaana, Syriac, Cherokee, Mongolian, runes, dingbats and more are drawn
    by the package's own Noto families, as written: no box, nothing left out, no "?"."""
    assert fold(name) == name
    assert _boxes(name) == []
    assert any(CHAIN[face_for(c)].parent == OWN for c in name)
    assert text_mask(name, 30, True, "la").mask.getbbox() is not None


@pytest.mark.parametrize("name", ONLY_UNDRAWN)
def test_a_name_of_only_undrawable_characters_is_a_question_mark(name: str) -> None:
    assert _boxes(name) == []
    assert fold(name) in {MISSING, f"{MISSING} {MISSING}"}
    assert _pixels(name) == _pixels(fold(name))
    assert text_mask(name, 30, True, "la").mask.getbbox() is not None


@pytest.mark.parametrize("name", [*FANCY, *UNDRAWN, *ONLY_UNDRAWN])
def test_measuring_agrees_with_drawing(name: str) -> None:
    for bold in (True, False):
        drawn = text_mask(name, 30, bold, "la")
        ink_right = drawn.left + drawn.mask.width
        assert width(name, 30, bold) == width(fold(name), 30, bold)
        assert ink_right <= width(name, 30, bold) + 4  # the ink ends where the width does
        for room in (40, 80, 120):
            cut = fit(name, 30, room, bold)
            assert width(cut, 30, bold) <= room
            assert text_mask(cut, 30, bold, "la").mask.width <= room + 4


@pytest.mark.parametrize(("fancy", "plain"), FANCY.items())
def test_a_fancy_name_is_cut_where_its_plain_form_is(fancy: str, plain: str) -> None:
    for room in (30, 60, 90):
        assert fold(fit(fancy, 30, room, True)) == fit(plain, 30, room, True)


@pytest.mark.parametrize("name", SCRIPTS)
def test_drawable_scripts_are_drawn_as_before(name: str, monkeypatch) -> None:
    assert fold(name) == name
    new = _pixels(name), width(name, 30, True), runs(name)
    script.forget_words()
    monkeypatch.setattr(script, "fold", lambda text: text)  # the text as it was drawn
    try:
        assert (_pixels(name), width(name, 30, True), runs(name)) == new
    finally:
        monkeypatch.undo()
        script.forget_words()
    assert all(face_for(c) != 0 or has_glyph(0, c) for c in name if not c.isspace())


def test_a_board_of_fancy_names_draws_no_box(monkeypatch) -> None:
    """Every string drawn on a Steam board with such names (rows, banner) has no box."""
    drawn: list[str] = []
    original = script.runs

    def recording(text: str) -> tuple[script.Run, ...]:
        drawn.append(text)
        return original(text)

    script.forget_words()
    monkeypatch.setattr(script, "runs", recording)
    try:
        game, state = play("steam", 3, 100000, 5)
        view = copy.deepcopy(game.view(state))
        names = ["𝓕𝓪𝓷𝓬𝔂 𝓝𝓪𝓶𝓮", "♛ King ♛", "𝐁𝐨𝐥𝐝 𝐁𝐨𝐛", "ᏣᎳᎩ Cherokee", "✧ Star ✧"]
        for player, name in zip(view["players"], names, strict=True):
            player["name"] = name
        image(draw_picture("steam", view, "over" if game.is_over(state) else "active"))
    finally:
        monkeypatch.undo()
        script.forget_words()
    assert any("Cherokee" in text for text in drawn)
    assert [(text, _boxes(text)) for text in drawn if _boxes(text)] == []


def test_a_numbered_name_keeps_its_number_when_cut_in_a_picture():
    """Two people named alike ("Name", "Name (2)") still read apart when the picture cuts
    their names to a narrow room."""
    two = fit("Christopher Robinson (2)", 24, 200)
    assert two.endswith("… (2)") and script.width(two, 24) <= 200, two
    assert fit("Christopher Robinson", 24, 200) != two


@pytest.mark.parametrize("name", ["ꦗꦮꦸꦗꦸ", "ᬩᬮᬶᬤ᭄ᬯᬷ", "བསྒྲུབས"])
def test_a_script_far_taller_than_latin_stays_near_its_line(name: str) -> None:
    """Javanese and Balinese vowel signs under the letter, and Tibetan stacks, reach two
    to four times as far below the line as Latin: such a run is drawn smaller so that it
    stays near its line instead of running into the text under it (an end banner's
    scores once ran through the next line's names)."""
    drawn = text_mask(name, 30, True, "la")
    line_bottom = drawn.line[2]
    assert drawn.top + drawn.mask.height <= line_bottom + script.REACH * 30 + 2
    assert any(script.run_size(r, 30, True) < 30 for r in runs(name))


@pytest.mark.parametrize("name", [*SCRIPTS, "ᏣᎳᎩ Cherokee", "བསྟན་འཛིན", "ܐܪܡܝܐ Syriac"])
def test_scripts_near_latin_height_are_drawn_at_full_size(name: str) -> None:
    assert all(script.run_size(r, 30, True) == 30 for r in runs(name))
