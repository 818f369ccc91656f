"""Encoding: reused bands give exactly the pixels of a whole encoding, and stay small."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image

from bot.pictures import encode, steam, tinker, tinrealm
from bot.pictures.canvas import Canvas, clear_layers
from bot.pictures.endings import ending
from bot.pictures.palette import ACTIVE, THEMES, Theme
from tests.pictures.conftest import play
from tests.pictures.widest import steam_view

BOARDS = {"tinker": tinker.board, "steam": steam.board, "tinrealm": tinrealm.board}


def whole(image: Image.Image, theme: Theme) -> bytes:
    """The reference: Pillow's own PNG writer on the image mapped to the theme's palette."""
    paletted = image.convert("RGB").quantize(palette=encode.theme_palette(theme),
                                             dither=Image.Dither.NONE)
    out = io.BytesIO()
    paletted.save(out, format="PNG")
    return out.getvalue()


def pixels(png: bytes) -> tuple[tuple[int, int], bytes]:
    picture = Image.open(io.BytesIO(png))
    picture.load()
    rgb = picture.convert("RGB")
    return rgb.size, rgb.tobytes()


@pytest.mark.parametrize("kind", list(BOARDS))
@pytest.mark.parametrize("seed", [0, 1])
def test_banded_pictures_equal_whole_encodings(kind: str, seed: int) -> None:
    clear_layers()
    seats = 5 if kind == "steam" else 1
    used = 0
    for moves in (0, 5, 6, 30, 31, 5000):
        game, state = play(kind, seed, moves, seats)
        view = game.view(state)
        status = "over" if game.is_over(state) else "active"
        c = BOARDS[kind](view, ending(kind, view, status))
        banded = c.png(c.bottom)
        used += len(c.bands)
        got = pixels(banded)
        want = pixels(whole(c.image.crop((0, 0, c.width, c.height)), c.theme))
        assert got == want, _differing(got, want, c, f"{kind} seed {seed}, {moves} moves")
    assert used > 0


def _differing(got: tuple[tuple[int, int], bytes], want: tuple[tuple[int, int], bytes],
               c: Canvas, board: str) -> str:
    """Say where a banded picture differs from the whole encoding: the board, the rows
    that differ and the bands (top, height) reused, so a rare failure can be traced."""
    (width, height), row = want[0], want[0][0] * 3
    rows = [y for y in range(height) if got[1][y * row:(y + 1) * row]
            != want[1][y * row:(y + 1) * row]]
    bands = [(top, band.height) for top, band in c.bands]
    return (f"{board}: sizes {got[0]} and {want[0]}; rows differing "
            f"{rows[:1] + rows[-1:]} ({len(rows)} of {height}, {width} wide); bands {bands}")


def inflated_rows(png: bytes) -> int:
    """How many filtered rows the PNG's image data holds (its IDAT inflated, exactly)."""
    at, data, width = 8, b"", 0
    while at < len(png):
        length, tag = struct.unpack(">I4s", png[at:at + 8])
        body = png[at + 8:at + 8 + length]
        if tag == b"IHDR":
            width = struct.unpack(">I", body[:4])[0]
        elif tag == b"IDAT":
            data += body
        at += 12 + length
    raw = zlib.decompress(data)
    assert len(raw) % (width + 1) == 0
    return len(raw) // (width + 1)


def test_a_board_cut_through_a_band_encodes_only_the_rows_kept() -> None:
    clear_layers()
    c = steam.board(steam_view(5), ending("steam", steam_view(5), "active"))
    top, band = c.bands[-1]
    assert band.height > 40
    png = c.png(top + 5)  # the picture ends inside the last band: it is left out
    assert c.height == top + 5 + 16 < top + band.height
    assert inflated_rows(png) == c.height
    assert pixels(png) == pixels(whole(c.image.crop((0, 0, c.width, c.height)), c.theme))
    # Given to the encoder anyway, the band that reaches below the height is left out too.
    direct = encode.png_banded(c.image, c.theme, [(top, band)], c.height)
    assert inflated_rows(direct) == c.height and pixels(direct) == pixels(png)


def test_bands_are_encoded_once_and_reused() -> None:
    clear_layers()
    first = steam.board(steam_view(5), ending("steam", steam_view(5), "active"))
    first.png(first.bottom)
    second = steam.board(steam_view(5), ending("steam", steam_view(5), "active"))
    # The river and the five rows are the same layers, with their encoding kept.
    assert len(second.bands) == 6
    assert [id(b) for _, b in first.bands] == [id(b) for _, b in second.bands]
    assert all(ACTIVE in band._encoded for _, band in second.bands)


def test_drawing_over_a_band_drops_it() -> None:
    clear_layers()
    c = steam.board(steam_view(2), ending("steam", steam_view(2), "active"))
    before = len(c.bands)
    top = c.bands[-1][0]
    c.text(20, top + 10, "over the row")
    assert len(c.bands) == before - 1
    png = c.png(c.bottom)
    assert pixels(png) == pixels(whole(c.image.crop((0, 0, c.width, c.height)), c.theme))


@pytest.mark.parametrize("mood", list(THEMES))
def test_every_theme_palette_is_full_and_keeps_its_colours(mood: str) -> None:
    theme = THEMES[mood]
    colours = encode.theme_palette(theme).getpalette()
    assert colours is not None and len(colours) == 768
    triples = {tuple(colours[i:i + 3]) for i in range(0, 768, 3)}
    for colour in (theme.background, theme.panel, theme.text, theme.muted, theme.banner):
        assert colour in triples


def test_flat_colours_survive_encoding_exactly() -> None:
    c = Canvas(ACTIVE, height=120)
    c.panel((10, 10, 200, 100))
    c.png(100)
    image = c.image.crop((0, 0, c.width, 116))
    png = encode.png_banded(image, ACTIVE, [])  # no bands: every row deflated now
    assert pixels(png) == pixels(whole(image, ACTIVE))
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    assert picture.getpixel((100, 50)) == ACTIVE.panel
    assert picture.getpixel((400, 50)) == ACTIVE.background
    # The top rows of the taller canvas, without a crop, are the same file.
    assert encode.png_banded(c.image, ACTIVE, [], 116) == png
    assert inflated_rows(encode.png_banded(c.image, ACTIVE, [], 999)) == 120
    # A transparent layer's canvas: only the rows kept are converted and encoded.
    layer = Canvas(ACTIVE, height=120, transparent=True)
    layer.panel((10, 10, 200, 100))
    assert inflated_rows(encode.png_banded(layer.image, ACTIVE, [], 50)) == 50


@pytest.mark.parametrize(("first", "second"), [(b"", b"x"), (b"abc", b""), (b"board" * 999,
                                                b"\xff" * 70_000), (bytes(range(256)), b"q")])
def test_adler_join_matches_zlib(first: bytes, second: bytes) -> None:
    joined = encode.adler_join(zlib.adler32(first), zlib.adler32(second), len(second))
    assert joined == zlib.adler32(first + second)
