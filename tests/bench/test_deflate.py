"""The deflate benchmark (``bench/deflate.py``) compares what the encoder really deflates.

Its figures only mean something if the pieces it keeps are the encoder's own (the bands
apart from the rows drawn anew) and each library's output is a deflate stream any PNG
reader inflates to those rows; both are checked here. Nothing is timed.
"""

from __future__ import annotations

import zlib

import pytest

from bench import deflate
from bot.pictures import encode


@pytest.fixture(scope="module")
def found() -> dict[str, list[bytes]]:
    return deflate.pieces(1)


def test_the_pieces_are_the_bands_and_the_rows_drawn_anew(found: dict[str, list[bytes]]) -> None:
    assert found["bands"] and found["drawn rows"]
    for rows in found.values():
        assert all(rows) and all(piece[0] == 0 for piece in rows)  # each row's filter byte
    # The encoder is left as it was.
    assert encode._piece.__module__ == "bot.pictures.encode"
    assert encode.Band.encoded.__module__ == "bot.pictures.encode"


@pytest.mark.parametrize("library", list(deflate.LIBRARIES))
def test_each_library_deflates_the_pieces_losslessly(
        found: dict[str, list[bytes]], library: str) -> None:
    module = deflate.LIBRARIES[library]
    sample = found["bands"][:3] + found["drawn rows"][:3]
    for raw in sample:
        packer = module.compressobj(encode.COMPRESS_LEVEL, module.DEFLATED, -15)
        packed = packer.compress(raw) + packer.flush(module.Z_FULL_FLUSH)
        assert zlib.decompressobj(-15).decompress(packed) == raw
    _, size = deflate.deflate(module, encode.BAND_LEVEL, sample)
    assert 0 < size < sum(map(len, sample))  # the sizes it prints are of real output
