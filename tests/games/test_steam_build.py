"""A helper that builds Steam to Solar states from chosen cards, and its own tests.

``build`` is imported by the other steam test modules to set up hand-built positions.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from bot.games.decktet import Card, card
from bot.games.protocol import BrokenState
from bot.games.rng import SeededRandom
from bot.games.steam.engine import ENGINE
from bot.games.steam.state import DECK_CARDS, DECK_SUNNY, PAWNS, Player, SteamState


def build(
    seats: int = 2,
    *,
    river: Sequence[str] = (),
    trains: Sequence[Sequence[Sequence[str]]] = (),
    deck: Sequence[str] | None = None,
    discard: Sequence[str] = (),
    half: int = 1,
    scores: Sequence[int] | None = None,
    turn: int = 0,
    final: list[int] | None = None,
    two_stack: int | None = None,
    one_stack: int | None = None,
    seed: int = 0,
    deck_kind: str = PAWNS,
    levels: Sequence[str] = (),
) -> SteamState:
    """Build a legal state from card names.

    - ``river``: position 1 first. ``trains[seat]`` is that seat's trains.
    - ``deck``: top first. When None, every card not placed elsewhere goes to the deck
      (in the project's card order); when given, the unplaced cards go to the discard.
    - In the first half the sunny cards are set aside unless placed elsewhere (then the
      set-aside pile is empty and they count as placed); in the second half nothing is.
    - ``scores``: each seat's points (default 5), booked as paid or scored so that
      5 - paid + scored = points holds.
    - ``deck_kind``: the table's deck (S1: ``pawns`` or ``courts``); ``levels`` each
      seat's computer level (default ``normal``).
    The state goes through dump and load, so an impossible build fails loudly.
    """
    players = []
    for seat in range(seats):
        points = 5 if scores is None else scores[seat]
        names = trains[seat] if seat < len(trains) else []
        players.append(Player(
            name=f"P{seat}", score=points, paid=max(0, 5 - points), scored=max(0, points - 5),
            trains=[[card(n) for n in t] for t in names],
            **({"level": levels[seat]} if seat < len(levels) else {}),
        ))
    placed = {c.name for p in players for c in p.train_cards()}
    placed |= set(river) | set(discard) | set(deck or ())
    all_sunny = DECK_SUNNY[deck_kind]
    sunny = [c for c in all_sunny if c.name not in placed] if half == 1 else []
    if half == 1 and len(sunny) < len(all_sunny):
        sunny = []
    placed |= {c.name for c in sunny}
    rest = [c for c in DECK_CARDS[deck_kind] if c.name not in placed]
    state = SteamState(
        rng=SeededRandom(seed),
        players=players,
        deck=rest if deck is None else [card(n) for n in deck],
        river=[card(n) for n in river],
        discard=[card(n) for n in discard] + ([] if deck is None else rest),
        sunny=sunny,
        start=0,
        turn=turn,
        half=half,
        final=final,
        two_stack=two_stack,
        one_stack=one_stack,
        deck_kind=deck_kind,
    )
    return ENGINE.load(ENGINE.dump(state))


def restart(state: SteamState) -> SteamState:
    """Save the state as JSON text and load it back, as a bot restart would."""
    data = ENGINE.dump(state)
    loaded = ENGINE.load(json.loads(json.dumps(data)))
    assert ENGINE.dump(loaded) == data
    return loaded


def play(state: SteamState, seat: int, *action_ids: str) -> tuple[SteamState, list[str]]:
    """Apply ``action_ids`` for ``seat`` in order, restarting from a save after each.

    Returns the final state and every event. Each step checks that apply left its input
    untouched and that the saved state loads back identical.
    """
    events: list[str] = []
    for action_id in action_ids:
        before = ENGINE.dump(state)
        step = ENGINE.apply(state, seat, action_id)
        assert ENGINE.dump(state) == before
        events.extend(step.events)
        state = restart(step.state)
    return state, events


def ids(state: SteamState, seat: int | None = None) -> list[str]:
    """Return the legal action ids of ``seat`` (default: the seat to act)."""
    return [a.id for a in ENGINE.legal_actions(state, state.turn if seat is None else seat)]


def names(cards: Sequence[Card]) -> list[str]:
    """Return the names of ``cards``."""
    return [c.name for c in cards]


def test_build_places_every_card_once():
    """The helper puts the cards not named into the deck, sunny cards aside."""
    state = build(river=["Mill", "Forest"], trains=[[["Journey", "Savage"]]])
    assert [c.name for c in state.river] == ["Mill", "Forest"]
    assert len(state.sunny) == 4
    assert len(state.deck) == 40 - 4 - 4


def test_build_rejects_a_card_twice():
    """Naming a card in two places is caught by the load checks."""
    with pytest.raises(BrokenState, match="exactly one place"):
        build(river=["Mill"], discard=["Mill"])
