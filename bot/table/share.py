"""The shareable lines of a finished daily game: the date, the score, a row of squares
and, in small print, what the squares mean.

Like the daily word games, it tells how the day went without giving the deal away: no
card, place or enemy is named. It is read from the views of every position of the game
(:func:`bot.table.replay.frames`), so nothing more is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any

from bot.table.replay import ReplayRequest, frames

#: What was never reached, in both games: a square of a light ring round a dark middle
#: (Discord's 🔳), seen on the dark theme by its ring and on the light one by its middle,
#: where ⬛ vanishes on the dark theme and ⬜ on the light one.
NOT_REACHED = "🔳"
#: Tinker: a location cleared, one lost, one never reached.
CLEARED, LOST, UNREACHED = "✅", "🟥", NOT_REACHED
#: Tin Realm: a day without a wound, a day with wounds, the day the journey ended
#: in defeat, a day never reached: each of a shape of its own, so that colour is not
#: all that tells them apart.
UNHURT, HURT, FELL, UNSEEN = "✅", "🩹", "❌", NOT_REACHED

#: What the squares mean, said under them in small print (Discord's ``-#`` subtext).
TINKER_KEY = f"-# {CLEARED} cleared · {LOST} lost · {UNREACHED} not reached"
TINREALM_KEY = f"-# {UNHURT} unhurt · {HURT} hurt · {FELL} fell · {UNSEEN} not reached"

#: How a Tin Realm journey ended, in words that give nothing away.
VERDICTS = {"won": "journey made", "dead": "fell on the way", "time": "ran out of days"}

#: How many locations a Tinker journey has.
LOCATIONS = 13


def day_words(key: str) -> str:
    """``2026-12-02`` as ``2 Dec 2026`` (the key itself if it is not a date)."""
    try:
        day = date.fromisoformat(key)
    except ValueError:
        return key
    return f"{day.day} {day.strftime('%b %Y')}"


def _names(view: Mapping[str, Any], key: str) -> list[Any]:
    found = view.get(key)
    return list(found) if isinstance(found, list) else []


def tinker_row(views: Sequence[Mapping[str, Any]]) -> tuple[int, str]:
    """Return the locations cleared and one square per location, in the order met."""
    squares: list[str] = []
    cleared = lost = 0
    for view in views:
        places = view.get("locations")
        places = places if isinstance(places, Mapping) else {}
        now_cleared = len(_names(places, "cleared"))
        now_lost = len(_names(places, "trashed"))
        squares += [CLEARED] * max(0, now_cleared - cleared)
        squares += [LOST] * max(0, now_lost - lost)
        cleared, lost = max(cleared, now_cleared), max(lost, now_lost)
    final = views[-1] if views else {}
    if final.get("over") and _outcome(final) == "loss" and len(squares) < LOCATIONS:
        squares.append(LOST)  # the location the journey ended on
    squares += [UNREACHED] * (LOCATIONS - len(squares))
    return cleared, "".join(squares[:LOCATIONS])


def _outcome(view: Mapping[str, Any]) -> str:
    result = view.get("result")
    if not isinstance(result, Mapping):
        return ""
    outcomes = result.get("outcomes")
    if isinstance(outcomes, list) and outcomes and isinstance(outcomes[0], Mapping):
        return str(outcomes[0].get("outcome", ""))
    return ""


def _number(value: Any, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def tinrealm_row(views: Sequence[Mapping[str, Any]]) -> str:
    """Return one square per day of the journey: unhurt, hurt, fallen or not reached.

    What a view shows came of the move made on the view before it, so a loss of health
    belongs to that view's day: a night's starving falls on the day it ends, and a death
    at the last supper on the last day's square.
    """
    final = views[-1] if views else {}
    last_day = max(1, _number(final.get("last_day"), 7))
    hurt: dict[int, bool] = {}
    previous: int | None = None
    acting: int | None = None  # the day of the view before: the day the move was made
    for view in views:
        day = min(last_day, max(1, _number(view.get("day"), 1)))
        when = day if acting is None else acting
        health = view.get("health")
        hurt.setdefault(day, False)
        if isinstance(health, int) and previous is not None and health < previous:
            hurt[when] = True
        if isinstance(health, int):
            previous = health
        acting = day
    fell = final.get("end") == "dead"
    reached = max(hurt, default=1)
    ended = next((i for i, view in enumerate(views) if view.get("end")), 0)
    if fell and ended:  # the day of the move that ended the journey
        reached = min(last_day, max(1, _number(views[ended - 1].get("day"), 1)))
    squares = []
    for day in range(1, last_day + 1):
        if day > reached:
            squares.append(UNSEEN)
        elif day == reached and fell:
            squares.append(FELL)
        else:
            squares.append(HURT if hurt.get(day) else UNHURT)
    return "".join(squares)


def share_text(kind: str, daily: str, views: Sequence[Mapping[str, Any]]) -> str:
    """Return the spoiler-free lines of a daily game of ``kind`` played on ``daily``."""
    final = views[-1] if views else {}
    when = day_words(daily)
    if kind == "tinker":
        cleared, row = tinker_row(views)
        verdict = "world saved" if _outcome(final) == "win" else "journey ended"
        return f"Tinker daily · {when} · {cleared}/{LOCATIONS} · {verdict}\n{row}\n{TINKER_KEY}"
    if kind == "tinrealm":
        score = _number(final.get("score"))
        result = final.get("result")
        if isinstance(result, Mapping) and isinstance(result.get("outcomes"), list):
            first = result["outcomes"][0] if result["outcomes"] else {}
            score = _number(first.get("score") if isinstance(first, Mapping) else None, score)
        verdict = VERDICTS.get(str(final.get("end")), "journey ended")
        return (f"Tin Realm daily · {when} · {score} point{'' if score == 1 else 's'} · "
                f"{verdict}\n"
                f"{tinrealm_row(views)}\n{TINREALM_KEY}")
    return f"{kind} daily · {when}"


def share_of(request: ReplayRequest) -> str:
    """Rebuild the daily game of ``request`` and return its shareable lines."""
    return share_text(request.kind, request.daily or "", [f.view for f in frames(request)])
