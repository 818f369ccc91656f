"""Command line: ``python -m bot [run|sync|play|bench|render|migrate|backup|health]``."""

from __future__ import annotations

import sys

USAGE = """usage: python -m bot [command]

  run      run the bot (the default)
  sync     sync the application commands with Discord, then exit
  play     play a game in the terminal
  bench    run a benchmark (python -m bot bench --help)
  render   draw a board picture to a PNG file
  migrate  bring the database's schema up to date
  backup   copy the SQLite database into backups/ beside it, while the bot runs
  health   check a running bot's heartbeat (exit code 0 when healthy)

Settings come from the environment or a .env file: see .env.example."""


def main(argv: list[str] | None = None) -> int:
    """Dispatch to the sub-command named first in ``argv`` (default: run the bot)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"], ["help"]):
        print(USAGE)
        return 0
    command = args.pop(0) if args and not args[0].startswith("-") else "run"
    if command == "play":
        from bot.tools.play import main as play_main

        return play_main(args)
    if command == "bench":
        from bot.tools.bench import main as bench_main

        return bench_main(args)
    if command == "render":
        from bot.tools.render import main as render_main

        return render_main(args)
    if command in ("migrate", "backup", "health"):
        from bot.admin import main as admin_main

        return admin_main(command, args)
    if command in ("run", "sync"):
        from bot.runner import main as run_main

        return run_main(force_sync=command == "sync")
    known = "run, sync, play, bench, render, migrate, backup or health"
    print(f"unknown command {command!r}; use {known}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
