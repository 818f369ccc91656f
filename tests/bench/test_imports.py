"""Every benchmark script imports: a name it takes from another module still exists."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


@pytest.mark.parametrize("name", sorted(p.stem for p in BENCH.glob("*.py")
                                        if p.stem != "__init__"))
def test_the_benchmark_imports(name: str) -> None:
    """``python -m bench.<name>`` gets past its imports (its ``main`` is not run)."""
    module = importlib.import_module(f"bench.{name}")
    assert module.__doc__, f"bench/{name}.py says what it measures"
