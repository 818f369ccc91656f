"""Steam to Solar: the computer player.

It looks at every way to finish the current turn (each take with each placement or
arrangement, each run with each choice of power, goods and Wave card, discards that
make room) and scores the result against the best opponent: its own points, Wave
tokens and what its trains promise, less the same for the strongest other player.

Two things decide most games near their end, and it plans for both:

- **The token race (S10).** When the remaining turns are known (the final round, or a
  take that triggers it), it plays the race out: in turn order, each player with a
  train ready to run on steam is expected to run it, and the stacks move as the rule
  says. Taking the stack of two from the leader counts twice: 4 for it, 2 less for them.
- **The end trigger (S11).** A take that the river cannot refill ends the game after one
  more turn each, the trigger's own turn last. It weighs that against playing on, with
  the opponents' last turn (their best ready train) and its own.

At a table of two, before the end is in sight, it also counts what it leaves the
rival: each river card is worth what it would add to their trains, a card still to come
from the deck what an unseen card adds on average (the unseen cards are those in no
river, train, discard pile or sunny set aside), and the rival's best take from the
river left, less its cost (S4), counts against the choice. Taking the card the rival's
train lacks denies it.

It uses only what a player knows: the deck's size, never its order or its cards.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from bot.games.decktet import Card, Suit
from bot.games.steam.arrange import mask_of, ordered, split
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
    Trains,
    card_code,
    goods_count,
    goods_points,
    powers,
    room,
)

Stacks = tuple[int | None, int | None]

#: Per card name, its Moon, Sun, Wave, Leaf, Wyrm and Knot symbols packed 4 bits each,
#: so that the sum over a train's cards counts each symbol.
_PACK: dict[str, int] = {
    c.name: sum(1 << (4 * k) for k, suit in enumerate(
        (Suit.MOONS, Suit.SUNS, Suit.WAVES, Suit.LEAVES, Suit.WYRMS, Suit.KNOTS))
        if suit in c.suits)
    for c in ALL_CARDS
}
#: Share of a train's goods value counted, by how many of Moon and power it lacks.
_READINESS = (0.9, 0.55, 0.3)
#: Turns left as far as the first half can tell (the second half is still to come).
_FIRST_HALF_TURNS = 12
#: Cards a turn takes from the deck on average (to guess how many turns are left).
_CARDS_PER_TURN = 1.6
#: The same guess at a table of two, deliberately high: planning for a shorter game
#: there makes it complete and run its trains sooner, which wins more two-player games
#: (measured with bench/steam_ai.py; at bigger tables the plain average does better).
_CARDS_PER_TURN_TWO = 3.0
#: Chance that a player with a train ready for steam runs it on a known last turn.
_LAST_STEAM = 0.9
#: Rounds of the token race played out while the end is not yet in sight.
_RACE_ROUNDS = 1
#: Chance per turn of a steam run, with a steam train ready or still to build.
_RUN_READY = 0.45
_RUN_LATER = 0.15
#: Share of the rival's best gain from the river left to them that counts against a
#: choice at a table of two (taking what they need denies it to them). At bigger tables
#: a card denied to the next player helps the others as much, so it is not counted.
_DENY = 1.0
#: How many of the cheapest train cards are tried as a discard to make room.
_DISCARD_TRIES = 3
#: How many cards with the fewest goods are tried as the one to drop from 11 (S6).
_DROP_TRIES = 4


@lru_cache(maxsize=16384)
def _packed_value(packed: int, future: int) -> float:
    """What a train with the symbols ``packed`` promises with ``future`` turns left."""
    moon, sun, wave, leaves, wyrms, knots = ((packed >> (4 * k)) & 15 for k in range(6))
    goods = leaves + wyrms + knots
    if future == 0:
        return 0.01 * goods
    sets = sum(n + max(0, n - 2) for n in (leaves, wyrms, knots))
    missing = (not moon) + (not (sun or wave))
    if missing and future < 2:
        return 0.01 * goods
    engine = min(1.0, (future - 1) / 3) * (0.8 * (moon > 0) + 1.2 * (sun > 0) + 0.4 * (wave > 0))
    return _READINESS[missing] * sets + engine


def _train_value(train: list[Card], future: int) -> float:
    """What a train promises with ``future`` turns left after this one."""
    return _packed_value(sum(_PACK[c.name] for c in train), future)


def _trains_value(trains: Trains, future: int) -> float:
    values = [_train_value(t, future) for t in trains]
    return (max(values) if future == 1 else sum(values)) if values else 0.0


def steam_ready(trains: Trains) -> bool:
    """Whether one of the trains can run on steam now (Moon, Wave and goods)."""
    for t in trains:
        packed = sum(_PACK[c.name] for c in t)
        if packed & 0xF and packed & 0xF00 and packed & 0xFFF000:
            return True
    return False


def best_run_points(trains: Trains) -> int:
    """The most a single run of one of the trains could score now."""
    best = 0
    for t in trains:
        feats = {s for c in t for s in c.suits}
        if Suit.MOONS in feats and feats & {Suit.WAVES, Suit.SUNS}:
            best = max(best, goods_points([c for c in t if goods_count(c)]))
    return best


def race(order: list[int], stacks: Stacks, chance: dict[int, float]) -> dict[int, float]:
    """S10 played out: expected Wave tokens per seat after ``order`` takes its turns.

    Each seat in ``order`` runs on steam with probability ``chance[seat]``.
    """
    outcomes: dict[Stacks, float] = {stacks: 1.0}
    for seat in order:
        p = chance.get(seat, 0.0)
        if p <= 0:
            continue
        nxt: dict[Stacks, float] = {}
        for (two, one), q in outcomes.items():
            ran = (seat, one if two in (None, seat) else two)
            nxt[ran] = nxt.get(ran, 0.0) + q * p
            if p < 1:
                nxt[(two, one)] = nxt.get((two, one), 0.0) + q * (1 - p)
        outcomes = nxt
    tokens: dict[int, float] = {}
    for (two, one), q in outcomes.items():
        if two is not None:
            tokens[two] = tokens.get(two, 0.0) + 2 * q
        if one is not None:
            tokens[one] = tokens.get(one, 0.0) + q
    return tokens


@dataclass
class _Context:
    """What the evaluation needs, worked out once per decision from public facts."""

    state: SteamState
    seat: int
    future: int
    rivals: list[int]
    rivals_in_order: list[int] = field(default_factory=list)
    last_turn: bool = False
    after: list[int] = field(default_factory=list)
    chance: dict[int, float] = field(default_factory=dict)
    rival_last: dict[int, float] = field(default_factory=dict)
    rival_far: dict[int, float] = field(default_factory=dict)
    running: dict[int, float] = field(default_factory=dict)
    cache: dict[tuple[Stacks, bool, bool], dict[int, float]] = field(default_factory=dict)
    rival: int | None = None
    gains: dict[str, float] = field(default_factory=dict)
    unseen_gain: float = 0.0


def _context(state: SteamState, seat: int) -> _Context:
    rivals = [s for s in state.active() if s != seat]
    ctx = _Context(state, seat, _future_turns(state, seat), rivals)
    ctx.rivals_in_order = [s for s in state.seats_after(seat) if s != seat]
    ctx.last_turn = state.final is not None
    if state.final is not None:
        ctx.after = [s for s in state.final if s != seat]
    for s in rivals:
        trains = state.players[s].trains
        ready = steam_ready(trains)
        ctx.chance[s] = _LAST_STEAM if state.half == 2 and ready else 0.0
        ctx.running[s] = _RUN_READY if ready else _RUN_LATER
        ctx.rival_last[s] = best_run_points(trains) * _LAST_STEAM
        ctx.rival_far[s] = _trains_value(trains, max(1, ctx.future))
    if len(rivals) == 1 and not ctx.last_turn and state.pending is None:
        _deny_setup(ctx, ctx.rivals_in_order[0])
    return ctx


def _deny_setup(ctx: _Context, rival: int) -> None:
    """What each card would add to the rival's trains, and an unseen card on average."""
    state = ctx.state
    trains = state.players[rival].trains
    future = max(1, ctx.future)
    base = _trains_value(trains, future)

    def gain(c: Card) -> float:
        placed = (_trains_value(t, future) for t in _placements(trains, [c]))
        return max(placed, default=base) - base

    ctx.rival = rival
    ctx.gains = {c.name: gain(c) for c in state.river}
    seen = {c.name for c in (*state.river, *state.discard, *state.sunny)}
    seen.update(c.name for p in state.players for t in p.trains for c in t)
    unseen = [c for c in state.cards if c.name not in seen]
    if unseen:
        ctx.unseen_gain = sum(gain(c) for c in unseen) / len(unseen)


def _rival_river_gain(ctx: _Context, taken: tuple[int, ...]) -> float:
    """The rival's best gain from the river once positions ``taken`` are gone."""
    if ctx.rival is None:
        return 0.0
    state = ctx.state
    left = [ctx.gains[c.name] for i, c in enumerate(state.river) if i not in taken]
    refill = min(len(state.deck), RIVER_SIZE - len(left))
    values = [*left, *[ctx.unseen_gain] * refill]
    score = state.players[ctx.rival].score
    nets = sorted((v - RIVER_COSTS[i] for i, v in enumerate(values) if RIVER_COSTS[i] <= score),
                  reverse=True)
    if not nets:
        return 0.0
    return max(0.0, nets[0], sum(nets[:2]))


def _tokens(ctx: _Context, stacks: Stacks, trigger: bool, ready: bool) -> dict[int, float]:
    """S10: the expected Wave tokens per seat at the end, given the stacks after this turn.

    Known last turns (final round, or this take triggers it) use each player's ready
    steam train; otherwise the next few rounds are played out with guessed chances.
    """
    key = (stacks, trigger, ready)
    cached = ctx.cache.get(key)
    if cached is not None:
        return cached
    seat = ctx.seat
    if ctx.last_turn:
        tokens = race(ctx.after, stacks, ctx.chance)
    elif trigger:
        tokens = race([*ctx.rivals_in_order, seat], stacks,
                      {**ctx.chance, seat: 1.0 if ready else 0.0})
    elif ctx.state.half == 1:
        tokens = {}
    else:
        rounds = min(ctx.future, _RACE_ROUNDS)
        chance = {**ctx.running, seat: _RUN_READY if ready else _RUN_LATER}
        tokens = race([*ctx.rivals_in_order, seat] * rounds, stacks, chance)
    ctx.cache[key] = tokens
    return tokens


def _worth(ctx: _Context, points: int, trains: Trains, stacks: Stacks,
           trigger: bool = False, taken: tuple[int, ...] = ()) -> float:
    """Own points, tokens and trains, less the best rival's, after this turn."""
    tokens = _tokens(ctx, stacks, trigger, steam_ready(trains))
    if ctx.last_turn:
        future = 0
    elif trigger:
        future = 1
    else:
        future = ctx.future
    own = points + TOKEN_POINTS * tokens.get(ctx.seat, 0.0) + _trains_value(trains, future)
    rival = 0.0
    for s in ctx.rivals:
        if ctx.last_turn or trigger:
            order = ctx.after if ctx.last_turn else ctx.rivals_in_order
            gain = ctx.rival_last[s] if s in order else 0.0
        else:
            gain = ctx.rival_far[s]
            if s == ctx.rival:
                gain += _DENY * _rival_river_gain(ctx, taken)
        rival = max(rival, ctx.state.players[s].score + TOKEN_POINTS * tokens.get(s, 0.0) + gain)
    return own - rival


def _future_turns(state: SteamState, seat: int, taking: int = 0) -> int:
    """Guess how many turns ``seat`` gets after this one (taking ``taking`` cards now)."""
    if state.final is not None:
        return 1 if seat in state.final and state.final[0] != seat else 0
    if state.half == 1:
        return _FIRST_HALF_TURNS
    needed = RIVER_SIZE - len(state.river) + taking
    if len(state.deck) < needed:
        return 1
    players = len(state.active())
    per_turn = _CARDS_PER_TURN_TWO if players == 2 else _CARDS_PER_TURN
    return 1 + int((len(state.deck) - needed) / (per_turn * players))


def _triggers(state: SteamState, taking: int) -> bool:
    """S11: whether taking ``taking`` cards now starts the final round."""
    needed = RIVER_SIZE - len(state.river) + taking
    return state.half == 2 and state.final is None and len(state.deck) < needed


def _stacks(state: SteamState) -> Stacks:
    return state.two_stack, state.one_stack


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


@lru_cache(maxsize=4096)
def _best_split(names: tuple[str, ...], future: int) -> tuple[float, int]:
    """The best arrangement of the cards ``names`` (in card order): (value, mask)."""
    packs = [_PACK[n] for n in names]
    size = len(packs)
    total = sum(packs)
    sums = [0] * (1 << size)
    best, best_mask = float("-inf"), 0
    full = (1 << size) - 1
    for mask in range(1, 1 << size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + packs[low.bit_length() - 1]
        if not mask & 1:
            continue
        ones = mask.bit_count()
        if ones > MAX_TRAIN_CARDS or size - ones > MAX_TRAIN_CARDS:
            continue
        first = _packed_value(sums[mask], future)
        if mask == full:
            value = first
        else:
            second = _packed_value(total - sums[mask], future)
            value = max(first, second) if future == 1 else first + second
        if value > best:
            best, best_mask = value, mask
    return best, best_mask


def _best_arrangement(cards: list[Card], future: int) -> tuple[float, Trains, Card | None]:
    """S6: the best arrangement of ``cards``, dropping one card if they do not fit."""
    if not cards:
        return 0.0, [], None
    order = ordered(cards)
    if len(order) <= MAX_TRAINS * MAX_TRAIN_CARDS:
        value, mask = _best_split(tuple(c.name for c in order), future)
        return value, split(order, mask), None
    best: tuple[float, Trains, Card | None] | None = None
    for c in sorted(order, key=goods_count)[:_DROP_TRIES]:
        value, trains, _ = _best_arrangement([x for x in order if x != c], future)
        if best is None or value > best[0]:
            best = (value, trains, c)
    assert best is not None
    return best


def _take_worth(ctx: _Context, action_id: str, trains: Trains) -> float:
    """The best result of a take (``t2:..`` or ``t1:..``) onto ``trains``."""
    state, seat = ctx.state, ctx.seat
    head, _, rest = action_id.partition(":")
    positions = [int(p) - 1 for p in rest.split("+")]
    cards = [state.river[i] for i in positions]
    points = state.players[seat].score - sum(RIVER_COSTS[i] for i in positions)
    trigger = _triggers(state, len(cards))
    future = 1 if trigger else ctx.future if not ctx.last_turn else 0
    if head == "t2":
        placed = max(_placements(trains, cards), key=lambda t: _trains_value(t, future))
    else:
        _, placed, _ = _best_arrangement([*cards, *(c for t in trains for c in t)], future)
    return _worth(ctx, points, placed, _stacks(state), trigger, tuple(positions))


def _after_run(state: SteamState, seat: int, power: str) -> Stacks:
    """S10: the stacks after ``seat`` runs on ``power``."""
    two, one = _stacks(state)
    if power == STEAM and state.half == 2 and two != seat:
        return seat, (one if two is None else two)
    return two, one


def _runs(ctx: _Context, index: int, only: str | None = None
          ) -> Iterator[tuple[float, str, list[Card], Card | None]]:
    """Every way to run train ``index``: (worth, power, cards shipped, Wave card burnt)."""
    state, seat = ctx.state, ctx.seat
    player = state.players[seat]
    train = player.trains[index]
    waves = [c for c in train if Suit.WAVES in c.suits]
    goods = [c for c in train if goods_count(c)]
    for power in powers(train):
        if only is not None and power != only:
            continue
        stacks = _after_run(state, seat, power)
        for size in range(len(goods), 0, -1):
            for ship in combinations(goods, size):
                covered = power != STEAM or any(Suit.WAVES in c.suits for c in ship)
                for burn in [None] if covered else waves:
                    gone = [*ship, burn] if burn is not None else list(ship)
                    left = [c for c in train if c not in gone]
                    trains = [left if k == index else t for k, t in enumerate(player.trains)]
                    worth = _worth(ctx, player.score + goods_points(ship),
                                   [t for t in trains if t], stacks)
                    yield worth, power, list(ship), burn


def _best_run(ctx: _Context, index: int, only: str | None = None
              ) -> tuple[float, str, list[Card], Card | None]:
    return max(_runs(ctx, index, only), key=lambda r: r[0])


def start_options(state: SteamState, seat: int) -> list[tuple[float, str]]:
    """Every start-of-turn choice this player weighs, with its worth (best first): each
    take, run and pass, and the discards that make room for a take two."""
    ids = [a.id for a in legal_actions(state, seat)]
    return sorted(_start_options(_context(state, seat), ids), key=lambda o: -o[0])


def _start_choice(ctx: _Context, ids: list[str]) -> str:
    return max(_start_options(ctx, ids), key=lambda o: o[0])[1]


def _start_options(ctx: _Context, ids: list[str]) -> list[tuple[float, str]]:
    state, seat = ctx.state, ctx.seat
    player = state.players[seat]
    options: list[tuple[float, str]] = []
    for aid in ids:
        head, _, rest = aid.partition(":")
        if head in ("t1", "t2"):
            options.append((_take_worth(ctx, aid, player.trains), aid))
        elif head == "run":
            options.append((_best_run(ctx, int(rest) - 1)[0], aid))
        elif head == "pass":
            options.append((_worth(ctx, player.score, player.trains, _stacks(state)), aid))
    if state.river and room(player.trains) < 2:
        options.extend(_discard_options(ctx))
    return options


def _discard_options(ctx: _Context) -> list[tuple[float, str]]:
    """Discards that make room for a take two, worth the best take afterwards (less a hair)."""
    state, seat = ctx.state, ctx.seat
    trains = state.players[seat].trains

    def without(c: Card) -> Trains:
        return [t for t in ([x for x in tr if x != c] for tr in trains) if t]

    cheapest = sorted((c for t in trains for c in t),
                      key=lambda c: -_trains_value(without(c), ctx.future))[:_DISCARD_TRIES]
    river = len(state.river)
    score = state.players[seat].score
    options = []
    for c in cheapest:
        after = without(c)
        if room(after) < 2:
            continue
        takes = [f"t2:{i + 1}+{j + 1}" for i, j in combinations(range(river), 2)
                 if RIVER_COSTS[i] + RIVER_COSTS[j] <= score]
        if takes:
            worth = max(_take_worth(ctx, t, after) for t in takes)
            options.append((worth - 0.01, f"d:{card_code(c)}"))
    return options


def _place_choice(ctx: _Context, ids: list[str], pending: Placing) -> str:
    trains = ctx.state.players[ctx.seat].trains
    future = 0 if ctx.last_turn else ctx.future
    c, rest = pending.cards[0], pending.cards[1:]
    options = []
    for aid in ids:
        if not aid.startswith("p:"):
            continue
        dest = aid.rsplit(":", 1)[1]
        placed = [*trains, [c]] if dest == "n" else [
            [*t, c] if k == int(dest) - 1 else t for k, t in enumerate(trains)
        ]
        worth = max(_trains_value(t, future) for t in _placements(placed, rest))
        options.append((worth, aid))
    return max(options, key=lambda o: o[0])[1]


def _arrange_choice(ctx: _Context, ids: list[str], pending: Arranging) -> str:
    """Head for the best arrangement: one plan click if offered, else card by card."""
    trains = ctx.state.players[ctx.seat].trains
    future = 0 if ctx.last_turn else ctx.future
    cards = [*pending.hand, *(c for t in trains for c in t)]
    _, target, drop = _best_arrangement(cards, future)
    if drop is not None and f"d:{card_code(drop)}" in ids:
        return f"d:{card_code(drop)}"
    plan = f"ar:{mask_of(target):x}"
    if plan in ids:
        return plan
    move = _move_towards(trains, pending.hand, target, drop)
    if move is not None and move in ids:
        return move
    return "done" if "done" in ids else next(i for i in ids if i.startswith("mv:"))


def _move_towards(trains: Trains, hand: list[Card], target: Trains,
                  drop: Card | None) -> str | None:
    """The next card move that brings ``trains`` and ``hand`` closer to ``target``."""
    pairs: list[tuple[int, int]] = []
    if len(target) == 2 and len(trains) == 2:
        keep = sum(len(set(map(id, target[k])) & set(map(id, trains[k]))) for k in (0, 1))
        swap = sum(len(set(map(id, target[1 - k])) & set(map(id, trains[k]))) for k in (0, 1))
        pairs = [(0, 1), (1, 0)] if swap > keep else [(0, 0), (1, 1)]
    else:
        used: set[int] = set()
        for k, group in enumerate(target):
            overlap = [(len([c for c in t if c in group]), i) for i, t in enumerate(trains)
                       if i not in used]
            if overlap:
                _, i = max(overlap)
                used.add(i)
                pairs.append((k, i))
    where = {k: i for k, i in pairs}
    for k, group in enumerate(target):
        dest = str(where[k] + 1) if k in where else "n"
        for c in group:
            here = next((str(i + 1) for i, t in enumerate(trains) if c in t), None)
            if here != dest:
                return f"mv:{card_code(c)}:{dest}"
    if drop is not None and drop in hand and trains:
        return f"mv:{card_code(drop)}:1"
    return None


def _run_choice(ctx: _Context, ids: list[str]) -> str:
    run = ctx.state.pending
    assert isinstance(run, Running)
    if run.power is None:
        return max((aid for aid in ids if aid.startswith("pw:")),
                   key=lambda aid: _best_run(ctx, run.train, aid[3:])[0])
    if run.confirmed:
        burns = {b.name: w for w, _, ship, b in _runs(ctx, run.train, run.power)
                 if b is not None and ship == run.ship}
        return max((aid for aid in ids if aid.startswith("wv:")),
                   key=lambda aid: burns.get(BY_CODE[aid[3:]].name, float("-inf")))
    train = ctx.state.players[ctx.seat].trains[run.train]
    _, _, target, _ = _best_run(ctx, run.train, run.power)
    goods = [c for c in train if goods_count(c)]
    if len(target) == len(goods) and "all" in ids:
        return "all"
    for c in train:
        if (c in target) != (c in run.ship):
            return f"sh:{card_code(c)}"
    return "ship"


def choose_action(state: SteamState, seat: int) -> str:
    """Return the computer player's action id for ``seat``, the seat to act."""
    ids = [a.id for a in legal_actions(state, seat)]
    ctx = _context(state, seat)
    pending = state.pending
    if pending is None:
        return _start_choice(ctx, ids)
    if isinstance(pending, Placing):
        return _place_choice(ctx, ids, pending)
    if isinstance(pending, Arranging):
        return _arrange_choice(ctx, ids, pending)
    return _run_choice(ctx, ids)

