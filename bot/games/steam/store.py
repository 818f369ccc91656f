"""Steam to Solar: the state as compact JSON (cards by name) and back, with checks.

Schema 3 (now) adds the table's deck (``deck_kind``: ``pawns`` or ``courts``, S1) and
each player's computer level (``level``: ``easy``, ``normal`` or ``hard``). Schema 2 saves, made
before either existed, load as the Pawns with every seat at ``normal``, exactly as that
code played them. Since schema 2 the taken card of a take one waits in hand while
arranging; schema 1 saves (which placed it first) load into the same steps.

Loading checks everything a bad save could get wrong (every card of the deck's 40 in
exactly one place, the train limits, the points sum) and raises BrokenState when it is
wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.games.decktet import Card
from bot.games.protocol import BrokenState
from bot.games.rng import SeededRandom
from bot.games.steam.state import (
    ALL_CARDS,
    DECK_CARDS,
    DECK_SUNNY,
    DECKS,
    DEFAULT_DECK,
    DEFAULT_LEVEL,
    LEVELS,
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    RIVER_SIZE,
    SCHEMA_VERSION,
    START_POINTS,
    Arranging,
    Pending,
    Placing,
    Player,
    Running,
    SteamState,
    can_run,
    powers,
)

_BY_NAME: dict[str, Card] = {c.name: c for c in ALL_CARDS}
#: Schemas that load (1 and 2 as the Pawns, every seat at the default level).
_SCHEMAS = (1, 2, SCHEMA_VERSION)


def _names(cards: list[Card]) -> list[str]:
    return [c.name for c in cards]


def _dump_pending(pending: Pending | None) -> dict[str, Any] | None:
    if isinstance(pending, Placing):
        return {"kind": "place", "cards": _names(pending.cards)}
    if isinstance(pending, Arranging):
        return {"kind": "arrange", "hand": _names(pending.hand)}
    if isinstance(pending, Running):
        return {
            "kind": "run", "train": pending.train, "power": pending.power,
            "ship": _names(pending.ship), "confirmed": pending.confirmed,
        }
    return None


def dump_state(state: SteamState) -> dict[str, Any]:
    """Return the state as compact JSON-able data carrying ``schema``."""
    return {
        "schema": SCHEMA_VERSION,
        "deck_kind": state.deck_kind,
        "rng": state.rng.to_json(),
        "half": state.half,
        "start": state.start,
        "turn": state.turn,
        "deck": _names(state.deck),
        "river": _names(state.river),
        "discard": _names(state.discard),
        "sunny": _names(state.sunny),
        "final": None if state.final is None else list(state.final),
        "tokens": [state.two_stack, state.one_stack],
        "over": state.over,
        "players": [
            {
                "name": p.name, "score": p.score, "paid": p.paid, "scored": p.scored,
                "trains": [_names(t) for t in p.trains], "resigned": p.resigned,
                "level": p.level,
                **({} if p.person else {"person": False}),
            }
            for p in state.players
        ],
        "pending": _dump_pending(state.pending),
    }


def _cards(data: Any) -> list[Card]:
    if not isinstance(data, list):
        raise BrokenState(f"expected a list of card names, got {data!r}")
    try:
        return [_BY_NAME[name] for name in data]
    except (KeyError, TypeError):
        raise BrokenState(f"unknown card in {data!r}") from None


def _int(data: Any, low: int, high: int, what: str) -> int:
    if not isinstance(data, int) or isinstance(data, bool) or not low <= data <= high:
        raise BrokenState(f"{what} must be a whole number from {low} to {high}, not {data!r}")
    return data


def _seat_or_none(data: Any, seats: int, what: str) -> int | None:
    return None if data is None else _int(data, 0, seats - 1, what)


def _load_player(data: Mapping[str, Any], schema: int) -> Player:
    name = data["name"]
    if not isinstance(name, str) or not name:
        raise BrokenState(f"a player's name must be a non-empty text, not {name!r}")
    trains = [_cards(t) for t in data["trains"]]
    if len(trains) > MAX_TRAINS or any(not t for t in trains):
        raise BrokenState(f"{name} has trains outside the limits")
    player = Player(
        name=name,
        score=_int(data["score"], 0, 10_000, "score"),
        paid=_int(data["paid"], 0, 10_000, "paid"),
        scored=_int(data["scored"], 0, 10_000, "scored"),
        trains=trains,
        resigned=bool(data["resigned"]),
        level=data["level"] if schema >= 3 else DEFAULT_LEVEL,
        person=data.get("person", True) is not False,
    )
    if player.level not in LEVELS:
        raise BrokenState(f"{name}'s computer level {player.level!r} is unknown")
    if player.score != START_POINTS - player.paid + player.scored:
        raise BrokenState(f"{name}'s points do not add up")
    return player


def _load_pending(data: Any, state: SteamState, schema: int) -> Pending | None:
    if data is None:
        return None
    kind = data["kind"]
    if kind == "place":
        cards = _cards(data["cards"])
        if not cards:
            raise BrokenState("nothing left to place")
        if schema == 1 and data["arrange"]:
            # Schema 1 placed the card of a take one before rearranging; now it waits
            # in hand while arranging (S6 as revised).
            return Arranging(cards)
        return Placing(cards)
    if kind == "arrange":
        return Arranging(_cards(data.get("hand", [])) if schema > 1 else [])
    if kind == "run":
        trains = state.players[state.turn].trains
        index = _int(data["train"], 0, len(trains) - 1, "run train")
        train = trains[index]
        power = data["power"]
        ship = _cards(data["ship"])
        confirmed = bool(data["confirmed"])
        if not can_run(train) or power not in (None, *powers(train)):
            raise BrokenState("the train under way cannot run that way")
        if any(c not in train for c in ship) or (confirmed and (power is None or not ship)):
            raise BrokenState("the shipment is not on the train")
        return Running(index, power, ship, confirmed)
    raise BrokenState(f"unknown pending step {kind!r}")


def _check_cards(state: SteamState) -> None:
    places = [state.deck, state.river, state.discard, state.sunny]
    places += [p.train_cards() for p in state.players]
    places.append(state.in_hand())
    names = [c.name for place in places for c in place]
    cards = DECK_CARDS[state.deck_kind]
    if len(names) != len(cards) or set(names) != {c.name for c in cards}:
        raise BrokenState(
            f"the 40 cards of the {state.deck_kind} deck are not each in exactly one place")
    if len(state.river) > RIVER_SIZE:
        raise BrokenState("the river holds more than four cards")
    sunny = {c.name for c in DECK_SUNNY[state.deck_kind]}
    if state.sunny and (state.half != 1 or {c.name for c in state.sunny} != sunny):
        raise BrokenState("only the four sunny cards are set aside, in the first half")


def _check_limits(state: SteamState) -> None:
    """Train limits hold, except for the player arranging (S6) or when a game ended so."""
    for seat, player in enumerate(state.players):
        loose = seat == state.turn and (isinstance(state.pending, Arranging) or state.over)
        if not loose and any(len(t) > MAX_TRAIN_CARDS for t in player.trains):
            raise BrokenState(f"{player.name} has trains outside the limits")
        if player.resigned and player.trains:
            raise BrokenState(f"{player.name} resigned but still has trains")


def _check_turns(state: SteamState) -> None:
    active = state.active()
    if not state.over and (state.turn not in active or len(active) < 2):
        raise BrokenState("the seat to act is not in the game")
    if state.over and state.pending is not None:
        raise BrokenState("a finished game has an action under way")
    final = state.final or []
    if len(set(final)) != len(final) or not set(final) <= set(active):
        raise BrokenState("the final round lists seats that cannot play")


def load_state(data: Mapping[str, Any]) -> SteamState:
    """Rebuild a state from :func:`dump_state` output; raise BrokenState on bad data."""
    try:
        schema = data.get("schema")
        if schema not in _SCHEMAS:
            raise BrokenState(f"unknown Steam to Solar schema {schema!r}")
        deck_kind = data["deck_kind"] if schema >= 3 else DEFAULT_DECK
        if deck_kind not in DECKS:
            raise BrokenState(f"unknown Steam to Solar deck {deck_kind!r}")
        players = [_load_player(p, schema) for p in data["players"]]
        seats = _int(len(players), 2, 5, "number of players")
        seed, draws = data["rng"]
        final = data["final"]
        two, one = data["tokens"]
        state = SteamState(
            rng=SeededRandom(_int(seed, -(2**63), 2**63, "seed"), _int(draws, 0, 10**9, "draws")),
            players=players,
            deck=_cards(data["deck"]),
            river=_cards(data["river"]),
            discard=_cards(data["discard"]),
            sunny=_cards(data["sunny"]),
            start=_int(data["start"], 0, seats - 1, "start seat"),
            turn=_int(data["turn"], 0, seats - 1, "turn"),
            half=_int(data["half"], 1, 2, "half"),
            final=None if final is None else [_int(s, 0, seats - 1, "final seat") for s in final],
            two_stack=_seat_or_none(two, seats, "stack of two"),
            one_stack=_seat_or_none(one, seats, "stack of one"),
            over=bool(data["over"]),
            deck_kind=deck_kind,
        )
        state.pending = _load_pending(data["pending"], state, schema)
    except BrokenState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise BrokenState(f"bad Steam to Solar data: {exc!r}") from None
    _check_cards(state)
    _check_limits(state)
    _check_turns(state)
    return state
