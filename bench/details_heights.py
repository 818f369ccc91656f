"""Heights of "Rules & details" and /help on a phone: every page as a 360 px phone shows it.

Plays random games of Tinker, Tin Realm and Steam to Solar (Steam at 2 to 5 seats, with
its lobby), draws every page of each game's private "Rules & details" (rules, icons,
cards or the table, trains, last turns) as Discord returns the message, and measures a
sample with ``shared/tools/discord_preview.py``. Prints the median, 99th percentile and
largest height per game and page, against the 600 px a phone screen shows, and writes
the tallest page of each kind as JSON (``--out``) for the preview tool to draw as PNG.

    python -m bench.details_heights --games 60 --sample 150 --out /tmp/details
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.common import percentile, table
from bot.boards.render import Renderer
from bot.table.loaded import LoadedGame
from bot.table.settings import ServerSettings
from cogs.details import page_keys
from cogs.help import help_message
from tests.cogs.board_messages import (
    ENGINES,
    PHONE_BUDGET,
    Message,
    board_renderer,
    load_preview,
    phone_heights,
    played,
    preview_path,
)

#: Messages measured in one Chromium page.
BATCH = 150


def private_message(body: dict[str, Any]) -> Message:
    """Return a private answer's body as Discord returns the message (no picture)."""
    view = body.get("view")
    embeds = [e.to_dict() for e in body.get("embeds") or ([body["embed"]] if body.get("embed")
                                                         else [])]
    data = {"content": body.get("content") or "", "embeds": embeds, "flags": 64,
            "attachments": [], "components": view.to_components() if view is not None else []}
    return Message(data, b"")


def detail_pages(renderer: Renderer, game: LoadedGame) -> Iterator[tuple[str, Message]]:
    """Yield every page of ``game``'s "Rules & details": its section and its message."""
    sections = renderer.sections(game)  # type: ignore[attr-defined]
    for key, index, _count in page_keys(sections):
        yield key, private_message(renderer.details(game, f"{key}.{index}"))


def measure(preview: object, items: list[Message]) -> list[int]:
    """Return the phone height of every message, a page of :data:`BATCH` at a time."""
    heights: list[int] = []
    for start in range(0, len(items), BATCH):
        heights += phone_heights(preview, items[start : start + BATCH])  # type: ignore[arg-type]
    return heights


def _spread(heights: list[int]) -> str:
    if not heights:
        return "—"
    over = sum(1 for h in heights if h > PHONE_BUDGET)
    return (f"{round(percentile(heights, 0.5))} / {round(percentile(heights, 0.99))} / "
            f"{max(heights)} ({over})")


def main() -> None:
    """Play, render, measure and print the heights per game and page."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games of each kind")
    parser.add_argument("--sample", type=int, default=150, help="pages measured per section")
    parser.add_argument("--preview", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the tallest page of each kind, as JSON")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    preview = load_preview(args.preview or preview_path())
    if preview is None:
        raise SystemExit("no preview tool (or no chromium)")
    rng = random.Random(args.seed)
    boards = board_renderer(False)
    rows = []
    tallest: dict[str, tuple[int, Message]] = {}
    for kind in ENGINES:
        renderer = boards.renderers[kind]
        by_section: dict[str, list[Message]] = {}
        for game in played(kind, args.games, args.seed):
            for key, item in detail_pages(renderer, game):
                by_section.setdefault(key, []).append(item)
        for key, items in by_section.items():
            chosen = rng.sample(items, min(len(items), args.sample))
            longest = sorted(items, key=lambda m: len(json.dumps(m.json)))[-10:]
            chosen += longest
            heights = measure(preview, chosen)
            rows.append((kind, key, len(items), len(chosen), _spread(heights)))
            top = max(zip(heights, range(len(chosen)), strict=True))
            if top[0] > tallest.get(kind, (0, None))[0]:
                tallest[kind] = (top[0], chosen[top[1]])
    helped = private_message(help_message(None, ServerSettings()))
    [height] = measure(preview, [helped])
    rows.append(("/help", "—", 1, 1, str(height)))
    print(f"{args.games} games of each kind; phone width 360 px, budget {PHONE_BUDGET} px; "
          "median / p99 / max (over budget)")
    print(table(("game", "page", "pages drawn", "measured", "height"), rows))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for kind, (height, item) in tallest.items():
            (args.out / f"details-{kind}.json").write_text(json.dumps(item.json))
            print(f"tallest {kind} page: {height} px → {args.out / f'details-{kind}.json'}")
        (args.out / "help.json").write_text(json.dumps(helped.json))


if __name__ == "__main__":
    main()
