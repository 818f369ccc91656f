"""The Steam to Solar board: the river with costs, every player's trains, scores and turn."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.pictures.canvas import MARGIN, Canvas
from bot.pictures.cards import FULL, MINI, card_back, paste_card
from bot.pictures.endings import Ending
from bot.pictures.palette import CARD_INK, GOOD, HIGHLIGHT, MUTED
from bot.pictures.trains import report
from bot.pictures.viewdata import items, mappings

TRAINS = 2
"""Trains per player."""
TRAIN_CARDS = 5
"""Cards per train."""
COIN = (236, 190, 60)


def _river(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The river, position 1 first, each card with its cost; the deck beside it."""
    river = mappings(view.get("river"))
    if not river:
        c.text(MARGIN, y, f"The river is empty · deck {view.get('deck_count', '?')}", 22,
               fill=c.theme.muted)
        return y + 34
    c.text(MARGIN, y, "River", 20, bold=True, fill=c.theme.muted)
    top = y + 26
    x = MARGIN
    for position, card in enumerate(river[:6], start=1):
        paste_card(c.image, card, x, top)
        cx, cy = x + FULL.width - 14, top + 14
        cost = card.get("cost")
        c.draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), fill=COIN, outline=CARD_INK, width=2)
        c.text(cx, cy, "?" if cost is None else str(cost), 24, bold=True, fill=CARD_INK,
               anchor="mm")
        c.text(x + FULL.width / 2, top + FULL.height + 4, f"#{position}", 18,
               fill=c.theme.muted, anchor="ma")
        x += FULL.width + 10
    deck_x = max(x + 6, c.width - MARGIN - FULL.width)
    if deck_x + FULL.width <= c.width:
        card_back(c.image, deck_x, top, FULL, view.get("deck_count"))
        c.text(deck_x + FULL.width / 2, top + FULL.height + 4, "deck", 18,
               fill=c.theme.muted, anchor="ma")
    return top + FULL.height + 30


def _status(c: Canvas, view: Mapping[str, Any], names: dict[Any, str], y: int) -> int:
    """One line: sunny cards aside, the final round, what the player to act is doing."""
    parts: list[str] = []
    sunny = mappings(view.get("sunny_aside"))
    if sunny:
        parts.append(f"{len(sunny)} sunny cards wait for the second half")
    if view.get("final_round"):
        parts.append("final round")
    pending = view.get("pending")
    if isinstance(pending, Mapping):
        who = names.get(pending.get("seat"), "")
        kind = pending.get("kind")
        if kind == "place":
            held = ", ".join(str(x.get("name")) for x in mappings(pending.get("cards")))
            parts.append(f"{who} places {held}".strip())
        elif kind == "arrange":
            parts.append(f"{who} rearranges trains")
        elif kind == "run":
            power = f" on {pending['power']}" if pending.get("power") else ""
            parts.append(f"{who} runs train {pending.get('train', '?')}{power}")
    if not parts:
        return y
    c.text(MARGIN, y, " · ".join(parts), 21, fill=HIGHLIGHT if pending else c.theme.muted,
           max_width=c.width - 2 * MARGIN)
    return y + 32


def _player(c: Canvas, view: Mapping[str, Any], player: Mapping[str, Any], y: int) -> int:
    """One player's row: name, points, tokens, and both trains with what each can run."""
    seat = player.get("seat")
    turn = view.get("turn") is not None and seat == view.get("turn")
    resigned = bool(player.get("resigned"))
    height = 26 + MINI.height + 20
    c.panel((MARGIN, y, c.width - MARGIN, y + height), outline=HIGHLIGHT if turn else None,
            width=4)
    name = str(player.get("name") or f"Seat {seat}")
    left = MARGIN + 12
    c.text(left, y + 10, name, 24, bold=True, max_width=140,
           fill=MUTED if resigned else (HIGHLIGHT if turn else c.theme.text))
    c.text(left, y + 40, f"{player.get('score', '?')} pts", 30, bold=True)
    tokens = player.get("tokens") or 0
    c.text(left, y + 78, f"tokens {tokens}", 20, fill=c.theme.muted)
    if turn:
        c.tag(left, y + 108, "to play", GOOD, size=18)
    elif resigned:
        c.tag(left, y + 108, "resigned", (110, 110, 116), size=18)
    trains = [mappings(t) for t in items(player.get("trains"))]
    slot = TRAIN_CARDS * (MINI.width + 4)
    x0 = MARGIN + 160
    for index in range(max(TRAINS, len(trains))):
        x = x0 + index * (slot + 10)
        if x + MINI.width > c.width - MARGIN:
            break
        train = trains[index] if index < len(trains) else []
        if not train:
            c.text(x, y + 10, f"train {index + 1}: none", 19, fill=c.theme.muted)
            continue
        rep = report(train)
        c.text(x, y + 10, f"{index + 1}:", 19, bold=True, fill=c.theme.muted)
        c.tag(x + 24, y + 6, rep.label(), GOOD if rep.runnable else (84, 88, 98), size=17,
              max_width=slot - 28)
        for i, card in enumerate(train[:TRAIN_CARDS + 2]):
            paste_card(c.image, card, x + i * (MINI.width + 4), y + 40, MINI)
    return y + height + 8


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return the Steam to Solar board as PNG bytes."""
    c = Canvas(end.theme)
    half = {1: "first half", 2: "second half"}.get(view.get("half"), "")
    detail = " · ".join(x for x in (half, f"discard {view.get('discard_count', 0)}") if x)
    y = c.header("Steam to Solar", detail)
    if end.headline:
        y = c.banner(y, end.headline, end.detail)
    players = mappings(view.get("players"))
    names = {p.get("seat"): str(p.get("name") or f"Seat {p.get('seat')}") for p in players}
    y = _river(c, view, y)
    y = _status(c, view, names, y)
    for player in players[:6]:
        y = _player(c, view, player, y)
    return c.png(y)
