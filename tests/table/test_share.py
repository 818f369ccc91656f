"""The shareable line of a daily game: date, score, one square per location or day, and
nothing of the deal."""

from __future__ import annotations

import random

from bot.games.registry import engine
from bot.games.tinker.state import LOCATIONS
from bot.table.replay import ReplayRequest, frames
from bot.table.share import (
    CLEARED,
    FELL,
    HURT,
    LOST,
    TINKER_KEY,
    TINREALM_KEY,
    UNHURT,
    UNREACHED,
    UNSEEN,
    day_words,
    share_of,
    share_text,
    tinker_row,
    tinrealm_row,
)


def _tinker(cleared: int, trashed: int, *, over: bool = False, outcome: str = "") -> dict:
    names = list(LOCATIONS)
    view: dict = {"locations": {"cleared": names[:cleared],
                                "trashed": names[cleared:cleared + trashed]},
                  "over": over}
    if outcome:
        view["result"] = {"outcomes": [{"seat": 0, "outcome": outcome, "score": 0}]}
    return view


def test_tinker_squares_follow_the_journey():
    """A square per location in the order they were met: cleared, lost, then not reached."""
    views = [_tinker(0, 0), _tinker(1, 0), _tinker(2, 0), _tinker(2, 1), _tinker(3, 1),
             _tinker(3, 1, over=True, outcome="loss")]
    cleared, row = tinker_row(views)
    assert cleared == 3
    assert row == CLEARED * 2 + LOST + CLEARED + LOST + UNREACHED * 8
    text = share_text("tinker", "2026-12-02", views)
    assert text == f"Tinker daily · 2 Dec 2026 · 3/13 · journey ended\n{row}\n{TINKER_KEY}"


def test_a_saved_world_is_thirteen_cleared():
    """Thirteen locations cleared: a full row of ticks and the world saved."""
    views = [_tinker(n, 0) for n in range(14)]
    views[-1] = _tinker(13, 0, over=True, outcome="win")
    assert share_text("tinker", "2027-01-05", views) == (
        f"Tinker daily · 5 Jan 2027 · 13/13 · world saved\n{CLEARED * 13}\n{TINKER_KEY}")


def _day(day: int, health: int, **more: object) -> dict:
    return {"day": day, "health": health, "last_day": 7, **more}


def test_tin_realm_squares_per_day():
    """A day without a wound, a day with one, the day the adventurer fell, days not seen."""
    views = [_day(1, 10), _day(1, 10), _day(2, 10), _day(2, 7), _day(3, 8), _day(3, 0)]
    views[-1] |= {"end": "dead", "over": True,
                  "result": {"outcomes": [{"seat": 0, "outcome": "loss", "score": 12}]}}
    assert tinrealm_row(views) == UNHURT + HURT + FELL + UNSEEN * 4
    assert share_text("tinrealm", "2026-12-02", views) == (
        f"Tin Realm daily · 2 Dec 2026 · 12 points · fell on the way\n"
        f"{UNHURT}{HURT}{FELL}{UNSEEN * 4}\n{TINREALM_KEY}")


def test_odd_day_keys_are_shown_as_they_are():
    """A day key that is not a date is shown unchanged."""
    assert day_words("someday") == "someday"
    assert day_words("2026-02-09") == "9 Feb 2026"


def _daily(kind: str, seed: int) -> ReplayRequest:
    game = engine(kind)
    state = game.new(seed, 1, {})
    moves = []
    chooser = random.Random(seed)
    while not game.is_over(state):
        legal = [a.id for a in game.legal_actions(state, 0) if a.id != "resign"]
        action = chooser.choice(legal) if seed % 2 and legal else game.computer_action(state, 0)
        moves.append((0, action))
        state = game.apply(state, 0, action).state
    return ReplayRequest(1, kind, game.dump(state), 1, {}, tuple(moves), "over", "2026-12-02")


def test_played_dailies_name_no_card_and_no_place():
    """Whole daily games of each kind: two lines, the score, and no card, location,
    enemy or adventurer named (nothing of the deal is given away)."""
    from bot.games.decktet import DECK

    for kind in ("tinker", "tinrealm"):
        for seed in range(1, 5):
            request = _daily(kind, seed)
            text = share_of(request)
            head, row, key = text.split("\n")
            assert key == (TINKER_KEY if kind == "tinker" else TINREALM_KEY)
            assert "2 Dec 2026" in head
            assert len(row) == (13 if kind == "tinker" else 7)
            final = frames(request)[-1].view
            secrets = {c.name for c in DECK}
            secrets |= {str(final.get(k)) for k in ("race", "class") if final.get(k)}
            assert not any(name in text for name in secrets if len(name) > 2), text


def test_tin_realm_death_at_the_last_supper_is_marked_on_day_seven():
    """R9: starving on the night after day 7 is a death; the view after it says day 8,
    and the red square lands on the last day's square."""
    views = [_day(day, 10) for day in range(1, 8)] + [_day(8, 0, end="dead", over=True)]
    assert tinrealm_row(views) == UNHURT * 6 + FELL
    assert share_text("tinrealm", "2026-12-02", views).split("\n")[1].endswith(FELL)


def test_tin_realm_a_nights_starving_lands_on_the_day_it_ends():
    """R9: the supper (or the 3 damage) is the night of the day that ends: a hungry night
    after day 1 hurts day 1's square, and a death that night is day 1's fall."""
    views = [_day(1, 10), _day(1, 10), _day(2, 7), _day(2, 7), _day(3, 7)]
    assert tinrealm_row(views) == HURT + UNHURT * 2 + UNSEEN * 4
    fell = [_day(1, 10), _day(1, 3), _day(2, 0, end="dead", over=True)]
    assert tinrealm_row(fell) == FELL + UNSEEN * 6


def test_each_mark_differs_by_more_than_its_colour():
    """The marks of a day (and of a location) are told apart by their shape: no two of
    one game's marks are both coloured squares, which only colour tells apart."""
    squares = {"🟥", "🟧", "🟨", "🟩", "🟦", "🟪", "🟫"}
    for marks in ((UNHURT, HURT, FELL), (CLEARED, LOST)):
        assert sum(mark in squares for mark in marks) <= 1, marks


#: The fills of Discord's emoji (Twemoji) for the grey marks a row could use, from their
#: SVGs; the other marks are coloured, which shows on either theme.
TWEMOJI_FILLS = {"⬛": ("#292f33",), "⬜": ("#e6e7e8",), "🔳": ("#e6e7e8", "#292f33"),
                 "🔲": ("#292f33", "#e6e7e8")}
#: The message grounds of Discord's dark and light themes.
GROUNDS = ("#313338", "#ffffff")


def _luminance(colour: str) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def _contrast(a: str, b: str) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_not_reached_is_seen_on_both_themes():
    """A grey mark has only its lightness to stand out: some part of "not reached" keeps
    3:1 against both the dark and the light theme (⬛ is 1.05:1 on the dark one, ⬜ 1.24:1
    on the light one)."""
    assert UNREACHED == UNSEEN
    for mark in (UNREACHED, UNSEEN):
        for ground in GROUNDS:
            assert max(_contrast(fill, ground) for fill in TWEMOJI_FILLS[mark]) >= 3, \
                (mark, ground)
    assert min(_contrast("#292f33", GROUNDS[0]), _contrast("#e6e7e8", GROUNDS[1])) < 1.3
    assert UNREACHED in TINKER_KEY and UNSEEN in TINREALM_KEY
