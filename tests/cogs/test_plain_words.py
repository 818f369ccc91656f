"""Nothing a player sees carries a ruling id ("(T5)", "S8"): board text, labels,
descriptions and events of random games of every kind."""

from __future__ import annotations

import re

from tests.cogs.board_messages import board_renderer, message, played

#: A ruling id as the rulings name them: T5, S10, R1, C4.
RULING_ID = re.compile(r"\b[TSRC]\d{1,2}\b")


def _texts(data: object) -> list[str]:
    """Every string inside a message's JSON."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [t for k, v in data.items() if k not in ("custom_id", "url") for t in _texts(v)]
    if isinstance(data, list):
        return [t for v in data for t in _texts(v)]
    return []


def test_no_ruling_id_in_any_board_of_any_game():
    """Boards of 8 random games of each kind (their embeds, buttons, select options and
    descriptions, footers of the last turns) never show a ruling id."""
    boards = board_renderer(False)
    seen = 0
    for kind in ("tinker", "tinrealm", "steam"):
        for game in played(kind, 8, seed=3):
            texts = _texts(message(boards, game).json) + list(game.row.events)
            if game.state is not None:
                seat = game.to_act()
                if seat is not None:
                    for action in game.legal_actions(seat):
                        texts += [action.label, action.description]
            bad = [t for t in texts if RULING_ID.search(t)]
            assert not bad, (kind, bad[:3])
            seen += 1
    assert seen > 300
