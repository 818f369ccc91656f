"""How much of a phone line text takes in Discord's proportional font, and cutting it to fit.

Room is counted in letters of ordinary text (a sentence of lowercase words, spaces and a
few capitals), by halves: most letters take two halves; the thin ones (spaces, ``i``,
``l``, ``I``, punctuation) one; most capitals and the round lowercase ``w`` three; ``W``,
``M``, ``m``, ``@`` four, as does an emoji or a letter of the East Asian scripts (and
arrows and symbols); an emoji's variation selector and the joiner between emoji take no
room. The classes follow the widths of Noto Sans and DejaVu Sans (the phone preview's
font), the wider of the two. A name in capitals ("WWWW MMMM") so takes nearly twice the
room of one in lowercase, as it does on a phone.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import accumulate

#: The first wide letter: arrows, symbols, emoji and the East Asian scripts take four halves.
WIDE_FROM = "\u2190"
#: What takes no room: an emoji's variation selector and the joiner between emoji.
NO_ROOM = "\ufe0f\u200d"
#: Letters taking one half of a letter's room.
_THIN = " !'(),-./:;[]`|·fijlIJÌÍÎÏìíîïıł"
#: Letters taking three halves.
_BROAD = "…—#&+<=>^~wABCDGHKNOPQRUVXZÀÁÂÃÄÅÇÐÑÒÓÔÕÖØÙÚÛÜÞ"
#: Letters taking four halves below :data:`WIDE_FROM`.
_DOUBLE = "%@MWm©®ÆæŒœ"


class _Halves(dict[str, int]):
    """Each letter's room in halves, filled in as letters are first met (a letter met is
    looked up in C from then on)."""

    def __missing__(self, ch: str) -> int:
        halves = 4 if ch >= WIDE_FROM else 2
        self[ch] = halves
        return halves


_HALVES = _Halves({**{ch: 1 for ch in _THIN}, **{ch: 3 for ch in _BROAD},
                   **{ch: 4 for ch in _DOUBLE}, **{ch: 0 for ch in NO_ROOM}})
_HALVES_OF = _HALVES.__getitem__

#: The room of the "…" marking a cut.
ELLIPSIS = _HALVES["…"] / 2


def _halves(ch: str) -> int:
    """Return the halves of a letter's room ``ch`` takes."""
    return _HALVES[ch]


def shown_width(text: str) -> float:
    """Return how many letters' room ``text`` takes on a phone line (counted in halves)."""
    return sum(map(_HALVES_OF, text)) / 2


def fitting(text: str, room: float) -> int:
    """Return how many letters of ``text``, from its start, fit in ``room`` letters (a
    letter taking no room right after them counts in)."""
    halves = int(room * 2)
    if halves < 0:
        return 0
    if 4 * len(text) <= halves:  # no letter takes more than four halves
        return len(text)
    return bisect_right(list(accumulate(map(_HALVES_OF, text))), halves)


def fits(text: str, room: float) -> bool:
    """Whether all of ``text`` fits in ``room`` letters."""
    return 4 * len(text) <= room * 2 or sum(map(_HALVES_OF, text)) <= room * 2


def rows(line: str, room: float) -> int:
    """Return how many phone lines of ``room`` letters ``line`` takes (one at least)."""
    return 1 if fits(line, room) else -(-int(2 * shown_width(line)) // int(2 * room))


def clip_words(text: str, room: float) -> str:
    """Return ``text`` cut to at most ``room`` letters (:func:`shown_width`) at a word's
    end, marked "…"."""
    if fits(text, room):
        return text
    cut = text[:fitting(text, room - ELLIPSIS)]  # room for the "…"
    space = cut.rfind(" ")
    if space > len(cut) // 3:
        cut = cut[:space]
    return cut.rstrip(" .,;:·—-") + "…"


def clip_name(name: str, room: float) -> str:
    """Return a (plain) name cut to ``room`` letters, marked "…", at any letter."""
    if fits(name, room):
        return name
    return name[:fitting(name, room - ELLIPSIS)].rstrip() + "…"
