"""Benchmark: deflating a picture's rows with zlib and with zlib-ng, level by level.

Draws every board of ``--games`` games per kind (as ``bench.pictures`` plays them), keeps
the mapped rows the encoder compressed (the rows drawn anew and the bands, apart), then
deflates each piece alone with each library at each level, as the encoder does (raw
deflate, a full flush at the end), and prints the CPU and the bytes side by side.

Run from the repository root: ``python -m bench.deflate [--games 1]``.
"""

from __future__ import annotations

import argparse
import time
import zlib
from collections import Counter
from typing import Any

from PIL import Image
from zlib_ng import zlib_ng

from bench.common import machine, table
from bench.pictures import SEATS, views
from bot.pictures import _drawer, encode
from bot.pictures.canvas import clear_layers
from bot.pictures.endings import ending
from bot.pictures.palette import Theme

LIBRARIES: dict[str, Any] = {"zlib": zlib, "zlib-ng": zlib_ng}
"""The deflate libraries compared (the same interface)."""

LEVELS = {"drawn rows": (1, 2, 3, 4), "bands": (4, 5, 6)}
"""The levels tried for each kind of piece."""


def pieces(games: int, uses: dict[str, Counter[int]] | None = None) -> dict[str, list[bytes]]:
    """Draw the boards; return the rows the encoder deflated, by kind of piece. With
    ``uses``, also count for each kind of game how many pictures each band served."""
    found: dict[str, list[bytes]] = {"drawn rows": [], "bands": []}
    original, encoded = encode._piece, encode.Band.encoded
    in_band = False
    served: Counter[int] = Counter()

    def keep(image: Image.Image, theme: Theme, level: int) -> encode.Piece:
        found["bands" if in_band else "drawn rows"].append(encode._rows(image, theme))
        return original(image, theme, level)

    def band(self: encode.Band, theme: Theme) -> encode.Piece:
        nonlocal in_band
        served[id(self)] += 1
        in_band = True
        try:
            return encoded(self, theme)
        finally:
            in_band = False

    encode._piece = keep
    encode.Band.encoded = band  # type: ignore[method-assign]
    try:
        for kind, seats in SEATS.items():
            clear_layers()
            served.clear()
            for seed in range(games):
                for view, status in views(kind, seed, False, seats):
                    draw = _drawer(kind, status)
                    assert draw is not None
                    draw(view, ending(kind, view, status))
            if uses is not None:
                uses[kind] = Counter(served.values())
    finally:
        encode._piece = original
        encode.Band.encoded = encoded  # type: ignore[method-assign]
    return found


def deflate(library: Any, level: int, rows: list[bytes]) -> tuple[float, int]:
    """Deflate every piece alone; return the CPU in ms and the bytes in all."""
    start = time.process_time()
    size = 0
    for raw in rows:
        packer = library.compressobj(level, library.DEFLATED, -15)
        size += len(packer.compress(raw) + packer.flush(library.Z_FULL_FLUSH))
    return (time.process_time() - start) * 1000, size


def main() -> None:
    """Parse the arguments, deflate, print the table."""
    parser = argparse.ArgumentParser(description="zlib and zlib-ng on the pictures' rows.")
    parser.add_argument("--games", type=int, default=1, help="games per kind (default 1)")
    args = parser.parse_args()
    uses: dict[str, Counter[int]] = {}
    found = pieces(args.games, uses)
    print(machine())
    print(f"{args.games} game(s) per kind; " + ", ".join(
        f"{len(rows)} pieces of {kind} ({sum(map(len, rows)) // 1024:,} KB raw)"
        for kind, rows in found.items()) + f"; the bot uses level {encode.COMPRESS_LEVEL}"
        f" for drawn rows and {encode.BAND_LEVEL} for bands\n")
    lines: list[list[object]] = []
    for kind, levels in LEVELS.items():
        for level in levels:
            row: list[object] = [kind, level]
            for library in LIBRARIES.values():
                ms, size = deflate(library, level, found[kind])
                row += [f"{ms:.1f}", f"{size / 1024:,.0f}"]
            lines.append(row)
    print(table(["pieces", "level", "zlib ms", "zlib KB", "zlib-ng ms", "zlib-ng KB"], lines))
    print("\nHow many pictures each band served (its layer unchanged from move to move):\n")
    print(table(["game", "bands", "served one picture", "two or three", "four or more"],
                [[kind, sum(count.values()), count[1], count[2] + count[3],
                  sum(n for used, n in count.items() if used >= 4)]
                 for kind, count in uses.items()]))


if __name__ == "__main__":
    main()
