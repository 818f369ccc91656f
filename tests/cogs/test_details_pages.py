"""The pages of "Rules & details": a field too long for one phone page goes on over the
next, cut after a sentence or between two items of a list where it can be, never inside
a word or a hyphenated word, and nothing of it is lost."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.details import PAGE_LINES, _lines, paginate


def _pages(value: str) -> list[str]:
    """The parts of one field's value, page by page."""
    return [value for page in paginate([("Cards", value)]) for _name, value in page]


def _joined(parts: list[str], separator: str) -> str:
    return separator.join(parts)


def test_a_list_is_cut_between_two_items() -> None:
    """A card list cut over two pages ends a page with a whole card and starts the next
    with the next card (no "· Betrayal" on one page and its suits on the next)."""
    cards = [f"Card {n} 🐉🪢 ({n % 9 + 1})" for n in range(60)]
    value = " · ".join(cards)
    parts = _pages(value)
    assert len(parts) >= 2
    for part in parts:
        items = part.split(" · ")
        assert all(item in cards for item in items), part
    assert _joined(parts, " · ") == value


def test_prose_is_cut_after_a_sentence() -> None:
    """Rules text over two pages is cut after a full stop, and none of it is lost."""
    sentence = ("A chip is never spent without a card being played, and a challenge-"
                "winning sum ends the challenge at once. ")
    value = (sentence * 12).strip()
    parts = _pages(value)
    assert len(parts) >= 2
    assert all(part.endswith(".") for part in parts)
    assert _joined(parts, " ") == value
    assert not any(part.endswith("challenge-") for part in parts)


def test_one_long_line_without_marks_is_cut_between_words() -> None:
    """A line with no sentence or list marks is still cut between words."""
    value = " ".join(f"word{n}" for n in range(PAGE_LINES * 12))
    parts = _pages(value)
    assert len(parts) >= 2
    assert _joined(parts, " ") == value


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["word", "Betrayal", "a1-2b" + "x" * 45, "x" * 50,
                                 "end.", "item ·", "clause,", "semi;", "🐉🪢", "",
                                 "two  spaces"]), min_size=1, max_size=400))
def test_no_page_is_over_its_lines_and_nothing_is_lost(words: list[str]) -> None:
    """Whatever the text (long words, hyphens, double spaces, emoji), no page holds more
    than a page's lines, and the pages hold the whole text, cut only at spaces or
    between items."""
    value = " ".join(words).strip() or "—"
    pages = paginate([("Rules", "line\n" * 10), ("Cards", value)])
    for page in pages:
        assert sum(_lines(name) + _lines(text) for name, text in page) <= PAGE_LINES
    parts = [text for page in pages for name, text in page if name.startswith("Cards")]
    squeezed = "".join(value.split()).replace("·", "")
    assert "".join("".join(parts).split()).replace("·", "") == squeezed
    whole = {"—", *(token for word in words for token in word.split())}
    long = "a1-2b" + "x" * 45
    for part in parts:  # cut between words: only a word longer than a line is broken
        for token in part.split():
            assert token in whole or set(token) <= {"x"} or token in long, (token, part)


def test_an_item_of_a_list_is_never_split_between_pages() -> None:
    """A legend of several lines whose next line does not fit on the page: that line goes
    whole to the next page, not its first half here and "card names" there."""
    items = [f"item {n}: " + "a few words of meaning " * 3 for n in range(12)]
    pages = paginate([("What the icons mean", "\n".join(items))], budget=9)
    shown = [line for page in pages for _, value in page for line in value.split("\n")]
    assert shown == items
