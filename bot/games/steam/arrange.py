"""Steam to Solar: the arrangements of a take one and rearrange (S6).

After taking one card, the player arranges the taken card and every card of their
trains into at most 2 trains of at most 5 cards. An arrangement is named by a *mask*
over the cards in the project's card order: bit ``i`` set puts the ``i``-th card in
train 1, the others form train 2. The first card is always in train 1, so every
arrangement has exactly one mask, whatever the trains' order on the table.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import lru_cache

from bot.games.decktet import Card, Suit
from bot.games.steam.state import ALL_CARDS, MAX_TRAIN_CARDS, MAX_TRAINS, Trains, goods_points

_ORDER: dict[str, int] = {c.name: i for i, c in enumerate(ALL_CARDS)}
#: How many suggested arrangements a take one offers.
SUGGESTIONS = 3


def ordered(cards: Iterable[Card]) -> list[Card]:
    """Return ``cards`` in the project's card order."""
    return sorted(cards, key=lambda c: _ORDER[c.name])


def split(cards: list[Card], mask: int) -> Trains:
    """Return the trains of ``mask`` over ``cards`` (already in card order)."""
    one = [c for i, c in enumerate(cards) if mask >> i & 1]
    two = [c for i, c in enumerate(cards) if not mask >> i & 1]
    return [t for t in (one, two) if t]


def mask_of(trains: Trains) -> int:
    """Return the mask naming ``trains`` (at most 2 trains)."""
    cards = ordered(c for t in trains for c in t)
    if not cards:
        return 0
    first = next(t for t in trains if cards[0] in t)
    return sum(1 << i for i, c in enumerate(cards) if c in first)


def arrangements(cards: Iterable[Card]) -> Iterator[tuple[int, Trains]]:
    """Every arrangement of ``cards`` within the limits, as (mask, trains)."""
    order = ordered(cards)
    n = len(order)
    if n > MAX_TRAINS * MAX_TRAIN_CARDS:
        return
    if n == 0:
        yield 0, []
        return
    for mask in range(1, 1 << n, 2):
        size = mask.bit_count()
        if size <= MAX_TRAIN_CARDS and n - size <= MAX_TRAIN_CARDS:
            yield mask, split(order, mask)


def promise(train: list[Card]) -> float:
    """A plain guess of a train's worth: its goods, less when it lacks Moon or power."""
    suits = {s for c in train for s in c.suits}
    missing = (Suit.MOONS not in suits) + (not suits & {Suit.WAVES, Suit.SUNS})
    return goods_points(train) * (1.0, 0.5, 0.25)[missing] + 0.5 * (Suit.SUNS in suits)


@lru_cache(maxsize=4096)
def _suggested(cards: tuple[Card, ...]) -> tuple[int, ...]:
    scored = sorted(
        ((-sum(promise(t) for t in trains), mask) for mask, trains in arrangements(cards)),
    )
    return tuple(mask for _, mask in scored[:SUGGESTIONS])


def suggested(cards: Iterable[Card]) -> list[int]:
    """Return the masks of the best few arrangements of ``cards`` by :func:`promise`."""
    return list(_suggested(tuple(ordered(cards))))
