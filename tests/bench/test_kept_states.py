"""The kept-state memory benchmark (``bench/kept_states.py``) measures what it says:
each game's state, its document and its engine object, every one of them some bytes.
Nothing is held to a bound."""

from __future__ import annotations

from bench.kept_states import GAMES, measure


def test_every_game_s_state_is_measured() -> None:
    """A few copies of each game's state: its text, document and engine object."""
    found = measure(moves=5, copies=5)
    assert [kind for kind, *_ in found] == [kind for kind, _, _ in GAMES]
    for kind, text, document, engine_state in found:
        assert text > 100 and document > text and engine_state > 0, kind
