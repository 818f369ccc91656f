"""Breaking a name into lines without cutting it (bot.pictures.breaks)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.pictures.breaks import broken_lines, syllable_breaks
from bot.pictures.script import width
from bot.text.widths import group_start


def _split(word: str) -> list[str]:
    return [word[:at] + "|" + word[at:] for at in syllable_breaks(word)]


def test_a_word_breaks_between_syllables() -> None:
    """Before the consonants that start the next syllable: "Copper|leaf", "Storm|crag",
    "Сторм|краг"; a last silent "e" and two vowels together make no syllable."""
    assert "Copper|leaf" in _split("Copperleaf")
    assert _split("Stormcrag") == ["Storm|crag"]
    assert "Сторм|крагский" in _split("Стормкрагский")
    assert "Παπα|δόπουλος" in _split("Παπαδόπουλος")
    assert _split("Glade") == [] and _split("Saltmere") == ["Salt|mere"]
    assert _split("Fitzgerald-Worthington") == ["Fitz|gerald-Worthington",
                                                "Fitzge|rald-Worthington",
                                                "Fitzgerald-Wor|thington",
                                                "Fitzgerald-Worthing|ton"]


def test_lines_break_at_spaces_first_then_inside_a_word_with_a_hyphen() -> None:
    """A name whose words fit keeps them whole; a word too long is broken with a hyphen
    between syllables, a name's own hyphen or soft hyphen first, letters of the East
    Asian scripts without one."""
    assert broken_lines("Old Toll Bridge", 106, 24, True) == ("Old Toll", "Bridge")
    assert broken_lines("Copperleaf Glade", 106, 24, True) == ("Copper-", "leaf", "Glade")
    assert broken_lines("Cop\u00adperleaf", 106, 24, True) == ("Cop-", "perleaf")
    assert broken_lines("Dubois-Roy Dubois-Roy", 106, 24, True)[0] == "Dubois-"
    japanese = broken_lines("銅葉の森の奥深くにある", 106, 24, True)
    assert len(japanese) > 1 and not any(line.endswith("-") for line in japanese)


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyzWM ЖШдм漢🚂-\u00ad\u0301", min_size=1,
               max_size=40), st.integers(30, 200))
def test_every_letter_is_kept_and_every_line_fits(name: str, room: int) -> None:
    """Whatever the name and room, the lines hold every letter in order, and each fits
    the room unless it is a single letter as drawn (an emoji wider than the room)."""
    lines = broken_lines(name, room, 24, True)
    kept = "".join(line for line in lines).replace("-", "").replace(" ", "")
    assert kept == name.replace("-", "").replace(" ", "").replace("\u00ad", "")
    for line in lines:
        bare = line.removesuffix("-")
        assert width(line, 24, True) <= room or group_start(bare, len(bare) - 1) == 0, lines
