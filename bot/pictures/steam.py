"""The Steam to Solar board: the river with costs, the card being placed, every player's trains.

Drawn for a phone: the river as two columns of named strips (cost, rank, suits, name),
a line for what the player to act is doing (the cards being placed drawn beside it), and
one row per player with the name, points and status on the left and both trains of five
slots on the right, a gap between them. While rearranging, a train may hold more than five
cards on the way (S6): every card is drawn, the ones past the fifth framed as over the
limit, and the row's cards stand closer together so both trains keep to the row. A seat
marked ``away`` in the view (the table's flag, merged in by the board) carries an ``away``
tag after its points; a resigned seat, which scores nothing (S10), a ``resigned`` tag in
their place. Both tags keep inside the name column, clear of the trains' frames. In the
second half the Wave tokens a player holds (S10: the stack of two, of one, or both; 2
points each at the end, S12) stand after their points as that many stacked discs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.pictures.canvas import MARGIN, MIN_TEXT, Canvas, fit
from bot.pictures.cards import MINI, RANK_SHORT, card_key
from bot.pictures.endings import Ending
from bot.pictures.palette import (
    BAD,
    CARD_EDGE,
    CARD_FACE,
    CARD_INK,
    GOOD,
    HIGHLIGHT,
    MUTED,
    RGB,
    SUIT_COLOURS,
)
from bot.pictures.script import fold, sentence
from bot.pictures.trains import report
from bot.pictures.viewdata import items, mappings, number

TRAINS = 2
"""Trains per player."""
TRAIN_CARDS = 5
"""Cards per train (slots drawn; a train holding more while rearranging shows them all)."""
COIN = (236, 190, 60)
AWAY = (226, 168, 72)
GONE = (150, 150, 156)
EMPTY_SLOT = (84, 88, 98)

STRIP_H, STRIP_STEP = 48, 54
"""A river strip's height and the distance between strips."""
LEFT = 204
"""Width of a player row's name column."""
CARD_STEP = MINI.width + 4
"""Distance between cards in a train."""
TRAIN_W = TRAIN_CARDS * CARD_STEP - 4
"""Width of a train of five cards."""
TRAIN_GAP = 24
"""Space between a player's two trains."""
ROW_H = MINI.height + 14
"""Height of a player's row."""
OVER = BAD
"""The dashed frame of a card past a train's fifth: over the limit (S6, while
rearranging); dashed, where a train that can run has a solid green frame."""
THEN = "then"
"""Between the card being placed and the ones to place after it."""
TOKEN = 30
"""A Wave token's disc (S10), drawn after a player's points."""
TOKEN_STEP = 18
"""How far each further token of a player's stack stands right of the one before."""
TAG_RIGHT = MARGIN + LEFT - 12
"""The furthest right a row's ``away`` or ``resigned`` tag reaches: inside the name
column, 8 px clear of the green frame of a train that can run (drawn from
``MARGIN + LEFT - 4``)."""


def _strip(c: Canvas, card: Mapping[str, Any], x: float, y: float, w: float) -> None:
    """One river card as a light strip: cost coin, rank, suit marks, name."""
    c.panel((x, y, x + w, y + STRIP_H), fill=CARD_FACE, outline=CARD_EDGE, width=2, radius=10)
    cost = card.get("cost")
    cx, cy = x + 24, y + STRIP_H / 2
    c.draw.ellipse((cx - 20, cy - 20, cx + 20, cy + 20), fill=COIN, outline=CARD_INK, width=2)
    c.text(cx, cy, "?" if cost is None else str(cost), MIN_TEXT, bold=True, fill=CARD_INK,
           anchor="mm")
    name, rank, value, suits = card_key(card)
    left = x + 50
    if rank == "Crown" and not value:
        c.icon("crown", left, cy - 15, 30)
        left += 36
    else:
        top = value or RANK_SHORT.get(rank, rank)
        left += c.text(left, cy, top, MIN_TEXT, bold=True, fill=CARD_INK, anchor="lm") + 6
    for suit in suits[:3]:
        c.icon(suit, left, cy - 14, 28)
        left += 30
    c.text(left + 6, cy, name, MIN_TEXT, fill=CARD_INK, anchor="lm",
           max_width=x + w - left - 14)


def _river(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The river in two columns, position 1 first, each card with its cost."""
    river = mappings(view.get("river"))[:6]
    if not river:
        c.text(MARGIN, y, "The river is empty", MIN_TEXT, fill=c.theme.muted)
        return y + 42
    rows = (len(river) + 1) // 2
    cards = tuple((card_key(card), str(card.get("cost", "?"))) for card in river)
    c.layer(_paint_river, (cards,), (c.width, rows * STRIP_STEP), 0, y, opaque=True)
    return y + rows * STRIP_STEP + 6


Key = tuple[str, str, str, tuple[str, ...]]


def _card(key: Key) -> dict[str, Any]:
    """A card as view data again, from its :func:`card_key`."""
    name, rank, value, suits = key
    return {"name": name, "rank": rank, "value": value or None, "suits": list(suits)}


def _paint_river(c: Canvas, cards: tuple[tuple[Key, str], ...]) -> None:
    """Draw the river's strips on a layer as wide as the board (cached by river)."""
    w = (c.width - 2 * MARGIN - 12) / 2
    for i, (key, cost) in enumerate(cards):
        row, col = divmod(i, 2)
        _strip(c, {**_card(key), "cost": cost}, MARGIN + col * (w + 12), row * STRIP_STEP, w)


def _status(c: Canvas, view: Mapping[str, Any], names: dict[Any, str], y: int,
            over: bool = False) -> int:
    """What the player to act is doing (the cards being placed drawn); sunny cards; the
    final round while it is being played (neither is said on an ended board: finished,
    abandoned or left idle). A line too long for
    its room cuts the player's name, never what follows it ("final round")."""
    doing = ""
    who = ""
    pending = None if over else view.get("pending")  # an ended game waits for nobody
    held: list[Mapping[str, Any]] = []
    if isinstance(pending, Mapping):
        who = names.get(pending.get("seat"), "")
        kind = pending.get("kind")
        if kind == "place":
            held = mappings(pending.get("cards"))[:4]
            doing = "places"
        elif kind == "arrange":
            doing = "rearranges trains"
        elif kind == "run":
            power = f" on {pending['power']}" if pending.get("power") else ""
            doing = f"runs train {pending.get('train', '?')}{power}"
    rest: list[str] = []
    if view.get("final_round") and not over:
        rest.append("final round")
    sunny = mappings(view.get("sunny_aside"))
    if sunny and not held:
        rest.append(f"{len(sunny)} sunny cards aside")
    if not doing and not rest:
        return y
    then = c.measure(THEN, MIN_TEXT) + 12 if len(held) > 1 else 0
    room = (c.width - 2 * MARGIN - len(held) * (MINI.width + 6) - then - 12 if held
            else c.width - 2 * MARGIN)
    bold = bool(held)

    def line(name: str) -> str:
        first = f"{name} {doing}".strip() if doing else ""
        return sentence(" · ".join(part for part in (first, *rest) if part))

    shown = line(who)
    if who and c.measure(shown, MIN_TEXT, bold=bold) > room:
        others = c.measure(shown, MIN_TEXT, bold=bold) - c.measure(who, MIN_TEXT, bold=bold)
        shown = line(fit(who, MIN_TEXT, max(0.0, room - others), bold))
    if held:  # the first card is the one the place buttons place now (S5)
        used = c.text(MARGIN, y + MINI.height / 2, shown, MIN_TEXT, bold=True,
                      fill=HIGHLIGHT, anchor="lm", max_width=room)
        x = MARGIN + used + 12
        for i, card in enumerate(held):
            if i == 1:
                x += c.text(x, y + MINI.height / 2, THEN, MIN_TEXT, fill=c.theme.muted,
                            anchor="lm") + 6
            c.card(card, x, y, MINI, "count")
            x += MINI.width + 6
        return y + MINI.height + 10
    c.text(MARGIN, y, shown, MIN_TEXT, fill=HIGHLIGHT if pending else c.theme.muted,
           max_width=room)
    return y + 42


def _spacing(sizes: Sequence[int]) -> tuple[float, list[float]]:
    """The distance between cards and each train's left edge (from the first train's),
    for trains of ``sizes`` cards: five slots a train, or as many as its cards (S6), the
    cards closer together when there are more slots than the row's ten."""
    slots = [max(TRAIN_CARDS, n) for n in sizes]
    room = TRAINS * (TRAIN_W - MINI.width)  # the two trains' width, less a card each
    step = min(float(CARD_STEP), room / max(1, sum(slots) - len(slots)))
    lefts, x = [], 0.0
    for count in slots:
        lefts.append(x)
        x += (count - 1) * step + MINI.width + TRAIN_GAP
    return step, lefts


def _train(c: Canvas, train: Sequence[Mapping[str, Any]], x: float, y: float,
           step: float = CARD_STEP, live: bool = True) -> None:
    """A train's slots (five, or one a card when it holds more): its cards, empty slots
    outlined, the cards past the fifth framed together as over the limit; a green frame
    if the whole train can run (never while it holds more than five: it must shed cards
    before it can run, S6), while the game is ``live``."""
    runnable = live and 0 < len(train) <= TRAIN_CARDS and report(train).runnable
    slots = max(TRAIN_CARDS, len(train))
    for i in range(slots):
        sx = x + i * step
        if i < len(train):
            c.card(train[i], sx, y, MINI)
        else:  # as wide as a card, or narrower where the cards stand closer
            c.frame((sx + 2, y + 2, sx + min(MINI.width, step - 4) - 2, y + MINI.height - 2),
                    EMPTY_SLOT, width=2, radius=8)
    if len(train) > TRAIN_CARDS:
        left, right = x + TRAIN_CARDS * step, x + (len(train) - 1) * step + MINI.width
        c.dashed((left, y, right, y + MINI.height), OVER, width=4)
    if runnable:
        right = x + (slots - 1) * step + MINI.width
        c.frame((x - 4, y - 4, right + 4, y + MINI.height + 4), GOOD, width=3, radius=12)


def _player(c: Canvas, view: Mapping[str, Any], player: Mapping[str, Any], y: int,
            ended: bool = False) -> int:
    """One player's row (a cached layer): name, points and status tag, then both trains;
    on an ``ended`` board no turn is under way and no train can run any more (neither
    is framed)."""
    seat = player.get("seat")
    turn = not ended and view.get("turn") is not None and seat == view.get("turn")
    resigned, away = bool(player.get("resigned")), bool(player.get("away"))
    computer = bool(player.get("computer"))
    name = str(player.get("name") or f"Seat {seat}")
    # the total, Wave tokens included (S10), as the text board and the ending show it
    score = f"{player.get('total', player.get('score', '?'))}"
    tokens = 0 if resigned else min(3, max(0, number(player.get("tokens"))))
    trains = tuple(tuple(card_key(card) for card in mappings(t))
                   for t in items(player.get("trains"))[:TRAINS])
    c.layer(_paint_player, (name, score, turn, resigned, away, computer, tokens, trains,
                            not ended),
            (c.width, ROW_H + 1), 0, y, opaque=True)
    return y + ROW_H + 6


def _tokens_width(count: int) -> int:
    """The width of ``count`` Wave tokens drawn by :func:`_tokens`."""
    return 0 if count <= 0 else TOKEN + (count - 1) * TOKEN_STEP


def _tokens(c: Canvas, count: int, x: float, y: float) -> int:
    """Draw ``count`` Wave tokens as overlapping discs from (x, y); return the width used."""
    for i in range(count):
        left = x + i * TOKEN_STEP
        box = (left, y, left + TOKEN, y + TOKEN)
        c.draw.ellipse(box, fill=CARD_FACE, outline=SUIT_COLOURS["Waves"], width=2)
        c.icon("Waves", left + 6, y + 6, TOKEN - 12)
        c.record("token", box)
    return _tokens_width(count)


def _seat_tag(c: Canvas, x: float, y: float, word: str, mark: str, colour: RGB) -> None:
    """Tag a player's row at (x, y) with ``word``, or with ``mark`` (the emoji the text
    board marks the seat with) where the word does not fit whole."""
    shown = word if x + c.measure(word, MIN_TEXT, bold=True) + 16 <= TAG_RIGHT else mark
    c.tag(x, y, shown, colour, max_width=TAG_RIGHT - x)


def _paint_player(c: Canvas, name: str, score: str, turn: bool, resigned: bool, away: bool,
                  computer: bool, tokens: int, trains: tuple[tuple[Key, ...], ...],
                  live: bool = True) -> None:
    """Draw one player's row at the top of a layer as wide as the board."""
    y = 0
    c.panel((MARGIN, y, c.width - MARGIN, y + ROW_H), outline=HIGHLIGHT if turn else None,
            width=4)
    left = MARGIN + 10
    ink = MUTED if resigned else (HIGHLIGHT if turn else c.theme.text)
    c.text(left, y + 8, name, MIN_TEXT, bold=True, max_width=LEFT - 16, fill=ink)
    if resigned:  # scores nothing (S10): the tag stands where the points would
        c.tag(left, y + 50, "resigned", GONE, max_width=TAG_RIGHT - left)
    else:
        x = left + c.text(left, y + 52, score, MIN_TEXT + 4, bold=True) + 6
        if not away:  # the away tag takes the room
            x += c.text(x, y + 56, "pt" if score == "1" else "pts", MIN_TEXT,
                        fill=c.theme.muted) + 6
        if tokens:
            x += _tokens(c, tokens, x, y + 52) + 6
        if away:
            _seat_tag(c, x, y + 50, "away", "💤", AWAY)
        elif computer:
            _seat_tag(c, x, y + 50, "computer", "🤖", GONE)
    x0 = MARGIN + LEFT
    step, lefts = _spacing([len(trains[i]) if i < len(trains) else 0 for i in range(TRAINS)])
    for index in range(TRAINS):
        train = [_card(key) for key in trains[index]] if index < len(trains) else []
        _train(c, train, x0 + lefts[index], y + 7, step, live)


def board(view: Mapping[str, Any], end: Ending) -> Canvas:
    """Draw the Steam to Solar board and return the canvas (with :attr:`Canvas.bottom`)."""
    c = Canvas(end.theme)
    half = {1: "1st half", 2: "2nd half"}.get(number(view.get("half")), "")
    piles = f"deck {view.get('deck_count', '?')} · discard {view.get('discard_count', 0)}"
    y = c.header("Steam to Solar", " · ".join(x for x in (half, piles) if x))
    if end.headline:
        y = c.banner(y, end.headline, end.detail)
    players = mappings(view.get("players"))
    # each name as drawn on its own ("?" for one no font has), before it joins a line
    names = {p.get("seat"): fold(str(p.get("name") or f"Seat {p.get('seat')}"))
             for p in players}
    y = _river(c, view, y)
    ended = bool(view.get("over")) or end.mood != "active"
    y = _status(c, view, names, y, ended)
    for player in players[:5]:
        y = _player(c, view, player, y, ended)
    c.bottom = y
    return c


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return the Steam to Solar board as PNG bytes."""
    c = board(view, end)
    return c.png(c.bottom)
