"""The board as plain text, built from the public view."""

from __future__ import annotations

from typing import Any

#: One character per map node mark; the meeple shows as "@".
NODE_CHARS = {"S": "S", "F": "F", "campsite": "C", "water": "~", "-": "."}
#: The map's key, one line on every text board.
KEY = "S start, F Oakinshelm, C campsite, ~ water, . road, @ you"
#: After an item used up for today, this fight or good, wherever the items are listed (in
#: words: a pale mark such as ▫️ cannot be seen on Discord's light theme).
SPENT = " (spent)"


def _card(card: dict[str, Any]) -> str:
    """One exploration card: [left edge | name: icons | right edge]."""
    left, right = card["edges"]
    return f"[{left} | {card['name']}: {', '.join(card['icons'])} | {right}]"


def _map(v: dict[str, Any]) -> str:
    """The map row: node marks per card, the meeple as @."""
    cards, index = [], 0
    for card in v["map"]:
        marks = []
        for mark in card["nodes"]:
            marks.append("@" if index == v["node"] else NODE_CHARS[mark])
            index += 1
        cards.append(" ".join(marks))
    return " | ".join(cards)


def render(v: dict[str, Any]) -> str:
    """Return the board as readable lines (C campsite, ~ water, @ you)."""
    if v.get("night") or v["day"] > v["last_day"]:  # ended at a supper (R9)
        lines = [f"Tin Realm - day {min(v['day'] - 1, v['last_day'])} of {v['last_day']} "
                 "is over"]
    else:
        lines = [f"Tin Realm - day {v['day']} of {v['last_day']}, "
                 f"location {v['location_in_day']} of 6"]
    if v["race"] and v["class"]:
        lines.append(
            f"{v['race']} {v['class']}: health {v['health']}/{v['max_health']}, "
            f"poison {v['poison']}, energy {v['energy']}/{v['max_energy']}, "
            f"food {v['food']}/{v['food_cap']}, favor {v['favor']}"
        )
    lines.append(f"Map: {_map(v)}   (node {v['node']} of {v['nodes_total'] - 1})")
    lines.append(f"Key: {KEY}")
    if v["tableau"]:
        lines.append("Tableau: " + " ".join(_card(card) for card in v["tableau"]))
    if v["top_card"]:
        lines.append(f"Top card: {_card(v['top_card'])} ({v['deck_left']} cards left)")
    if v["location"]:
        lines.append(f"Location: {_card(v['location'])}")
    if v["result"]:
        r = v["result"]
        lines.append(
            f"Result ({r['name']}): enemy {r['enemy']}, trap {r['trap']}, "
            f"encounter {r['encounter']}, loot {r['loot']}"
        )
    if v["combat"]:
        e = v["combat"]
        undead = ", undead" if e["undead"] else ""
        lines.append(
            f"Combat: {e['name']} health {e['health']}/{e['max_health']}, attack "
            f"{e['attack']}, defense {e['defense']}{undead}. {e['power']}"
        )
    if v["items"]:
        names = [i["name"] + ("" if i["ready"] else SPENT) for i in v["items"]]
        lines.append("Items: " + ", ".join(names))
    if v["dice"]:
        lines.append("Last roll: " + " ".join(map(str, v["dice"])))
    if v["over"]:
        lines.append(f"{v['end_text']}. Score {v['score']}: {v['rank']}.")
        lines.append(f"Score: {v['score_words']}")
    return "\n".join(lines)
