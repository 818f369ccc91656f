"""Steam to Solar: the first computer player, kept to measure the current one against.

``bench/steam_ai.py`` plays it against :mod:`bot.games.steam.ai`. It follows today's
rules (a take one places its card, then moves within the limits), with the strategy it
had before: it looks one turn ahead. Every way to finish the current turn (each take with each
placement, each run with each choice of power, goods and Wave card) is scored with
:func:`_worth`: points in hand, plus the Wave tokens, plus what the trains promise:
the goods sets they could ship (3 and 4 of a kind score more), discounted when the
train still lacks its Moon or power, and shrinking as the game nears its end (on the
last turn only points count). The same evaluation drives every pending step, so the
player keeps to the plan it chose at the start of the turn, one click at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from bot.games.decktet import Card, Suit
from bot.games.steam.legal import legal_actions
from bot.games.steam.score import TOKEN_POINTS
from bot.games.steam.state import (
    ALL_CARDS,
    BY_CODE,
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    RIVER_COSTS,
    RIVER_SIZE,
    STEAM,
    Arranging,
    Placing,
    Running,
    SteamState,
    card_code,
    goods_count,
    goods_points,
    powers,
    room,
)

Trains = list[list[Card]]

#: Per card name: (Moon, Sun, Wave, Leaves, Wyrms, Knots) as 0/1.
_FEATURES: dict[str, tuple[int, ...]] = {
    c.name: tuple(int(s in c.suits) for s in
                  (Suit.MOONS, Suit.SUNS, Suit.WAVES, Suit.LEAVES, Suit.WYRMS, Suit.KNOTS))
    for c in ALL_CARDS
}
#: Share of a train's goods value counted, by how many of Moon and power it lacks.
_READINESS = (0.9, 0.55, 0.3)
#: Turns left as far as the first half can tell (the second half is still to come).
_FIRST_HALF_TURNS = 12
#: Cards a turn takes from the deck on average (to guess how many turns are left).
_CARDS_PER_TURN = 1.6
#: How many of the cheapest train cards are tried as a discard to make room.
_DISCARD_TRIES = 3
#: How many rearranging moves the plan looks at, at most.
_ARRANGE_STEPS = 6


def _train_value(train: list[Card], future: int) -> float:
    """What a train promises with ``future`` turns left after this one."""
    moon = sun = wave = leaves = wyrms = knots = 0
    for c in train:
        m, s, w, lf, wy, kn = _FEATURES[c.name]
        moon |= m
        sun |= s
        wave |= w
        leaves += lf
        wyrms += wy
        knots += kn
    goods = leaves + wyrms + knots
    if future == 0:
        return 0.01 * goods
    sets = sum(n + max(0, n - 2) for n in (leaves, wyrms, knots))
    missing = (not moon) + (not (sun or wave))
    if missing and future < 2:
        return 0.01 * goods
    engine = min(1.0, (future - 1) / 3) * (0.8 * moon + 1.2 * sun + 0.4 * wave)
    return _READINESS[missing] * sets + engine


def _trains_value(trains: Trains, future: int) -> float:
    values = [_train_value(t, future) for t in trains]
    return (max(values) if future == 1 else sum(values)) if values else 0.0


def _future_turns(state: SteamState, seat: int, taking: int = 0) -> int:
    """Guess how many turns ``seat`` gets after this one (taking ``taking`` cards now)."""
    if state.final is not None:
        return 1 if seat in state.final and state.final[0] != seat else 0
    if state.half == 1:
        return _FIRST_HALF_TURNS
    needed = RIVER_SIZE - len(state.river) + taking
    if len(state.deck) < needed:
        return 1
    return 1 + int((len(state.deck) - needed) / (_CARDS_PER_TURN * len(state.active())))


def _token_weight(future: int) -> float:
    return 1.0 if future == 0 else 0.6


def _worth(points: int, tokens: int, trains: Trains, future: int) -> float:
    """The evaluation: points, tokens as points, and the trains' promise."""
    return points + TOKEN_POINTS * tokens * _token_weight(future) + _trains_value(trains, future)


def _placements(trains: Trains, cards: list[Card]) -> Iterator[Trains]:
    """Every way to place ``cards`` in order on the trains (S5 limits)."""
    if not cards:
        yield trains
        return
    c, rest = cards[0], cards[1:]
    for i, t in enumerate(trains):
        if len(t) < MAX_TRAIN_CARDS:
            yield from _placements([*trains[:i], [*t, c], *trains[i + 1:]], rest)
    if len(trains) < MAX_TRAINS:
        yield from _placements([*trains, [c]], rest)


def _moves(trains: Trains) -> Iterator[tuple[str, Trains]]:
    """Every single rearranging move (S6) as (action id, trains after)."""
    for i, t in enumerate(trains):
        for c in t:
            left = [x for x in t if x is not c]
            for j, other in enumerate(trains):
                if j != i and len(other) < MAX_TRAIN_CARDS:
                    after = [[*o, c] if k == j else (left if k == i else o)
                             for k, o in enumerate(trains)]
                    yield f"mv:{card_code(c)}:{j + 1}", [x for x in after if x]
            if len(trains) < MAX_TRAINS and len(t) > 1:
                after = [left if k == i else o for k, o in enumerate(trains)]
                yield f"mv:{card_code(c)}:n", [*after, [c]]


def _arranged(trains: Trains, future: int) -> float:
    """The value of ``trains`` after greedy improving moves."""
    best = _trains_value(trains, future)
    for _ in range(_ARRANGE_STEPS):
        step = max(((_trains_value(t, future), t) for _, t in _moves(trains)),
                   key=lambda vt: vt[0], default=None)
        if step is None or step[0] <= best + 1e-9:
            break
        best, trains = step
    return best


def _take_worth(state: SteamState, seat: int, action_id: str, trains: Trains) -> float:
    """The best result of a take (``t2:..`` or ``t1:..``) onto ``trains``."""
    head, _, rest = action_id.partition(":")
    positions = [int(p) - 1 for p in rest.split("+")]
    cards = [state.river[i] for i in positions]
    points = state.players[seat].score - sum(RIVER_COSTS[i] for i in positions)
    future = _future_turns(state, seat, len(cards))
    base = points + TOKEN_POINTS * state.tokens(seat) * _token_weight(future)
    if head == "t2":
        return base + max(_trains_value(t, future) for t in _placements(trains, cards))
    placed = max(_placements(trains, cards), key=lambda t: _trains_value(t, future))
    return base + _arranged(placed, future)


def _runs(state: SteamState, seat: int, index: int, only: str | None = None
          ) -> Iterator[tuple[float, str, list[Card], Card | None]]:
    """Every way to run train ``index``: (worth, power, cards shipped, Wave card burnt)."""
    player = state.players[seat]
    train = player.trains[index]
    future = _future_turns(state, seat)
    waves = [c for c in train if Suit.WAVES in c.suits]
    goods = [c for c in train if goods_count(c)]
    for power in powers(train):
        if only is not None and power != only:
            continue
        steam_tokens = 2 if state.half == 2 and power == STEAM else state.tokens(seat)
        for size in range(1, len(goods) + 1):
            for ship in combinations(goods, size):
                covered = power != STEAM or any(Suit.WAVES in c.suits for c in ship)
                for burn in [None] if covered else waves:
                    gone = [*ship, burn] if burn is not None else list(ship)
                    left = [c for c in train if c not in gone]
                    trains = [left if k == index else t for k, t in enumerate(player.trains)]
                    worth = _worth(player.score + goods_points(ship), steam_tokens,
                                   [t for t in trains if t], future)
                    yield worth, power, list(ship), burn


def _best_run(state: SteamState, seat: int, index: int, only: str | None = None
              ) -> tuple[float, str, list[Card], Card | None]:
    return max(_runs(state, seat, index, only), key=lambda r: r[0])


def _start_choice(state: SteamState, seat: int, ids: list[str]) -> str:
    player = state.players[seat]
    future = _future_turns(state, seat)
    options: list[tuple[float, str]] = []
    for aid in ids:
        head, _, rest = aid.partition(":")
        if head == "t1" and room(player.trains) < 1:
            continue
        if head in ("t1", "t2"):
            options.append((_take_worth(state, seat, aid, player.trains), aid))
        elif head == "run":
            options.append((_best_run(state, seat, int(rest) - 1)[0], aid))
        elif head == "pass":
            options.append((_worth(player.score, state.tokens(seat), player.trains, future), aid))
    if state.river and room(player.trains) < 2:
        options.extend(_discard_options(state, seat))
    return max(options, key=lambda o: o[0])[1]


def _discard_options(state: SteamState, seat: int) -> list[tuple[float, str]]:
    """Discards that make room for a take, worth the best take afterwards (less a hair)."""
    trains = state.players[seat].trains
    future = _future_turns(state, seat)

    def without(c: Card) -> Trains:
        return [t for t in ([x for x in tr if x is not c] for tr in trains) if t]

    cheapest = sorted((c for t in trains for c in t),
                      key=lambda c: -_trains_value(without(c), future))[:_DISCARD_TRIES]
    river = len(state.river)
    options = []
    for c in cheapest:
        after = without(c)
        takes = [f"t1:{i + 1}" for i in range(river)
                 if RIVER_COSTS[i] <= state.players[seat].score]
        if room(after) >= 2:
            takes += [f"t2:{i + 1}+{j + 1}" for i, j in combinations(range(river), 2)
                      if RIVER_COSTS[i] + RIVER_COSTS[j] <= state.players[seat].score]
        worth = max(_take_worth(state, seat, t, after) for t in takes)
        options.append((worth - 0.01, f"d:{card_code(c)}"))
    return options


def _place_choice(
    state: SteamState, seat: int, ids: list[str], cards: list[Card], arrange: bool
) -> str:
    trains = state.players[seat].trains
    future = _future_turns(state, seat)
    c, rest = cards[0], cards[1:]
    options = []
    prefix = ("mv:" if arrange else "p:") + card_code(c) + ":"
    for aid in ids:
        if not aid.startswith(prefix):
            continue
        dest = aid.rsplit(":", 1)[1]
        if dest != "n" and len(trains[int(dest) - 1]) >= MAX_TRAIN_CARDS:
            continue
        placed = [*trains, [c]] if dest == "n" else [
            [*t, c] if k == int(dest) - 1 else t for k, t in enumerate(trains)
        ]
        if arrange:
            worth = _arranged(placed, future)
        else:
            worth = max(_trains_value(t, future) for t in _placements(placed, rest))
        options.append((worth, aid))
    return max(options, key=lambda o: o[0])[1]


def _arrange_choice(state: SteamState, seat: int, ids: list[str], pending: Arranging) -> str:
    if pending.hand:
        return _place_choice(state, seat, ids, pending.hand, True)
    trains = state.players[seat].trains
    future = _future_turns(state, seat)
    best, choice = _trains_value(trains, future) + 1e-9, "done"
    for aid, after in _moves(trains):
        worth = _trains_value(after, future)
        if worth > best:
            best, choice = worth, aid
    return choice


def _run_choice(state: SteamState, seat: int, ids: list[str]) -> str:
    run = state.pending
    assert isinstance(run, Running)
    if run.power is None:
        return max((aid for aid in ids if aid.startswith("pw:")),
                   key=lambda aid: _best_run(state, seat, run.train, aid[3:])[0])
    if run.confirmed:
        burns = {b.name: w for w, _, ship, b in _runs(state, seat, run.train, run.power)
                 if b is not None and ship == run.ship}
        return max((aid for aid in ids if aid.startswith("wv:")),
                   key=lambda aid: burns[BY_CODE[aid[3:]].name])
    _, _, target, _ = _best_run(state, seat, run.train, run.power)
    for c in state.players[seat].trains[run.train]:
        if (c in target) != (c in run.ship):
            return f"sh:{card_code(c)}"
    return "ship"


def choose_action(state: SteamState, seat: int) -> str:
    """Return the first computer player's action id for ``seat``, the seat to act."""
    ids = [a.id for a in legal_actions(state, seat)]
    pending = state.pending
    if pending is None:
        return _start_choice(state, seat, ids)
    if isinstance(pending, Placing):
        return _place_choice(state, seat, ids, pending.cards, False)
    if isinstance(pending, Arranging):
        return _arrange_choice(state, seat, ids, pending)
    return _run_choice(state, seat, ids)
