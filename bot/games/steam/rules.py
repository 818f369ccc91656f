"""Steam to Solar: the deal and what each action does to the state.

Rulings S1-S13 of ../shared/rules/RULINGS.md are the law here; docs/steam.md says how we read them.
The legal actions and their ids are in ``legal``; an id is applied only if it is
among them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.decktet import Card
from bot.games.protocol import GameError, IllegalAction
from bot.games.rng import SeededRandom
from bot.games.steam.arrange import ordered, split
from bot.games.steam.legal import POWER_LABEL, burn_of, cost_label, legal_actions, place_choices
from bot.games.steam.score import game_result
from bot.games.steam.state import (
    BY_CODE,
    DECK_CARDS,
    DECK_SUNNY,
    DECKS,
    DEFAULT_DECK,
    DEFAULT_LEVEL,
    LEVELS,
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    RIVER_COSTS,
    RIVER_SIZE,
    STEAM,
    Arranging,
    Placing,
    Player,
    Running,
    SteamState,
    can_run,
    goods_count,
    goods_points,
    label,
    powers,
)


@dataclass(frozen=True, slots=True)
class Setup:
    """The checked options of a new game."""

    names: list[str]
    start_seat: int | None = None
    deck: str = DEFAULT_DECK
    levels: tuple[str, ...] = ()
    people: tuple[int, ...] | None = None


def new_game(
    seed: int, names: list[str], start_seat: int | None, deck: str = DEFAULT_DECK,
    levels: Sequence[str] = (), people: Sequence[int] | None = None,
) -> SteamState:
    """Deal a new game (S1-S4): 36 cards shuffled, sunny cards aside, river of four.

    ``deck`` is the table's deck (S1: ``pawns`` or ``courts``); ``levels`` the computer
    level of each seat (default ``normal``), which the deal does not depend on; ``people``
    the seats people hold (default: every seat), the others computer players'.
    """
    seats = len(names)
    rng = SeededRandom(seed)
    sunny = DECK_SUNNY[deck]
    cards = [c for c in DECK_CARDS[deck] if c not in sunny]
    rng.shuffle(cards)
    start = rng.choice(list(range(seats))) if start_seat is None else start_seat
    players = [Player(name, level=levels[i] if i < len(levels) else DEFAULT_LEVEL,
                      person=people is None or i in people)
               for i, name in enumerate(names)]
    state = SteamState(
        rng=rng, players=players, deck=cards, river=[],
        discard=[], sunny=list(sunny), start=start, turn=start, deck_kind=deck,
    )
    _refill(state)
    return state


#: The options ``new`` takes (docs/steam.md, "Options").
OPTION_NAMES = ("names", "start_seat", "deck", "levels", "people")


def check_options(seats: int, options: Mapping[str, Any]) -> Setup:
    """Return the checked options of a new game; raise GameError if one is bad."""
    unknown = set(options) - set(OPTION_NAMES)
    if unknown:
        raise GameError(f"Steam to Solar has no option {sorted(unknown)[0]!r}.")
    if not 2 <= seats <= 5:
        raise GameError(f"Steam to Solar is for 2 to 5 players, not {seats}.")
    names = options.get("names") or [f"Seat {i + 1}" for i in range(seats)]
    if len(names) != seats or not all(isinstance(n, str) and n.strip() for n in names):
        raise GameError(f"Option 'names' needs {seats} non-empty names.")
    start = options.get("start_seat")
    if start is not None and (not isinstance(start, int) or not 0 <= start < seats):
        raise GameError(f"Option 'start_seat' must be a seat from 0 to {seats - 1}, or none.")
    deck = options.get("deck") or DEFAULT_DECK
    if deck not in DECKS:
        raise GameError(f"Option 'deck' must be one of {', '.join(DECKS)}, not {deck!r}.")
    people = options.get("people")
    if people is not None and (not isinstance(people, list | tuple) or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < seats
            for i in people)):
        raise GameError(f"Option 'people' must list seats from 0 to {seats - 1}.")
    return Setup([n.strip() for n in names], start, deck, _levels(seats, options.get("levels")),
                 None if people is None else tuple(people))


def _levels(seats: int, given: Any) -> tuple[str, ...]:
    """Option ``levels``: one computer level per seat, as a list or a text like
    ``"hard,normal"``; an empty entry or None means the default (``normal``). A shorter
    list leaves the seats after it at the default."""
    if given is None:
        return ()
    if isinstance(given, str):
        given = [part.strip() for part in given.split(",")]
    if not isinstance(given, list | tuple) or len(given) > seats:
        raise GameError(f"Option 'levels' needs at most {seats} levels, one per seat.")
    levels = []
    for level in given:
        level = (level or DEFAULT_LEVEL) if isinstance(level, str | None) else level
        if level not in LEVELS:
            raise GameError(
                f"Option 'levels': each level is one of {', '.join(LEVELS)}, not {level!r}."
            )
        levels.append(level)
    return tuple(levels)


def apply_action(
    state: SteamState, seat: int, action_id: str, events: list[str], check: bool = True
) -> None:
    """Apply a legal ``action_id`` for ``seat`` to ``state`` in place, noting ``events``.

    Raise IllegalAction (before changing anything) if the id is not legal now. Then
    resolve the forced steps that follow (a card with one possible place, a run with
    one power left), each with an event saying it happened by itself. ``check=False``
    skips the legality check, for ids known to be legal (the computer's own rollouts).
    """
    if check and action_id not in {a.id for a in legal_actions(state, seat)}:
        raise IllegalAction(_refusal(state, seat, action_id))
    player = state.players[seat]
    head, _, rest = action_id.partition(":")
    if head == "resign":
        _resign(state, seat, events)
    elif head in ("t1", "t2"):
        _take(state, seat, [int(p) - 1 for p in rest.split("+")], head == "t1", events)
    elif head == "p":
        _place(state, seat, rest.split(":")[1], events)
    elif head == "mv":
        code, dest = rest.split(":")
        _move(state, player, BY_CODE[code], dest)
    elif head == "ar":
        _arrange_all(state, seat, int(rest, 16), events)
    elif head == "d":
        _discard(state, player, BY_CODE[rest], events)
    elif head == "go":
        _run_whole(state, seat, rest, events)
    elif head in ("done", "pass"):
        if head == "pass":
            events.append(f"{player.name} has no move and passes.")
        else:
            events.append(f"{player.name} is done rearranging: {_trains_text(player)}.")
        _end_turn(state, seat, events)
    else:
        _run_step(state, seat, head, rest, events)
    _resolve_forced(state, events)


def _trains_text(player: Player) -> str:
    return "; ".join(
        f"train {i + 1} {', '.join(label(c) for c in t)}" for i, t in enumerate(player.trains)
    ) or "no trains"


def _resolve_forced(state: SteamState, events: list[str]) -> None:
    """Play the steps that have exactly one possible outcome, saying so in the events."""
    while not state.over:
        pending = state.pending
        player = state.players[state.turn]
        if isinstance(pending, Placing):
            dests = place_choices(player.trains)
            if len(dests) != 1:
                return
            _place(state, state.turn, dests[0], events, forced=True)
        elif isinstance(pending, Arranging):
            if len(pending.hand) != 1 or player.trains:
                return
            c = pending.hand.pop()
            player.trains.append([c])
            events.append(
                f"{label(c)} goes on a new train by itself: it is {player.name}'s only card."
            )
            _end_turn(state, state.turn, events)
        elif isinstance(pending, Running) and pending.power is None:
            kinds = powers(player.trains[pending.train])
            if len(kinds) != 1:
                return
            pending.power = kinds[0]
        else:
            return


def _refusal(state: SteamState, seat: int, action_id: str) -> str:
    if state.over:
        return "The game is over."
    if not 0 <= seat < len(state.players):
        return f"There is no seat {seat}."
    if state.players[seat].resigned:
        return "You have resigned from this game."
    if seat != state.turn:
        return f"It is {state.players[state.turn].name}'s turn."
    return f"That move ({action_id!r}) is not possible now."


def _take(
    state: SteamState, seat: int, positions: list[int], arrange: bool, events: list[str]
) -> None:
    player = state.players[seat]
    cost = sum(RIVER_COSTS[i] for i in positions)
    taken = [state.river[i] for i in positions]
    for i in sorted(positions, reverse=True):
        del state.river[i]
    player.score -= cost
    player.paid += cost
    names = " and ".join(label(c) for c in taken)
    events.append(f"{player.name} takes {names} ({cost_label(cost)}).")
    state.pending = Arranging(taken) if arrange else Placing(taken)
    _after_take(state, seat, events)


def _refill(state: SteamState) -> bool:
    """S4: fill the river to four from the deck; return whether it is full."""
    while len(state.river) < RIVER_SIZE and state.deck:
        state.river.append(state.deck.pop(0))
    return len(state.river) == RIVER_SIZE


def _after_take(state: SteamState, seat: int, events: list[str]) -> None:
    """S9 and S11: refill the river; if it cannot be filled, halve time or end the game."""
    if _refill(state):
        return
    if state.half == 1:
        state.deck = state.sunny + state.discard
        state.sunny, state.discard = [], []
        state.rng.shuffle(state.deck)
        state.half = 2
        _refill(state)
        nxt = state.players[state.seats_after(seat)[0]].name
        events.append(
            "The first half is over: the river cannot be refilled. The sunny cards and the discard "
            f"pile are the new deck; {nxt} starts the second half."
        )
    elif state.final is None:
        state.final = state.seats_after(seat)
        events.append(
            "The river cannot be refilled: final round. Everyone takes one more turn, ending with "
            f"{state.players[seat].name}."
        )


def _place(
    state: SteamState, seat: int, dest: str, events: list[str], forced: bool = False
) -> None:
    player = state.players[seat]
    pending = state.pending
    assert isinstance(pending, Placing)
    c = pending.cards.pop(0)
    if dest == "n":
        player.trains.append([c])
    else:
        player.trains[int(dest) - 1].append(c)
    where = "a new train" if dest == "n" else f"train {dest}"
    how = " (the only place for it)" if forced else ""
    events.append(f"{player.name} puts {label(c)} on {where}{how}.")
    if not pending.cards:
        _end_turn(state, seat, events)


def _move(state: SteamState, player: Player, c: Card, dest: str) -> None:
    """S6: move the taken card or a train card; sizes are checked only at done."""
    pending = state.pending
    assert isinstance(pending, Arranging)
    target = None if dest == "n" else player.trains[int(dest) - 1]
    if c in pending.hand:
        pending.hand.remove(c)
    else:
        source = next(t for t in player.trains if c in t)
        source.remove(c)
        if not source:
            player.trains.remove(source)
    if target is None:
        player.trains.append([c])
    else:
        target.append(c)


def _arrange_all(state: SteamState, seat: int, mask: int, events: list[str]) -> None:
    """S6: arrange the taken card and every train card as ``mask`` says, and end the turn."""
    player = state.players[seat]
    pending = state.pending
    assert isinstance(pending, Arranging)
    cards = [*pending.hand, *player.train_cards()]
    pending.hand.clear()
    player.trains = split(ordered(cards), mask)
    events.append(f"{player.name} arranges their trains: {_trains_text(player)}.")
    _end_turn(state, seat, events)


def _discard(state: SteamState, player: Player, c: Card, events: list[str]) -> None:
    """S7: discard a train card at any point of the turn; a run under way follows suit."""
    run = state.pending if isinstance(state.pending, Running) else None
    running = player.trains[run.train] if run is not None else None
    _discard_from_trains(state, player, c)
    events.append(f"{player.name} discards {label(c)}.")
    if run is None or running is None:
        return
    still = next((i for i, t in enumerate(player.trains) if t is running), None)
    if still is None or not can_run(running) or (
        run.power is not None and run.power not in powers(running)
    ):
        state.pending = None
        events.append(f"Train {run.train + 1} can no longer run that way: the run is called off.")
        return
    run.train = still
    run.ship = [x for x in run.ship if x != c]
    run.confirmed = False


def _discard_from_trains(state: SteamState, player: Player, c: Card) -> None:
    """S7: put a train card on the discard pile; a train left empty is gone."""
    for train in player.trains:
        if c in train:
            train.remove(c)
            state.discard.append(c)
            if not train:
                player.trains.remove(train)
            return


def whole_run_steps(action_id: str) -> list[str]:
    """S8: the steps a one-go run (``go:1:steam`` or ``go:1:steam:<card>``) stands for,
    in the order they are applied; a step the state resolves by itself (the only power,
    the only Wave card) is skipped when applied."""
    train, kind, *wave = action_id.removeprefix("go:").split(":")
    return [f"run:{train}", f"pw:{kind}", "all", *(f"wv:{w}" for w in wave)]


def _run_whole(state: SteamState, seat: int, rest: str, events: list[str]) -> None:
    """S8: run a train, choose its power and ship every goods card, as the steps would."""
    for step in whole_run_steps(f"go:{rest}"):
        if step.startswith("pw:") and isinstance(state.pending, Running) \
                and state.pending.power is not None:
            continue
        apply_action(state, seat, step, events)


def _run_step(state: SteamState, seat: int, head: str, rest: str, events: list[str]) -> None:
    player = state.players[seat]
    if head == "run":
        train = player.trains[int(rest) - 1]
        kinds = powers(train)
        state.pending = Running(int(rest) - 1, kinds[0] if len(kinds) == 1 else None)
        return
    run = state.pending
    assert isinstance(run, Running)
    train = player.trains[run.train]
    if head == "cancel":
        state.pending = None
    elif head == "pw":
        run.power = rest
    elif head == "sh":
        c = BY_CODE[rest]
        run.ship = [x for x in train if (x in run.ship) != (x == c)]
    elif head == "all":
        run.ship = [x for x in train if goods_count(x)]
        _confirm(state, seat, run, events)
    elif head == "wv":
        _ship(state, seat, run, BY_CODE[rest], events)
    else:
        _confirm(state, seat, run, events)


def _confirm(state: SteamState, seat: int, run: Running, events: list[str]) -> None:
    """S8: ship now, or ask for the Wave card to burn when steam has several."""
    assert run.power is not None
    burn, pick = burn_of(state.players[seat].trains[run.train], run.power, run.ship)
    if pick:
        run.confirmed = True
    else:
        _ship(state, seat, run, burn, events)


def _ship(
    state: SteamState, seat: int, run: Running, burn: Card | None, events: list[str]
) -> None:
    """S8, S10: score the shipment, discard shipped cards and the steam card, take tokens."""
    player = state.players[seat]
    assert run.power is not None
    train = player.trains[run.train]
    points = goods_points(run.ship)
    player.score += points
    player.scored += points
    gone = run.ship + ([burn] if burn is not None else [])
    for c in gone:
        train.remove(c)
        state.discard.append(c)
    if not train:
        player.trains.remove(train)
    shipped = ", ".join(label(c) for c in run.ship)
    events.append(
        f"{player.name} runs train {run.train + 1} on {POWER_LABEL[run.power]}, "
        f"ships {shipped} and scores {points}."
    )
    if burn is not None:
        events.append(f"{label(burn)} is burnt for steam.")
    if run.power == STEAM and state.half == 2 and state.two_stack != seat:
        if state.two_stack is not None:
            state.one_stack = state.two_stack
            loser = state.players[state.two_stack].name
            events.append(f"{loser} takes the Wave token stack of one.")
        state.two_stack = seat
        events.append(f"{player.name} takes the Wave token stack of two.")
    _end_turn(state, seat, events)


def _end_turn(state: SteamState, seat: int, events: list[str]) -> None:
    """End ``seat``'s turn: the next active seat acts, or the final round is done (S11)."""
    state.pending = None
    if state.final is None:
        state.turn = state.seats_after(seat)[0]
        return
    if state.final[:1] == [seat]:
        state.final.pop(0)
    _next_in_final_round(state, events)


def _next_in_final_round(state: SteamState, events: list[str]) -> None:
    assert state.final is not None
    if state.final:
        state.turn = state.final[0]
    else:
        _finish(state, events)


def _resign(state: SteamState, seat: int, events: list[str]) -> None:
    """A resigned player loses: trains and any cards in hand discarded.

    S10: Wave token stacks stay with the resigned player until someone takes them.
    """
    player = state.players[seat]
    player.resigned = True
    acting = seat == state.turn
    if acting:
        state.discard.extend(state.in_hand())
        state.pending = None
    for c in player.train_cards():
        state.discard.append(c)
    player.trains = []
    events.append(f"{player.name} resigns.")
    if state.final is not None and seat in state.final:
        state.final.remove(seat)
    if len(state.active()) < 2:
        _finish(state, events)
    elif not any(p.person and not p.resigned for p in state.players):
        events.append("Every person at the table has resigned: the game ends, the computer "
                      "players ranked by their points as they stand.")
        _finish(state, events)
    elif acting:
        if state.final is None:
            state.turn = state.seats_after(seat)[0]
        else:
            _next_in_final_round(state, events)


#: What the event of an arrangement cut to fit at the end says (after what is discarded).
FIT_WORDS = "the trains did not fit at the end"


def _finish(state: SteamState, events: list[str]) -> None:
    """End the game; cards still in hand (another seat resigned mid-take) are discarded,
    and so are the cards of an arrangement left unfinished that do not fit (S6: only a
    finished arrangement counts): past the fifth of a train, and trains past the second."""
    state.discard.extend(state.in_hand())
    if isinstance(state.pending, Arranging) and state.turn is not None:
        player = state.players[state.turn]
        kept = [train[:MAX_TRAIN_CARDS] for train in player.trains[:MAX_TRAINS]]
        cut = [card for i, train in enumerate(player.trains)
               for card in (train[MAX_TRAIN_CARDS:] if i < MAX_TRAINS else train)]
        if cut:
            state.discard.extend(cut)
            player.trains = kept
            # who and what first: a phone's footer shows the event's first line
            events.append(f"{player.name} discards {', '.join(label(c) for c in cut)}: "
                          f"{FIT_WORDS}.")
    state.over = True
    state.pending = None
    events.append(f"Game over. {game_result(state).summary}")
