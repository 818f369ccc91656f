"""Tin Realm's balance from the command line: ``python -m bot.tools.tinrealm_balance N``
plays N seeded games per map preset with the computer player and prints the report of
:mod:`bot.tools.tinrealm_simulate` (or, with ``--ablation``, what each thing an
adventurer can hold is worth)."""

from __future__ import annotations

import argparse
import sys

from bot.tools.tinrealm_simulate import ablation, format_report, simulate


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m bot.tools.tinrealm_balance N [options]``."""
    parser = argparse.ArgumentParser(description="Tin Realm balance simulation")
    parser.add_argument("games", type=int, help="games per preset")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument(
        "--preset",
        action="append",
        choices=("easy", "hard"),
        help="preset to play (repeatable; default easy and hard)",
    )
    parser.add_argument(
        "--policy",
        choices=("heuristic", "random"),
        default="heuristic",
        help="who plays: the built-in heuristic or random legal choices",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes to use")
    parser.add_argument(
        "--ablation",
        action="store_true",
        help="print what each item, trapping and race ability is worth to each pair "
        "(GAMES games per pair and thing) instead of the report",
    )
    args = parser.parse_args(argv)
    if args.ablation:
        for preset in args.preset or ["easy"]:
            print("\n".join(ablation(args.games, args.seed, preset, args.workers)))
            print()
        return 0
    for preset in args.preset or ["easy", "hard"]:
        report = simulate(args.games, args.seed, preset, args.policy, args.workers)
        print(format_report(report))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
