"""The balance simulation runs and reports (the real measurement is in docs/tinrealm.md)."""

from __future__ import annotations

import re

from bot.games.tinrealm.engine import ENGINE
from bot.tools.tinrealm_balance import main
from bot.tools.tinrealm_simulate import Report, format_report, play, simulate

#: A ruling id (R1, C5...): for the code's comments, never in what players or admins read.
RULING_ID = re.compile(r"\b[TSRC][0-9]{1,2}\b|\brulings?\b")


def test_simulate_smoke():
    """simulate(24) plays 24 games, spread evenly over the 6 possible pairs (R1)."""
    report = simulate(24, seed=5, preset="easy")
    assert report.games == 24 == sum(games for games, _ in report.combos.values())
    assert len(report.combos) == 6
    assert {games for games, _ in report.combos.values()} == {4}
    assert set(report.combos) == {f"{r}+{k}" for r, k in ENGINE.content().pairs()}
    assert report.wins == report.ends["won"]
    assert sum(report.ranks.values()) == 24
    assert report.placements > 0
    text = format_report(report)
    assert "win rate" in text and "stoneborn+warden" in text
    assert "race+class " in text and not RULING_ID.search(text)  # what admins read


def test_simulate_is_repeatable():
    """The same seed gives the same report."""
    first, second = simulate(12, seed=7, preset="hard"), simulate(12, seed=7, preset="hard")
    assert first.scores == second.scores and first.ends == second.ends


def test_simulate_command_prints_both_presets(capsys):
    """python -m bot.tools.tinrealm_balance N prints a report per preset."""
    assert main(["9", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "preset easy" in out and "preset hard" in out


def test_simulated_games_match_the_engine():
    """A simulated game ends exactly as the same choices made through ENGINE.apply."""
    report = Report("easy", "heuristic")
    simulated = play(11, "easy", "marshkin", "pathfinder", "heuristic", report)
    state = ENGINE.new(11, options={"preset": "easy"})
    for action in ("race:marshkin", "class:pathfinder"):
        state = ENGINE.apply(state, 0, action).state
    while not ENGINE.is_over(state):
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    assert ENGINE.dump(simulated) == ENGINE.dump(state)
    assert report.games == 1 and report.scores == [ENGINE.result(state).outcomes[0].score]
