"""``python -m bot bench``: run the benchmarks of ``bench/`` and print their figures.

The benchmarks live in the repository's ``bench/`` folder, which is not installed with
the bot (they drive the bot against the offline fake Discord of ``tests/``). This
launcher finds the repository beside the ``bot`` package and runs each benchmark as a
separate process, ``python -m bench.<name>`` from the repository root, so every
benchmark starts with a fresh interpreter (its own memory and timings) and a failing
one does not stop the others. Arguments after a benchmark's name go to it; ``all``
runs every benchmark with its defaults.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository root, where ``bench/`` and ``tests/`` are expected."""

BENCHMARKS = {
    "clicks": "board clicks, move and vote side by side: latency, CPU, requests per click",
    "votes": "1,000 voting windows closing at once while other games are clicked",
    "bare": "our click against a bare discord.py bot sending the same board",
    "side_by_side": "SQLite and PostgreSQL, one process and two, beside the bare bot",
    "floor": "the bare bot, the floor (bare bot plus our save) and ours; the speed targets",
    "startup": "start-up time and peak memory with 10,000 and 100,000 games stored",
    "engines": "each engine's complete games per second on one core",
    "click_parts": "the cost of each piece of one click, timed on its own",
    "own_work": "where our bot's own work goes, timed inside 3,000 real clicks",
    "kept_states": "the memory of a kept game's engine state beside its text",
    "pictures": "every board's picture drawn from scratch: CPU, encoding, bytes, height",
    "deflate": "the pictures' rows deflated with zlib and with zlib-ng, level by level",
    "quiet": "one whole game of each: clicks, private replies, pings",
    "backup": "an SQLite backup after retention pruned, compacted and as every page",
}
"""The benchmarks ``all`` runs, in order, with what each measures."""

USAGE = "usage: python -m bot bench [all | {}] [arguments of that benchmark]".format(
    " | ".join(BENCHMARKS)
)


def main(args: list[str]) -> int:
    """Run the benchmark named first in ``args`` (default: all); return an exit code."""
    name = args[0] if args else "all"
    if name in ("-h", "--help", "help"):
        print(USAGE)
        for bench, what in BENCHMARKS.items():
            print(f"  {bench:8} {what}")
        return 0
    if (name != "all" and name not in BENCHMARKS) or (name == "all" and args[1:]):
        print(f"unknown benchmark or arguments {' '.join(args)!r}\n{USAGE}", file=sys.stderr)
        return 2
    if not (ROOT / "bench").is_dir():
        print(f"no bench/ folder under {ROOT}: benchmarks run from a checkout of the "
              "repository, not from an installed package", file=sys.stderr)
        return 2
    chosen = list(BENCHMARKS) if name == "all" else [name]
    failed = []
    for bench in chosen:
        command = [sys.executable, "-m", f"bench.{bench}", *args[1:]]
        print(f"$ python -m bench.{bench} {' '.join(args[1:])}".rstrip(), flush=True)
        if subprocess.run(command, cwd=ROOT, check=False).returncode != 0:
            failed.append(bench)
        print(flush=True)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
