"""``python -m bot render``: plays from a seed and writes the board's picture."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.__main__ import main
from bot.pictures.canvas import WIDTH
from tests.pictures.conftest import image


@pytest.mark.parametrize("kind", ["tinker", "steam", "tinrealm"])
def test_render_writes_a_png(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", kind, "--seed", "4", "--moves", "15", "--out", str(out)]) == 0
    assert image(out.read_bytes()).width == WIDTH
    assert "KB" in capsys.readouterr().out


def test_render_stops_at_the_end_of_the_game(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "end.png"
    assert main(["render", "tinrealm", "--seed", "2", "--moves", "100000", "--out", str(out)]) == 0
    assert "game over" in capsys.readouterr().out
