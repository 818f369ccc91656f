"""How much of a phone line text takes in Discord's proportional font, and cutting it to fit.

Room is counted in letters of ordinary text (a sentence of lowercase words, spaces and a
few capitals), by quarters: most letters take a letter's room (four quarters); the thin
ones (spaces, ``i``, ``l``, ``I``, punctuation) half of it; most capitals and the round
lowercase ``w`` one and a half; ``W``, ``M``, ``m``, ``@`` two, as does a letter of the
East Asian scripts or an arrow; an emoji (and a symbol, which a phone draws in the emoji
font: ☀, ❤) two and a quarter, as it is drawn a quarter wider than the line's font size;
an emoji's variation selector and skin tone, the joiners, a combining mark and an emoji
joined onto the one before it (a family of three is one emoji) take no room, nor does
the second letter of a flag's pair (a flag takes an emoji's room). A letter with marks
not listed takes its plain letter's room (``Ŵ`` a ``W``'s).

The Latin classes follow the widths of Noto Sans and DejaVu Sans, the wider of the two.
The Greek and Cyrillic ones are measured against each font's ``n`` in the phone
preview's font (Liberation Sans, Arial's widths, regular and bold), Noto Sans and DejaVu
Sans: the widest of them, a tenth of half a letter allowed, rounded up to half a letter
(``Д`` and ``м`` one and a half, ``Ж``, ``Ш`` and ``Ю`` two). A name in capitals ("WWWW
MMMM") so takes nearly twice the room of one in lowercase, as it does on a phone.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from itertools import accumulate

#: The first wide letter: arrows, symbols, emoji and the East Asian scripts take two letters'
#: room or more.
WIDE_FROM = "\u2190"
#: What takes no room: an emoji's variation selector and the joiner between emoji (as
#: do the other joiners, selectors, skin tones and marks: :func:`joins_on`).
NO_ROOM = "\ufe0f\u200d"
#: The zero-width joiner: the character after it is drawn joined onto the one before.
ZWJ = "\u200d"
#: A regional-indicator letter: two make a flag.
_FLAG_LETTER = re.compile("[\U0001F1E6-\U0001F1FF]")
#: A letter's room, in quarters (the unit the room is counted in).
LETTER = 4
#: An emoji's room, in quarters: a colour emoji is drawn 1.25 times the font size wide,
#: some 2.1 to 2.25 ``n`` of the line's font (bold titles, plain lines, the footer's small
#: print), where a ``W`` is 1.5 to 1.7.
EMOJI = 9
#: Latin letters and signs taking half of a letter's room (the narrow no-break space less,
#: counted so).
_THIN = " \u202f!'(),-./:;[]`|·fijlIJÌÍÎÏìíîïıł"
#: Latin letters and signs taking one and a half letters' room.
_BROAD = "…—#&+<=>^~wABCDGHKNOPQRUVXZÀÁÂÃÄÅÇÐÑÒÓÔÕÖØÙÚÛÜÞ"
#: Latin letters and signs taking two letters' room below :data:`WIDE_FROM`.
_DOUBLE = "%@MWm©®ÆæŒœ"
#: Greek and Cyrillic letters (U+0370 to U+052F) taking half of a letter's room, measured
#: (the module's docstring says how); the others not listed take a letter's room.
_THIN_GREEK_CYRILLIC = "ʹͿϳІЇіїј"
#: Greek and Cyrillic letters taking one and a half letters' room, measured.
_BROAD_GREEK_CYRILLIC = (
    "ͰͲͳͶͷΆΈΉΌΎΏΑΒΔΕΖΗΘΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩΫπσφψωώϏϐϑϒϓϔϕϖϗϘϙϚϛϞϟϡϣϤϥϦϧϨϩϪϫϬϭϮϰϱϴϵϷϸϹϻϼϽϾϿ"
    "ЀЁЄЅЋЌЍЎЏАБВДЕЗИЙКЛМНОПРСТУФХЦЧЪЬЭЯджмфцшъыюњѡѢѣѥѧѪѫѭѮѰѲѴѵѶѷѻѿҀҊҋҌҍҎҏҒғҔҘҚқҜҝҞҟ"
    "ҠҡҢңҩҪҬҮүҰұҲҳҵҶҷҸҹҺһҽҿӃӄӅӆӇӈӉӊӋӌӎӐӑӒӓӖӗӘәӚӛӞӠӢӣӤӥӦӧӨөӪӫӬӮӯӰӱӲӳӴӵӶӹӺӻӼӽӾӿ"
    "ԀԁԆԇԌԍԎԏԐԒԓԚԛԝԞԟԤԥԦԧԨԬԮ")
#: Greek and Cyrillic letters taking two letters' room, measured.
_DOUBLE_GREEK_CYRILLIC = "ϠϢϺЂЉЊЖШЩЫЮщљѠѤѦѩѬѱѸѹѺѽѾҖҗҤҥҦҧҨҴҼҾӁӂӍӔӕӜӝӸԂԃԄԅԈԉԊԋԕԖԗԘԙԜԠԡԢԣԫ"
#: Old Cyrillic letters wider still, taking two and a half letters' room, measured.
_WIDER_CYRILLIC = "ѨѼԔԪ"


#: The kinds of characters that show as nothing of their own: control, format, surrogate,
#: private-use and line and paragraph separator characters.
_UNSEEN = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
#: Code points kept for characters a phone draws as nothing (default ignorable), assigned
#: or not yet.
_IGNORED = re.compile("[\u2065\ufff0-\ufff8\U000e0000-\U000e0fff]")


def printable(ch: str) -> bool:
    """Whether ``ch`` shows as a character (a space, a letter, a mark, a symbol): what
    ``str.isprintable`` says, but a character this Python's Unicode tables do not know
    yet (an emoji newer than them, such as 🩷) counts as shown, as it is on a phone. The
    noncharacters (U+FFFE, U+FDD0...) do not."""
    if ch.isprintable():
        return True
    if "\ufdd0" <= ch <= "\ufdef" or (ord(ch) & 0xFFFE) == 0xFFFE or _IGNORED.match(ch):
        return False
    return unicodedata.category(ch) not in _UNSEEN and (ch == " " or not ch.isspace())


def joins_on(ch: str) -> bool:
    """Whether ``ch`` is drawn on (or between) the letters around it, in no room of its
    own: a combining mark, a joiner or other format character, a variation selector or a
    skin tone."""
    return (unicodedata.category(ch) in {"Mn", "Me", "Cf"}
            or "\U0001F3FB" <= ch <= "\U0001F3FF")


def _joined(text: str) -> list[int]:
    """Return where in ``text`` a letter is drawn as part of the one before it: after a
    joiner, or the second of a flag's pair of regional-indicator letters."""
    found: list[int] = []
    if ZWJ in text:
        found += [at + 1 for at, ch in enumerate(text[:-1]) if ch == ZWJ]
    if _FLAG_LETTER.search(text):
        alone = False  # whether the letter before is a flag's first
        for at, ch in enumerate(text):
            if _FLAG_LETTER.match(ch):
                if alone:
                    found.append(at)
                alone = not alone
            elif not joins_on(ch):
                alone = False
    return found


def _room_of(text: str) -> list[int]:
    """Return the quarters of room each letter of ``text`` takes, in context."""
    quarters = list(map(_QUARTERS_OF, text))
    for at in _joined(text):
        quarters[at] = 0
    return quarters


def _total(text: str) -> int:
    """Return the quarters of room ``text`` takes."""
    if ZWJ not in text and not _FLAG_LETTER.search(text):
        return sum(map(_QUARTERS_OF, text))
    return sum(_room_of(text))


#: The Thai and Lao vowels written before the consonant they follow in speech: a cut
#: never falls between one and its consonant.
_PREPENDED = frozenset("\u0e40\u0e41\u0e42\u0e43\u0e44\u0ec0\u0ec1\u0ec2\u0ec3\u0ec4")


#: Thai's and Lao's vowel AM: a letter to Unicode, but drawn as one with the syllable
#: before it, so a cut never falls before it.
_SARA_AM = frozenset("\u0e33\u0eb3")


def _binds_next(ch: str) -> bool:
    """Whether ``ch`` is drawn as one with the letter after it: a virama (Indic scripts'
    halant, the Khmer coeng: combining class 9) or a Thai or Lao prepended vowel."""
    return ch in _PREPENDED or unicodedata.combining(ch) == 9


#: Letters written as one with the letter before them though Unicode's categories do not
#: say so: halfwidth katakana's sound marks (ﾊﾟ is "pa", ﾊ alone "ha").
_EXTENDING = frozenset("\uff9e\uff9f")


def _extends(ch: str) -> bool:
    """Whether ``ch`` belongs to the letter before it as one drawn letter: a halfwidth
    sound mark, Thai's and Lao's AM, or a Hangul vowel or final consonant jamo (a
    syllable spelt in jamo is drawn as one)."""
    return (ch in _EXTENDING or ch in _SARA_AM
            or "\u1160" <= ch <= "\u11ff" or "\ud7b0" <= ch <= "\ud7ff")


def group_start(text: str, at: int) -> int:
    """Return the nearest place at or before ``at`` where ``text`` may be cut: not inside
    a flag's pair, nor before a mark (spacing or not), selector, skin tone or joiner, nor
    after a joiner, nor inside a syllable of the Indic, Khmer, Thai, Lao or Hangul
    scripts (after a virama or a prepended vowel, before a vowel jamo), nor before a
    halfwidth katakana's sound mark."""
    at = max(0, min(at, len(text)))
    joined = set(_joined(text))
    while 0 < at < len(text) and (
            joins_on(text[at]) or at in joined or unicodedata.category(text[at]) == "Mc"
            or _extends(text[at])
            or (_binds_next(text[at - 1]) and not text[at].isspace())):
        at -= 1
    return at


def cut_to(text: str, limit: int) -> str:
    """Return the longest start of ``text`` of at most ``limit`` characters that ends
    between two letters as shown (:func:`group_start`), with any isolate it opens closed
    (a limit of Discord's counted in characters, not room on a line)."""
    if len(text) <= limit:
        return text
    cut = text[:group_start(text, limit)]
    while cut and len(closed(cut)) > limit:
        cut = cut[:group_start(cut, len(cut) - 1)]
    return closed(cut)


class _Quarters(dict[str, int]):
    """Each letter's room in quarters, filled in as letters are first met (a letter met is
    looked up in C from then on)."""

    def __missing__(self, ch: str) -> int:
        if joins_on(ch):
            quarters = 0
        elif ch < WIDE_FROM:  # a letter with marks (Ŵ, ἄ) takes its plain letter's room
            plain = unicodedata.normalize("NFD", ch)[0]
            quarters = self[plain] if plain != ch else LETTER
        elif unicodedata.east_asian_width(ch) == "H":  # halfwidth katakana, Hangul
            quarters = LETTER
        elif unicodedata.east_asian_width(ch) in ("F", "W"):
            # wide letters, fullwidth ones (Ａ) too; an emoji a little more
            quarters = EMOJI if unicodedata.category(ch) == "So" else 2 * LETTER
        else:  # a styled letter (𝐁, 𝓢, 𝕯, 𝙼) takes its plain letter's room
            folded = unicodedata.normalize("NFKC", ch)
            if len(folded) == 1 and folded < WIDE_FROM and folded.isalnum():
                quarters = self[folded]
            else:  # a symbol a phone draws as an emoji (☀, ❤) or an arrow
                quarters = EMOJI if unicodedata.category(ch) == "So" else 2 * LETTER
        self[ch] = quarters
        return quarters


_QUARTERS = _Quarters({
    **{ch: LETTER // 2 for ch in _THIN + _THIN_GREEK_CYRILLIC},
    **{ch: LETTER * 3 // 2 for ch in _BROAD + _BROAD_GREEK_CYRILLIC},
    **{ch: 2 * LETTER for ch in _DOUBLE + _DOUBLE_GREEK_CYRILLIC},
    **{ch: LETTER * 5 // 2 for ch in _WIDER_CYRILLIC},
    **{ch: 0 for ch in NO_ROOM}})
_QUARTERS_OF = _QUARTERS.__getitem__
#: The most quarters one character takes.
_WIDEST = max(EMOJI, *_QUARTERS.values())

#: The room of the "…" marking a cut.
ELLIPSIS = _QUARTERS["…"] / LETTER


def _quarters(ch: str) -> int:
    """Return the quarters of a letter's room ``ch`` takes."""
    return _QUARTERS[ch]


def shown_width(text: str) -> float:
    """Return how many letters' room ``text`` takes on a phone line (counted in quarters)."""
    return _total(text) / LETTER


def fitting(text: str, room: float) -> int:
    """Return how many letters of ``text``, from its start, fit in ``room`` letters (a
    letter taking no room right after them counts in)."""
    quarters = int(room * LETTER)
    if quarters < 0:
        return 0
    if _WIDEST * len(text) <= quarters:
        return len(text)
    return bisect_right(list(accumulate(_room_of(text))), quarters)


def fits(text: str, room: float) -> bool:
    """Whether all of ``text`` fits in ``room`` letters."""
    return _WIDEST * len(text) <= room * LETTER or _total(text) <= room * LETTER


def rows(line: str, room: float) -> int:
    """Return how many phone lines of ``room`` letters ``line`` takes (one at least)."""
    return 1 if fits(line, room) else -(-_total(line) // int(LETTER * room))


FSI, PDI = "\u2068", "\u2069"
"""The first-strong isolate and its end: a right-to-left name between them reads as one
word in a left-to-right line ("أحمد 5. 4" keeps its numbers after the name)."""


def closed(text: str) -> str:
    """Return ``text`` with an end (PDI) for each isolate a cut left open, so that what
    follows the cut is not read as part of the name (a cut's "…" goes before the end:
    inside a right-to-left name it then shows where the name was cut)."""
    left_open = text.count(FSI) - text.count(PDI)
    return text + PDI * left_open if left_open > 0 else text


def clip_words(text: str, room: float) -> str:
    """Return ``text`` cut to at most ``room`` letters (:func:`shown_width`) at a word's
    end, marked "…"."""
    if fits(text, room):
        return text
    cut = text[:group_start(text, fitting(text, room - ELLIPSIS))]  # room for the "…"
    space = cut.rfind(" ")
    if space > len(cut) // 3:
        cut = cut[:space]
    return closed(cut.rstrip(" .,;:·—-") + "…")  # (the "…" where a right-to-left cut is)


#: The number that tells a name apart from another seated person's ("Sam (2)"): a cut
#: keeps it (here and in the pictures).
NUMBERED = re.compile(r"(?P<base>.+?)(?P<number> \(\d{1,2}\))")


def clip_name(name: str, room: float) -> str:
    """Return a (plain) name cut to ``room`` letters, marked "…", between any two letters
    as shown (never inside a flag, nor between a letter and its mark, selector or skin
    tone, nor inside emoji joined by a joiner). A name numbered to tell it apart from
    another ("Christopher Robinson (2)") keeps its number ("Christopher… (2)")."""
    if fits(name, room):
        return name
    numbered = NUMBERED.fullmatch(name)
    if numbered is not None:
        base, number = numbered["base"], numbered["number"]
        rest = room - shown_width(number)
        if rest >= 1 + ELLIPSIS:
            return clip_name(base, rest) + number
    return closed(name[:group_start(name, fitting(name, room - ELLIPSIS))].rstrip() + "…")
