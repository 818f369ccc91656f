"""Steam to Solar: the public view (JSON-able) and the plain-text board."""

from __future__ import annotations

from typing import Any

from bot.games.decktet import Card, card_json
from bot.games.steam.legal import POWER_LABEL, arrange_problem
from bot.games.steam.score import final_score, game_result, places
from bot.games.steam.state import (
    DECK_NAMES,
    DECK_SUNNY,
    POWER_EMOJI,
    RIVER_COSTS,
    THREE_SUITED,
    Arranging,
    Placing,
    Running,
    SteamState,
    goods_points,
    label,
)


def deck_text(kind: str) -> str:
    """S1, S2: say which deck a table plays and which of its cards are sunny, e.g. "The 36
    basic cards and the 4 Courts (Consul, Rite, Island, Window); set aside for the first
    half: Ace of Suns, Bard, Island, Window."."""
    three = ", ".join(c.name for c in THREE_SUITED[kind])
    sunny = ", ".join(c.name for c in DECK_SUNNY[kind])
    return (f"The 36 basic cards and {DECK_NAMES[kind]} ({three}); set aside for the first "
            f"half: {sunny}.")


def _cards(cards: list[Card]) -> list[dict[str, object]]:
    return [card_json(c) for c in cards]


def _pending_view(state: SteamState) -> dict[str, Any] | None:
    pending = state.pending
    if isinstance(pending, Placing):
        return {
            "kind": "place", "seat": state.turn, "cards": _cards(pending.cards),
            "rearrange": False,
        }
    if isinstance(pending, Arranging):
        problem = arrange_problem(state.players[state.turn], pending)
        return {
            "kind": "arrange", "seat": state.turn, "hand": _cards(pending.hand),
            "can_finish": problem is None, "problem": problem,
        }
    if isinstance(pending, Running):
        step = "power" if pending.power is None else "wave" if pending.confirmed else "ship"
        return {
            "kind": "run", "seat": state.turn, "train": pending.train + 1, "step": step,
            "power": pending.power, "ship": _cards(pending.ship),
            "points": goods_points(pending.ship),
        }
    return None


def view(state: SteamState) -> dict[str, Any]:
    """Return the public view: plain JSON-able data, what a board shows."""
    result = None
    if state.over:
        res = game_result(state)
        result = {
            "summary": res.summary,
            "outcomes": [
                {"seat": o.seat, "outcome": o.outcome, "score": o.score, "detail": dict(o.detail)}
                for o in res.outcomes
            ],
            "places": places(state),
        }
    still = still_to_play(state)
    return {
        "kind": "steam",
        "half": state.half,
        "deck_count": len(state.deck),
        "river": [{**card_json(c), "cost": RIVER_COSTS[i]} for i, c in enumerate(state.river)],
        "discard_count": len(state.discard),
        "discard": _cards(state.discard),
        "deck_kind": state.deck_kind,
        "deck_text": deck_text(state.deck_kind),
        "sunny_aside": _cards(state.sunny),
        "players": [
            {
                "seat": seat, "name": p.name, "score": p.score, "paid": p.paid,
                "scored": p.scored, "trains": [_cards(t) for t in p.trains],
                "tokens": state.tokens(seat), "goods_left": p.goods_left(),
                "resigned": p.resigned, "total": final_score(state, seat),
                "last_turn_left": seat in still,
            }
            for seat, p in enumerate(state.players)
        ],
        "turn": None if state.over else state.turn,
        "start_seat": state.start,
        "final_round": state.final is not None,
        "final_turns_left": list(state.final or []),
        "still_to_play": [state.players[seat].name for seat in still],
        "power_emoji": dict(POWER_EMOJI),
        "wave_stacks": {"two": state.two_stack, "one": state.one_stack},
        "pending": _pending_view(state),
        "over": state.over,
        "result": result,
    }


def still_to_play(state: SteamState) -> list[int]:
    """S11: in the final round, the seats still owed their last turn (the one acting first)."""
    if state.over or state.final is None:
        return []
    return list(state.final)


def _line(cards: list[Card]) -> str:
    return ", ".join(label(c) for c in cards) or "—"


def _pending_text(state: SteamState) -> str | None:
    name = state.players[state.turn].name
    pending = state.pending
    if isinstance(pending, Placing):
        return f"{name} is placing {_line(pending.cards)}."
    if isinstance(pending, Arranging):
        problem = arrange_problem(state.players[state.turn], pending)
        return f"{name} is rearranging their trains" + (f" ({problem})." if problem else ".")
    if isinstance(pending, Running):
        power = "choosing power" if pending.power is None else POWER_LABEL[pending.power]
        return (
            f"{name} is running train {pending.train + 1} ({power}); shipping "
            f"{_line(pending.ship)} for {goods_points(pending.ship)}."
        )
    return None


def render_text(state: SteamState) -> str:
    """Return the board as plain text for the terminal."""
    half = "first half" if state.half == 1 else "second half"
    lines = [
        f"Steam to Solar — {half} · deck {len(state.deck)} · discard {len(state.discard)}",
        f"Deck: {deck_text(state.deck_kind)}",
    ]
    if state.sunny:
        lines.append(f"Sunny cards aside: {_line(state.sunny)}")
    if state.discard:
        lines.append(f"Discard pile (first discarded first): {_line(state.discard)}")
    river = "  ".join(
        f"[{i + 1}] {label(c)} ({RIVER_COSTS[i]})" for i, c in enumerate(state.river)
    )
    lines.append(f"River (cost): {river or 'empty'}")
    if state.half == 2:
        two = "—" if state.two_stack is None else state.players[state.two_stack].name
        one = "—" if state.one_stack is None else state.players[state.one_stack].name
        lines.append(f"Wave tokens: stack of two {two}, stack of one {one}")
    for seat, p in enumerate(state.players):
        mark = ">" if seat == state.turn and not state.over else " "
        out = " (resigned)" if p.resigned else ""
        lines.append(
            f"{mark} {p.name}{out}: {p.score} points · Wave tokens {state.tokens(seat)} "
            f"· total {final_score(state, seat)} · goods left {p.goods_left()}"
        )
        lines.extend(f"    train {i + 1}: {_line(t)}" for i, t in enumerate(p.trains))
    if state.over:
        lines.append(f"Game over. {game_result(state).summary}")
        lines.extend(f"  {row['ordinal']} {row['name']}: {row['breakdown']}"
                     for row in places(state))
        return "\n".join(lines)
    if state.final is not None:
        left = ", ".join(state.players[s].name for s in still_to_play(state))
        lines.append(f"Final round: still to play {left}")
    doing = _pending_text(state)
    if doing:
        lines.append(doing)
    return "\n".join(lines)
