"""Turning a drawn board into compact PNG bytes, quickly.

Boards are flat colours, so a palette PNG keeps them sharp and small. The palette is
found on a quarter-size copy (sixteen times fewer pixels; every flat colour survives)
and the full picture is mapped to it without dithering, which costs a third of
quantising the full picture. A light zlib level keeps encoding fast; the files stay
far below the size limit.
"""

from __future__ import annotations

import io

from PIL import Image

COLOURS = 128
"""Palette size."""

COMPRESS_LEVEL = 3
"""zlib level: 3 is about as small as 6 for these pictures and much faster."""


def png_bytes(image: Image.Image) -> bytes:
    """Return ``image`` as a palette PNG."""
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    palette = rgb.reduce(4).quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    paletted = rgb.quantize(palette=palette, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()
