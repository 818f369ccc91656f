"""Names that read the same: two players whose names look alike to the channel.

A seat, a vote or a result tells players apart by how their names look, not by how they
are spelled: :func:`alike` folds what a reader cannot see.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterable

#: Cyrillic and Greek letters (as casefolded) drawn like a Latin letter, in one case or
#: the other: two names that differ only by them look the same.
_LOOKALIKES = str.maketrans({
    "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
    "ԛ": "q", "ԝ": "w", "α": "a", "β": "b", "ε": "e", "ζ": "z", "η": "h", "ι": "i",
    "κ": "k", "μ": "m", "ν": "n", "ο": "o", "ρ": "p", "τ": "t", "υ": "y", "χ": "x",
})


#: Letters that show as nothing (Hangul fillers, the blank Braille pattern, the Khmer
#: inherent vowels, the Mongolian vowel separator).
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")


def alike(name: str) -> str:
    """Return what ``name`` looks like, to tell when two names read the same: the same
    letters however composed (NFKC), in any case, with nothing unseen (joiners, variation
    selectors, format characters), a letter that shows as nothing read as the space it
    shows, no space at either end nor two in a row, and Cyrillic or Greek look-alikes
    read as Latin."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    seen = "".join(" " if ch in BLANK else ch for ch in folded
                   if unicodedata.category(ch) != "Cf"
                   and not 0xFE00 <= ord(ch) <= 0xFE0F and ch != "\u034f")
    return " ".join(seen.split()).translate(_LOOKALIKES)


def distinct(name: str, taken: Iterable[str]) -> str:
    """Return ``name``, or with the first number after it ("Sam (2)") that makes it read
    unlike every name of ``taken`` (:func:`alike`)."""
    used = {alike(other) for other in taken}
    if alike(name) not in used:
        return name
    return next(f"{name} ({n})" for n in itertools.count(2) if alike(f"{name} ({n})") not in used)
