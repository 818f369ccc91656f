"""Tinker, Sailor, Soldier, Spy: the solo Decktet adventure as a pure engine.

Rules: the published rule text as read by the project's rulings T1-T11; our own summary
is docs/tinker.md. The modules beside this one hold the state (``state``), the
rules (``rules``), the deal (``setup``) and the computer player
(``ai``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.decktet import DECK, SUITS, Card, Suit, card_json
from bot.games.protocol import Action, GameError, IllegalAction, OptionSpec, Outcome, Result, Step
from bot.games.tinker.ai import choose_action
from bot.games.tinker.rules import (
    apply_action,
    chips_left,
    legal_actions,
    legal_ids,
    running_sum,
)
from bot.games.tinker.setup import deal
from bot.games.tinker.state import (
    LOCATIONS,
    PERSONALITIES,
    SCHEMA_VERSION,
    Phase,
    TinkerState,
    dump_state,
    load_state,
    value,
)

#: Each card of the deck with what its view data is made of: name, rank, value, suits.
_CARD_DATA: dict[str, tuple[Card, str, str, int, tuple[str, ...]]] = {
    c.name: (c, c.name, c.rank.value, value(c), tuple(s.value for s in c.suits)) for c in DECK
}

#: Each suit's name, as the view writes it.
_SUIT_NAME: dict[Suit, str] = {s: s.value for s in SUITS}


def _card(c: Card) -> dict[str, object]:
    """Return ``c`` as view data, as :func:`~bot.games.decktet.card_json` with its value."""
    data = _CARD_DATA.get(c.name)
    if data is None or data[0] is not c:
        return card_json(c, value(c))
    _, name, rank, worth, suits = data
    return {"name": name, "rank": rank, "value": worth, "suits": list(suits)}


class TinkerEngine:
    """The engine object for Tinker, Sailor, Soldier, Spy (one seat, seat 0)."""

    kind = "tinker"
    title = "Tinker, Sailor, Soldier, Spy"
    schema_version = SCHEMA_VERSION
    min_seats = 1
    max_seats = 1
    options = (
        OptionSpec("classic_journey", "Origin on top of the locations and End at the bottom",
                   False, (False, True)),
        OptionSpec("harsh_defeat", "Lose one more chip of your choice with each lost fight",
                   False, (False, True)),
    )

    def new(
        self, seed: int, seats: int = 1, options: Mapping[str, Any] | None = None
    ) -> TinkerState:
        """Return a new game dealt from ``seed``, waiting for the first choice."""
        if seats != 1:
            raise GameError(f"{self.title} is played alone, not by {seats} seats.")
        chosen = {spec.name: spec.default for spec in self.options}
        for name, setting in (options or {}).items():
            if name not in chosen:
                raise GameError(f"{self.title} has no option {name!r}.")
            if not isinstance(setting, bool):
                raise GameError(f"Option {name!r} is true or false, not {setting!r}.")
            chosen[name] = setting
        return deal(seed, **chosen)

    def to_act(self, state: TinkerState) -> int | None:
        """Return 0 while the game runs, None once it is over."""
        return None if state.phase is Phase.OVER else 0

    def legal_actions(self, state: TinkerState, seat: int) -> list[Action]:
        """Return the player's choices now (none for any other seat or once over)."""
        return legal_actions(state) if seat == 0 else []

    def apply(self, state: TinkerState, seat: int, action_id: str) -> Step:
        """Apply ``action_id`` to a copy of ``state``; raise IllegalAction if not legal.

        A decision left with a single legal action then happens by itself, and so on,
        each said in the events ("... happened by itself").
        """
        if seat != 0:
            raise IllegalAction(f"{self.title} has one seat (seat 0), not seat {seat}.")
        new = state.copy()
        events: list[str] = []
        apply_action(new, action_id, events)
        while len(legal_ids(new)) == 1:
            forced = legal_actions(new)[0]
            events.append(f"{forced.label}: happened by itself (the only choice).")
            apply_action(new, forced.id, events)
        return Step(new, tuple(events))

    def view(self, state: TinkerState) -> dict[str, Any]:
        """Return the public board: piles, challenge, sum and chips (docs/tinker.md)."""
        result = self.result(state)
        challenge = state.challenge
        total = running_sum(state)
        return {
            "round": state.round,
            "phase": state.phase.value,
            "options": {"classic_journey": state.classic_journey,
                        "harsh_defeat": state.harsh_defeat},
            "offer": {"personality": _card(state.offer[0]), "event": _card(state.offer[1])}
            if state.offer else None,
            "challenge": _card(challenge) if challenge else None,
            "target": value(challenge) if challenge else None,
            "played": [_card(c) for c in state.played],
            "paid": [_SUIT_NAME[s] for s in state.paid],
            "sum": total,
            "chips": {_SUIT_NAME[s]: n for s, n in state.chips.items()},
            "spent_chips": {_SUIT_NAME[s]: n for s, n in state.spent.items()},
            "deck_count": len(state.deck),
            "deck_cards": [_card(c) for c in _sorted(state.deck)],
            "discard": [_card(c) for c in state.discard],
            "aces_left": len(state.aces),
            "personalities_left": len(state.personalities),
            # T3: which of round 1's choices this is (None in round 2)
            "offer_number": (len(PERSONALITIES) - len(state.personalities)
                             if state.round == 1 else None),
            "offers": len(PERSONALITIES),
            "events_left": len(state.events),
            "locations_left": len(state.locations),
            "aces_cards": [_card(c) for c in _sorted(state.aces)],
            "cleared": [_card(c) for c in state.cleared],
            "trashed": [_card(c) for c in state.trashed],
            "locations": {
                "cleared": [c.name for c in state.cleared],
                "trashed": [c.name for c in state.trashed if c.name in LOCATIONS],
                "remaining": _location_names(state),
            },
            "note": _note(state, total),
            "over": result is not None,
            "result": None if result is None else {
                "summary": result.summary,
                "outcomes": [{"seat": o.seat, "outcome": o.outcome, "score": o.score,
                              "detail": dict(o.detail)} for o in result.outcomes],
            },
        }

    def is_over(self, state: TinkerState) -> bool:
        """Return whether the game has ended (won or lost)."""
        return state.phase is Phase.OVER

    def result(self, state: TinkerState) -> Result | None:
        """Return win or loss with score = 100 per location cleared + chips left (T10)."""
        if state.phase is not Phase.OVER:
            return None
        cleared, chips = len(state.cleared), chips_left(state)
        if state.won:
            summary = (f"The world is saved: all {cleared} locations cleared, {chips} "
                       f"chip{'' if chips == 1 else 's'} left.")
        else:  # a location in round 2 is lost for want of a chip or of a card (T8)
            at = f" at the {state.challenge.name}" if state.challenge is not None else ""
            why = (f"nothing left to draw, {chips} chip{'' if chips == 1 else 's'} left"
                   if chips else
                   "no chip left to pay for a card")
            summary = (f"The journey failed{at}, {cleared} of {len(LOCATIONS)} locations "
                       f"cleared: {why}.")
        outcome = Outcome(
            seat=0,
            outcome="win" if state.won else "loss",
            score=cleared * 100 + chips,
            detail={"locations_cleared": cleared, "chips_left": chips},
        )
        return Result(summary, (outcome,))

    def dump(self, state: TinkerState) -> dict[str, Any]:
        """Return the state as compact JSON-able data (cards by name) with ``schema``."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> TinkerState:
        """Rebuild a state from :meth:`dump` output; raise BrokenState on bad data."""
        return load_state(data)

    def render_text(self, state: TinkerState) -> str:
        """Return the board as plain text for a terminal."""
        lines = [f"{self.title}: round {state.round} "
                 f"({'recruiting' if state.round == 1 else 'the journey'})"]
        if state.offer:
            personality, event = state.offer
            lines.append(f"On offer: {_name(personality)}  or  {_name(event)}")
        if state.challenge:
            lines.append(f"Challenge: {_name(state.challenge)}   sum {running_sum(state)} / "
                         f"{value(state.challenge)}")
            lines.append(f"Played: {', '.join(map(_name, state.played))}")
        chips = "  ".join(f"{s.emoji} {n}" for s, n in state.chips.items())
        lines.append(f"Chips: {chips}   ({chips_left(state)} left, "
                     f"{sum(state.spent.values())} spent)")
        lines.append(f"Deck: {len(state.deck)}   Aces left: {len(state.aces)}   "
                     f"Personalities: {len(state.personalities)}   "
                     f"Events: {len(state.events)}   Locations: {len(state.locations)}")
        lines.append("In the deck (order hidden): "
                     f"{', '.join(map(_name, _sorted(state.deck))) or '-'}")
        lines.append(f"Discard: {', '.join(map(_name, state.discard)) or '-'}")
        lines.append(f"Cleared: {', '.join(map(_name, state.cleared)) or '-'}")
        lines.append(f"Locations ahead (order hidden): {', '.join(_location_names(state)) or '-'}")
        lines.append(f"Trashed: {', '.join(c.name for c in state.trashed) or '-'}")
        note = _note(state, running_sum(state))
        if note:
            lines.append(note)
        if state.phase is Phase.OVER:
            lines.append("Game over: " + ("won." if state.won else "lost."))
        return "\n".join(lines)

    def computer_action(self, state: TinkerState, seat: int) -> str:
        """Return the heuristic's choice (see :mod:`bot.games.tinker.ai`)."""
        if seat != 0 or state.phase is Phase.OVER:
            raise IllegalAction(f"Seat {seat} has nothing to choose.")
        return choose_action(state)


def _name(c: Card) -> str:
    return c.label(value(c))


def _sorted(cards: list[Card]) -> list[Card]:
    """A face-down pile's contents in a fixed order (value, then name), never its own (T8)."""
    return sorted(cards, key=_order)


def _order(c: Card) -> tuple[int, str]:
    """The fixed order of :func:`_sorted`: value, then name."""
    return (value(c), c.name)


def _location_names(state: TinkerState) -> list[str]:
    """The locations still ahead, by name in alphabetical order (their order is hidden).

    With the classic journey (T2) the Origin is known to be first while it is still
    ahead, and the End last, so they are listed there.
    """
    names = sorted(c.name for c in state.locations)
    if state.classic_journey:
        for name, at in (("Origin", 0), ("End", len(names))):
            if name in names:
                names.remove(name)
                names.insert(at, name)
    return names


def _note(state: TinkerState, total: int) -> str:
    """What the next play does, in words, while a challenge needs more (T5, T6).

    ``total`` is the challenge's sum so far (:func:`~bot.games.tinker.rules.running_sum`).
    """
    if state.phase is not Phase.PLAY or state.challenge is None:
        return ""
    needed = value(state.challenge) - total
    return (f"Needs {needed} more. Each chip paid draws and plays the next card; a chip "
            "whose +1 alone reaches the target still draws its card.")


#: The engine the registry loads for kind "tinker".
ENGINE = TinkerEngine()
