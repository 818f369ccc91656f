"""Helpers shared by the benchmark scripts: percentiles, tables, memory, the machine.

The scripts in ``bench/`` are run from the repository root as modules
(``python -m bench.clicks``), so ``bench``, ``tests`` and the installed ``bot`` package
all import; ``python -m bot bench`` runs them that way.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sqlite3
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The repository root (the working directory benchmarks expect)."""


def percentile(values: Sequence[float], fraction: float) -> float:
    """Return the nearest-rank percentile of ``values`` (``fraction`` 0.5 is the median)."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Return a Markdown table of ``rows`` under ``headers``."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def peak_rss_mb(pid: int | str = "self") -> float:
    """Return the peak resident set size (VmHWM) of process ``pid`` in MB (Linux)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for process {pid}")


def machine() -> str:
    """Return one line describing this machine: CPU model, cores, Python, SQLite."""
    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"SQLite {sqlite3.sqlite_version}")


def add_collector_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--gc``: the garbage collector's settings for the whole benchmark process."""
    parser.add_argument("--gc", choices=("bot", "python"), default="bot",
                        help="collector thresholds: the bot's (as python -m bot runs; the"
                             " default) or Python's own; they apply to every bot measured"
                             " in the process, the bare one too")


def apply_collector(choice: str) -> str:
    """Set the collector as ``--gc`` says; return a few words saying which, for headers."""
    if choice == "bot":
        from bot.runner import tune_collector

        tune_collector()
    return f"garbage collector thresholds {gc.get_threshold()} ({choice})"
