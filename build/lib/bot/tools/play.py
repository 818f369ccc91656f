"""Local play: ``python -m bot play GAME [--seed N] [--json] [--simulate N] [options]``.

Plays any registered game in the terminal (numbered choices), through a JSON line
protocol for programs (``--json``), or plays many games with the computer in every seat
and prints the balance figures (``--simulate N``). Everything here goes through the
engine protocol (bot.games.protocol); the game's own options become flags such as
``--classic-journey``. See docs/play.md.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from collections.abc import Callable
from typing import Any

from bot.games.protocol import OptionSpec
from bot.games.registry import ENGINES, engine
from bot.tools.play_session import Seating, play_json, play_terminal
from bot.tools.play_simulate import simulate


def main(args: list[str]) -> int:
    """Run ``python -m bot play`` with ``args``; return the exit code."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(encoding="utf-8")
    first, _ = _base_parser(add_help=False).parse_known_args(args)
    if first.list:
        print(list_games())
        return 0
    if first.game is None:
        parser = _base_parser()
        parser.parse_args(args)
        parser.error("name a game (see --list)")
    try:
        game = engine(first.game)
    except Exception as exc:  # an unknown kind, or a game whose module does not load
        print(f"play: {exc}", file=sys.stderr)
        return 2
    parser = _base_parser()
    _add_option_flags(parser, game.options)
    parsed = parser.parse_args(args)
    options = {spec.name: getattr(parsed, spec.name) for spec in game.options}
    people = parsed.seats if parsed.seats is not None else (0 if parsed.bots else 1)
    seats = people + parsed.bots
    if parsed.simulate is not None and parsed.seats is None and not parsed.bots:
        seats = game.min_seats
    if people < 0 or parsed.bots < 0:
        parser.error("--seats and --bots cannot be negative")
    if not game.min_seats <= seats <= game.max_seats:
        parser.error(f"{game.title} takes {game.min_seats}-{game.max_seats} seats, not {seats}")
    if parsed.simulate is not None:
        first_seed = 0 if parsed.seed is None else parsed.seed
        print(simulate(game, parsed.simulate, first_seed, seats, options, as_json=parsed.json))
        return 0
    seed = random.SystemRandom().randrange(2**31) if parsed.seed is None else parsed.seed
    seating = Seating(game, parsed.game, seed, seats, frozenset(range(people, seats)), options)
    try:
        if parsed.json:
            return play_json(seating, sys.stdin, sys.stdout)
        return play_terminal(seating, sys.stdin, sys.stdout)
    except BrokenPipeError:  # the reader went away (for example `| head`): stop quietly
        sys.stderr.close()
        return 0


def list_games() -> str:
    """Return one line per registered game; a game that does not load is marked, not fatal."""
    lines = []
    for kind in sorted(ENGINES):
        try:
            game = engine(kind)
        except Exception as exc:  # the listing must survive a game still being written
            lines.append(f"{kind:10} (not available: {type(exc).__name__}: {exc})")
            continue
        seats = (f"{game.min_seats} seat" if game.min_seats == game.max_seats == 1
                 else f"{game.min_seats}-{game.max_seats} seats")
        flags = " ".join(_flag(spec) for spec in game.options)
        lines.append(f"{kind:10} {game.title} ({seats}){'  ' + flags if flags else ''}")
    return "\n".join(lines)


def _base_parser(add_help: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot play", add_help=add_help,
        description="Play a game in the terminal, as JSON lines, or simulate many games.",
    )
    parser.add_argument("game", nargs="?", help="the game's kind (see --list)")
    parser.add_argument("--list", action="store_true", help="list the games and exit")
    parser.add_argument("--seed", type=int, help="seed of the deal (first seed with --simulate)")
    parser.add_argument("--json", action="store_true", help="JSON line protocol for programs")
    parser.add_argument("--seats", type=int, help="people sharing the keyboard")
    parser.add_argument("--bots", type=int, default=0, help="computer players")
    parser.add_argument("--simulate", type=int, metavar="N",
                        help="play N games with the computer in every seat and summarise")
    return parser


def _flag(spec: OptionSpec) -> str:
    return "--" + spec.name.replace("_", "-")


def _add_option_flags(parser: argparse.ArgumentParser, specs: tuple[OptionSpec, ...]) -> None:
    group = parser.add_argument_group("options of this game")
    for spec in specs:
        help_text = f"{spec.description} (default: {spec.default})"
        if isinstance(spec.default, bool):
            group.add_argument(_flag(spec), dest=spec.name, default=spec.default,
                               action=argparse.BooleanOptionalAction, help=help_text)
        else:
            metavar = "{" + ",".join(map(str, spec.choices)) + "}" if spec.choices else "VALUE"
            group.add_argument(_flag(spec), dest=spec.name, default=spec.default,
                               type=_converter(spec), metavar=metavar, help=help_text)


def _converter(spec: OptionSpec) -> Callable[[str], Any]:
    """Turn the typed text into the option's value: one of its choices, or its type."""
    if spec.choices:
        by_text = {str(choice).lower(): choice for choice in spec.choices}

        def choose(text: str) -> Any:
            try:
                return by_text[text.lower()]
            except KeyError:
                raise argparse.ArgumentTypeError(
                    f"{text!r} is not one of {', '.join(map(str, spec.choices))}"
                ) from None

        return choose
    if isinstance(spec.default, int | float):
        return type(spec.default)
    return str
