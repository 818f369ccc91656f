"""Steam to Solar: final scores, the tie-break and the result (S12, resignations)."""

from __future__ import annotations

from bot.games.protocol import Outcome, Result
from bot.games.steam.state import SteamState

#: S12: points each Wave token adds to the final score.
TOKEN_POINTS = 2


def final_score(state: SteamState, seat: int) -> int:
    """S12: the seat's points plus 2 per Wave token."""
    return state.players[seat].score + TOKEN_POINTS * state.tokens(seat)


def winners(state: SteamState) -> list[int]:
    """S12: best final score among players still in; ties by goods left; else shared."""
    def rank(seat: int) -> tuple[int, int]:
        return final_score(state, seat), state.players[seat].goods_left()

    active = state.active()
    best = max(rank(seat) for seat in active)
    return [seat for seat in active if rank(seat) == best]


def game_result(state: SteamState) -> Result:
    """Return the result of a finished game: one outcome per seat and a summary."""
    wins = winners(state)
    names = [state.players[s].name for s in wins]
    top = final_score(state, wins[0])
    if len(state.active()) == 1:
        summary = f"{names[0]} wins: everyone else resigned."
    elif len(wins) == 1:
        summary = f"{names[0]} wins with {top}."
    else:
        summary = f"{', '.join(names[:-1])} and {names[-1]} share the win with {top}."
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
