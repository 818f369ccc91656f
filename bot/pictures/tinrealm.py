"""The Tin Realm board: sundial, map track with the meeple, the day's tableau, the bars."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

from bot.pictures.breaks import broken_lines
from bot.pictures.canvas import MARGIN, MIN_TEXT, Canvas
from bot.pictures.cards import two_lines
from bot.pictures.endings import Ending
from bot.pictures.palette import CARD_EDGE, CARD_FACE, CARD_INK, HIGHLIGHT, RGB
from bot.pictures.viewdata import items, mapping, mappings, number

LAST_DAY = 7
"""Days of the journey when the view does not say."""

CARD_W, CARD_H = 114, 124
"""A tableau card's size (taller only where a long name leaves its icons no room: see
:func:`face`)."""
NAME = 24
"""Names on tableau cards (a card face's own lettering)."""
NAME_ROOM = CARD_W - 8
"""The width of a line of a tableau card's name."""
NAME_LINES = 6
"""The most lines a tableau card's name takes at :data:`NAME`: a longer one (only a
custom content file's, of some forty letters or more) takes the largest of
:data:`NAME_SIZES` that holds it in as many, else the smallest in as many lines as it
needs. A name is never cut."""
NAME_SIZES = (NAME, 20, 16, 12)
"""The sizes a tableau card's name may take, largest first (see :data:`NAME_LINES`)."""

BARS: tuple[tuple[str, str, str, RGB], ...] = (
    ("health", "health", "max_health", (220, 64, 72)),
    ("energy", "energy", "max_energy", (240, 196, 40)),
    ("food", "food", "food_cap", (214, 120, 60)),
    ("poison", "poison", "max_health", (130, 196, 60)),
    ("favor", "favor", "", (176, 140, 240)),
)
"""Each bar: its icon, the view's value, the view's maximum, its colour."""
ROW = 40
"""The distance from one row of bars to the next."""


def _headline(c: Canvas, who: str, right: float) -> None:
    """The title line, left of ``right`` (the sundial's label): "Tin Realm" and the
    adventurer where both fit, else the adventurer alone ("Tin Realm" before one is chosen)."""
    room = right - 16 - MARGIN
    game = c.measure("Tin Realm", TITLE, bold=True)
    if not who or game + 16 + c.measure(who, MIN_TEXT) <= room:
        c.text(MARGIN, 8, "Tin Realm", TITLE, bold=True)
        c.text(MARGIN + game + 16, 12, who, MIN_TEXT, fill=c.theme.muted)
    else:
        c.text(MARGIN, 8, who, TITLE, bold=True, max_width=room)


TITLE = 34
"""The title line's lettering."""


def _sundial(c: Canvas, view: Mapping[str, Any], x: float, y: float) -> float:
    """A half dial of the journey's days, those gone shaded, today's ray bright, and its
    label; return where the label begins."""
    last = max(1, number(view.get("last_day"), LAST_DAY))
    day = number(view.get("day"), 1)
    night = bool(view.get("night")) or day > last  # ended at a supper: the day before is over
    c.layer(_paint_dial, (day, last, night), (2 * DIAL + 4, DIAL + 12), x - DIAL - 2, y,
            opaque=True)
    label = f"day {min(day - 1, last)} is over" if night else f"day {day} of {last}"
    return x - DIAL - 12 - c.text(x - DIAL - 12, 10, label, MIN_TEXT, bold=True, anchor="ra")


DIAL = 46
"""The sundial's radius."""


def _paint_dial(c: Canvas, day: int, last: int, night: bool) -> None:
    """Draw the dial on a layer of its own size (cached by day); at ``night`` the days
    before ``day`` are gone and none is bright."""
    r = DIAL
    cx, cy = r + 2, r + 4
    for i in range(last):
        start = 180 + i * 180 / last
        colour = (224, 176, 60) if i + 1 < day else ((255, 220, 120) if i + 1 == day
                                                      and not night else (80, 84, 94))
        c.draw.pieslice((cx - r, cy - r, cx + r, cy + r), start, start + 180 / last,
                        fill=colour, outline=c.theme.background, width=2)
    hand = 180 + (min(day - 1, last) if night else min(day, last) - 0.5) * 180 / last
    c.draw.line([(cx, cy), (cx + math.cos(math.radians(hand)) * (r - 2),
                            cy + math.sin(math.radians(hand)) * (r - 2))],
                fill=(40, 30, 20), width=4)
    c.draw.ellipse((cx - 7, cy - 7, cx + 7, cy + 7), fill=(40, 30, 20))
    c.record("dial", (0, 0, 2 * r + 4, r + 12))


MAP_H = 132
"""Height of the map track's band when every map card's name fits one line."""
NODE_ICON = 36
"""The width a node's mark takes at either end of the track."""
LINE = MIN_TEXT + 4
"""The distance from one line of a name to the next."""


def _map(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The map track: every node's mark, the map cards' names, the meeple above its node."""
    nodes: list[str] = []
    bounds: list[tuple[int, str]] = []
    for card in mappings(view.get("map")):
        marks = [str(n) for n in items(card.get("nodes"))]
        bounds.append((len(nodes), str(card.get("name") or "")))
        nodes.extend(marks)
    if not nodes:
        nodes = ["S", *["-"] * 10, "F"]
        bounds = [(0, "")]
    here = number(view.get("node"), 0)
    furthest = number(view.get("furthest"), here)
    step = _step(c.width, len(nodes))
    names = tuple((start, tuple(two_lines(name, _room(bounds, i, len(nodes), step), MIN_TEXT)))
                  for i, (start, name) in enumerate(bounds))
    height = MAP_H + (LINE if any(len(lines) > 1 for _, lines in names) else 0)
    c.layer(_paint_map, (tuple(nodes), names, here, furthest), (c.width, height), 0, y,
            opaque=True)
    return y + height


def _step(board_width: int, nodes: int) -> float:
    """The distance between two nodes' centres on the track."""
    return (board_width - 2 * MARGIN - NODE_ICON) / max(1, nodes - 1)


NODE_RADIUS = 22
"""A node's disc radius where the track has room (a map of twelve nodes)."""
NODE_MARK = 30
"""The size of the mark in a disc of :data:`NODE_RADIUS`."""
ROAD = 14
"""The least room between two nodes' discs, so that at least 10 px of road shows there
(a disc's edge takes a pixel, the line between two map cards two more)."""


def _disc(step: float) -> tuple[int, int]:
    """A node's disc radius and its mark's size for nodes ``step`` apart: full size
    where :data:`ROAD` of road still shows between discs, else as much smaller as keeps
    it showing (a longer map, as the hard one's sixteen nodes), the mark in proportion."""
    radius = max(8, min(NODE_RADIUS, int((step - ROAD) // 2)))
    return radius, round(NODE_MARK * radius / NODE_RADIUS)


def _room(bounds: list[tuple[int, str]], index: int, nodes: int, step: float) -> int:
    """The width a map card's name has under its nodes."""
    start = bounds[index][0]
    end = bounds[index + 1][0] if index + 1 < len(bounds) else nodes
    return int(step * max(1, end - start)) - 6


def _paint_map(c: Canvas, nodes: tuple[str, ...], bounds: tuple[tuple[int, tuple[str, ...]], ...],
               here: int, furthest: int) -> None:
    """Draw the map track on a layer as wide as the board (cached by position); each map
    card's name under its nodes, on two lines where one would cut it."""
    step = _step(c.width, len(nodes))
    track_y = 62
    centres = [MARGIN + NODE_ICON / 2 + i * step for i in range(len(nodes))]
    c.draw.line([(centres[0], track_y), (centres[-1], track_y)], fill=(86, 90, 100), width=6)
    reach = min(len(nodes) - 1, max(0, furthest))
    if reach:
        c.draw.line([(centres[0], track_y), (centres[reach], track_y)], fill=(170, 140, 80),
                    width=6)
    for i, (start, lines) in enumerate(bounds):
        end = bounds[i + 1][0] if i + 1 < len(bounds) else len(nodes)
        if i:
            divider = (centres[start - 1] + centres[start]) / 2
            c.draw.line([(divider, track_y - 22), (divider, track_y + 22)], fill=(120, 124, 134),
                        width=2)
        middle = (centres[start] + centres[max(start, end - 1)]) / 2
        for row, line in enumerate(lines):
            c.text(middle, track_y + 26 + row * LINE, line, MIN_TEXT, fill=c.theme.muted,
                   anchor="ma")
    radius, icon = _disc(step)
    for i, mark in enumerate(nodes):
        cx = centres[i]
        c.draw.ellipse((cx - radius, track_y - radius, cx + radius, track_y + radius),
                       fill=(62, 66, 76) if i != here else (120, 96, 30),
                       outline=HIGHLIGHT if i == here else (96, 100, 110), width=3)
        c.icon(mark, cx - icon / 2, track_y - icon / 2, icon)
    if 0 <= here < len(nodes):
        c.icon("meeple", centres[here] - 20, track_y - 62, 40)


def name_lines(name: str) -> tuple[int, tuple[str, ...]]:
    """Return the size and the lines a tableau card's name is drawn in, whole: at
    :data:`NAME`, broken at its spaces, a word too long for a line broken with a hyphen
    ("Copper-", "leaf", "Glade"), in as many lines as it needs up to :data:`NAME_LINES`."""
    for size in NAME_SIZES:
        lines = broken_lines(name, NAME_ROOM, size, bold=True)
        if len(lines) <= NAME_LINES:
            return size, lines
    return size, lines


ICON = 34
"""The icons on a tableau card whose name takes two lines at most, in a row under it."""
EDGE = 26
"""The edge marks in a tableau card's lower corners."""
ICONS_BESIDE = (ICON, 30, 26, 24)
"""The sizes the icons may take on a card whose name takes a third line, where they
stand at the card's foot between the edge marks (the card keeping its height), largest
first."""


class Face(NamedTuple):
    """Where a tableau card's parts go: its name's size and lines; the icons' size, their
    top (from the card's top, or from its foot where ``beside`` the edge marks) and the
    room across they are centred in; the edge marks' top from the card's foot; the least
    height the card needs."""

    size: int
    lines: tuple[str, ...]
    icon: int
    icons_at: float
    beside: bool
    across: tuple[float, float]
    edges_up: float
    height: int


def face(name: str, icons: int, edges: tuple[str, ...]) -> Face:
    """Return how a tableau card named ``name``, with ``icons`` icons and ``edges`` (left,
    right), is laid out: the name's lines from the top; under a name of two lines the
    icons in a row and the edge marks in the lower corners (the usual face, :data:`CARD_H`
    tall); under a longer name the icons beside the edge marks at the card's foot, as
    large as fits between them, so that the card keeps its height (Copperleaf Glade,
    Stormcrag Ledge), else the icons under the name and the edge marks under them (a
    taller card)."""
    size, lines = name_lines(name)
    below = 4 + len(lines) * (size + 2)  # where a next line of the name would begin
    if below <= 4 + 2 * (NAME + 2):
        return Face(size, lines, ICON, 56, False, (0, CARD_W), EDGE + 4, CARD_H)
    marked = [bool(edge) and edge != "none" for edge in (*edges, "", "")[:2]]
    left = 4 + EDGE + 2 if marked[0] else 4
    right = CARD_W - 4 - EDGE - 2 if marked[1] else CARD_W - 4
    for size_beside in ICONS_BESIDE:
        if icons * size_beside + max(0, icons - 1) * 2 <= right - left:
            row = max(EDGE, size_beside)
            height = max(CARD_H, below + row + 4)
            return Face(size, lines, size_beside, 4 + (row + size_beside) / 2, True,
                        (left, right), 4 + (row + EDGE) / 2, height)
    return Face(size, lines, ICON, below, False, (0, CARD_W), EDGE + 4,
                below + ICON + EDGE + 8)


def _tableau_card(c: Canvas, card: Tile, x: float, y: float, mark: str, height: int) -> None:
    """One exploration card (a cached layer), ``height`` tall: name, icons, edge marks;
    gold if marked."""
    c.layer(_paint_card, (*card, mark, height), (CARD_W + 1, height + 1), x, y)


def _paint_card(c: Canvas, name: str, icons: tuple[str, ...], edges: tuple[str, ...],
                mark: str, height: int) -> None:
    """Draw one exploration card, ``height`` tall (the row's tallest card's), at the
    layer's top-left corner (see :func:`face`)."""
    outline = HIGHLIGHT if mark else CARD_EDGE
    c.draw.rounded_rectangle((0, 0, CARD_W, height), radius=10, fill=CARD_FACE,
                             outline=outline, width=4 if mark else 2)
    c.record("card", (0, 0, CARD_W, height))
    laid = face(name, len(icons), edges)
    for i, line in enumerate(laid.lines):
        c.text(CARD_W / 2, 4 + i * (laid.size + 2), line, laid.size, bold=True,
               fill=CARD_INK, anchor="ma")
    gap = 4 if laid.icon == ICON else 2
    row = len(icons) * laid.icon + max(0, len(icons) - 1) * gap
    ix = (laid.across[0] + laid.across[1] - row) / 2
    top = height - laid.icons_at if laid.beside else laid.icons_at
    for icon in icons:
        c.icon(icon, ix, top, laid.icon)
        ix += laid.icon + gap
    for side, edge in zip(("left", "right"), edges, strict=False):
        if not edge or edge == "none":
            continue
        ex = 4 if side == "left" else CARD_W - 4 - EDGE
        c.icon(f"edge:{edge}", ex, height - laid.edges_up, EDGE)


Tile = tuple[str, tuple[str, ...], tuple[str, ...]]
"""A tableau card as (name, icons, edges)."""


def _tile(card: Mapping[str, Any]) -> Tile:
    return (str(card.get("name") or "?"), tuple(str(i) for i in items(card.get("icons")))[:3],
            tuple(str(e) for e in items(card.get("edges")))[:2])


def _tableau(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """Today's tableau in order, then the card being resolved or decided on (one band)."""
    tableau = tuple(_tile(card) for card in mappings(view.get("tableau")))
    location, top = mapping(view.get("location")), mapping(view.get("top_card"))
    extra = tuple((_tile(card), label) for card, label in ((location, "here"), (top, "top card"))
                  if card)
    where = number(view.get("location_in_day"), 0)
    tall = max((face(name, len(icons), edges).height
                for name, icons, edges in (*tableau, *(t for t, _ in extra))), default=CARD_H)
    height = 40 + tall + 10
    c.layer(_paint_tableau, (tableau, extra, where, tall), (c.width, height), 0, y,
            opaque=True)
    return y + height


def _paint_tableau(c: Canvas, tableau: tuple[Tile, ...], extra: tuple[tuple[Tile, str], ...],
                   where: int, tall: int) -> None:
    """Draw the tableau's title line and cards, each ``tall`` (what the card whose face
    needs the most height needs); the labels of the last cards sit above them."""
    count = len(tableau) + len(extra)
    gap = 8
    room = c.width - 2 * MARGIN - (18 if extra else 0)
    step = CARD_W + gap if count * (CARD_W + gap) <= room else (room - CARD_W) / max(1, count - 1)
    x: float = MARGIN
    if not tableau:
        c.text(x, 40 + 40, "empty", MIN_TEXT, fill=c.theme.muted)
        x += 110
    for card in tableau:
        _tableau_card(c, card, x, 40, "", tall)
        x += step
    room_for_title = c.width - 2 * MARGIN
    if extra:
        x += 18
        label = " · ".join(mark for _, mark in extra)
        at = min(x, c.width - MARGIN - c.measure(label, MIN_TEXT, bold=True) - 16)
        room_for_title = round(at) - MARGIN - 10
        c.tag(at, 0, label, HIGHLIGHT)
        for card, mark in extra:
            _tableau_card(c, card, x, 40, mark, tall)
            x += step
    c.text(MARGIN, 0, _title(c, where, room_for_title), MIN_TEXT, bold=True,
           fill=c.theme.muted, max_width=room_for_title)


def _title(c: Canvas, where: int, room: float) -> str:
    """The tableau's title: the longest wording that fits ``room`` whole, before the
    here or top-card label ("Today's tableau · location 2 of 6", else "Today · 2 of 6")."""
    at = f" · location {where} of 6" if where else ""
    short = f" · {where} of 6" if where else ""
    for title in (f"Today's tableau{at}", f"Today's tableau{short}", f"Today{short}"):
        if c.measure(title, MIN_TEXT, bold=True) <= room:
            return title
    return "Today"


def _combat(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """The enemy being fought: name, health bar, attack and defence."""
    fight = mapping(view.get("combat"))
    if not fight:
        return y
    c.panel((MARGIN, y, c.width - MARGIN, y + 58), fill=(92, 44, 44))
    c.icon("enemy", MARGIN + 10, y + 11, 36)
    name = str(fight.get("name") or "An enemy")
    c.text(MARGIN + 56, y + 29, name, MIN_TEXT, bold=True, anchor="lm", max_width=250)
    health, top = number(fight.get("health")), number(fight.get("max_health"), 1)
    c.bar(MARGIN + 320, y + 20, 120, 18, health, top, (220, 64, 72))
    c.text(MARGIN + 450, y + 29, f"{health}/{top}", MIN_TEXT, bold=True, anchor="lm")
    c.text(c.width - MARGIN - 12, y + 29,
           f"{fight.get('attack', '?')} atk {fight.get('defense', '?')} def", MIN_TEXT,
           anchor="rm", fill=c.theme.muted)
    return y + 64


def _bars(c: Canvas, view: Mapping[str, Any], y: int) -> int:
    """Health, energy, food, poison and favor as bars in two columns; dice and pack (a band)."""
    values = []
    for _icon, key, top_key, _colour in BARS:
        value = number(view.get(key))
        values.append((value, number(view.get(top_key), 0) if top_key else -1))
    dice = tuple(d for d in items(view.get("dice")) if isinstance(d, int))[:4]
    pack = tuple((str(i.get("name") or "?"), not i.get("ready", True))
                 for i in mappings(view.get("items")))
    height = 3 * ROW + (42 if pack else 0)
    c.layer(_paint_bars, (tuple(values), dice, pack), (c.width, height), 0, y, opaque=True)
    return y + height


def _paint_bars(c: Canvas, values: tuple[tuple[int, int], ...], dice: tuple[int, ...],
                pack: tuple[tuple[str, bool], ...]) -> None:
    """Draw the bars, the dice and the pack at the top of a layer as wide as the board; a
    bar whose maximum is 0 (before the adventurer is chosen) reads "–"."""
    column = (c.width - 2 * MARGIN - 16) // 2
    for i, ((icon, _key, top_key, colour), (value, top)) in enumerate(
            zip(BARS, values, strict=True)):
        x = MARGIN + (i % 2) * (column + 16)
        row = (i // 2) * ROW
        if not top_key:
            top = max(10, value)
        c.icon(icon, x, row + 2, 30)
        c.bar(x + 40, row + 8, column - 150, 18, value, top or 1, colour)
        # "–" while the maximum is unknown (no adventurer chosen yet), not "0/0"
        shown = (f"{value}/{top}" if top else "–") if top_key else str(value)
        c.text(x + column, row + 17, shown, MIN_TEXT, bold=True, anchor="rm")
    x = MARGIN + column + 16
    if dice:
        c.text(x, 2 * ROW + 17, "dice", MIN_TEXT, anchor="lm", fill=c.theme.muted)
        for j, pips in enumerate(dice):
            _die(c, x + 80 + j * 40, 2 * ROW + 1, pips)
    if pack:
        _pack(c, pack, 3 * ROW + 2)


def _pack(c: Canvas, pack: tuple[tuple[str, bool], ...], y: int) -> None:
    """Draw "Pack:" and the items carried by name at ``y``, those used up for now (spent)
    struck through and dimmer, as many as fit whole and then how many more ("+2"); the
    first is cut if it alone does not fit."""
    right = c.width - MARGIN
    x = MARGIN + c.text(MARGIN, y, "Pack:", MIN_TEXT, fill=c.theme.muted) + 12
    gap = c.measure(" · ", MIN_TEXT)
    for i, (name, spent) in enumerate(pack):
        left = len(pack) - i - 1
        more = c.measure(f" +{left}", MIN_TEXT) if left else 0
        if i and x + gap + c.measure(name, MIN_TEXT) + more > right:  # the rest, counted
            c.text(x, y, f" +{left + 1}", MIN_TEXT, fill=c.theme.muted)
            return
        if i:
            x += c.text(x, y, " · ", MIN_TEXT, fill=c.theme.muted)
        used = c.text(x, y, name, MIN_TEXT, fill=c.theme.muted if spent else c.theme.text,
                      max_width=right - x - more)
        if spent:  # struck through: a shape, not only a shade
            middle = y + round(MIN_TEXT * 0.62)
            c.draw.line((x, middle, x + used, middle), fill=c.theme.muted, width=3)
        x += used


def _die(c: Canvas, x: float, y: float, pips: int) -> None:
    """A die face showing ``pips``."""
    size = 32
    c.draw.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=(240, 240, 236))
    spots = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
             4: [(0, 0), (0, 2), (2, 0), (2, 2)], 5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
             6: [(0, 0), (0, 1), (0, 2), (2, 0), (2, 1), (2, 2)]}.get(pips, [])
    for col, row in spots:
        px, py = x + 7 + col * 9, y + 7 + row * 9
        c.draw.ellipse((px - 3, py - 3, px + 5, py + 5), fill=(30, 30, 30))
    if not spots:
        c.text(x + size / 2, y + size / 2, str(pips), 24, bold=True, fill=(30, 30, 30),
               anchor="mm")


def board(view: Mapping[str, Any], end: Ending) -> Canvas:
    """Draw the Tin Realm board and return the canvas (with :attr:`Canvas.bottom`)."""
    c = Canvas(end.theme)
    label = _sundial(c, view, c.width - MARGIN - 60, 8)
    _headline(c, " ".join(str(view.get(k)) for k in ("race", "class") if view.get(k)), label)
    y = 8 + DIAL + 12
    if end.headline:
        y = c.banner(y + 8, end.headline, end.detail)
    y = _map(c, view, y)
    y = _combat(c, view, y)
    y = _tableau(c, view, y)
    c.bottom = _bars(c, view, y)
    return c


def draw(view: Mapping[str, Any], end: Ending) -> bytes:
    """Return the Tin Realm board as PNG bytes."""
    c = board(view, end)
    return c.png(c.bottom)
