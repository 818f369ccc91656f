"""Breaking a name into lines of a given width without cutting any of it.

A name is broken at its spaces where that is enough; a word wider than a line is broken
inside, between syllables where they can be told (English-like rules on Latin, Greek
and Cyrillic letters: between two vowels' consonants, the next syllable taking as many
of them as can start a word: "Copper-leaf", "Storm-crag", "Gull-water"), else between
any two letters as drawn (never inside an emoji, a flag or a syllable of the Indic,
Thai or Lao scripts: :func:`bot.text.widths.group_start`). A line that ends inside a
word ends with a hyphen, except between letters of the East Asian scripts, which are
broken anywhere without one, and after a hyphen the name already has. A soft hyphen
(U+00AD) in the name is the best place of all to break a word.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from itertools import pairwise

from bot.pictures.script import width
from bot.text.widths import group_start, joins_on

HYPHEN = "-"
"""Ends a line broken inside a word."""
SOFT_HYPHEN = "\u00ad"
"""Where a name's own writer would break a word: drawn as :data:`HYPHEN` at the end of a
line, as nothing elsewhere."""

_VOWELS = frozenset("aeiouyæøœ" "аеёиоуыэюяіїєѣ" "αεηιουωϊϋ")
"""The vowels of the Latin, Cyrillic and Greek alphabets, in lowercase and without their
marks (:func:`_vowel` takes those off)."""

_LIQUIDS = frozenset("rlрлρλ")
"""The liquid consonants: after a stop or a fricative they start a syllable with it
("cr", "pl", "кр", "πρ")."""
_SIBILANTS = frozenset("sсσς")
"""The s sounds: before a stop they start a syllable with it ("st", "ск", "στ")."""
_STOPS = frozenset("pbtdkgcqпбтдкгπβτδκγ")
"""The stop consonants."""
_NOT_OBSTRUENT = frozenset("mnjwyhмнйμν") | _LIQUIDS
"""The consonants that start no syllable before a liquid."""
_ONSETS = frozenset(("ch", "sh", "th", "ph", "wh", "gh", "qu", "kn", "wr", "sm", "sn", "sw",
                     "tw", "dw", "gw", "sch", "shr", "thr", "sph", "squ"))
"""Further clusters that start an English syllable."""


def _starts_syllable(cluster: str) -> bool:
    """Whether the consonants ``cluster`` (lowercase, two or three) can start a syllable."""
    if cluster in _ONSETS:
        return True
    if len(cluster) == 2:
        first, second = cluster[0], cluster[1]
        return ((first not in _NOT_OBSTRUENT and second in _LIQUIDS)
                or (first in _SIBILANTS and second in _STOPS))
    return (cluster[0] in _SIBILANTS and cluster[1] in _STOPS and cluster[2] in _LIQUIDS)


#: What a break inside a word costs, against a line's 1: at a syllable (or between
#: letters of the East Asian scripts), after a hyphen of the name's own, and anywhere else
#: (worth three more lines: taken only where no syllable break will do). A break costs up
#: to :data:`_LOPSIDED` more the further it is from the middle of its word.
_AT_SYLLABLE, _AT_HYPHEN, _ANYWHERE = 0.5, 0.0, 3.0
_LOPSIDED = 0.25
#: The fewest letters a syllable break leaves on either side of it.
_LEAST = 2


def _plain(char: str) -> str:
    """Return ``char`` in lowercase without its marks."""
    return unicodedata.normalize("NFD", char.lower())[:1]


def _vowel(char: str) -> bool:
    """Whether ``char`` is a vowel of the Latin, Greek or Cyrillic alphabet, marks aside."""
    return _plain(char) in _VOWELS


def _wide(char: str) -> bool:
    """Whether ``char`` is a letter of the East Asian scripts (broken without a hyphen)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def syllable_breaks(word: str) -> list[int]:
    """Return where ``word`` may be broken between syllables: before the consonants that
    start the next syllable (a stop or fricative and a liquid, "cr", "кр"; "s" and a
    stop, "st"; a few more of English's, "th", "sh"; else a single one), at least two
    letters from either end, in a word of the Latin, Greek or Cyrillic letters. A last
    "e" makes no syllable ("Saltmere")."""
    letters = [i for i, ch in enumerate(word) if ch.isalpha()]
    if len(word) > 1 and word[-1] in "eE" and not _vowel(word[-2]):
        letters = letters[:-1]  # a silent last "e" ("mere", "Glade")
    vowels = [i for i in letters if _vowel(word[i]) and not (word[i] in "yY" and i == 0)]
    found: list[int] = []
    for before, after in pairwise(vowels):
        if any(not (ch.isalpha() or joins_on(ch)) for ch in word[before:after]):
            continue  # not one word of letters between the two vowels
        consonants = [i for i in letters if before < i < after]
        if not consonants:
            continue  # two vowels together: one syllable, or not known
        cluster = "".join(_plain(word[i]) for i in consonants)
        onset = next((n for n in (3, 2) if n <= len(cluster) and _starts_syllable(cluster[-n:])),
                     1)
        at = consonants[-onset]
        if _LEAST <= at <= len(word) - _LEAST and group_start(word, at) == at:
            found.append(at)
    return found


def _breaks(word: str) -> dict[int, tuple[float, str]]:
    """Return each place ``word`` may be broken at: what it costs and what ends the line
    before it (a hyphen, or nothing). A break costs the more the further it is from the
    middle of the word."""
    places: dict[int, tuple[float, str]] = {}
    for at in range(1, len(word)):
        if group_start(word, at) != at:
            continue
        before, after = word[at - 1], word[at]
        # the nearer the middle of the word, the better (a compound's two words)
        lopsided = _LOPSIDED * abs(2 * at - len(word)) / len(word)
        if before in "-‐–":
            places[at] = (_AT_HYPHEN, "")
        elif before == SOFT_HYPHEN:
            places[at] = (_AT_HYPHEN, HYPHEN)
        elif _wide(before) or _wide(after):
            places[at] = (_AT_SYLLABLE + lopsided, "")
        else:
            places[at] = (_ANYWHERE + lopsided, HYPHEN)
    for at in syllable_breaks(word):
        places[at] = (_AT_SYLLABLE + _LOPSIDED * abs(2 * at - len(word)) / len(word), HYPHEN)
    return places


@lru_cache(maxsize=1024)
def broken_lines(name: str, room: float, size: int, bold: bool = False) -> tuple[str, ...]:
    """Return ``name`` in lines each at most ``room`` wide at ``size``, every letter of it
    kept: the fewest lines and breaks inside words (each line counting 1 and each break
    what it costs, :func:`syllable_breaks` the least), then the longest line as short as
    it can be. A single letter wider than ``room`` takes a line of its own."""
    words = name.split()
    if not words:
        return ("",)
    # Where a line may start, as (word, letter); where it may end, with what ends it.
    starts: list[tuple[int, int]] = [(0, 0)]
    ends: dict[tuple[int, int], tuple[float, str]] = {}
    for index, word in enumerate(words):
        for at, (cost, mark) in _breaks(word).items():
            starts.append((index, at))
            ends[(index, at)] = (cost, mark)
        if index + 1 < len(words):
            starts.append((index + 1, 0))
            ends[(index + 1, 0)] = (0, "")
    last = (len(words) - 1, len(words[-1]))
    ends[last] = (0, "")
    order = sorted(set(starts) | set(ends))

    def text(start: tuple[int, int], end: tuple[int, int]) -> str:
        """The words from ``start`` to ``end`` as one line (without what ends it)."""
        if end[1] == 0:  # the end of the word before
            end = (end[0] - 1, len(words[end[0] - 1]))
        if start[0] == end[0]:
            return words[start[0]][start[1]:end[1]]
        middle = words[start[0] + 1:end[0]]
        return " ".join([words[start[0]][start[1]:], *middle, words[end[0]][:end[1]]])

    # best[p]: the best way to set the name up to place p, as (lines and the cost of the
    # breaks, widest line, the lines)
    best: dict[tuple[int, int], tuple[float, int, tuple[str, ...]]] = {(0, 0): (0.0, 0, ())}
    for at, start in enumerate(order):
        if start not in best or start == last:
            continue
        cost, widest, shown = best[start]
        first = True  # the first line from here is kept even when too wide (one letter)
        for end in order[at + 1:]:
            if end not in ends:
                continue
            bare = text(start, end).replace(SOFT_HYPHEN, "")
            line = bare + ends[end][1]
            drawn = width(line, size, bold)
            if drawn > room and not first:
                if line == bare or width(bare, size, bold) > room:
                    break  # longer lines from here only grow wider
                continue  # too wide with its hyphen, but a longer one may fit
            first = False
            score = (cost + 1 + ends[end][0], max(widest, drawn), (*shown, line))
            if end not in best or score[:2] < best[end][:2]:
                best[end] = score
    return best[last][2]
