"""Steam to Solar: final scores, the tie-break, places and the result (S12, S10)."""

from __future__ import annotations

from typing import Any

from bot.games.protocol import Outcome, Result
from bot.games.steam.state import SteamState

#: S12: points each Wave token adds to the final score.
TOKEN_POINTS = 2
_ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


def final_score(state: SteamState, seat: int) -> int:
    """S12: the seat's points plus 2 per Wave token; a resigned player scores nothing (S10)."""
    if state.players[seat].resigned:
        return 0
    return state.players[seat].score + TOKEN_POINTS * state.tokens(seat)


def _rank(state: SteamState, seat: int) -> tuple[int, int, int]:
    """The sort key of S12: players still in first, then score, then goods left."""
    player = state.players[seat]
    return (not player.resigned, final_score(state, seat), player.goods_left())


def winners(state: SteamState) -> list[int]:
    """S12: best final score among players still in; ties by goods left; else shared."""
    active = state.active()
    best = max(_rank(state, seat) for seat in active)
    return [seat for seat in active if _rank(state, seat) == best]


def breakdown(state: SteamState, seat: int) -> str:
    """Say in words how the seat's score is made, e.g. ``12 points + 4 for 2 Wave tokens``."""
    player = state.players[seat]
    tokens = state.tokens(seat)
    goods = f"{player.goods_left()} goods left"
    points = f"{player.score} point{'' if player.score == 1 else 's'}"
    if player.resigned:
        return (f"resigned: scores nothing ({points}, {tokens} Wave "
                f"token{'' if tokens == 1 else 's'})")
    if not tokens:
        return f"{points}; {goods}"
    token_text = f"{tokens} Wave token{'s' * (tokens > 1)}"
    return (f"{points} + {TOKEN_POINTS * tokens} for {token_text} "
            f"= {final_score(state, seat)}; {goods}")


def places(state: SteamState) -> list[dict[str, Any]]:
    """Return every seat from 1st to last: equal scores and goods left share a place.

    Resigned players come last, in seat order. Each entry: ``place`` (1 = first),
    ``ordinal`` ("1st"), ``seat``, ``name``, ``total``, ``points``, ``tokens``,
    ``goods_left``, ``resigned`` and ``breakdown`` (the score in words).
    """
    order = sorted(range(len(state.players)), key=lambda s: (_rank(state, s), -s),
                   reverse=True)
    rows: list[dict[str, Any]] = []
    for index, seat in enumerate(order):
        player = state.players[seat]
        place = index + 1
        if rows and not player.resigned and _rank(state, order[index - 1]) == _rank(state, seat):
            place = rows[-1]["place"]
        rows.append({
            "place": place, "ordinal": _ORDINALS[place - 1], "seat": seat, "name": player.name,
            "total": final_score(state, seat), "points": player.score,
            "tokens": state.tokens(seat), "goods_left": player.goods_left(),
            "resigned": player.resigned, "breakdown": breakdown(state, seat),
        })
    return rows


def _tie_break(state: SteamState, wins: list[int]) -> str:
    """S12: say how goods left broke a tie on the final score (``on goods left (3 to
    1)``: the winners' goods left, then the most of those tied with them who lost), or
    ``""`` when no player still in had the winners' score without winning."""
    top = final_score(state, wins[0])
    beaten = [s for s in state.active() if s not in wins and final_score(state, s) == top]
    if not beaten:
        return ""
    best = max(state.players[s].goods_left() for s in beaten)
    return f"on goods left ({state.players[wins[0]].goods_left()} to {best})"


def game_result(state: SteamState) -> Result:
    """Return the result of a finished game: one outcome per seat and a summary that
    says when goods left broke a tie (S12)."""
    wins = winners(state)
    names = [state.players[s].name for s in wins]
    top = final_score(state, wins[0])
    broken = _tie_break(state, wins)
    how = f", {broken}" if broken else ""
    if len(state.active()) == 1:
        summary = f"{names[0]} wins: everyone else resigned."
    elif len(wins) == 1:
        summary = f"{names[0]} wins with {top}{how}."
    else:
        summary = f"{', '.join(names[:-1])} and {names[-1]} share the win with {top}{how}."
    outcomes = tuple(
        Outcome(
            seat=seat,
            outcome="win" if seat in wins else "loss",
            score=final_score(state, seat),
            detail={
                "points": p.score,
                "tokens": state.tokens(seat),
                "goods_left": p.goods_left(),
                "resigned": p.resigned,
            },
        )
        for seat, p in enumerate(state.players)
    )
    return Result(summary, outcomes)
