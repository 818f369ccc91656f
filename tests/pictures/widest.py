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


def tinker_view() -> dict[str, Any]:
    """A Tinker view in round 2 with many played cards, paid chips and every location cleared."""
    deck = [card_json(c, 5) for c in decktet.DECK[:13]]
    cards = _cards(LONGEST)
    return {"round": 2, "phase": "play", "offer": None,
            "challenge": {**cards[8], "value": 12}, "target": 99, "sum": 88,
            "played": [{**c, "value": 9} for c in cards] + cards[:4],
            "paid": ["Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"] * 3,
            "chips": dict.fromkeys(("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots"), 10),
            "spent_chips": dict.fromkeys(("Moons", "Suns", "Waves"), 12),
            "deck_count": 44, "discard": cards, "aces_left": 6,
            "cleared": deck, "over": False}


def tinrealm_view() -> dict[str, Any]:
    """A Tin Realm view with a fight, a full tableau, the next card and a long pack."""
    card = {"name": "Stormcrag Ledge Overlook", "icons": ["enemy", "water", "loot"],
            "edges": ["skull", "mountain"]}
    return {"race": "Stoneborn", "class": "Pathfinder of the Long Road", "day": 7,
            "last_day": 7, "location_in_day": 6, "health": 99, "max_health": 99,
            "energy": 99, "max_energy": 99, "food": 99, "food_cap": 99, "poison": 99,
            "favor": 999, "node": 11, "furthest": 11, "nodes_total": 12,
            "map": [{"name": "Greywater Road of Many Turns", "nodes": ["S", "-", "water"]},
                    {"name": "Thornwood", "nodes": ["-", "campsite", "-"]},
                    {"name": "Saltmere Flats", "nodes": ["water", "-", "-"]},
                    {"name": "Oakinshelm Gate", "nodes": ["campsite", "-", "F"]}],
            "tableau": [card] * 6, "location": card, "top_card": card,
            "combat": {"name": "Moss Troll of the Deep Fen", "health": 40, "max_health": 40,
                       "attack": 12, "defense": 12},
            "dice": [6, 6, 6, 6], "items": [{"name": "Throwing Axe"}] * 9, "over": False}
