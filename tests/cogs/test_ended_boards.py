"""A board ended before its game was over (abandoned, or ended by the idle sweep) asks
for no move any more: its title says how it ended, its text what ended it, and its
picture's words say it too ("idle too long", not "nobody played")."""

from __future__ import annotations

import copy

import pytest

from bot.boards.render import BoardRenderer
from tests.cogs.board_messages import board_renderer, message, played


def _ended(game, status: str):
    """``game`` as if it had just ended with ``status``."""
    game = copy.copy(game)
    game.row = copy.copy(game.row)
    game.row.status = status
    return game


@pytest.mark.parametrize("kind", ["tinker", "tinrealm", "steam"])
def test_an_ended_board_asks_for_no_move(kind: str) -> None:
    started = [g for g in played(kind, 1, seed=1, seats=2 if kind == "steam" else 1)
               if g.row.status == "active" and g.state is not None]
    game = started[len(started) // 2]
    for status, said in (("abandoned", "abandoned"), ("expired", "ended, idle too long")):
        for images in (True, False):
            embed = message(board_renderer(images), _ended(game, status)).json["embeds"][0]
            text = f"{embed.get('title')} | {embed.get('description')}"
            assert embed["title"].endswith(f" · {said}"), text
            for asking in ("Pay a chip", "Resolve", "to play", "Fight!", "Choose"):
                assert asking not in text, text
            assert not embed.get("fields")
    alt = BoardRenderer.alt_text(_ended(game, "expired"))
    assert "idle too long" in alt and "nobody played" not in alt, alt
