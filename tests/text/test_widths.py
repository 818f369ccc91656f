"""How much of a phone line text takes (bot.text.widths): letters by their width in the
font, cut to fit at a word or anywhere in a name."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.text.names import short_name
from bot.text.widths import (
    ELLIPSIS,
    LETTER,
    _quarters,
    clip_name,
    clip_words,
    fits,
    group_start,
    rows,
    shown_width,
)

#: Letters of every class: thin, ordinary, broad, double, wide, taking no room.
LETTERS = "ab .,·…iIWMmwAé😀🌙漢क\u200d\ufe0f\u0301\U0001F3FD🇫\u2190\u218f\U0010ffff"


def _is_flag_letter(ch: str) -> bool:
    return "\U0001F1E6" <= ch <= "\U0001F1FF"


def _letter_quarters(text: str) -> list[int]:
    """Each letter's room, one letter at a time (the definition): a letter after a
    joiner and the second letter of a flag's pair take none."""
    out: list[int] = []
    first_of_flag = False  # whether the last flag letter (marks aside) opened a pair
    for at, ch in enumerate(text):
        joined = at > 0 and text[at - 1] == "\u200d"
        if _is_flag_letter(ch):
            joined = joined or first_of_flag
            first_of_flag = not first_of_flag
        elif _quarters(ch):
            first_of_flag = False
        out.append(0 if joined else _quarters(ch))
    return out


def _room_letter_by_letter(text: str) -> float:
    """The room a line takes, counted one letter at a time (the definition)."""
    return sum(_letter_quarters(text)) / LETTER


def _clip_letter_by_letter(text: str, room: float) -> str:
    """A line cut as the definition says, one letter at a time: the longest start that
    leaves room for "…", then back to a word's end."""
    end, used = 0, 0.0
    for index, quarters in enumerate(_letter_quarters(text)):
        used += quarters / LETTER
        if used > room:
            break
        if used <= room - ELLIPSIS:
            end = index + 1
    else:
        return text
    cut = text[:end]
    space = cut.rfind(" ")
    if space > len(cut) // 3:
        cut = cut[:space]
    return cut.rstrip(" .,;:·—-") + "…"


def test_letters_take_the_room_they_take_in_the_font() -> None:
    """Thin letters take half an ordinary one, capitals more, W and M two, emoji two and
    a quarter, the emoji joiner and variation selector none, and emoji joined into one (a
    family, a flag, a skin tone) as much as one emoji."""
    assert shown_width("abc") == 3
    assert shown_width("ill ") == 2
    assert shown_width("WWMM") == 8 == shown_width("漢漢\u2190\u2190")
    assert shown_width("😀🌙☀") == 6.75
    assert shown_width("ABC") == 4.5
    assert shown_width("👩\u200d👩\ufe0f") == 2.25
    assert shown_width("👨\u200d👩\u200d👧") == 2.25 == shown_width("🇫🇷") == shown_width("👍🏽")
    assert shown_width("e\u0301") == 1 == shown_width("e")
    # a name in capitals takes nearly twice the room of the same in lowercase
    assert shown_width("WWWW MMMM") > 1.8 * shown_width("wxyz mnop") - 3


@given(st.text(alphabet=LETTERS, max_size=150), st.integers(0, 140))
def test_a_line_is_measured_and_cut_exactly_as_letter_by_letter(text: str, halves: int) -> None:
    # The quick walk counts runs of ordinary letters by their length; it must measure
    # and cut every line, emoji, joiners and selectors included, where the
    # letter-by-letter walk does.
    room = halves / 2
    assert shown_width(text) == _room_letter_by_letter(text)
    assert clip_words(text, room) == _clip_letter_by_letter(text, room)
    assert fits(text, room) == (_room_letter_by_letter(text) <= room)
    if halves:  # the phone lines a line takes, read only as far as one line goes
        quarters = int(LETTER * shown_width(text))
        assert rows(text, room) == max(1, -(-quarters // (2 * halves)))


@given(st.text(alphabet=LETTERS, max_size=120), st.integers(2, 60))
def test_a_clipped_line_fits_its_room_and_keeps_a_fitting_one_whole(text: str,
                                                                    room: int) -> None:
    clipped = clip_words(text, room)
    if shown_width(text) <= room:
        assert clipped == text
    else:
        assert clipped.endswith("…") and shown_width(clipped) <= room
        assert text.startswith(clipped[:-1])


@given(st.text(alphabet=LETTERS, min_size=1, max_size=32), st.integers(4, 40))
def test_a_name_is_cut_to_its_room_anywhere(name: str, room: int) -> None:
    clipped = clip_name(name, room)
    assert shown_width(clipped) <= room
    assert clipped == name or (clipped.endswith("…")
                               and name.startswith(clipped[:-1]))


def test_a_name_in_capitals_is_cut_shorter_than_one_in_lowercase() -> None:
    """A board's title holds fewer letters of a name in wide capitals, and a cut name
    made safe for markdown stays safe."""
    assert short_name("maximilian alexander", 15) == "maximilian ale…"
    assert short_name("WWWW MMMM WWWW MMMM", 15) == "WWWW MM…"
    assert short_name("cool\\_guy\\_forever\\_and\\_ever", 12) == "cool\\_guy\\_fo…"


def test_a_cut_to_a_count_of_characters_keeps_letters_whole():
    """Cut to one of Discord's limits (alt text, a field, a footer), text keeps its flags,
    joined emoji and syllables whole, closes an isolate it opened, and keeps to the limit."""
    import unicodedata

    from bot.text.widths import FSI, PDI, cut_to
    family = "\U0001F468\u200d\U0001F469\u200d\U0001F467"
    for text in ("🇫🇷" * 30, family * 12, "क्षत्रिय " * 8, FSI + "أحمد " * 12 + PDI + " won."):
        for limit in range(1, 50):
            cut = cut_to(text, limit)
            assert len(cut) <= limit and cut.count(FSI) == cut.count(PDI), (text, limit, cut)
            kept = cut if text.startswith(cut) else cut.removesuffix(PDI)
            assert text.startswith(kept), (text, limit, cut)
            if kept != text:
                assert sum(map(_is_flag_letter, kept)) % 2 == 0, cut
                assert not kept.endswith(("\u200d", "\u094d")), cut
                assert text[len(kept)] != "\u200d", cut
                assert unicodedata.category(text[len(kept)]) not in ("Mn", "Mc"), cut
    assert cut_to("abc", 3) == "abc" and cut_to("🇫🇷🇩🇪", 3) == "🇫🇷"
    assert cut_to("ab", 1) == "a" and cut_to(FSI + "أحمد", 4) == FSI + "أح" + PDI
    assert cut_to("ab" + family, 5) == "ab"
    assert cut_to("नमस्ते", 4) == "नम"


def test_styled_letters_take_their_plain_letters_room() -> None:
    """A name in styled letters (𝐁𝐨𝐥𝐝, 𝓢𝓬𝓻𝓲𝓹𝓽, 𝕯𝖔𝖚𝖇𝖑𝖊, 𝙼𝚘𝚗𝚘) takes about the room
    of its plain letters, not a wide letter's (it was cut at half its room); a wide
    letter and an emoji still take two letters' room."""
    for styled in ("𝐌𝐚𝐱𝐢𝐦𝐢𝐥𝐢𝐚𝐧 𝐀𝐥𝐞𝐱", "𝓜𝓪𝔁𝓲𝓶𝓲𝓵𝓲𝓪𝓷 𝓐𝓵𝓮𝔁", "𝕸𝖆𝖝𝖎𝖒𝖎𝖑𝖎𝖆𝖓 𝕬𝖑𝖊𝖝",
                   "𝙼𝚊𝚡𝚒𝚖𝚒𝚕𝚒𝚊𝚗 𝙰𝚕𝚎𝚡"):
        assert shown_width(styled) == shown_width("Maximilian Alex"), styled
    assert shown_width("中") == shown_width("Ａ") == 2 < shown_width("🚂")


def test_a_numbered_name_keeps_its_number_when_cut() -> None:
    """Two people named alike are seated as "Name" and "Name (2)": a cut keeps the
    number, so the two still read apart."""
    one, two = (clip_name(n, 14) for n in ("Christopher Robinson", "Christopher Robinson (2)"))
    assert two.endswith("… (2)") and fits(two, 14), two
    assert one != two and not one.endswith(")")
    assert clip_name("Sam (2)", 14) == "Sam (2)"


def test_a_thai_or_lao_syllable_keeps_its_vowel_am() -> None:
    """Thai's SARA AM (ำ) and Lao's AM (ຳ) are letters to Unicode but belong to the
    syllable before them: "สำ" is never cut to "ส", which reads as another syllable."""
    from bot.text.widths import cut_to, group_start

    thai, lao = "ประยุทธ์ สุขสำราญ", "ຄຳ ລາວ"
    assert group_start(thai, thai.index("ำ")) == thai.index("ำ") - 1
    assert group_start(lao, lao.index("ຳ")) == lao.index("ຳ") - 1
    for limit in range(1, len(thai)):
        cut = cut_to(thai, limit)
        assert thai.startswith(cut) and not cut.endswith("ส"), cut
    for room in range(4, 20):
        assert not clip_name(thai, room).endswith("ส…"), room


def test_a_cut_keeps_halfwidth_sound_marks_and_jamo_syllables_whole() -> None:
    """Halfwidth katakana's sound marks belong to the letter before them (ﾊﾟ is "pa",
    ﾊ alone "ha"), and a Hangul syllable spelt in jamo is one letter drawn: no cut falls
    inside either, on a board's line or in a picture; halfwidth letters take half a wide
    letter's room, so a halfwidth name is no wider than the same name in fullwidth."""
    from bot.pictures.canvas import fit
    half, full = "ﾎﾟｹﾓﾝﾏｽﾀｰﾊﾟﾊﾟﾊﾟ", "ポケモンマスターパパパ"
    jamo = "\u1112\u1161\u11ab\u1100\u1173\u11af" * 4  # 한글, spelt in jamo
    extending = "\uff9e\uff9f\u1161\u1173\u11ab\u11af"
    for name in (half, jamo):
        for at in range(len(name)):
            start = group_start(name, at)
            assert start == len(name) or name[start] not in extending, (name, at)
        for halves in range(2, 40):
            kept = clip_name(name, halves / 2).removesuffix("…")
            assert kept == name or name[len(kept)] not in extending, kept
        for room in range(20, 300, 9):
            cut = fit(name, 24, room).removesuffix("…")
            assert cut == name or name[len(cut)] not in extending, cut
    assert shown_width(half) <= shown_width(full)
