"""The pictures benchmark (``bench/pictures.py``): with ``--cold-words`` every round draws
its words anew, as the first round of a fresh process does. Nothing is timed."""

from __future__ import annotations

from bench import pictures
from bot.pictures import script


def _misses_per_round(cold_words: bool) -> list[int]:
    boards = pictures.views("tinker", 0, False, 1, max_moves=6)
    clock = pictures.EncodeClock(lambda *_: b"")  # draw_rounds reads a clock; none is timed
    pictures.warm({"tinker": boards})
    misses = []
    for _ in range(2):
        before = script.text_mask.cache_info()
        pictures.draw_rounds("tinker", boards, 1, clock, cold_words)
        after = script.text_mask.cache_info()
        if cold_words:  # emptied at the round's start: its counts began again from zero
            assert after.hits + after.misses <= before.hits + before.misses
            misses.append(after.misses)
        else:
            misses.append(after.misses - before.misses)
    return misses


def test_cold_words_draw_every_round_s_words_anew() -> None:
    cold = _misses_per_round(cold_words=True)
    assert cold[0] > 0 and cold[1] == cold[0]
    warm = _misses_per_round(cold_words=False)
    assert warm == [0, 0]  # the rounds before drew every word already


def test_forgetting_words_empties_their_caches_and_draws_them_the_same() -> None:
    first = script.text_mask("Knight of Moons", 30, False, "la")
    script.width("Knight of Moons", 30)
    script.forget_words()
    assert script.text_mask.cache_info().currsize == 0
    assert script.runs.cache_info().currsize == 0
    assert script._width.cache_info().currsize == 0
    again = script.text_mask("Knight of Moons", 30, False, "la")
    assert again is not first
    assert again.mask.tobytes() == first.mask.tobytes() and again.line == first.line
