"""Command line: ``python -m bot [run|sync|play|bench|render|migrate|backup|health]``.

The first argument names the command (none: ``run``); ``python -m bot --help`` lists
them, ``python -m bot COMMAND --help`` (or ``python -m bot help COMMAND``) shows that
command's own usage without doing anything. ``run`` and ``sync`` take no arguments;
every other command reads the rest of the line with its own parser (``bench`` passes
what follows a benchmark's name on to that benchmark). An unknown command or argument
is refused with argparse's usage error, exit code 2.
"""

from __future__ import annotations

import argparse
import sys

SETTINGS = "Settings come from the environment or a .env file: see .env.example."

COMMANDS = {
    "run": "run the bot (the default)",
    "sync": "sync the application commands with Discord, then exit",
    "play": "play a game in the terminal",
    "bench": "run a benchmark (python -m bot bench --help)",
    "render": "draw a board picture to a PNG file",
    "migrate": "copy the SQLite database into an empty PostgreSQL one (--to URL)",
    "backup": "copy the SQLite database into backups/ beside it, while the bot runs",
    "health": "check a running bot's heartbeat (exit code 0 when healthy)",
}
"""Every command, in the order ``--help`` lists them, with what it does."""

DESCRIPTIONS = {
    "run": "Run the bot until SIGTERM or SIGINT (what `python -m bot` alone does).",
    "sync": "Force a sync of the application commands with Discord (it counts against "
            "Discord's daily limit on command changes), then exit. Rarely needed: the bot "
            "syncs by itself when its commands changed since the last sync.",
}
"""The longer text of ``run --help`` and ``sync --help`` (the others have their own)."""


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, argparse.ArgumentParser]]:
    """Return the top-level parser and each command's parser, by name.

    ``run`` and ``sync`` are parsed here (they take no arguments, so anything after them
    is refused). The other commands' parsers only name them in the listing: each reads
    its own arguments (see ``choose``).
    """
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        usage="%(prog)s [command] [arguments ...]",
        description="Run the Tablehouse Discord bot, or one of its tools.",
        epilog=SETTINGS,
    )
    subparsers = parser.add_subparsers(dest="command", title="commands", metavar="command",
                                       help="(default: run)")
    commands = {}
    for name, summary in COMMANDS.items():
        own = name in DESCRIPTIONS
        commands[name] = subparsers.add_parser(
            name, prog=f"python -m bot {name}", help=summary, add_help=own,
            description=DESCRIPTIONS.get(name), epilog=SETTINGS if own else None,
        )
    return parser, commands


def choose(argv: list[str]) -> tuple[str, list[str]]:
    """Return the command ``argv`` names (default ``run``) and the arguments left for it.

    ``help`` and ``help COMMAND`` mean ``--help`` and ``COMMAND --help``. Raise
    SystemExit as argparse does, after printing: 0 for ``--help`` of ``python -m bot``,
    ``run`` or ``sync``, 2 for an unknown command, or for an argument ``run`` and
    ``sync`` do not take. The other commands read their arguments themselves.
    """
    parser, commands = build_parser()
    args = list(argv)
    if args[:1] == ["help"]:
        if len(args) > 2:
            parser.error(f"help takes one command, not {' '.join(args[1:])!r}")
        args = [*args[1:], "--help"]
    command, rest = (args[0], args[1:]) if args else ("run", [])
    if command not in COMMANDS:
        parser.parse_args(args)  # --help exits 0; anything else is an error, exit 2
        parser.error("name the command first: python -m bot COMMAND [ARGUMENTS]")
    if command in DESCRIPTIONS:  # run and sync take nothing but --help
        commands[command].parse_args(rest)
    return command, rest


def main(argv: list[str] | None = None) -> int:
    """Run the command named first in ``argv`` (default: run the bot); return its exit code.

    ``--help`` returns 0 and a usage error 2 (after printing it), without doing anything;
    the admin commands' own parsers raise SystemExit for theirs, as argparse does.
    """
    try:
        command, rest = choose(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as stopped:
        return stopped.code if isinstance(stopped.code, int) else 2
    if command == "play":
        from bot.tools.play import main as play_main

        return play_main(rest)
    if command == "bench":
        from bot.tools.bench import main as bench_main

        return bench_main(rest)
    if command == "render":
        from bot.tools.render import main as render_main

        return render_main(rest)
    if command in ("migrate", "backup", "health"):
        from bot.admin import main as admin_main

        return admin_main(command, rest)
    from bot.runner import main as run_main

    return run_main(force_sync=command == "sync")


if __name__ == "__main__":
    sys.exit(main())
