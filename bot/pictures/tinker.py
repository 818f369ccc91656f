"""The Tinker, Sailor, Soldier, Spy board: challenge, target, played cards, chips, journey."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.pictures.canvas import MARGIN, MIN_TEXT, Canvas
from bot.pictures.cards import FULL, MINI, TILE, card_key
from bot.pictures.endings import Ending
from bot.pictures.palette import BAD, CARD_INK, CHIP, COUNTING_PANEL, GOOD, HIGHLIGHT, SUIT_ORDER
from bot.pictures.viewdata import items, mapping, mappings, number

LOCATIONS = 13
"""Locations on the journey (round 2)."""
PAID_STEP = 31
"""The room of one paid chip (a 30 px icon) in the row under the played cards."""



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
        c.text(x, y, label.capitalize(), MIN_TEXT, bold=True, fill=c.theme.muted)
        c.card(card, x, y + 40)
        target = card.get("value")
        c.text(x + FULL.width + 10, y + 40 + FULL.height / 2 - 20, "target", MIN_TEXT,
               fill=c.theme.muted, anchor="lm")
        c.text(x + FULL.width + 10, y + 40 + FULL.height / 2 + 20, f"{target}", 36, bold=True,
               anchor="lm")
        x += FULL.width + 200
    c.text(MARGIN, y + 40 + FULL.height + 8, "Challenge one; the other is trashed.", MIN_TEXT,
           fill=c.theme.muted, max_width=c.width - 2 * MARGIN)
    return y + 40 + FULL.height + 50


def _challenge(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The challenge card, the sum against the target and the played cards."""
    challenge = view.get("challenge")
    if not isinstance(challenge, Mapping):
        return _offer(c, view, y)
    counting = _suits(challenge)
    target, total = _number(view.get("target")), _number(view.get("sum")) or 0
    round_no = view.get("round")
    c.card(challenge, MARGIN, y, FULL, "count")
    left = MARGIN + FULL.width + 16
    reached = target is not None and total >= target
    word = "Location" if round_no == 2 else "Challenge"
    c.text(left, y - 2, word, MIN_TEXT, bold=True, fill=c.theme.muted)
    c.text(left + 180, y - 8, f"{total}", 44, bold=True, fill=GOOD if reached else c.theme.text)
    width = c.measure(f"{total}", 44, bold=True)
    c.text(left + 180 + width + 8, y, f"/ {target if target is not None else '?'}", 34,
           fill=c.theme.muted)
    c.bar(left + 310, y + 12, c.width - MARGIN - left - 310, 20, total, target or 1,
          GOOD if reached else HIGHLIGHT)
    played = mappings(view.get("played"))
    room = c.width - MARGIN - left
    top = y + 48
    if not played:
        c.text(left, top + 20, "No card played yet", MIN_TEXT, fill=c.theme.muted)
        return y + FULL.height + 12
    size = MINI
    step = size.width + 6
    x = left
    if len(played) * step > room:  # the latest that fit, after "+N" for the first ones
        chip = c.measure(f"+{len(played)}", MIN_TEXT, bold=True) + 16
        hidden = len(played) - (room - chip - 6 + 6) // step
        c.panel((x, top, x + chip, top + size.height), radius=8)
        c.text(x + chip / 2, top + size.height / 2, f"+{hidden}", MIN_TEXT, bold=True,
               fill=c.theme.muted, anchor="mm")
        x += chip + 6
        played = played[hidden:]
    for i, card in enumerate(played):
        mark = "count" if _suits(card) & counting else "dim"
        c.card(card, x + i * step, top, size, mark)
    bottom = top + size.height
    paid = [p for p in items(view.get("paid")) if isinstance(p, str)]
    if paid:
        c.text(left, bottom + 6, "paid", MIN_TEXT, fill=c.theme.muted)
        _paid(c, paid, left + c.measure("paid ", MIN_TEXT) + 4, bottom + 6)
        bottom += 44
    return max(bottom, y + FULL.height) + 12


def _paid(c: Canvas, paid: list[str], x: int, top: int) -> None:
    """The chips paid on the challenge, in a row on a chip-coloured panel from ``x`` to
    the board's margin: all of them where they fit, else the first ones and "+N" for
    the others (the alt text names them all)."""
    right = c.width - MARGIN  # the panel's right edge may reach the margin
    shown, more = len(paid), ""
    if x + shown * PAID_STEP + 2 > right:
        while shown > 0:
            shown -= 1
            more = f"+{len(paid) - shown}"
            if x + shown * PAID_STEP + 3 + c.measure(more, MIN_TEXT, bold=True) + 8 <= right:
                break
    end = x + shown * PAID_STEP
    width = 3 + c.measure(more, MIN_TEXT, bold=True) + 8 if more else 2
    c.panel((x - 4, top, end + width, top + 36), fill=CHIP, radius=8)
    for suit in paid[:shown]:
        c.icon(suit, x, top + 3, 30)
        x += PAID_STEP
    if more:
        c.text(end + 3, top + 18, more, MIN_TEXT, bold=True, fill=CARD_INK, anchor="lm")


def _chips(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """Chips left by suit; the suits that count for the challenge are ringed with +1."""
    chips, spent = mapping(view.get("chips")), mapping(view.get("spent_chips"))
    counting = _suits(view.get("challenge"))
    cells = tuple((suit, str(chips.get(suit)) if suit in chips else "?",
                   _number(spent.get(suit)) or 0, suit in counting) for suit in SUIT_ORDER)
    c.layer(_paint_chips, (cells,), (c.width, 85), 0, y, opaque=True)
    return y + 94


def _paint_chips(c: Canvas, cells: tuple[tuple[str, str, int, bool], ...]) -> None:
    """Draw the chip panel at the top of a layer as wide as the board (cached by chips)."""
    y = 0
    cell = (c.width - 2 * MARGIN) // 6
    c.panel((MARGIN, y, c.width - MARGIN, y + 84))
    for i, (suit, left, used, counts) in enumerate(cells):
        x = MARGIN + i * cell
        if counts:
            c.panel((x + 3, y + 3, x + cell - 3, y + 81), fill=COUNTING_PANEL, outline=HIGHLIGHT,
                    width=3, radius=10)
        c.draw.ellipse((x + 8, y + 14, x + 56, y + 62), fill=CHIP)
        c.icon(suit, x + 12, y + 18, 40)
        c.text(x + 62, y + 6, left, 34, bold=True, fill=BAD if left == "0" else c.theme.text)
        note = "+1" if counts else (f"-{used}" if used else "")
        if note:
            c.text(x + 62, y + 44, note, MIN_TEXT, bold=True,
                   fill=HIGHLIGHT if note == "+1" else c.theme.muted)


def _journey(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The journey: cleared locations as tiles, the rest as empty slots; pile sizes."""
    cleared = mappings(view.get("cleared"))
    slots = max(LOCATIONS, len(cleared))
    c.text(MARGIN, y, f"Journey {len(cleared)}/{LOCATIONS}", MIN_TEXT, bold=True)
    piles = (f"deck {view.get('deck_count', '?')} · discard {len(mappings(view.get('discard')))}"
             f" · aces {view.get('aces_left', '?')}")
    c.text(c.width - MARGIN, y, piles, MIN_TEXT, fill=c.theme.muted, anchor="ra",
           max_width=c.width - 3 * MARGIN - 200)
    y += 42
    tiles = tuple(card_key(card) for card in cleared)
    c.layer(_paint_tiles, (tiles, slots), (c.width, TILE.height), 0, y, opaque=True)
    return y + TILE.height + 8


def _paint_tiles(c: Canvas, tiles: tuple[tuple[str, str, str, tuple[str, ...]], ...],
                 slots: int) -> None:
    """Draw the journey's slots on a layer as wide as the board (cached by journey)."""
    step = (c.width - 2 * MARGIN - TILE.width) / max(1, slots - 1)
    for i in range(slots):
        x = MARGIN + i * step
        if i < len(tiles):
            name, rank, value, suits = tiles[i]
            c.card({"name": name, "rank": rank, "value": value or None, "suits": list(suits)},
                   x, 0, TILE)
        else:
            c.panel((x, 0, x + TILE.width, TILE.height), fill=c.theme.panel, radius=9)


def board(view: Mapping[str, Any], end: Ending) -> Canvas:
    """Draw the Tinker board and return the canvas (with :attr:`Canvas.bottom`)."""
    c = Canvas(end.theme)
    round_no = view.get("round")
    stage = {1: "round 1", 2: "round 2"}.get(number(round_no), "")
    y = c.header("Tinker, Sailor, Soldier, Spy", stage) + 4
    if end.headline:
        y = c.banner(y, end.headline, end.detail)
    y = _challenge(c, view, y)
    y = _chips(c, view, y)
    c.bottom = _journey(c, view, y)
    return c


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return the Tinker board as PNG bytes."""
    c = board(view, end)
    return c.png(c.bottom)
