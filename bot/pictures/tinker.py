"""The Tinker, Sailor, Soldier, Spy board: challenge, target, played cards, chips, journey."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.pictures.canvas import MARGIN, Canvas
from bot.pictures.cards import FULL, MINI, TILE, paste_card
from bot.pictures.endings import Ending
from bot.pictures.palette import BAD, GOOD, HIGHLIGHT, SUIT_ORDER
from bot.pictures.shapes import paste_icon
from bot.pictures.viewdata import items, mapping, mappings

LOCATIONS = 13
"""Locations on the journey (round 2)."""



def _suits(card: Any) -> set[str]:
    return {str(s) for s in items(mapping(card).get("suits"))}


def _number(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _offer(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The two cards offered in round 1; return the y below them."""
    offer = view.get("offer")
    if not isinstance(offer, Mapping):
        return y
    x = MARGIN
    for label in ("personality", "event"):
        card = offer.get(label)
        if not isinstance(card, Mapping):
            continue
        c.text(x, y, label.capitalize(), 20, bold=True, fill=c.theme.muted)
        paste_card(c.image, card, x, y + 28)
        target = card.get("value")
        c.text(x + FULL.width + 12, y + 28 + FULL.height / 2, f"target {target}", 22,
               anchor="lm")
        x += FULL.width + 150
    for i, line in enumerate(("Challenge one,", "the other", "is trashed.")):
        c.text(x - 20, y + 28 + FULL.height / 2 + (i - 1) * 28, line, 21, fill=c.theme.muted,
               anchor="lm")
    return y + 28 + FULL.height + 14


def _challenge(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The challenge card, the sum against the target and the played cards."""
    challenge = view.get("challenge")
    if not isinstance(challenge, Mapping):
        return _offer(c, view, y)
    counting = _suits(challenge)
    target, total = _number(view.get("target")), _number(view.get("sum")) or 0
    round_no = view.get("round")
    c.text(MARGIN, y, "Location" if round_no == 2 else "Challenge", 20, bold=True,
           fill=c.theme.muted)
    paste_card(c.image, challenge, MARGIN, y + 28, FULL, "count")
    left = MARGIN + FULL.width + 20
    reached = target is not None and total >= target
    c.text(left, y + 2, f"{total}", 44, bold=True, fill=GOOD if reached else c.theme.text)
    width = c.measure(f"{total}", 44, bold=True)
    c.text(left + width + 8, y + 20, f"/ {target if target is not None else '?'}", 28,
           fill=c.theme.muted)
    c.bar(left + 140, y + 20, c.width - MARGIN - left - 140, 18, total, target or 1,
          GOOD if reached else HIGHLIGHT)
    played = mappings(view.get("played"))
    room = c.width - MARGIN - left
    top = y + 64
    if not played:
        c.text(left, top + 30, "No card played yet", 22, fill=c.theme.muted)
        return y + 28 + FULL.height + 14
    size = FULL if len(played) * (FULL.width + 8) <= room else MINI
    step = size.width + 6
    if len(played) * step > room:
        step = max(14, (room - size.width) // max(1, len(played) - 1))
    for i, card in enumerate(played):
        mark = "count" if _suits(card) & counting else "dim"
        paste_card(c.image, card, left + i * step, top, size, mark)
    bottom = top + size.height
    paid = [p for p in items(view.get("paid")) if isinstance(p, str)]
    if paid:
        c.text(left, bottom + 8, "chips paid", 20, fill=c.theme.muted)
        x = left + c.measure("chips paid ", 20) + 4
        for suit in paid[:24]:
            paste_icon(c.image, suit, x, bottom + 6, 24)
            x += 27
        bottom += 34
    return max(bottom, y + 28 + FULL.height) + 14


def _chips(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """Chips left by suit; the suits that count for the challenge are ringed with +1."""
    chips, spent = mapping(view.get("chips")), mapping(view.get("spent_chips"))
    counting = _suits(view.get("challenge"))
    cell = (c.width - 2 * MARGIN) // 6
    c.panel((MARGIN, y, c.width - MARGIN, y + 66))
    for i, suit in enumerate(SUIT_ORDER):
        x = MARGIN + i * cell
        if suit in counting:
            c.panel((x + 4, y + 4, x + cell - 4, y + 62), fill=(92, 80, 40), outline=HIGHLIGHT,
                    width=3, radius=10)
        paste_icon(c.image, suit, x + 12, y + 13, 40)
        left = chips.get(suit)
        c.text(x + 60, y + 8, "?" if left is None else str(left), 30, bold=True,
               fill=BAD if left == 0 else c.theme.text)
        used = spent.get(suit)
        note = "+1" if suit in counting else (f"-{used}" if used else "")
        if note:
            c.text(x + 60, y + 42, note, 18, bold=True,
                   fill=HIGHLIGHT if note == "+1" else c.theme.muted)
    return y + 78


def _journey(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The journey: cleared locations as tiles, the rest as empty slots; pile sizes."""
    cleared = mappings(view.get("cleared"))
    slots = max(LOCATIONS, len(cleared))
    c.text(MARGIN, y, f"Journey: {len(cleared)} of {LOCATIONS} locations cleared", 22, bold=True)
    piles = (f"deck {view.get('deck_count', '?')} · discard {len(mappings(view.get('discard')))}"
             f" · aces {view.get('aces_left', '?')}")
    c.text(c.width - MARGIN, y + 2, piles, 20, fill=c.theme.muted, anchor="ra")
    y += 32
    step = (c.width - 2 * MARGIN - TILE.width) / max(1, slots - 1)
    for i in range(slots):
        x = MARGIN + i * step
        if i < len(cleared):
            paste_card(c.image, cleared[i], x, y, TILE)
        else:
            c.panel((x, y, x + TILE.width, y + TILE.height), fill=c.theme.panel, radius=9)
            c.text(x + TILE.width / 2, y + TILE.height / 2, str(i + 1), 18,
                   fill=c.theme.muted, anchor="mm")
    return y + TILE.height + 8


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return the Tinker board as PNG bytes."""
    c = Canvas(end.theme)
    round_no = view.get("round")
    stage = {1: "Round 1 · recruiting", 2: "Round 2 · journey"}.get(round_no, "")
    y = c.header("Tinker, Sailor, Soldier, Spy", stage)
    if end.headline:
        y = c.banner(y, end.headline, end.detail)
    y = _challenge(c, view, y)
    y = _chips(c, view, y)
    y = _journey(c, view, y)
    return c.png(y)
