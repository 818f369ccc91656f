"""Steam to Solar: the Easy computer player, a newcomer's game.

It plays the way someone new to the game does: sensibly, one turn at a time, and blind
to the parts of the game that take a few games to see. It

- runs a train as soon as the shipment is worth 5 points or more (anything on its last
  turn), shipping every goods card; it runs on solar, which burns nothing, except in the
  second half, where the button says steam takes the Wave token stack of two;
- otherwise takes the cards that make its own trains look best by the plain reading of
  the arrangement suggestions (goods, with less for a train that lacks its Moon or its
  power), counting what it pays, and clicks the first suggested plan when rearranging;
- never looks at the other players: no denial, no token race, no planning for the end
  trigger, no idea how many turns are left.

Those are its mistakes: runs at the wrong time (too early for a few points, or late,
with goods still on its trains when the game ends), steam runs that hand the stack of
two back to a rival who runs after it, cards left to a rival who needed them. It is
deterministic and, like the other levels, uses only what every player sees.
"""

from __future__ import annotations

from bot.games.decktet import Card
from bot.games.steam.arrange import ordered, promise, split, suggested
from bot.games.steam.legal import legal_actions
from bot.games.steam.state import (
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    RIVER_COSTS,
    Arranging,
    Placing,
    Running,
    SteamState,
    Trains,
    card_code,
    goods_count,
    goods_points,
)

#: The smallest shipment it runs a train for (before its last turn).
RUN_AT = 5


def _look(trains: Trains) -> float:
    """How good trains look to a newcomer: the plain promise of each."""
    return sum(promise(t) for t in trains)


def _placed(trains: Trains, cards: list[Card]) -> Trains:
    """Place ``cards`` one after the other where each looks best (a greedy placement)."""
    for c in cards:
        options = [[*trains[:i], [*t, c], *trains[i + 1:]]
                   for i, t in enumerate(trains) if len(t) < MAX_TRAIN_CARDS]
        if len(trains) < MAX_TRAINS:
            options.append([*trains, [c]])
        if not options:
            return trains
        trains = max(options, key=_look)
    return trains


def _run_points(train: list[Card]) -> int:
    return goods_points([c for c in train if goods_count(c)])


def _start(state: SteamState, seat: int, ids: list[str]) -> str:
    player = state.players[seat]
    last_turn = state.final is not None
    runs = [(_run_points(player.trains[int(a[4:]) - 1]), a) for a in ids if a.startswith("run:")]
    if runs:
        points, best = max(runs)
        if points >= RUN_AT or last_turn:
            return best
    options: list[tuple[float, str]] = []
    for aid in ids:
        head, _, rest = aid.partition(":")
        if head not in ("t1", "t2"):
            continue
        positions = [int(p) - 1 for p in rest.split("+")]
        cards = [state.river[i] for i in positions]
        cost = sum(RIVER_COSTS[i] for i in positions)
        if head == "t2":
            after = _placed(player.trains, cards)
        else:
            everything = [*cards, *player.train_cards()]
            plans = suggested(everything)
            after = (split(ordered(everything), plans[0]) if plans
                     else _placed(player.trains, cards))
        options.append((_look(after) - cost, aid))
    if options:
        return max(options, key=lambda o: o[0])[1]
    if runs:
        return max(runs)[1]
    return next((a for a in ids if a == "pass"), ids[0])


def _place(state: SteamState, seat: int, ids: list[str], pending: Placing) -> str:
    trains = state.players[seat].trains
    c = pending.cards[0]
    best, best_look = None, float("-inf")
    for aid in ids:
        if not aid.startswith("p:"):
            continue
        dest = aid.rsplit(":", 1)[1]
        after = [*trains, [c]] if dest == "n" else [
            [*t, c] if k == int(dest) - 1 else t for k, t in enumerate(trains)]
        look = _look(_placed(after, pending.cards[1:]))
        if look > best_look:
            best, best_look = aid, look
    return best or ids[0]


def _arrange(state: SteamState, seat: int, ids: list[str], pending: Arranging) -> str:
    plans = [a for a in ids if a.startswith("ar:")]
    if plans:
        return plans[0]
    if "done" in ids:
        return "done"
    player = state.players[seat]
    if pending.hand and player.trains:
        # eleven cards: drop the card with the fewest goods, then the plans come
        cards = [*pending.hand, *player.train_cards()]
        worst = min(cards, key=goods_count)
        if worst not in pending.hand:
            return next(a for a in ids if a.startswith("d:") and _is(a, worst))
        return next(a for a in ids if a.startswith("mv:"))
    big = max(player.trains, key=len)
    worst = min(big, key=goods_count)
    return next(a for a in ids if a.startswith("d:") and _is(a, worst))


def _is(action_id: str, c: Card) -> bool:
    return action_id.split(":")[1] == card_code(c)


def _run(ids: list[str], run: Running, half: int) -> str:
    if run.power is None:
        wanted = "pw:steam" if half == 2 else "pw:solar"
        return wanted if wanted in ids else next(a for a in ids if a.startswith("pw:"))
    if run.confirmed:
        return next(a for a in ids if a.startswith("wv:"))
    return "all" if "all" in ids else "ship"


def choose_action(state: SteamState, seat: int) -> str:
    """Return the Easy computer player's action id for ``seat``, the seat to act."""
    ids = [a.id for a in legal_actions(state, seat) if a.id != "resign"]
    pending = state.pending
    if pending is None:
        return _start(state, seat, ids)
    if isinstance(pending, Placing):
        return _place(state, seat, ids, pending)
    if isinstance(pending, Arranging):
        return _arrange(state, seat, ids, pending)
    return _run(ids, pending, state.half)

