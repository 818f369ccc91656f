"""Tinker, Sailor, Soldier, Spy: the rules that move cards and chips (rulings T1-T10).

Every function here works on a state the caller owns (a copy) and appends the events it
causes, short sentences for the players, to ``events``.
"""

from __future__ import annotations

from functools import lru_cache

from bot.games.decktet import SUITS, Card, Suit
from bot.games.protocol import MAX_LABEL, Action, IllegalAction
from bot.games.tinker.state import LOCATIONS, Phase, TinkerState, value

CHOOSE_PERSONALITY = "choose:personality"
CHOOSE_EVENT = "choose:event"
GIVE_UP = "give_up"
CHIP_PREFIX = "chip:"
LOSE_PREFIX = "lose:"


def card_points(played: Card, challenge: Card) -> int:
    """Return what a played card adds (T4): its whole value once if it shares a suit."""
    return value(played) if played.shares_suit(challenge) else 0


def chip_points(suit: Suit, challenge: Card) -> int:
    """Return what a chip adds (T4): 1 if its suit is one of the challenge card's."""
    return 1 if challenge.has(suit) else 0


def running_sum(state: TinkerState) -> int:
    """Return the sum of the current challenge (T4), 0 when no challenge is under way.

    The same sum as :func:`card_points` of every played card plus :func:`chip_points` of
    every paid chip, with the challenge card's suits looked up once.
    """
    challenge = state.challenge
    if challenge is None:
        return 0
    suits = challenge.suits
    cards = sum(value(c) for c in state.played if any(s in suits for s in c.suits))
    return cards + sum(1 for s in state.paid if s in suits)


def chips_left(state: TinkerState) -> int:
    """Return how many chips the player still holds."""
    return sum(state.chips.values())


def can_draw(state: TinkerState) -> bool:
    """Return whether a card could be drawn now (T8: deck, else an Ace and the discard)."""
    return bool(state.deck or state.aces or state.discard)


def begin(state: TinkerState, events: list[str]) -> None:
    """Start what comes next: the next offer, round 2, the next location, or the win."""
    if state.round == 1 and state.personalities and state.events:
        state.offer = [state.personalities.pop(0), state.events.pop(0)]
        state.phase = Phase.CHOOSE
        personality, event = state.offer
        events.append(f"On offer: {_label(personality)} or {_label(event)}.")
        return
    if state.round == 1:
        state.round = 2
        events.append("Round 2: the journey begins.")
    if not state.locations:
        _end(state, events, won=True)
        return
    state.challenge = state.locations.pop(0)
    events.append(f"Location: {_label(state.challenge)}.")
    _play_next(state, events)


def legal_actions(state: TinkerState) -> list[Action]:
    """Return the actions open to the player (seat 0) in ``state``.

    Labels stay within :data:`MAX_LABEL`; the description says what the choice does.
    """
    phase = state.phase
    if phase is Phase.PLAY:
        challenge = state.challenge
        assert challenge is not None
        needed = value(challenge) - running_sum(state)
        actions = [_chip_action(challenge, s, n, needed) for s, n in state.chips.items() if n]
        if state.round == 1:
            actions.append(_give_up_action(challenge))
        return actions
    if phase is Phase.CHOOSE:
        personality, event = state.offer
        return [
            _choose_action(CHOOSE_PERSONALITY, personality, event),
            _choose_action(CHOOSE_EVENT, event, personality),
        ]
    if phase is Phase.LOSE_CHIP:
        return [_lose_action(s, n) for s, n in state.chips.items() if n]
    return []


def legal_ids(state: TinkerState) -> list[str]:
    """Return the ids of :func:`legal_actions`, in the same order, without their labels
    (what checking a move and finding a forced one need)."""
    phase = state.phase
    if phase is Phase.PLAY:
        ids = [f"{CHIP_PREFIX}{s.value}" for s, n in state.chips.items() if n]
        if state.round == 1:
            ids.append(GIVE_UP)
        return ids
    if phase is Phase.CHOOSE:
        return [CHOOSE_PERSONALITY, CHOOSE_EVENT]
    if phase is Phase.LOSE_CHIP:
        return [f"{LOSE_PREFIX}{s.value}" for s, n in state.chips.items() if n]
    return []


def _fit(label: str) -> str:
    """Cut a label to :data:`MAX_LABEL` characters."""
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


# The actions below are built from cards, suits and counts only, and an Action cannot
# change: each is made once and handed out again whenever the same choice comes back.

#: How many different actions of each kind are kept (a game meets a few hundred).
_KEPT_ACTIONS = 4096


@lru_cache(maxsize=_KEPT_ACTIONS)
def _choose_action(action_id: str, chosen: Card, other: Card) -> Action:
    """Challenge ``chosen``; ``other`` is trashed (T3)."""
    return Action(
        action_id,
        _fit(f"Challenge {_label(chosen)}"),
        "choose",
        f"Target {value(chosen)}; the {other.name} is trashed. Your first card is played "
        "for free.",
    )


@lru_cache(maxsize=_KEPT_ACTIONS)
def _chip_action(challenge: Card, suit: Suit, held: int, needed: int) -> Action:
    """Pay one chip of ``suit``: "🌙 +1, draws" when it counts for the challenge (T4, T5).

    ``held`` is how many chips of ``suit`` are left, ``needed`` what the challenge still
    needs to reach its target.
    """
    point = chip_points(suit, challenge)
    label = f"{suit.emoji} +1, draws" if point else f"{suit.emoji} draws"
    if point and needed <= 1:
        effect = (f"this chip alone reaches the target ({needed} needed), and it still draws "
                  "and plays the next card")
    elif point:
        effect = f"+1 for the {suit.value} chip, then the next card is drawn and played"
    else:
        effect = (f"{suit.value} is not a suit of the {challenge.name}: +0, the next "
                  "card is drawn and played")
    return Action(
        f"{CHIP_PREFIX}{suit.value}", label, "chip",
        f"Pay a {suit.value} chip ({held} left, gone for good): {effect}.",
    )


@lru_cache(maxsize=_KEPT_ACTIONS)
def _give_up_action(challenge: Card) -> Action:
    """Give up a round 1 ``challenge`` (T7)."""
    return Action(
        GIVE_UP, _fit(f"Give up the {challenge.name}"), "give_up",
        f"Trash the {challenge.name}; the played cards go to your discard pile, "
        "spent chips stay spent.",
    )


@lru_cache(maxsize=_KEPT_ACTIONS)
def _lose_action(suit: Suit, held: int) -> Action:
    """Harsh defeat: lose one chip of ``suit``, of which ``held`` are left (T7)."""
    return Action(f"{LOSE_PREFIX}{suit.value}", f"Lose a {suit.emoji} chip (of {held})",
                  "lose", f"Harsh defeat: one {suit.value} chip is lost with the fight.")


def apply_action(state: TinkerState, action_id: str, events: list[str]) -> None:
    """Apply a legal ``action_id`` to ``state``; raise IllegalAction, explaining, if not."""
    if action_id not in legal_ids(state):
        raise IllegalAction(_why_illegal(state, action_id))
    if action_id in (CHOOSE_PERSONALITY, CHOOSE_EVENT):
        _choose(state, 0 if action_id == CHOOSE_PERSONALITY else 1, events)
    elif action_id == GIVE_UP:
        assert state.challenge is not None
        events.append(f"Gave up the {state.challenge.name}.")
        _lose_challenge(state, events)
    elif action_id.startswith(CHIP_PREFIX):
        _pay_chip(state, Suit(action_id.removeprefix(CHIP_PREFIX)), events)
    else:
        suit = Suit(action_id.removeprefix(LOSE_PREFIX))
        state.chips[suit] -= 1
        state.spent[suit] += 1
        events.append(f"Lost a {suit.emoji} chip with the fight.")
        begin(state, events)


def _why_illegal(state: TinkerState, action_id: str) -> str:
    if state.phase is Phase.OVER:
        return "The game is over."
    for prefix in (CHIP_PREFIX, LOSE_PREFIX):
        name = action_id.removeprefix(prefix)
        if action_id.startswith(prefix) and name in {s.value for s in SUITS}:
            if state.chips[Suit(name)] == 0:
                return f"No {Suit(name).emoji} {name} chips left."
            return f"You cannot {'pay' if prefix == CHIP_PREFIX else 'lose'} a chip now."
    if action_id == GIVE_UP and state.round == 2:
        return "Locations cannot be given up."
    if action_id in (CHOOSE_PERSONALITY, CHOOSE_EVENT, GIVE_UP):
        return f"{action_id!r} is not possible now."
    return f"Unknown action {action_id!r}."


def _choose(state: TinkerState, index: int, events: list[str]) -> None:
    chosen, other = state.offer[index], state.offer[1 - index]
    state.offer = []
    state.trashed.append(other)
    state.challenge = chosen
    events.append(f"Challenged {_label(chosen)}; trashed the {other.name}.")
    _play_next(state, events)


def _pay_chip(state: TinkerState, suit: Suit, events: list[str]) -> None:
    assert state.challenge is not None
    state.chips[suit] -= 1
    state.spent[suit] += 1
    state.paid.append(suit)
    total, target = running_sum(state), value(state.challenge)
    events.append(f"Paid a {suit.emoji} chip: {total} / {target}")
    if total >= target:
        events.append("The chip alone reaches the target; a chip always comes with a card, "
                      "so the next card is still drawn and played.")
    _play_next(state, events)


def _draw(state: TinkerState, events: list[str]) -> Card | None:
    """Draw the top card of the deck, first refilling an empty deck (T8)."""
    if not state.deck:
        if state.aces:
            ace = state.aces.pop(0)
            state.discard.append(ace)
            events.append(f"Weariness: the {ace.name} joins the discard pile.")
        if state.discard:
            state.deck, state.discard = state.discard, []
            state.rng.shuffle(state.deck)
            events.append(f"Shuffled the discard pile into a new deck of {len(state.deck)}.")
    return state.deck.pop(0) if state.deck else None


def _play_next(state: TinkerState, events: list[str]) -> None:
    """Draw and play the next card, then see where the challenge stands (T5, T6)."""
    assert state.challenge is not None
    drawn = _draw(state, events)
    if drawn is None:
        _nothing_to_draw(state, events)
        return
    state.played.append(drawn)
    total, target = running_sum(state), value(state.challenge)
    events.append(f"Played {_label(drawn)}: {total} / {target}")
    if total >= target:
        _beat(state, events)
    elif state.round == 2 and not chips_left(state):
        events.append("No chip left to pay for the next card.")
        _end(state, events, won=False)
    elif not can_draw(state):
        _nothing_to_draw(state, events)
    else:
        state.phase = Phase.PLAY


def _nothing_to_draw(state: TinkerState, events: list[str]) -> None:
    """The challenge needs a card and none can be drawn (T8): round 1 lost, round 2 over."""
    assert state.challenge is not None
    events.append("Nothing left to draw.")
    if state.round == 1:
        events.append(f"Lost the {state.challenge.name}.")
        _lose_challenge(state, events)
    else:
        _end(state, events, won=False)


def _beat(state: TinkerState, events: list[str]) -> None:
    """The challenge is won (T6); move on to what comes next."""
    assert state.challenge is not None
    if state.round == 1:
        events.append(f"Beat the {state.challenge.name}!")
        state.discard.append(state.challenge)
    else:
        state.cleared.append(state.challenge)
        events.append(
            f"Cleared the {state.challenge.name}! ({len(state.cleared)} / {len(LOCATIONS)})"
        )
    state.discard.extend(state.played)
    state.challenge, state.played, state.paid = None, [], []
    begin(state, events)


def _lose_challenge(state: TinkerState, events: list[str]) -> None:
    """A round 1 challenge is lost (T7): trash it, keep the played cards, maybe lose a chip."""
    assert state.challenge is not None
    state.trashed.append(state.challenge)
    state.discard.extend(state.played)
    state.challenge, state.played, state.paid = None, [], []
    if state.harsh_defeat and chips_left(state):
        state.phase = Phase.LOSE_CHIP
        events.append("Harsh defeat: choose a chip to lose.")
        return
    begin(state, events)


def _end(state: TinkerState, events: list[str], *, won: bool) -> None:
    state.phase = Phase.OVER
    state.won = won
    events.append("The world is free of evil!" if won else "The journey ends here.")


def _label(c: Card) -> str:
    return c.label(value(c))
