"""Board messages as Discord returns them, and their height on a phone.

Random games of every kind are played board by board, each board shown the ways a table
shows it (a lobby, votes under way, fast or "only me", a daily deal, computer and away
seats, the ending), and turned into the message JSON Discord would return for it: the
embed, the components and the picture's attachment with its real size. The heights come
from ``shared/tools/discord_preview.py`` (outside the repository), which draws a message
as a 360 px phone shows it; many messages are measured in one page at a time.
"""

from __future__ import annotations

import copy
import html
import importlib.util
import os
import random
import re
import struct
import subprocess
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from bot import pictures
from bot.boards.layout import VOTE_TITLE, vote_line
from bot.boards.render import picture_view
from bot.boards.service import Boards
from bot.games.protocol import Action
from bot.games.steam.engine import ENGINE as STEAM
from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinrealm.engine import ENGINE as TINREALM
from bot.table import polls, turnlog
from bot.table.core import RECENT_EVENTS
from bot.table.data import TableData
from bot.table.loaded import LoadedGame
from cogs.steam import SteamCog
from cogs.tinker import TinkerCog
from cogs.tinrealm import TinRealmCog
from tests.ci import missing
from tests.support import loaded

ROOT = Path(__file__).resolve().parents[2]
#: Where the preview tool is looked for unless DISCORD_PREVIEW names it.
PREVIEW_DEFAULT = ROOT.parent / "shared" / "tools" / "discord_preview.py"
#: A phone shows this much of a channel at once, 360 px wide.
PHONE_BUDGET = 600
#: The games measured, by kind: their engine.
ENGINES: dict[str, Any] = {"tinker": TINKER, "tinrealm": TINREALM, "steam": STEAM}
#: Long display names, as people choose them.
NAMES = ("Alice Wonderland", "Bob the Builder", "Carol of the Bells", "Dave from Accounts",
         "Eve the Eavesdropper")


def preview_path() -> Path:
    """Return where the preview tool is: DISCORD_PREVIEW, else beside the repository."""
    return Path(os.environ.get("DISCORD_PREVIEW") or PREVIEW_DEFAULT)


#: The only fonts Chromium draws the previews with, whatever else the machine has
#: (fonts-liberation, fonts-dejavu-core, fonts-noto-color-emoji): the same heights on
#: every machine. Text is measured in Liberation Sans (Arial's widths: the stylesheet's
#: first font here), letters it lacks in DejaVu Sans, emoji in Noto Color Emoji.
PREVIEW_FONTS = ("Liberation Sans", "Liberation Mono", "Liberation Serif", "DejaVu Sans",
                 "DejaVu Sans Mono", "DejaVu Serif", "Noto Color Emoji")


def _same_fonts_everywhere() -> None:
    """Have Chromium (through fontconfig) use :data:`PREVIEW_FONTS` only, unless
    ``FONTCONFIG_FILE`` is set already: the machine's own fonts.conf and a rule more."""
    if os.environ.get("FONTCONFIG_FILE"):
        return
    accepted = "".join(f"<pattern><patelt name='family'><string>{html.escape(family)}"
                       "</string></patelt></pattern>" for family in PREVIEW_FONTS)
    folder = Path(tempfile.mkdtemp(prefix="tablehouse-fonts-"))
    conf = folder / "fonts.conf"
    conf.write_text("<?xml version='1.0'?><fontconfig>"
                    "<include ignore_missing='yes'>/etc/fonts/fonts.conf</include>"
                    "<selectfont><rejectfont><pattern></pattern></rejectfont>"
                    f"<acceptfont>{accepted}</acceptfont></selectfont>"
                    "</fontconfig>\n", encoding="utf-8")
    os.environ["FONTCONFIG_FILE"] = str(conf)


def load_preview(path: Path | None = None) -> ModuleType | None:
    """Import the preview tool by its path; None when it (or Chromium) is not there.
    Chromium then draws with the same fonts on every machine (:data:`PREVIEW_FONTS`)."""
    path = path or preview_path()
    if not path.is_file() or not any(
        (Path(d) / "chromium").exists() for d in os.environ.get("PATH", "").split(":")
    ):
        return None
    _same_fonts_everywhere()
    spec = importlib.util.spec_from_file_location("discord_preview", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def need_preview() -> ModuleType:
    """Return the preview tool; without it, Chromium, a colour emoji font (a board's
    emoji drawn as Discord draws them, not as boxes) or Liberation Sans and DejaVu Sans
    (the fonts every machine draws in) the test fails in CI and is skipped elsewhere,
    saying what to install."""
    preview = load_preview()
    if preview is None:
        missing(f"the phone heights need {preview_path()} (shared/tools beside the"
                " repository) and Chromium (apt-get install chromium)")
    if not _has_font("Noto Color Emoji"):
        missing("the phone heights need a colour emoji font"
                " (apt-get install fonts-noto-color-emoji)")
    if not (_has_font("Liberation Sans") and _has_font("DejaVu Sans")):
        missing("the phone heights are drawn in Liberation Sans and DejaVu Sans"
                " (apt-get install fonts-liberation fonts-dejavu-core)")
    return preview


def _has_font(family: str) -> bool:
    """Whether the machine's fonts include ``family`` (as fontconfig lists them)."""
    try:
        listed = subprocess.run(["fc-list", family], capture_output=True,
                                text=True, timeout=60).stdout
    except OSError:
        return False
    return bool(listed.strip())


def board_renderer(images: bool) -> Boards:
    """Return the Discord side's board renderer with every game's cog registered."""
    boards = Boards(None, None, images=images)  # type: ignore[arg-type]
    for cog in (TinkerCog(None), TinRealmCog(None), SteamCog(None)):  # type: ignore[arg-type]
        boards.register(cog)  # type: ignore[arg-type]
    return boards


def _table(game: LoadedGame, rng: random.Random, actions: Sequence[Action],
           names: Sequence[str] = NAMES) -> None:
    """Set how the table plays ``game``: its mode, a vote under way, a daily deal."""
    row = game.row
    mode = rng.choice(("vote", "vote", "fast", "solo"))
    row.only_starter = mode == "solo" and len(row.seats) == 1
    if row.only_starter:
        game.data.mode = "solo"  # as the table starts it: no vote is ever under way
    else:
        game.data.mode = "fast" if mode == "fast" else "vote"
        game.data.window = rng.choice((30, 45, 600))
    if rng.random() < 0.1:
        row.daily = "2025-03-14"
    if len(row.seats) == 1 and game.data.mode == "vote" and actions and rng.random() < 0.4:
        poll = polls.new_poll(row.version)
        for voter in range(rng.randint(1, 4)):
            chosen = rng.choice(actions)
            polls.cast(poll, 500 + voter, names[voter], chosen.id, chosen.label,
                       1_800_000_000.0 + voter)
        if rng.random() < 0.7:
            poll.closes = 1_800_000_030.0
        game.data.poll = poll


def _seat(game: LoadedGame, rng: random.Random, names: Sequence[str] = NAMES) -> None:
    """Give a table's seats people's names, some computers, some away."""
    seats = []
    for index, seat in enumerate(game.seats):
        computer = index > 0 and rng.random() < 0.4
        away = not computer and index > 0 and rng.random() < 0.15
        seats.append(replace(seat, name=names[index], computer=computer, away=away))
    game.seats = seats


def played(kind: str, games: int, seed: int = 0, *, names: Sequence[str] = NAMES,
           seats: int | None = None) -> Iterator[LoadedGame]:
    """Yield every board of ``games`` random games of ``kind`` (Steam at 2 to 5 seats, or
    ``seats``, with its lobby), played with random legal and computer moves by people
    called ``names``."""
    engine = ENGINES[kind]
    for index in range(games):
        rng = random.Random(seed * 1_000_003 + index)
        count = 1 if kind != "steam" else seats or 2 + index % 4
        options: dict[str, Any] = {}
        if kind == "steam":
            options = {"names": list(names[:count])}
            lobby = loaded(engine, None, version=0, seats=count, status="lobby",
                           events=[f"{names[0]} opened the table."])
            _seat(lobby, rng, names)
            yield lobby
        elif kind == "tinker":
            options = {"classic_journey": index % 3 == 0, "harsh_defeat": index % 2 == 0}
        state = engine.new(index + seed, count, options)
        yield from _boards(engine, state, count, rng, names)


def _boards(engine: Any, state: Any, seats: int, rng: random.Random,
            names: Sequence[str]) -> Iterator[LoadedGame]:
    """Yield each board of one game to its end, its events as the table keeps them."""
    events: list[str] = [f"{names[0]} started the game."]
    log = TableData()
    version, lead = 1, None
    while True:
        over = engine.is_over(state)
        seat = None if over else engine.to_act(state)
        actions = [] if seat is None else engine.legal_actions(state, seat)
        game = loaded(engine, state, version=version, seats=seats, events=list(events),
                      status="over" if over else "active")
        game.row.state = engine.dump(state)  # kept, as stored: an ended board offers Replay
        _seat(game, rng, names)
        if lead:
            game.data.last = lead
        game.data.turns = copy.deepcopy(log.turns)
        _table(game, rng, actions, names)
        yield game
        if seat is None:
            return
        chosen = rng.choice(actions)
        if rng.random() < 0.6:
            best = engine.computer_action(state, seat)
            chosen = next((a for a in actions if a.id == best), chosen)
        step = engine.apply(state, seat, chosen.id)
        lead = f"{names[seat]} chose: {chosen.label}."
        moved = [lead, *step.events] if seats == 1 else list(step.events)
        turnlog.note_move(log, seat, moved, seats=seats,
                          ended=turnlog.ends_turn(seats, seat, engine.to_act(step.state),
                                                  engine.is_over(step.state)))
        events = [*events, *moved][-RECENT_EVENTS:]
        state = step.state
        version += 1


@dataclass(slots=True)
class Message:
    """A board message as Discord returns it, and its picture (PNG bytes, or b"")."""

    json: dict[str, Any]
    picture: bytes


def png_size(png: bytes) -> tuple[int, int]:
    """Return a PNG's width and height, read from its header."""
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


def message(boards: Boards, game: LoadedGame, *, one_line_vote: bool = False) -> Message:
    """Return ``game``'s board as Discord returns the message: embed, components and the
    picture's attachment (its real size, its alt text), drawn when the renderer has
    pictures on.

    With ``one_line_vote``, a vote under way shows as :func:`bot.boards.layout.vote_line`
    (the field the Discord side is to show) instead of the table's list of voters.
    """
    picture = b""
    if boards.images and game.state is not None and not game.broken:
        picture = pictures.render_board(game.row.kind, picture_view(game),
                                        status=game.row.status)  # as the bot draws it
    body = boards.drawing.render(game, picture=picture)
    embed = body["embed"].to_dict()
    if one_line_vote:
        _one_line_vote(embed, game)
    data: dict[str, Any] = {"content": "", "embeds": [embed], "flags": 0, "attachments": []}
    view = body.get("view")
    data["components"] = view.to_components() if view is not None else []
    if picture:
        width, height = png_size(picture)
        embed["image"] = {"url": f"attachment://{pictures.FILENAME}", "width": width,
                          "height": height}
        data["attachments"] = [{"id": "1", "filename": pictures.FILENAME, "width": width,
                                "height": height, "content_type": "image/png",
                                "size": len(picture),
                                "description": boards.drawing.alt_text(game)}]
    return Message(data, picture)


def _chromium(page: Path, budget_ms: int) -> str:
    """Return the page's DOM after Chromium (headless) has loaded and laid it out."""
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
               "--force-device-scale-factor=1", f"--virtual-time-budget={budget_ms}",
               "--disable-background-networking", "--disable-component-update",
               "--disable-sync", "--no-first-run", "--dump-dom", page.resolve().as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=300).stdout


def phone_heights(preview: ModuleType, messages: Sequence[Message], *,
                  light: bool = False, width: int = 360) -> list[int]:
    """Return each message's height at phone width, as the preview tool measures it.

    The messages are drawn by the tool's own HTML and CSS into one page (each in its own
    box, like the tool's single one), which Chromium lays out once.
    """
    if not messages:
        return []
    with tempfile.TemporaryDirectory() as folder:
        where = Path(folder)
        preview.ATTACH = where
        preview.LIGHT = light
        parts = []
        for index, item in enumerate(messages):
            data = item.json
            if item.picture:
                name = f"board{index}.png"
                (where / name).write_bytes(item.picture)
                data = _renamed(data, name)
            private = bool(int(data.get("flags") or 0) & 64)  # "Only you can see this"
            inner = preview.render_message(data, None, private)
            parts.append(f"<div class=one>{inner}</div>")
        # Discord keeps a footer's line breaks (the tool's page runs them together).
        page = preview.page("<style>.footer{white-space:pre-wrap}</style>" + "".join(parts),
                            width, True)
        script = ("<script>window.onload=()=>{document.getElementById('h').textContent="
                  "'HEIGHTS='+[...document.querySelectorAll('.one')].map("
                  "e=>Math.round(e.getBoundingClientRect().height)).join(',');}</script>")
        path = where / "boards.html"
        path.write_text(page.replace("</body>", f"{script}</body>"))
        dom = _chromium(path, 2000 + 20 * len(messages))
    found = re.search(r"HEIGHTS=([\d,]+)", html.unescape(dom))
    if found is None:
        raise RuntimeError("the preview page did not report its heights")
    heights = [int(h) for h in found.group(1).split(",")]
    assert len(heights) == len(messages)
    return heights


def _renamed(data: dict[str, Any], name: str) -> dict[str, Any]:
    """Return the message with its picture's attachment:// url pointing at ``name``."""
    embeds = []
    for embed in data.get("embeds") or []:
        embed = dict(embed)
        if "image" in embed:
            embed["image"] = {**embed["image"], "url": f"attachment://{name}"}
        embeds.append(embed)
    return {**data, "embeds": embeds}


def _one_line_vote(embed: dict[str, Any], game: LoadedGame) -> None:
    """Replace the table's vote field in ``embed`` with its one-line form."""
    poll = game.data.poll
    for entry in embed.get("fields") or []:
        if entry["name"] == VOTE_TITLE and poll is not None:
            active = polls.active_count(game.data.recent, poll)
            entry["value"] = vote_line(polls.voter_count(poll), polls.needed_for_majority(active),
                                       poll.closes, active, giving_up=polls.confirming(poll))
