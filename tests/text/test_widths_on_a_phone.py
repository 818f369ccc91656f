"""The width model (bot.text.widths) against a phone as the preview tool draws it: Greek
and Cyrillic letters and emoji measured in the preview's own fonts and styles, and the
lines the boards cut to the model keeping to one phone line with such names.

Each test needs ``shared/tools/discord_preview.py``, Chromium, a colour emoji font and
the fonts every machine draws the previews in (Liberation Sans, DejaVu Sans: see
``tests.cogs.board_messages.PREVIEW_FONTS``): in CI it fails without them, elsewhere it
is skipped.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
import tempfile
import unicodedata
from dataclasses import replace
from pathlib import Path
from types import ModuleType

import pytest

from bot.games.steam.engine import ENGINE as STEAM
from bot.text.names import safe_name
from bot.text.widths import shown_width
from cogs.steam import SteamCog
from cogs.steam_words import announced
from tests.cogs.board_messages import (
    PHONE_BUDGET,
    Message,
    board_renderer,
    message,
    need_preview,
    phone_heights,
    played,
)
from tests.cogs.test_board_heights import LONG_NAMES
from tests.support import loaded

#: The preview's text styles a board's lines take: the embed's title (16 px, weight 600),
#: its description (14 px) and its footer (12 px), as (size, weight).
STYLES = ((16, 600), (14, 400), (12, 400))
#: Every Greek and Cyrillic letter (U+0370 to U+052F).
GREEK_CYRILLIC = "".join(chr(c) for c in range(0x370, 0x530)
                         if unicodedata.category(chr(c)).startswith("L"))
#: Emoji as the boards show them (the train, away, suits, the computer, a flag).
EMOJI = ("🚂", "💤", "🌊", "🍃", "🐉", "🪢", "🤖", "☀️", "🇫🇷")
#: Long Cyrillic and Greek display names (at most 32 letters, as Discord allows).
CYRILLIC, GREEK = "Константин Владимирович Шишкин", "Αλέξανδρος Παπαδόπουλος-Ιωάννου"


def _widths(preview: ModuleType, texts: list[str], size: int, weight: int) -> list[float]:
    """Return each text's width in px, laid out by Chromium with the preview's CSS in a
    phone's page, at ``size`` px and ``weight``."""
    spans = "".join(f"<div><span class=m style='font-size:{size}px;font-weight:{weight};"
                    f"white-space:pre'>{html.escape(text)}</span></div>" for text in texts)
    script = ("<script>window.onload=()=>{document.getElementById('w').textContent="
              "'WIDTHS='+JSON.stringify([...document.querySelectorAll('.m')].map("
              "e=>e.getBoundingClientRect().width));}</script><pre id=w></pre>")
    page = preview.page(spans, 360, True).replace("</body>", f"{script}</body>")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "widths.html"
        path.write_text(page)
        dom = subprocess.run(
            ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
             "--virtual-time-budget=5000", "--dump-dom", path.resolve().as_uri()],
            capture_output=True, text=True, timeout=300).stdout
    found = re.search(r"WIDTHS=(\[[^\]]*\])", html.unescape(dom))
    if found is None:
        raise RuntimeError("the preview page did not report its widths")
    widths = [float(w) for w in json.loads(found.group(1))]
    assert len(widths) == len(texts)
    return widths


@pytest.mark.parametrize(("size", "weight"), STYLES)
def test_greek_cyrillic_and_emoji_take_at_least_their_room_in_the_preview(size: int,
                                                                         weight: int) -> None:
    """Each Greek and Cyrillic letter, and each emoji, takes at least the room the model
    counts for it, against an "n" of the same style (a tenth of half a letter allowed):
    "Д" and "м" one and a half letters, "Ж", "Ш" and "Ю" two, an emoji two and a quarter
    (counted as one ordinary letter each before, they overflowed titles and footers)."""
    preview = need_preview()
    texts = ["n" * 20, *(ch * 20 for ch in GREEK_CYRILLIC), *(e * 20 for e in EMOJI)]
    widths = _widths(preview, texts, size, weight)
    letter = widths[0] / 20
    short = []
    for text, drawn in zip(texts[1:], widths[1:], strict=True):
        first = text[:len(text) // 20]
        counted = shown_width(first)
        if drawn / 20 / letter > counted + 0.05:
            short.append((first, round(drawn / 20 / letter, 2), counted))
    assert not short, short
    assert shown_width("Дм") == shown_width("Ю") + 1 == 3


def _title_only(title: str) -> Message:
    return Message({"content": "", "flags": 0, "attachments": [], "components": [],
                    "embeds": [{"title": title, "color": 1}]}, b"")


def test_an_away_title_keeps_to_one_phone_line_with_any_name() -> None:
    """"🚂 Name to play 💤 away" is cut at the name to one phone line (cogs/steam.py
    TITLE_ROOM): with a Cyrillic, Greek or emoji-heavy name it took two before."""
    names = ("Дмитрий Иванович", "Александр Шмидт", "Ωμέγα Παπαδόπουλος", CYRILLIC, GREEK,
             "🚂🚂 Captain Locomotive 🚂🚂 Junior", "🚂🔥 Choo Choo 🔥🚂", *LONG_NAMES)
    titles = []
    for name in names:
        seated = [safe_name(name), "Bob", "Carol", "Dave", "Eve"]
        state = STEAM.new(3, 5, {"names": seated, "start_seat": 0})
        game = loaded(STEAM, state, seats=5, events=["Bob opened the table."])
        game.seats = [replace(s, name=n, computer=False, away=i == 0)
                      for i, (s, n) in enumerate(zip(game.seats, seated, strict=True))]
        assert game.shown_away(0)
        titles.append(message(board_renderer(True), game).json["embeds"][0]["title"])
    heights = phone_heights(need_preview(), [_title_only(t) for t in [*titles, "🚂 Bob"]])
    wrapped = [t for t, h in zip(titles, heights, strict=False) if h > heights[-1]]
    assert not wrapped, wrapped


def _footer(text: str) -> Message:
    return Message({"content": "", "flags": 0, "attachments": [], "components": [],
                    "embeds": [{"title": "x", "footer": {"text": text}, "color": 1}]}, b"")


@pytest.mark.parametrize("name", ["Александр Шмидт", "Ωμέγα Παπαδόπουλος"])
def test_a_footer_keeps_each_move_to_one_phone_line_with_a_cyrillic_or_greek_name(
        name: str) -> None:
    """A footer line of one player's moves is cut to one phone line (cogs/footer.py
    FOOTER_WIDTH): "Александр Шмидт takes Borderland 🌊🍃🐉 (pay 1)" took two."""
    names = tuple(safe_name(n) for n in (name, "Bob", "Carol"))
    lines = set()
    for game in played("steam", 2, seed=4, names=names, seats=3):
        if game.state is None or game.row.status != "active":
            continue
        game.pictured = True
        for line in (SteamCog(None).embed(game).footer.text or "").split("\n"):
            if line.startswith(name) and not announced(line):
                lines.add(line)
    shown = sorted(lines)
    assert shown
    heights = phone_heights(need_preview(), [_footer(t) for t in shown] + [_footer("a")])
    wrapped = [t for t, h in zip(shown, heights, strict=False) if h > heights[-1]]
    assert not wrapped, wrapped


#: Five seats of long names: the Cyrillic and Greek ones among the capitals, Japanese and
#: emoji of tests/cogs/test_board_heights.py.
FIVE_SEATS = (CYRILLIC, GREEK, *LONG_NAMES[:3])
#: The same with the emoji name: a table-wide announcement in the footer ("…; 🚂🚂 Captain
#: Locomotive 🚂🚂 Junior starts the second half.") stands whole, its long names cut.
FIVE_SEATS_EMOJI = (CYRILLIC, GREEK, *LONG_NAMES[1:4])


@pytest.mark.parametrize("names", [FIVE_SEATS, FIVE_SEATS_EMOJI],
                         ids=["long-names", "with-emoji-name"])
def test_five_seats_with_long_cyrillic_and_greek_names_fit_one_phone_screen(
        names: tuple[str, ...]) -> None:
    """Five long names of some 30 letters, a Cyrillic and a Greek one among capitals,
    Japanese and emoji: every board of their Steam to Solar tables (four games), pictures
    on and off, fits one phone screen (a Cyrillic away title took two lines: 612 px)."""
    assert all(len(name) <= 32 for name in names)
    games = list(played("steam", 4, seed=11, names=names, seats=5))
    preview = need_preview()
    for images in (True, False):
        items = [message(board_renderer(images), g, one_line_vote=True) for g in games]
        heights = phone_heights(preview, items)
        tallest = max(heights)
        worst = items[heights.index(tallest)].json["embeds"][0].get("title")
        assert tallest <= PHONE_BUDGET, f"pictures {images}: a board is {tallest} px ({worst})"
