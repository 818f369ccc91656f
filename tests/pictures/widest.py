"""The widest views of every game: full trains, five seats, the longest names in many scripts."""

from __future__ import annotations

from typing import Any

from bot.games import decktet
from bot.games.decktet import card_json

LONG_NAMES = (
    "Bartholomew Fitzgerald-Worthington",
    "王小明 (老师)",
    "さくら🌸ハナコ",
    "김민준 🎲",
    "Дмитрий Александрович",
    "Αλέξανδρος 🚂",
    "محمد علي 7",
    "דוד כהן",
    "👨‍👩‍👧 🚂🌞",
)
"""Player names that stress width and scripts."""


def _cards(names: list[str]) -> list[dict[str, Any]]:
    return [card_json(decktet.card(n)) for n in names]


LONGEST = ["Borderland", "Watchman", "Mountain", "Discovery", "Merchant", "Darkness",
           "Diplomat", "Huntress", "Chance Meeting", "Light Keeper"]


def steam_view(seats: int = 5, names: tuple[str, ...] = LONG_NAMES) -> dict[str, Any]:
    """A Steam to Solar view with every seat holding two full trains and a card being placed."""
    trains = [_cards(LONGEST[:5]), _cards(LONGEST[5:10])]
    river = [{**c, "cost": cost} for c, cost in zip(
        _cards(["Borderland", "Chance Meeting", "Light Keeper", "Ace of Knots", "Watchman",
                "Bard"]), (0, 0, 1, 2, 3, 4), strict=True)]
    players = [{"seat": i, "name": names[i % len(names)], "score": 88 + i, "trains": trains,
                "tokens": 2, "resigned": i == 3, "away": i == 2} for i in range(seats)]
    return {"kind": "steam", "half": 2, "deck_count": 40, "discard_count": 12, "river": river,
            "sunny_aside": [], "players": players, "turn": 1, "final_round": True,
            "pending": {"kind": "place", "seat": 1, "cards": _cards(["Discovery", "Borderland"])},
            "over": False, "result": None}
