"""Local play (`python -m bot play`), run as a subprocess like a user or a program would."""

import json
import random
import subprocess
import sys

import pytest

from bot.games.registry import ENGINES
from bot.games.tinker.engine import ENGINE as TINKER


def run(*args, stdin=""):
    """Run `python -m bot play ARGS` with ``stdin``; return the finished process."""
    return subprocess.run(
        [sys.executable, "-m", "bot", "play", *args],
        input=stdin.encode(),
        capture_output=True,
        timeout=60,
        check=False,
    )


def lines(process):
    return [json.loads(line) for line in process.stdout.decode().splitlines()]


def random_game_ids(seed, count):
    """Ids of a whole tinker game chosen at random among the legal ones, seeded."""
    rng = random.Random(count)
    state, chosen = TINKER.new(seed), []
    while not TINKER.is_over(state):
        action_id = rng.choice(TINKER.legal_actions(state, 0)).id
        chosen.append(action_id)
        state = TINKER.apply(state, 0, action_id).state
    return chosen


def test_json_plays_a_whole_game_with_random_legal_ids():
    """--json: one line per step with every key; a whole game ends with a result and exit 0."""
    ids = random_game_ids(11, 1)
    process = run("tinker", "--seed", "11", "--json", stdin="\n".join(ids) + "\n")
    assert process.returncode == 0, process.stderr
    out = lines(process)
    assert len(out) == len(ids) + 1
    for line, action_id in zip(out, ids, strict=False):
        assert {"game", "seed", "view", "legal", "to_act", "events", "over", "result"} <= set(line)
        assert line["game"] == "tinker" and line["seed"] == 11 and line["to_act"] == 0
        assert action_id in [a["id"] for a in line["legal"]]
        assert line["result"] is None
    assert out[0]["events"] == []
    assert out[1]["events"]
    last = out[-1]
    assert last["over"] and last["to_act"] is None and last["legal"] == []
    assert last["result"]["outcomes"][0]["outcome"] in ("win", "loss")


def test_json_illegal_id_gets_an_error_and_the_same_state():
    """--json: an unknown id gets an error line, then the same state line; play goes on."""
    process = run("tinker", "--seed", "4", "--json", stdin="dance\nchoose:event\n")
    assert process.returncode == 0
    raw = process.stdout.decode().splitlines()
    assert json.loads(raw[1]) == {"error": "Unknown action 'dance'."}
    assert raw[2] == raw[0]
    assert json.loads(raw[3])["view"]["challenge"] is not None
    assert len(raw) == 4


def test_json_replay_is_byte_for_byte_identical():
    """--json: the same seed and ids give the same output, byte for byte."""
    ids = "\n".join(random_game_ids(23, 2)) + "\n"
    first = run("tinker", "--seed", "23", "--json", "--harsh-defeat", stdin=ids)
    second = run("tinker", "--seed", "23", "--json", "--harsh-defeat", stdin=ids)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    assert lines(first)[0]["options"] == {"classic_journey": False, "harsh_defeat": True}


def test_json_end_of_input_exits_0():
    """--json: end of input before the game ends exits cleanly with code 0."""
    process = run("tinker", "--seed", "1", "--json")
    assert process.returncode == 0
    assert len(lines(process)) == 1


def test_list_names_every_registered_game():
    """--list prints one line per registered game, marking any that does not load."""
    process = run("--list")
    assert process.returncode == 0
    out = process.stdout.decode().splitlines()
    shipped = sorted(kind for kind, target in ENGINES.items() if target.startswith("bot."))
    assert [line.split()[0] for line in out] == shipped
    assert any("Tinker, Sailor, Soldier, Spy (1 seat)  --classic-journey --harsh-defeat" in line
               for line in out)


def test_list_survives_a_game_that_does_not_import(monkeypatch, capsys):
    """--list marks a game whose module is missing instead of crashing."""
    from bot.tools import play

    monkeypatch.setitem(ENGINES, "ghost", "bot.games.no_such_game:ENGINE")
    assert play.main(["--list"]) == 0
    assert "ghost      (not available: ModuleNotFoundError" in capsys.readouterr().out


def test_terminal_bad_choice_then_quit():
    """Terminal: a bad choice gets a clear message and the same question; q quits with 0."""
    process = run("tinker", "--seed", "3", stdin="x\n7\n1\nq\n")
    out = process.stdout.decode()
    assert process.returncode == 0
    assert "Not a choice: 'x'. Type a number from 1 to 2, or q to quit." in out
    assert "Not a choice: '7'." in out
    assert "  1. Challenge " in out and "Played " in out
    assert out.rstrip().endswith("Bye.")


def test_terminal_end_of_input_exits_0():
    """Terminal: Ctrl-D (end of input) quits cleanly with code 0."""
    process = run("tinker", "--seed", "3", stdin="")
    assert process.returncode == 0
    assert "Your choice (1-2, q quits):" in process.stdout.decode()


def test_terminal_computer_seat_plays_to_the_end():
    """Terminal: with --bots 1 the computer plays the solo seat to the result."""
    process = run("tinker", "--seed", "5", "--bots", "1")
    out = process.stdout.decode()
    assert process.returncode == 0
    assert "Seat 0 (computer): " in out
    assert "Result: " in out


def test_simulate_summarises_outcomes_and_scores():
    """--simulate N plays N games with the computer and prints win rate and scores."""
    process = run("tinker", "--simulate", "20", "--seed", "100")
    out = process.stdout.decode()
    assert process.returncode == 0
    assert out.startswith("Tinker, Sailor, Soldier, Spy: 20 games, seeds 100-119, options: "
                          "classic_journey=False, harsh_defeat=False")
    assert "seat 0: win rate " in out and "score mean " in out
    data = json.loads(run("tinker", "--simulate", "20", "--seed", "100", "--json").stdout)
    assert data["seats"][0]["games"] == 20
    assert sum(data["seats"][0]["outcomes"].values()) == 20


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["chess"], "unknown game 'chess'"),
        ([], "name a game"),
        (["tinker", "--seats", "2"], "takes 1-1 seats, not 2"),
        (["tinker", "--bots", "-1"], "cannot be negative"),
    ],
)
def test_bad_command_lines_exit_2(args, message):
    """An unknown game, no game or a wrong seat count exits 2 with a message."""
    process = run(*args)
    assert process.returncode == 2
    assert message in process.stderr.decode()


def test_option_values_convert_generically():
    """Non-bool options take a typed value: one of the spec's choices, or the default's type."""
    import argparse

    from bot.games.protocol import OptionSpec
    from bot.tools.play import _converter

    preset = _converter(OptionSpec("preset", "map", "easy", ("easy", "hard")))
    assert preset("HARD") == "hard"
    with pytest.raises(argparse.ArgumentTypeError, match="'tiny' is not one of easy, hard"):
        preset("tiny")
    assert _converter(OptionSpec("start", "seat", None, (None, 0, 1)))("none") is None
    assert _converter(OptionSpec("start", "seat", None, (None, 0, 1)))("1") == 1
    assert _converter(OptionSpec("rounds", "how many", 3))("5") == 5
    assert _converter(OptionSpec("names", "who", None))("Ann,Bo") == "Ann,Bo"
