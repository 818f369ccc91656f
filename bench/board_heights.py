"""Board heights on a phone: every game's boards as a 360 px phone shows them.

Plays random games of Tinker, Tin Realm and Steam to Solar (Steam at 2 to 5 seats, from
its lobby), shows each board the ways a table does (votes under way, fast or "only me",
computer and away seats, the ending), renders its message as Discord returns it (embed,
components, the picture's attachment at its real size) with pictures on and off, and
measures a sample of them with ``shared/tools/discord_preview.py``. Prints the median,
99th percentile and largest height per game, against the 600 px a phone screen shows.

    python -m bench.board_heights --games 1000 --sample 400
    python -m bench.board_heights --preview ../shared/tools/discord_preview.py
    python -m bench.board_heights --used-line   # with Discord's "… used /tinker start"

Boards with a vote under way are also measured with the vote in one line
(:func:`bot.boards.layout.vote_line`), the field the Discord side is to show.

Drawing every board of 1,000 games would take long: every board is played and rendered
as JSON, and ``--sample`` boards per game and setting (evenly spread, always including
the tallest text boards by line count) are drawn and measured.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bench.common import percentile, table
from bot.table.loaded import LoadedGame
from tests.cogs.board_messages import (
    ENGINES,
    PHONE_BUDGET,
    Message,
    board_renderer,
    load_preview,
    message,
    phone_heights,
    played,
    png_size,
    preview_path,
)

#: Messages measured in one Chromium page.
BATCH = 150


#: A picture's height on a phone, of its height drawn (760 px wide, shown 292 px wide).
PICTURE_SCALE = 292 / 760


def _size(pair: tuple[LoadedGame, Message]) -> float:
    """Return a rough height of a message in px on a phone (its text at 38 letters a line
    of 18 px, its rows of buttons and its picture), to pick the tallest-looking."""
    item = pair[1]
    embed = item.json["embeds"][0]
    text = sum(len(str(embed.get(k) or "")) for k in ("title", "description", "footer"))
    text += sum(len(f["name"]) + len(f["value"]) for f in embed.get("fields") or [])
    rows = len(item.json.get("components") or [])
    picture = png_size(item.picture)[1] * PICTURE_SCALE if item.picture else 0
    return text / 38 * 18 + 45 * rows + picture


Pair = tuple[LoadedGame, Message]


def sample(items: Sequence[Pair], count: int, rng: random.Random) -> list[Pair]:
    """Return ``count`` of ``items``: a tenth the largest-looking, the rest at random."""
    if len(items) <= count:
        return list(items)
    largest = sorted(items, key=_size, reverse=True)[: count // 10]
    chosen = {id(m) for m in largest}
    rest = [m for m in items if id(m) not in chosen]
    return largest + rng.sample(rest, count - len(largest))


def measure(preview: object, items: Sequence[Message]) -> list[int]:
    """Return the phone height of every message, a page of :data:`BATCH` at a time."""
    heights: list[int] = []
    for start in range(0, len(items), BATCH):
        heights += phone_heights(preview, items[start : start + BATCH])  # type: ignore[arg-type]
    return heights


def main() -> None:
    """Play, render, measure and print the distribution per game, pictures on and off."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games of each kind")
    parser.add_argument("--sample", type=int, default=400,
                        help="boards measured per game and setting")
    parser.add_argument("--preview", type=Path, default=None,
                        help="discord_preview.py (default: $DISCORD_PREVIEW or "
                             "../shared/tools/ beside the repository)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--used-line", action="store_true",
                        help='draw the line Discord shows above a command\'s answer ("Alice '
                             'used /steam new"), which the preview tool leaves out')
    args = parser.parse_args()
    preview = load_preview(args.preview or preview_path())
    if preview is None:
        raise SystemExit(f"no preview tool (or no chromium) at {args.preview or preview_path()}")
    if args.used_line:
        _with_used_line(preview)
    rows = []
    rng = random.Random(args.seed)
    for kind in ENGINES:
        games = list(played(kind, args.games, args.seed))
        for images in (True, False):
            started = time.perf_counter()
            boards = board_renderer(images)
            picked = rng.sample(games, min(len(games), args.sample * 3))
            chosen = sample([(g, message(boards, g)) for g in picked], args.sample, rng)
            heights = measure(preview, [m for _, m in chosen])
            voting = [(g, m) for g, m in chosen if g.data.poll and g.data.poll.ballots]
            one_line = measure(preview, [message(boards, g, one_line_vote=True)
                                         for g, _ in voting])
            marked = [(bool(g.data.poll and g.data.poll.ballots), h)
                      for (g, _), h in zip(chosen, heights, strict=True)]
            rows.append((kind, "on" if images else "off", len(games), len(heights),
                         _spread(heights), _spread([h for v, h in marked if not v]),
                         _spread([h for v, h in marked if v]), _spread(one_line),
                         f"{time.perf_counter() - started:.0f} s"))
    print(f"{args.games} games of each kind; phone width 360 px, budget {PHONE_BUDGET} px; "
          "median / p99 / max (over budget)")
    print(table(("game", "pictures", "boards played", "measured", "every board",
                 "no vote under way", "a vote under way", "that vote in one line", "time"),
                rows))


def _with_used_line(preview: Any) -> None:
    """Make ``preview`` draw Discord's "… used /command" line above every public message
    (a board is the answer to the command that started its game, and keeps the line)."""
    drawn = preview.render_message

    def render_message(data: dict[str, Any], used: str | None, private: bool) -> str:
        return drawn(data, used or (None if private else USED_LINE), private)

    preview.render_message = render_message


#: The line Discord shows above a command's answer, as long as most.
USED_LINE = "Alice Wonderland used /tinker start"


def _spread(heights: Sequence[int]) -> str:
    """Return median / p99 / max and how many are over budget, as one table cell."""
    if not heights:
        return "—"
    over = sum(1 for h in heights if h > PHONE_BUDGET)
    return (f"{round(percentile(heights, 0.5))} / {round(percentile(heights, 0.99))} / "
            f"{max(heights)} ({over})")

if __name__ == "__main__":
    main()
