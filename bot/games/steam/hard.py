"""Steam to Solar: the Hard computer player, Normal plus endgame rollouts.

Normal (``ai``) plays the end from two guesses: how many turns are left (from the deck's
size) and one round of the Wave token race. Those guesses are its weak point near the end
trigger (S11): a take that ends the game a round early, a steam run that hands the stack
of two back to a rival who runs after it. Hard replaces the guesses by playing the end
out.

In the second half, once the deck holds :data:`ENDGAME_DECK` cards or fewer, at each of
its decisions it tries a few choices: at the start of a turn Normal's best start moves
(takes, runs, pass, the discards that make room), later in the turn each place for the
card being placed, each power, each Wave card to burn, and the one-click alternatives
to Normal's own choice (a suggested plan, shipping every goods card). It plays each
choice out over the same few orders of the deck, with the Normal player in every seat
(its own included) to the end of the game, and picks the choice with the best average
result: its share of the win, plus a little for its margin over the best other player.
Before the endgame Hard is Normal, click for click.

Only public information goes in. The deck's order is never looked at: the orders tried
are shuffles of the deck's *contents*, which every player can work out (the 40 cards
less the river, the trains, the discard pile and the cards in hand), taken in the
project's card order and shuffled by a random source of their own. That source is seeded
from the state's seed and draw count with a tag of its own, so it never replays a shuffle
of the game, and a decision is the same every time it is asked for: Hard is
deterministic. When the deck has no more orders than that, every one is tried (with 4
orders: a deck of 2 cards or fewer; a deck of 3 has 6).
"""

from __future__ import annotations

import random
from itertools import permutations
from math import factorial

from bot.games.decktet import Card
from bot.games.rng import SeededRandom
from bot.games.steam import ai
from bot.games.steam.legal import legal_actions
from bot.games.steam.rules import apply_action
from bot.games.steam.score import final_score, winners
from bot.games.steam.state import Arranging, Placing, SteamState

#: The endgame: the second half with at most this many cards in the deck.
ENDGAME_DECK = 6
#: Orders of the deck tried per decision (fewer when the deck has fewer orders).
SAMPLES = 4
#: At most this many of Normal's best start moves are played out (the rest are rarely
#: close; the cut keeps a decision within its time).
CANDIDATES = 6
#: Weight of the final margin (points over the best other player) beside the win share.
MARGIN_WEIGHT = 0.02
#: A game played out never takes more steps than this (a guard; games end far sooner).
MAX_STEPS = 2_000


def in_endgame(state: SteamState) -> bool:
    """Whether Hard plays the end out here: the second half with a deck of 6 or fewer."""
    return not state.over and state.half == 2 and len(state.deck) <= ENDGAME_DECK


def candidates(state: SteamState, seat: int) -> list[str]:
    """The choices Hard plays out now: at the start of a turn Normal's best few start
    moves; later in the turn each place for the card being placed, each power, each
    Wave card to burn, and beside Normal's own choice the one-click alternatives (a
    suggested plan, shipping every goods card)."""
    if state.pending is None:
        return [aid for _, aid in ai.start_options(state, seat)[:CANDIDATES]]
    normal = ai.choose_action(state, seat)
    ids = [a.id for a in legal_actions(state, seat)]
    if isinstance(state.pending, Placing):
        others = [a for a in ids if a.startswith("p:")]
    elif isinstance(state.pending, Arranging):
        others = [a for a in ids if a.startswith("ar:")]
    else:
        others = [a for a in ids if a.startswith(("pw:", "wv:")) or a == "all"]
    return [normal, *(a for a in others if a != normal)][:CANDIDATES]


def public_deck(state: SteamState) -> list[Card]:
    """The deck's contents as every player can work them out, in the project's card order:
    the table's 40 cards less every card in sight or in hand (never the deck itself)."""
    seen = {c.name for c in (*state.river, *state.discard, *state.sunny, *state.in_hand())}
    seen.update(c.name for p in state.players for c in p.train_cards())
    return [c for c in state.cards if c.name not in seen]


def rollout_seed(state: SteamState, seat: int) -> str:
    """The seed of the orders Hard tries, derived from the state's SeededRandom (its seed
    and draw count) with a tag no draw of the game uses."""
    return f"{state.rng.seed}/{state.rng.draws}/hard-rollouts/{seat}"


def sample_orders(cards: list[Card], seed: str, samples: int | None = None
                  ) -> list[list[Card]]:
    """Orders of ``cards`` to play out: every one when there are at most ``samples``
    (default :data:`SAMPLES`), else ``samples`` shuffles from ``seed``."""
    samples = SAMPLES if samples is None else samples
    if factorial(len(cards)) <= samples:
        return [list(order) for order in permutations(cards)]
    sampler = random.Random(seed)
    orders = []
    for _ in range(samples):
        order = list(cards)
        sampler.shuffle(order)
        orders.append(order)
    return orders


def outcome(state: SteamState, seat: int) -> float:
    """A finished game's worth to ``seat``: its share of the win plus a little for its
    margin over the best other player (S12)."""
    won = winners(state)
    share = 1 / len(won) if seat in won else 0.0
    others = [final_score(state, s) for s in state.active() if s != seat]
    margin = final_score(state, seat) - max(others, default=0)
    return share + MARGIN_WEIGHT * margin


def play_out(state: SteamState, seat: int, action_id: str, order: list[Card]) -> float:
    """Play ``action_id`` for ``seat`` with the deck in ``order``, then the game to its
    end with Normal in every seat; return :func:`outcome` for ``seat``."""
    game = state.copy()
    game.deck = list(order)
    game.rng = SeededRandom(0)  # the second half shuffles nothing; no game draw is reused
    events: list[str] = []
    apply_action(game, seat, action_id, events, check=False)
    for _ in range(MAX_STEPS):
        if game.over:
            break
        acting = game.turn
        apply_action(game, acting, ai.choose_action(game, acting), events, check=False)
        events.clear()
    return outcome(game, seat)


def choose_action(state: SteamState, seat: int, seed: str | None = None) -> str:
    """Return the Hard computer player's action id for ``seat``, the seat to act.

    ``seed`` is the seed of the orders tried (default :func:`rollout_seed`).
    """
    if not in_endgame(state):
        return ai.choose_action(state, seat)
    choices = candidates(state, seat)
    if len(choices) == 1:
        return choices[0]
    orders = sample_orders(public_deck(state), seed or rollout_seed(state, seat))
    best, best_value = choices[0], float("-inf")
    for aid in choices:
        value = sum(play_out(state, seat, aid, order) for order in orders) / len(orders)
        if value > best_value:
            best, best_value = aid, value
    return best
