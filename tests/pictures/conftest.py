"""Shared code for the picture tests: seeded games played to chosen points."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from PIL import Image

from bot.games.registry import engine
from bot.pictures import CACHE

SEATS = {"tinker": 1, "steam": 3, "tinrealm": 1}


def play(kind: str, seed: int, moves: int, seats: int | None = None) -> tuple[Any, Any]:
    """Play ``moves`` moves from ``seed`` (the computer player, a random one on odd seeds)."""
    game = engine(kind)
    state = game.new(seed, seats or SEATS[kind], {})
    chooser = random.Random(seed)
    for _ in range(moves):
        seat = game.to_act(state)
        if seat is None:
            break
        if seed % 2:
            legal = [a.id for a in game.legal_actions(state, seat) if a.id != "resign"]
            action = chooser.choice(legal) if legal else game.computer_action(state, seat)
        else:
            action = game.computer_action(state, seat)
        state = game.apply(state, seat, action).state
    return game, state


def image(png: bytes) -> Image.Image:
    """Open PNG bytes, checking they are a PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    picture = Image.open(io.BytesIO(png))
    picture.load()
    return picture


@pytest.fixture(autouse=True)
def fresh_cache() -> None:
    """Every test starts with an empty picture cache."""
    CACHE.clear()
