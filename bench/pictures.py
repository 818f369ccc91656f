"""Benchmark: the CPU cost, size and height of board pictures, per game.

Plays seeded games of each kind (the engine's computer player, or random legal moves
with ``--random``) and keeps the board after every move. Each round draws every board
once, move by move as a table does (the picture cache bypassed; the layer cache emptied
at the start of the round, so a layer is reused only from the boards before it), and
measures, with ``time.process_time``: the CPU of the whole picture, and of its encoding
alone (the PNG step, timed inside the encoders). Per kind it prints the per-picture
median of each round as min/median/max over the rounds, the bytes and the heights, and
beside them the figures of the drawing code before the phone layout, the layers and the
fixed palette (:data:`BASELINE`, taken with this same script and the same arguments on
the same machine).

Run from the repository root:
``python -m bench.pictures [--games 6] [--rounds 3] [--seats 5] [--random] [--cold-words]``
(``--cold-words``: every round starts without the words drawn before, as the first round
of a fresh process does).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from bench.common import machine, table
from bot.games import registry
from bot.pictures import _drawer, canvas, encode, script
from bot.pictures.canvas import clear_layers
from bot.pictures.endings import ending

SEATS = {"tinker": 1, "steam": 3, "tinrealm": 1}
"""Seats per game for the benchmark."""

BASELINE: dict[str, dict[str, float]] = {
    "tinker": {"cpu": 3.59, "encode": 2.35, "kb": 18.9, "height": 478},
    "steam": {"cpu": 5.84, "encode": 3.63, "kb": 33.5, "height": 782},
    "tinrealm": {"cpu": 5.01, "encode": 2.92, "kb": 24.9, "height": 550},
}
"""Median figures per picture of the earlier drawing code (``--games 6 --rounds 3``, 3 seats)."""


def views(kind: str, seed: int, pick_random: bool, seats: int,
          max_moves: int = 2000) -> list[tuple[Any, str]]:
    """Return (view, status) for every board of one game from ``seed``."""
    game = registry.engine(kind)
    state = game.new(seed, seats, {})
    chooser = random.Random(seed)
    boards = [(game.view(state), "active")]
    for _ in range(max_moves):
        seat = game.to_act(state)
        if seat is None:
            break
        if pick_random:
            legal = [a.id for a in game.legal_actions(state, seat) if a.id != "resign"]
            action = chooser.choice(legal)
        else:
            action = game.computer_action(state, seat)
        state = game.apply(state, seat, action).state
        boards.append((game.view(state), "over" if game.is_over(state) else "active"))
    return boards


class EncodeClock:
    """Wraps an encoder of :mod:`bot.pictures.encode` to add up the CPU spent encoding."""

    def __init__(self, original: Callable[..., bytes]) -> None:
        self.spent = 0.0
        self.original = original

    partner: EncodeClock | None = None

    def reset(self) -> None:
        """Start counting from zero (this clock and its partner)."""
        self.spent = 0.0
        if self.partner is not None:
            self.partner.reset()

    def total(self) -> float:
        """Seconds spent in this encoder and its partner since :meth:`reset`."""
        return self.spent + (self.partner.total() if self.partner is not None else 0.0)

    def __call__(self, image: Image.Image, *args: Any, **kwargs: Any) -> bytes:
        """Encode ``image`` with the real encoder, adding its CPU time to :attr:`spent`."""
        start = time.process_time()
        try:
            return self.original(image, *args, **kwargs)
        finally:
            self.spent += time.process_time() - start


def spread(values: list[float]) -> str:
    """``min / median / max`` of ``values`` with one decimal."""
    return (f"{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}")


@dataclass
class Drawn:
    """What drawing one game's boards a number of rounds gave."""

    #: Each round's median CPU ms per picture, and of its encoding alone.
    cpu: list[float] = field(default_factory=list)
    encode: list[float] = field(default_factory=list)
    #: Each picture's size in bytes and height in pixels (first round).
    sizes: list[int] = field(default_factory=list)
    heights: list[int] = field(default_factory=list)


def install_clock() -> EncodeClock:
    """Put clocks around the PNG encoders the boards call; return the one to read."""
    clock = EncodeClock(encode.png_banded)
    encode.png_banded = clock  # the boards call the encoders through their module
    if hasattr(encode, "png_bytes"):  # code of before every picture was banded
        whole = EncodeClock(encode.png_bytes)
        encode.png_bytes = whole
        if hasattr(canvas, "png_bytes"):
            canvas.png_bytes = whole
        clock.partner = whole
    return clock


def warm(boards: dict[str, list[tuple[Any, str]]]) -> None:
    """Draw a few boards of each kind: fonts, icons and faces loaded, as a running bot has."""
    for kind, found in boards.items():
        for view, status in found[:: max(1, len(found) // 20)]:
            draw = _drawer(kind, status)
            assert draw is not None
            draw(view, ending(kind, view, status))


def draw_rounds(kind: str, boards: list[tuple[Any, str]], rounds: int,
                clock: EncodeClock, cold_words: bool = False) -> Drawn:
    """Draw every board ``rounds`` times, move by move; return the figures.

    With ``cold_words`` every round starts without the words drawn before.
    """
    drawn = Drawn()
    for index in range(rounds):
        clear_layers()  # each round draws its games move by move, as a table does
        if cold_words:
            script.forget_words()
        cpu: list[float] = []
        enc: list[float] = []
        for view, status in boards:
            draw = _drawer(kind, status)
            assert draw is not None
            look = ending(kind, view, status)
            clock.reset()
            start = time.process_time()
            png = draw(view, look)
            cpu.append((time.process_time() - start) * 1000)
            enc.append(clock.total() * 1000)
            if index == 0:
                drawn.sizes.append(len(png))
                drawn.heights.append(Image.open(io.BytesIO(png)).height)
        drawn.cpu.append(statistics.median(cpu))
        drawn.encode.append(statistics.median(enc))
    return drawn


def measure(kind: str, boards: list[tuple[Any, str]], rounds: int,
            clock: EncodeClock, cold_words: bool = False) -> list[object]:
    """Draw every board ``rounds`` times; return one table row of figures."""
    drawn = draw_rounds(kind, boards, rounds, clock, cold_words)
    sizes, heights = drawn.sizes, drawn.heights
    base = BASELINE.get(kind, {})
    return [kind, len(boards), spread(drawn.cpu), base.get("cpu", "?"), spread(drawn.encode),
            base.get("encode", "?"), f"{statistics.median(sizes) / 1024:.1f}",
            f"{max(sizes) / 1024:.1f}", base.get("kb", "?"),
            f"{statistics.median(heights):.0f} / {max(heights)}", base.get("height", "?")]


def main() -> None:
    """Parse the arguments, run every game, print the table."""
    parser = argparse.ArgumentParser(description="Board picture cost per game.")
    parser.add_argument("--games", type=int, default=6, help="games per kind (default 6)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of drawing (default 3)")
    parser.add_argument("--seats", type=int, default=0,
                        help="Steam to Solar seats (default 3)")
    parser.add_argument("--random", action="store_true", help="random legal moves instead")
    parser.add_argument("--compress-level", type=int, choices=range(10), default=None,
                        help="deflate level of the rows drawn anew (default: the bot's,"
                             f" {encode.COMPRESS_LEVEL})")
    parser.add_argument("--cold-words", action="store_true",
                        help="every round without the words drawn before (the first"
                             " round's cost in every round)")
    args = parser.parse_args()
    if args.compress_level is not None:
        encode.COMPRESS_LEVEL = args.compress_level
    clock = install_clock()
    seats = dict(SEATS)
    if args.seats:
        seats["steam"] = args.seats
    boards = {kind: [b for seed in range(args.games)
                     for b in views(kind, seed, args.random, seats[kind])] for kind in SEATS}
    warm(boards)
    rows = [measure(kind, boards[kind], args.rounds, clock, args.cold_words) for kind in SEATS]
    print(machine())
    print(f"{args.games} games per kind, {'random legal moves' if args.random else 'computer'}"
          f" players, {args.rounds} rounds, every board drawn from scratch"
          f"{', its words too' if args.cold_words else ''};"
          f" deflate level {encode.COMPRESS_LEVEL}; CPU per picture (process_time), min /"
          " median / max of the rounds' medians\n")
    print(table(["game", "boards", "CPU ms", "before", "encode ms", "before", "median KB",
                 "max KB", "before", "height median / max", "before"], rows))


if __name__ == "__main__":
    main()
