"""A replay as one animated GIF: the board picture of every position, in order.

Each frame is exactly the board picture the bot draws for that position
(:func:`bot.pictures.draw_picture`), placed at the top left of a canvas as large as the
largest board and filled around it with the board's own background. Pictures already
hold at most 256 colours, so each frame keeps its own palette and no colour changes.
Consecutive frames only store what changed (Pillow's GIF writer crops to the difference).
The functions here are module-level and take plain data, so the drawing process runs them;
the positions come from :func:`bot.table.replay.frames`.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image

from bot.pictures import draw_picture

FILENAME = "replay.gif"
"""The attachment name of a replay."""

STEP_MS = 800
"""How long each position shows."""

LAST_MS = 5000
"""How long the final position shows before the replay starts again."""

UPLOAD_LIMIT = 10 * 1024 * 1024
"""The largest file a server without boosts takes (10 MiB)."""


def draw_frames(kind: str, chunk: Sequence[tuple[Mapping[str, Any], str]]) -> list[bytes]:
    """Draw the board picture of each (view, status) of ``chunk`` as PNG bytes."""
    return [draw_picture(kind, view, status) for view, status in chunk]


def delays(count: int) -> list[int]:
    """Each frame's duration in milliseconds: the last one lingers."""
    return [STEP_MS] * (count - 1) + [LAST_MS] if count else []


def _framed(png: bytes, size: tuple[int, int]) -> Image.Image:
    """The board at the top left of a canvas of ``size``, its palette kept."""
    opened = Image.open(io.BytesIO(png))
    opened.load()
    board: Image.Image = opened
    if board.mode != "P":
        board = board.convert("RGB").quantize(256, dither=Image.Dither.NONE)
    if board.size == size:
        return board
    canvas = Image.new("P", size, board.getpixel((0, 0)))
    canvas.putpalette(board.getpalette() or [])
    canvas.paste(board, (0, 0))
    return canvas


def animate(pngs: Sequence[bytes]) -> bytes:
    """Return the board pictures ``pngs`` as one looping animated GIF."""
    if not pngs:
        return b""
    sizes = [Image.open(io.BytesIO(png)).size for png in pngs]
    size = (max(w for w, _ in sizes), max(h for _, h in sizes))
    images = [_framed(png, size) for png in pngs]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:],
                   duration=delays(len(images)), loop=0, optimize=False, disposal=1)
    return out.getvalue()
