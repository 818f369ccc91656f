"""The alt text's ending sentence ends with one full stop, whether or not the engine's
summary brings its own ("... with 7 chips left." is not followed by another ".")."""

from __future__ import annotations

import re

import pytest

from bot.pictures import describe
from bot.pictures.alt import _stop
from tests.pictures.conftest import play


def test_a_lost_tinker_journey_has_one_full_stop_after_its_summary() -> None:
    game, state = play("tinker", 5, 10_000)
    alt = describe("tinker", game.view(state), "over")
    assert "journey failed" in alt.lower()
    assert ".." not in alt
    assert re.search(r"score \d+\. Round", alt)  # the banner's detail line, then one stop


@pytest.mark.parametrize(("words", "said"), [
    ("Ann wins", "Ann wins."), ("It failed after 1 of 13.", "It failed after 1 of 13."),
    ("Victory!", "Victory!"), ("Who wins?", "Who wins?"), ("Ann 7 · Bo…", "Ann 7 · Bo…"),
    ("trailing. ", "trailing.")])
def test_a_sentence_gets_a_full_stop_only_if_it_has_none(words: str, said: str) -> None:
    assert _stop(words) == said
