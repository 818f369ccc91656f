"""The serving process's own settings: the garbage collector's thresholds."""

from __future__ import annotations

import gc
import socket
from collections.abc import Iterator

import discord
import pytest

from bot import runner


@pytest.fixture
def thresholds() -> Iterator[None]:
    """Put the collector's thresholds back as they were after the test."""
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_full_collections_come_twenty_times_less_often(thresholds: None) -> None:
    """Young collections as Python's; the whole heap is scanned twenty times less often."""
    gc.set_threshold(700, 10, 10)
    runner.tune_collector()
    young, middle, old = gc.get_threshold()
    assert young == 700 and middle * old == 20 * (10 * 10)


async def test_serving_tunes_the_collector_before_anything_else(
        thresholds: None, tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``python -m bot run`` tunes the collector first, even when Discord is unreachable."""
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("DISCORD_TOKEN", "fake-bot-token")
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "bot.db"))
    monkeypatch.setenv("DISCORD_API_BASE", f"http://127.0.0.1:{port}/api/v10")
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    gc.set_threshold(700, 10, 10)
    assert await runner.serve() == 1  # could not reach Discord
    assert gc.get_threshold() == runner.GC_THRESHOLDS
