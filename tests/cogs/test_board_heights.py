"""Every board of every game fits one phone screen: 600 px at 360 px wide.

A sample of the boards of random games of each kind (Steam to Solar at 2 to 5 seats,
from its lobby; votes under way, fast and "only me" tables, computer and away seats, the
endings) is drawn with ``shared/tools/discord_preview.py``, pictures on and off. A vote
under way is measured in its one-line form (``bot.boards.layout.vote_line``). Where the
preview tool or Chromium is missing, the boards' text and rows are held to the size that
fits instead.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from bot.boards.layout import BoardButton, phone_lines, vote_line
from bot.boards.render import TALLY
from bot.table import polls
from tests.cogs.board_messages import (
    ENGINES,
    PHONE_BUDGET,
    Message,
    board_renderer,
    message,
    need_preview,
    phone_heights,
    played,
)
from tests.support import loaded

#: Games played of each kind, and boards measured of each kind and setting.
GAMES = 40
SAMPLE = 120


@cache
def _boards(kind: str) -> list:
    """Return a sample of the boards of :data:`GAMES` games of ``kind``: every lobby,
    ending and vote among them, the rest at random."""
    games = list(played(kind, GAMES, seed=5))
    rng = random.Random(kind)
    special = [g for g in games if g.row.status != "active" or g.data.poll is not None]
    rest = [g for g in games if g not in special]
    return special[: SAMPLE // 2] + rng.sample(rest, SAMPLE - min(len(special), SAMPLE // 2))


@pytest.mark.parametrize("images", [True, False], ids=["pictures", "text"])
@pytest.mark.parametrize("kind", list(ENGINES))
def test_boards_fit_one_phone_screen(kind: str, images: bool) -> None:
    """Each sampled board is at most 600 px tall at phone width."""
    boards = board_renderer(images)
    games = _boards(kind)
    items = [message(boards, g, one_line_vote=True) for g in games]
    heights = phone_heights(need_preview(), items)
    tallest = max(heights)
    worst = items[heights.index(tallest)].json["embeds"][0].get("title")
    assert tallest <= PHONE_BUDGET, f"{kind}: a board is {tallest} px ({worst})"


@pytest.mark.parametrize("kind", list(ENGINES))
def test_the_sample_holds_every_kind_of_board(kind: str) -> None:
    """The sample has decisions, endings, and for Steam its lobby and a computer's turn."""
    games = _boards(kind)
    statuses = {g.row.status for g in games}
    assert {"active", "over"} <= statuses
    if kind == "steam":
        assert "lobby" in statuses
        assert any(g.row.status == "active" and g.computer_to_act() for g in games)
        assert any(any(s.away for s in g.seats) for g in games)
    else:
        assert any(g.data.poll is not None for g in games)


def test_a_vote_is_one_phone_line() -> None:
    """The vote line says the votes, what moves at once, that a tie goes to the first vote
    (C4) and when it closes, in a line; with a vote to give up standing, that the close
    leaves giving up out."""
    line = vote_line(3, 2, 1_800_000_030.0, 4)
    assert line == "3 votes · 2 agreeing move now · tie: first vote · ends <t:1800000030:R>"
    assert len(line) <= 72
    assert vote_line(1, 3, None, 4) == "1 vote · giving up needs 3 of 4"
    # C4: a vote to give up beside the running countdown of another move's vote
    given = vote_line(3, 2, 1_800_000_030.0, 4, giving_up=True)
    assert given == "3 votes · 2 agreeing move now · ends <t:1800000030:R> without giving up"
    assert len(given) <= 72


def test_a_fight_voted_on_every_strike_still_fits_with_its_rules_button() -> None:
    """A vote's tally lengthens every label it is on ("⚡3 +5 · 1"): "Rules & details"
    then no longer fits beside two of them on a phone line, and takes its short label
    ("Rules") rather than a row of its own; the board stays within one phone screen."""
    boards = board_renderer(True)
    fight = next(g for g in played("tinrealm", GAMES, seed=5)
                 if g.row.status == "active" and g.state is not None
                 and sum(a.group == "combat" for a in g.legal_actions(0)) >= 5)
    fight.data.mode, fight.row.only_starter = "vote", False
    poll = polls.new_poll(fight.row.version)
    for voter, action in enumerate(a for a in fight.legal_actions(0) if a.group == "combat"):
        polls.cast(poll, 900 + voter, f"Voter {voter}", action.id, action.label,
                   1_800_000_000.0 + voter)
    poll.closes = 1_800_000_030.0
    fight.data.poll = poll
    shown = message(boards, fight)
    rows = [[c.get("label") or "" for c in row["components"]]
            for row in shown.json["components"]]
    rules = [row for row in rows if "Rules" in row or "Rules & details" in row]
    assert rules and len(rules[0]) > 1, rows  # beside the moves, not a row of its own
    assert all(f"{TALLY}1" in label for row in rows for label in row
               if label and not label.startswith("Rules")), rows
    assert phone_heights(need_preview(), [shown])[0] <= PHONE_BUDGET


def test_a_voted_fight_with_a_menu_and_three_tallied_strikes_fits_one_phone_screen() -> None:
    """A channel fights an undead foe with gear (every strike "+n"), with food or an item
    to use (the menu's row), and three members vote the first row's three (the sure blow
    and two strikes): the three tallied buttons still share one phone line, and the
    board stays within one phone screen."""
    from bot.games.tinrealm.engine import ENGINE as TR

    found = None
    for seed in range(40):
        s = TR.new(seed, 1, {"preset": "hard" if seed % 2 else "easy"})
        rng = random.Random(seed)
        while found is None and not TR.is_over(s):
            acts = TR.legal_actions(s, 0)
            if (s.fight is not None and s.energy >= 3
                    and any(a.group in ("eat", "item") for a in acts)
                    and TR.view(s)["combat"]["undead"] and "+" in acts[0].label):
                found = s
            else:
                s = TR.apply(s, 0, TR.computer_action(s, 0) if rng.random() < .8
                             else rng.choice(acts).id).state
        if found is not None:
            break
    assert found is not None
    game = loaded(TR, found, version=50, events=["Alice chose: Resolve Sunken Chapel."])
    game.data.mode, game.row.only_starter = "vote", False
    poll = polls.new_poll(game.row.version)
    # the first row's three: the sure blow, then the strikes (which keep their places)
    strikes = sorted((a for a in game.legal_actions(0) if a.group == "combat"),
                     key=lambda a: a.id != "blow")
    for voter in range(3):
        polls.cast(poll, 500 + voter, f"Voter {voter}", strikes[voter].id,
                   strikes[voter].label, 1_800_000_000.0 + voter)
    poll.closes = 1_800_000_030.0
    game.data.poll = poll
    shown = message(board_renderer(True), game, one_line_vote=True)
    tallied = [[c["label"] for c in row["components"]] for row in shown.json["components"]
               if any(TALLY in (c.get("label") or "") for c in row["components"])]
    assert len(tallied) == 1 and len(tallied[0]) == 3
    assert phone_heights(need_preview(), [shown])[0] <= PHONE_BUDGET


#: Display names as long as Discord allows (32 letters), in several scripts and widths.
LONG_NAMES = ("Maximilian Alexander Wolfenstein", "WWWW MMMM WWWW MMMM WWWW MMMM WW",
              "東京の鈴木さくらと山田太郎と佐藤花子と高橋一郎と田中美咲と伊藤",
              "🚂🚂 Captain Locomotive 🚂🚂 Junior", "Évangéline-Marguerite Dubois-Roy")


def test_five_seats_with_the_longest_names_fit_one_phone_screen() -> None:
    """Five people whose names are 32 letters long (Discord's longest), in capitals, in
    Japanese and with emoji: the boards of their Steam to Solar tables, pictures on and
    off, still fit one phone screen."""
    assert all(len(name) <= 32 for name in LONG_NAMES)
    games = list(played("steam", 6, seed=11, names=LONG_NAMES, seats=5))
    rng = random.Random(32)
    sample = [g for g in games if g.row.status != "active"] + rng.sample(games, 40)
    preview = need_preview()
    for images in (True, False):
        items = [message(board_renderer(images), g, one_line_vote=True) for g in sample]
        heights = phone_heights(preview, items)
        tallest = max(heights)
        worst = items[heights.index(tallest)].json["embeds"][0].get("title")
        assert tallest <= PHONE_BUDGET, f"pictures {images}: a board is {tallest} px ({worst})"


def test_an_ended_boards_buttons_keep_to_one_phone_line() -> None:
    """An ended board offers Play again, Replay and its rules: "Rules & details" would
    wrap the three onto a second line on a phone, so it reads "Rules" there; with Share
    (a daily), the rules button has a row of its own and keeps its whole label."""
    boards = board_renderer(True)
    ended = [g for g in played("tinker", 2) if g.row.status == "over"]
    assert ended
    game = ended[0]
    game.row.daily = None
    labels = [[c["label"] for c in row["components"]]
              for row in message(boards, game).json["components"]]
    assert labels == [["Play again", "Replay", "Rules"]]
    game.row.daily = "2026-12-06"
    labels = [[c["label"] for c in row["components"]]
              for row in message(boards, game).json["components"]]
    assert labels == [["Play again", "Replay", "Share"], ["Rules & details"]]


#: Buttons' own emoji and labels as boards show them (Tinker's suits and tallies, the
#: table's buttons, capitals).
_EMOJI = ("🌙", "☀️", "🌊", "🍃", "🐉", "🪢", "🔔", "🎲")
_LABELS = ("×4", "+1 ×5", "×6\u202f·\u202f1", "Rules", "Give up", "Rules & details", "Play again",
           "Replay", "Join", "Leave", "Share", "WWW", "mmm")


def _row_message(row: list[BoardButton]) -> Message:
    """Return a message of one line of text and ``row`` as one row of buttons."""
    buttons = [{"type": 2, "style": 2, "label": b.label, "custom_id": f"b{n}",
                **({"emoji": {"name": b.emoji}} if b.emoji else {})}
               for n, b in enumerate(row)]
    return Message({"content": "x", "embeds": [], "flags": 0, "attachments": [],
                    "components": [{"type": 1, "components": buttons}]}, b"")


def test_a_row_of_buttons_takes_the_phone_lines_the_model_says() -> None:
    """The width model of a row of buttons (``phone_lines``, which places the Rules
    button) never says a row fits a phone line that the preview wraps, emoji drawn with
    a colour emoji font; and it is rarely more careful than it needs to be."""
    rng = random.Random(7)
    rows = [[BoardButton(label=rng.choice(_LABELS), custom_id="a",
                         emoji=rng.choice(_EMOJI) if rng.random() < 0.6 else None)
             for _ in range(rng.randint(2, 5))] for _ in range(80)]
    # Tinker's vote row seen to wrap when an emoji was taken for two letters
    rows.append([BoardButton(label=label, custom_id="a", emoji=emoji) for emoji, label in
                 (("🍃", "×5"), ("🐉", "×6"), ("🪢", "×1\u202f·\u202f1"), (None, "Rules"))])
    heights = phone_heights(need_preview(), [_row_message(row) for row in rows])
    line = min(heights)
    shown = [1 + round((h - line) / 40) for h in heights]  # a line of buttons: 40 px
    said = [phone_lines(row) for row in rows]
    assert shown[-1] == said[-1] == 2
    assert all(s >= real for s, real in zip(said, shown, strict=True))
    assert sum(s > real for s, real in zip(said, shown, strict=True)) <= len(rows) // 10


def test_every_ended_tin_realm_daily_fits_one_phone_screen() -> None:
    """An ended daily journey has a fourth button (Share), so "Rules & details" takes a
    row of its own, and its tallest picture; a death's words ("Died on the night after
    day 5: the poison (3) reached your health (3).") with the score in words: every
    ending of 60 journeys, as a daily deal, still fits one phone screen (a two-line
    title and a two-line footer made them 624 px)."""
    ends = [g for g in played("tinrealm", 60, seed=33) if g.row.status == "over"]
    for game in ends:
        game.row.daily = "2025-03-14"
    assert {g.view()["end"] for g in ends} >= {"dead", "time"}
    items = [message(board_renderer(True), g) for g in ends]
    heights = phone_heights(need_preview(), items)
    tallest = max(heights)
    worst = items[heights.index(tallest)].json["embeds"][0]
    assert tallest <= PHONE_BUDGET, (tallest, worst["title"], worst["description"])


def test_a_five_seat_final_round_fits_one_phone_screen() -> None:
    """Five seats in the final round: two selects, a long quick-run label and the table's
    "final round" line, which at five seats is cut to one footer line ("Rules & details"
    has it whole); every such board of 30 tables fits one phone screen (608 px when the
    line stood whole)."""
    games = [g for g in played("steam", 30, seed=21, seats=5)
             if g.row.status == "active" and g.view().get("final_round")]
    assert len(games) >= 30
    items = [message(board_renderer(True), g) for g in games]
    heights = phone_heights(need_preview(), items)
    tallest = max(heights)
    worst = items[heights.index(tallest)].json["embeds"][0]
    assert tallest <= PHONE_BUDGET, (tallest, worst.get("footer"))
