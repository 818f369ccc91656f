"""Turning a drawn board into compact PNG bytes."""

from __future__ import annotations

import io

from PIL import Image

COLOURS = 96
"""Palette size: boards are flat colours, so a small palette keeps them sharp and small."""


def png_bytes(image: Image.Image) -> bytes:
    """Return ``image`` as a palette PNG (fast octree quantising, no dithering)."""
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    paletted = rgb.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG", compress_level=6)
    return out.getvalue()
