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

import re

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

_HALVES: dict[str, int] = {
    **{ch: 1 for ch in _THIN}, **{ch: 3 for ch in _BROAD}, **{ch: 4 for ch in _DOUBLE},
    **{ch: 0 for ch in NO_ROOM},
}
#: The letters that do not take two halves: the classes above and the wide ones.
_NOT_TWO = re.compile("[" + re.escape(_THIN + _BROAD + _DOUBLE) + f"{WIDE_FROM}-\U0010ffff\u200d]")


#: The room of the "…" marking a cut.
ELLIPSIS = _HALVES["…"] / 2


def _halves(ch: str) -> int:
    """Return the halves of a letter's room ``ch`` takes."""
    return 4 if ch >= WIDE_FROM and ch not in NO_ROOM else _HALVES.get(ch, 2)


def shown_width(text: str) -> float:
    """Return how many letters' room ``text`` takes on a phone line (in halves)."""
    return (2 * len(text) + sum(_halves(ch) - 2 for ch in _NOT_TWO.findall(text))) / 2


def fitting(text: str, room: float) -> int:
    """Return how many letters of ``text``, from its start, fit in ``room`` letters (a
    letter taking no room right after them counts in): the runs of two-half letters are
    counted by their length, only the others one by one."""
    halves = int(room * 2)
    if halves < 0:
        return 0
    used = start = 0
    for match in _NOT_TWO.finditer(text):
        at = match.start()
        if used + 2 * (at - start) > halves:
            return start + (halves - used) // 2
        used += 2 * (at - start)
        width = _halves(text[at])
        if used + width > halves:
            return at
        used += width
        start = at + 1
    return min(len(text), start + (halves - used) // 2)


def fits(text: str, room: float) -> bool:
    """Whether all of ``text`` fits in ``room`` letters (read only as far as the room goes)."""
    return fitting(text, room) == len(text)


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
