"""The command line (``python -m bot``), and the commands README.md tells people to type.

Every command answers ``--help`` with its own usage and does nothing else; an unknown
command or argument is refused (exit 2) instead of being ignored; the top-level help
says what each command does. README's table of slash commands names only commands and
options that exist, and every command there is.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import AppCommandType, app_commands

import bot.admin
import bot.runner
import bot.tools.bench
import bot.tools.play
import bot.tools.render
from bot.__main__ import main
from bot.client import DEFAULT_COGS
from tests.support import make_bot

ROOT = Path(__file__).resolve().parent.parent

#: Every command of ``python -m bot``.
COMMANDS = ("run", "sync", "play", "bench", "render", "migrate", "backup", "health")

#: What each command's own ``--help`` starts with.
USAGES = {name: f"usage: python -m bot {name}" for name in COMMANDS}


def _exit_code(argv: list[str]) -> int:
    """Run ``main(argv)``; return its exit code, whether returned or raised (argparse)."""
    try:
        return main(argv)
    except SystemExit as stopped:
        return stopped.code if isinstance(stopped.code, int) else 1


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, Any]]]:
    """Record, instead of doing, what each command would run (the bot, a game, a copy)."""
    made: list[tuple[str, Any]] = []

    def recorder(name: str) -> Callable[..., int]:
        def record(*args: Any, **kwargs: Any) -> int:
            made.append((name, kwargs if kwargs else args))
            return 0
        return record

    monkeypatch.setattr(bot.runner, "main", recorder("runner"))
    monkeypatch.setattr(bot.admin, "migrate", recorder("migrate"))
    monkeypatch.setattr(bot.admin, "backup", recorder("backup"))
    monkeypatch.setattr(bot.admin, "check", recorder("health"))
    monkeypatch.setattr(bot.tools.play, "play_terminal", recorder("play"))
    monkeypatch.setattr(bot.tools.render, "render_board", recorder("render"))
    def bench(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        made.append(("bench", command))
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(bot.tools.bench.subprocess, "run", bench)
    yield made


def test_the_help_lists_every_command_and_says_what_migrate_does(capsys, calls) -> None:
    """``--help`` (and ``help``) list every command; ``migrate`` copies into PostgreSQL."""
    for argv in (["--help"], ["-h"], ["help"]):
        assert _exit_code(argv) == 0
        out = capsys.readouterr().out
        listed = {m[1] for line in out.splitlines() if (m := re.match(r"    (\S+)", line))}
        assert listed == set(COMMANDS), out
        migrate = next(line for line in out.splitlines() if line.strip().startswith("migrate"))
        assert "PostgreSQL" in migrate and "schema" not in migrate, migrate
    assert calls == []


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_command_answers_help_and_does_nothing_else(command, capsys, calls) -> None:
    """``COMMAND --help`` and ``help COMMAND`` print that command's usage, exit 0, run nothing."""
    for argv in ([command, "--help"], [command, "-h"], ["help", command]):
        assert _exit_code(argv) == 0, argv
        out = capsys.readouterr().out
        assert out.startswith(USAGES[command]), (argv, out)
    assert calls == []


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--bogus"],
        ["run", "extra"],
        ["sync", "--force"],
        ["--bogus"],
        ["-v", "run"],
        ["nope"],
        ["help", "nope"],
        ["backup", "--bogus"],
        ["health", "--bogus"],
        # a heartbeat's age is a positive, finite number of seconds: "nan" judged every
        # heartbeat fresh, a dead bot's too
        ["health", "--max-age", "nan"],
        ["health", "--max-age", "inf"],
        ["health", "--max-age", "-5"],
        ["health", "--max-age", "soon"],
        ["migrate", "--to", "postgresql://db/x", "--bogus"],
        ["render", "tinker", "--out", "x.png", "--bogus"],
        ["render", "steam", "--seats", "9", "--out", "x.png"],
        ["render", "tinker", "--seats", "2", "--out", "x.png"],
        ["render", "steam", "--seats", "0", "--out", "x.png"],
        ["play", "tinker", "--bogus"],
        ["bench", "--bogus"],
    ],
)
def test_unknown_commands_and_arguments_are_refused(argv, capsys, calls) -> None:
    """Anything a command does not take: exit 2, saying so on stderr, and nothing run."""
    assert _exit_code(argv) == 2
    err = capsys.readouterr().err
    assert "usage" in err.lower() and ("error" in err or "unknown" in err), err
    assert calls == []


def test_the_bot_runs_with_no_command_run_or_sync(calls) -> None:
    """No argument and ``run`` start the bot; ``sync`` forces a command sync."""
    assert _exit_code([]) == 0
    assert _exit_code(["run"]) == 0
    assert _exit_code(["sync"]) == 0
    assert calls == [("runner", {"force_sync": False}), ("runner", {"force_sync": False}),
                     ("runner", {"force_sync": True})]


def test_bench_passes_the_rest_of_the_line_to_the_benchmark(calls, monkeypatch) -> None:
    """Everything after a benchmark's name goes to it, ``--help`` included."""
    assert bot.tools.bench.ROOT == ROOT  # the checkout, where bench/ is
    for rest in (["--games", "5", "--images", "off"], ["--help"]):
        calls.clear()
        assert _exit_code(["bench", "clicks", *rest]) == 0
        assert calls == [("bench", [sys.executable, "-m", "bench.clicks", *rest])]


def test_sync_help_in_a_process_does_not_sync(tmp_path) -> None:
    """``python -m bot sync --help`` with no token: the usage, exit 0, nothing asked for."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
           "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "data" / "t.db")}
    done = subprocess.run([sys.executable, "-m", "bot", "sync", "--help"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m bot sync") and done.stderr == ""
    assert not (tmp_path / "data").exists()


# -- README's slash commands ---------------------------------------------------------------


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    end = text.find("\n#", start + len(heading))
    return text[start:] if end < 0 else text[start:end]


def _leaves(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    path = (*path, command.name)
    if isinstance(command, app_commands.Group):
        for sub in command.commands:
            yield from _leaves(sub, path)
    else:
        yield path, command


async def test_readme_names_the_slash_commands_and_options_there_are(discord_driver,
                                                                     tmp_path) -> None:
    """Each command README's table shows exists, with the options it shows (bracketed when
    optional) and every option it has named in its row; each command is in the table."""
    client = await discord_driver.login(make_bot(tmp_path, cogs=DEFAULT_COGS))
    commands = dict(leaf for top in client.tree.get_commands(type=AppCommandType.chat_input)
                    for leaf in _leaves(top))
    menus = {menu.name for menu in client.tree.get_commands(type=AppCommandType.user)}
    games = sorted({path[0] for path in commands if path[1:] == ("board",)})
    assert games, commands

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    settings = _section(readme, "### Each server's own settings")
    rows = [line for line in _section(readme, "## Playing in Discord").splitlines()
            if line.startswith("| ") and not line.startswith(("| command", "|---"))]
    shown: set[tuple[str, ...]] = set()
    for row in rows:
        first = row[2:].split(" | ", 1)[0]
        if "**" in first:  # Apps → **Invite to Steam to Solar**: a context menu
            menu = re.search(r"\*\*(.+?)\*\*", first)
            assert menu is not None and menu[1] in menus, row
            continue
        words = set(re.findall(r"[\w-]+", row))
        for form in re.findall(r"`(/[^`]+)`", first):
            head, *after = form[1:].split()
            for game in games if head == "<game>" else [head]:
                path, tail = (game,), list(after)
                while tail and path not in commands and (*path, tail[0]) in {
                        p[:len(path) + 1] for p in commands}:
                    path, tail = (*path, tail[0]), tail[1:]
                assert path in commands, (form, path)
                shown.add(path)
                params = {p.display_name: p for p in commands[path].parameters}
                for token in tail:
                    name = token.strip("[]")
                    assert name in params, f"{form}: {path} has no option {name!r}"
                    assert (token != name) == (not params[name].required), (form, token)
                named = words | (set(re.findall(r"[\w-]+", settings))
                                 if path == ("tablehouse", "settings") else set())
                missing = set(params) - named
                assert not missing, f"README's row for {form} does not name {sorted(missing)}"
    assert set(commands) <= shown, sorted(set(commands) - shown)


def test_render_into_a_folder_that_is_not_there_says_so(tmp_path, capsys) -> None:
    """A picture that cannot be written: one line saying why, exit 1, no traceback."""
    assert _exit_code(["render", "tinker", "--out", str(tmp_path / "none" / "t.png")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("could not write ") and "No such file or directory" in err
    assert "Traceback" not in err
