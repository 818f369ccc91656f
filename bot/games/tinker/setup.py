"""Tinker, Sailor, Soldier, Spy: dealing a new game (T2), or one in a chosen order.

:func:`arranged` builds a game whose piles are in an order you pick, for tests and for
reproducing a position by hand (the worked example of T11 is one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.games.decktet import DECK, SUITS, Card, card
from bot.games.rng import SeededRandom
from bot.games.tinker.rules import begin
from bot.games.tinker.state import (
    ACES,
    CHIPS_PER_SUIT,
    COMPANY,
    EVENTS,
    LOCATIONS,
    PERSONALITIES,
    TinkerState,
)


def deal(seed: int, *, classic_journey: bool = False, harsh_defeat: bool = False) -> TinkerState:
    """Deal a new game from ``seed`` (T2) and reveal the first offer (T3)."""
    rng = SeededRandom(seed)
    piles: list[list[Card]] = []
    for names in (COMPANY, PERSONALITIES, EVENTS, ACES):
        pile = [card(n) for n in names]
        rng.shuffle(pile)
        piles.append(pile)
    if classic_journey:
        middle = [card(n) for n in LOCATIONS if n not in ("Origin", "End")]
        rng.shuffle(middle)
        locations = [card("Origin"), *middle, card("End")]
    else:
        locations = [card(n) for n in LOCATIONS]
        rng.shuffle(locations)
    deck, personalities, events, aces = piles
    state = TinkerState(
        rng=rng,
        classic_journey=classic_journey,
        harsh_defeat=harsh_defeat,
        deck=deck,
        personalities=personalities,
        events=events,
        aces=aces,
        locations=locations,
    )
    begin(state, [])
    return state


def arranged(
    *,
    deck: Sequence[str],
    personalities: Sequence[str] = (),
    events: Sequence[str] = (),
    aces: Sequence[str] = (),
    locations: Sequence[str] = (),
    discard: Sequence[str] = (),
    cleared: Sequence[str] = (),
    trashed: Sequence[str] = (),
    chips: Mapping[str, int] | None = None,
    round: int = 1,
    seed: int = 0,
    harsh_defeat: bool = False,
) -> TinkerState:
    """Build a game with piles in a chosen order (top card first), then start it.

    ``deck``, ``discard``, ``cleared`` and ``trashed`` are given in full. The personality,
    event, Ace and location piles start with the cards given, followed by the rest of
    their T2 cards (in the order of the card list) that are not placed elsewhere; in
    ``round`` 2 those rests of the personality and event piles are trashed instead.
    ``chips`` maps suit names to the chips held (default 6 each; the rest count as
    spent). Later shuffles use ``seed``. The game then begins as usual: the first offer
    is revealed, or in round 2 the first location is faced and its free card played.
    Raise ValueError unless every card is in exactly one place.
    """
    full = {"deck": deck, "discard": discard, "cleared": cleared}
    tops = {"personalities": (personalities, PERSONALITIES), "events": (events, EVENTS),
            "aces": (aces, ACES), "locations": (locations, LOCATIONS)}
    placed = {n for names in (deck, discard, cleared, trashed) for n in names}
    placed |= {n for top, _ in tops.values() for n in top}
    extra_trash: list[str] = []
    piles = {pile: [card(n) for n in names] for pile, names in full.items()}
    for pile, (top, home) in tops.items():
        rest = [n for n in home if n not in placed]
        if round == 2 and pile in ("personalities", "events"):
            extra_trash.extend(rest)
            rest = []
        piles[pile] = [card(n) for n in (*top, *rest)]
    held = {s: CHIPS_PER_SUIT for s in SUITS} if chips is None else {
        s: int(chips.get(s.value, 0)) for s in SUITS
    }
    state = TinkerState(
        rng=SeededRandom(seed),
        harsh_defeat=harsh_defeat,
        round=round,
        trashed=[card(n) for n in (*trashed, *extra_trash)],
        chips=held,
        spent={s: CHIPS_PER_SUIT - held[s] for s in SUITS},
        deck=piles["deck"], discard=piles["discard"], cleared=piles["cleared"],
        personalities=piles["personalities"], events=piles["events"], aces=piles["aces"],
        locations=piles["locations"],
    )
    names = [c.name for pile in state.places().values() for c in pile]
    if sorted(names) != sorted(c.name for c in DECK):
        twice = sorted({n for n in names if names.count(n) > 1})
        missing = sorted({c.name for c in DECK} - set(names))
        raise ValueError(f"every card must be in one place; twice: {twice}, missing: {missing}")
    begin(state, [])
    return state
