"""The own-work benchmark (``bench/own_work.py``): its timers see every click's pieces,
its parts add up inside the loop's CPU, and it leaves the bot's code as it found it.
Nothing is timed against a bound."""

from __future__ import annotations

from bench.own_work import TIMED, Spent, measure_own_work, pieces, timing
from bot.boards.service import Boards
from db.rows import KeptRows


def test_every_piece_of_every_click_is_timed() -> None:
    """Six clicks: each piece ran in each, the parts are never negative and add up to
    less than the loop thread's CPU per click."""
    found = measure_own_work(games=3, clicks=6, images=False)
    assert found.clicks == 6
    calls = found.spent.calls
    for label in ("click", "answer", "board", "act", "take", "wrap", "policy", "apply",
                  "save", "wait", "engine", "dump"):
        assert calls[label] >= 6, label
    rows = dict(pieces(found.spent, found.clicks))
    assert all(value >= 0 for value in rows.values()), rows
    own = rows["**ours' own work** (the rows above)"]
    assert 0 < own < found.loop_ms * 1000
    assert found.loop_ms <= found.process_ms


def test_the_timers_are_taken_away_afterwards() -> None:
    """The methods timed are the bot's own again once the measurement is over."""
    before = (Boards.__dict__["handle_click"], KeptRows.__dict__["take"])
    spent = Spent()
    with timing(spent):
        assert Boards.__dict__["handle_click"] is not before[0]
        assert len(TIMED) == len({label for label, *_ in TIMED})
    assert (Boards.__dict__["handle_click"], KeptRows.__dict__["take"]) == before
