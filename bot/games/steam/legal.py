"""Steam to Solar: the legal actions of each step, with ids and labels.

Action ids (all short ASCII, stable for Discord custom_ids):

- start of a turn: ``t2:1+3`` take two (positions), ``t1:2`` take one and rearrange,
  ``run:1`` run train 1, ``pass`` (only with no move at all, S13);
- placing (``Placing``): ``p:<card>:1``, ``p:<card>:2`` or ``p:<card>:n`` (new train);
- rearranging (``Arranging``): ``mv:<card>:<train or n>`` and ``done``;
- running (``Running``): ``pw:steam`` / ``pw:solar``, ``sh:<card>`` toggles a card to
  ship, ``ship`` confirms, ``wv:<card>`` picks the Wave card burnt for steam, ``cancel``;
- ``d:<card>`` discards from a train at the start of a turn, while placing or
  rearranging (S7); ``resign`` at any time, even out of turn.

``<card>`` is :func:`card_code`, for example ``Mill`` or ``AWaves``.
"""

from __future__ import annotations

from bot.games.decktet import Card, Suit
from bot.games.protocol import Action
from bot.games.steam.state import (
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    RIVER_COSTS,
    STEAM,
    Arranging,
    Placing,
    Player,
    Running,
    SteamState,
    can_run,
    card_code,
    goods_count,
    goods_points,
    label,
    powers,
    room,
)

#: How each kind of power reads on a board.
POWER_LABEL = {STEAM: f"steam {Suit.WAVES.emoji}", "solar": f"solar {Suit.SUNS.emoji}"}
_SHIP_VERB = {False: "Ship", True: "Don't ship"}
_RESIGN = Action("resign", "Resign (you lose; your trains are discarded)", "resign")
_DONE = Action("done", "Done rearranging", "arrange")
_CANCEL = Action("cancel", "Cancel the run", "ship")
_PASS = Action("pass", "Pass (no move left)", "pass")


def legal_actions(state: SteamState, seat: int) -> list[Action]:
    """Return what ``seat`` may do now; a seat not to act may only resign."""
    if state.over or not 0 <= seat < len(state.players) or state.players[seat].resigned:
        return []
    if seat != state.turn:
        return [_RESIGN]
    player = state.players[seat]
    pending = state.pending
    if pending is None:
        actions = _start_actions(state, player)
    elif isinstance(pending, Placing):
        actions = _place_actions(player, pending.cards[0]) + _discard_actions(player)
    elif isinstance(pending, Arranging):
        actions = [*_move_actions(player), _DONE]
        actions += _discard_actions(player)
    else:
        actions = _run_actions(player.trains[pending.train], pending)
    return [*actions, _RESIGN]


def cost_label(cost: int) -> str:
    """Return how a cost reads: ``free`` or ``pay 2``."""
    return "free" if cost == 0 else f"pay {cost}"


def _start_actions(state: SteamState, player: Player) -> list[Action]:
    river, space, points = state.river, room(player.trains), player.score
    actions = []
    if len(river) == 1 and space >= 1:
        actions.append(Action("t2:1", f"Take {label(river[0])} (free)", "take"))
    if space >= 2:
        for i in range(len(river)):
            for j in range(i + 1, len(river)):
                cost = RIVER_COSTS[i] + RIVER_COSTS[j]
                if cost <= points:
                    text = f"Take {label(river[i])} + {label(river[j])} ({cost_label(cost)})"
                    actions.append(Action(f"t2:{i + 1}+{j + 1}", text, "take"))
    if space >= 1:
        for i, c in enumerate(river):
            if RIVER_COSTS[i] <= points:
                text = f"Take {label(c)} and rearrange ({cost_label(RIVER_COSTS[i])})"
                actions.append(Action(f"t1:{i + 1}", text, "take"))
    runs = [
        Action(f"run:{i + 1}", f"Run train {i + 1}", "run")
        for i, t in enumerate(player.trains) if can_run(t)
    ]
    actions += runs
    if not river and not runs:
        actions.append(_PASS)
    return actions + _discard_actions(player)


def _discard_actions(player: Player) -> list[Action]:
    return [
        Action(f"d:{card_code(c)}", f"Discard {label(c)} from train {i + 1}", "discard")
        for i, t in enumerate(player.trains) for c in t
    ]


def _place_actions(player: Player, c: Card) -> list[Action]:
    code = card_code(c)
    actions = [
        Action(f"p:{code}:{i + 1}", f"{label(c)} → train {i + 1}", "place")
        for i, t in enumerate(player.trains) if len(t) < MAX_TRAIN_CARDS
    ]
    if len(player.trains) < MAX_TRAINS:
        actions.append(Action(f"p:{code}:n", f"{label(c)} → new train", "place"))
    return actions


def _move_actions(player: Player) -> list[Action]:
    trains = player.trains
    actions = []
    for i, t in enumerate(trains):
        for c in t:
            code = card_code(c)
            for j, other in enumerate(trains):
                if j != i and len(other) < MAX_TRAIN_CARDS:
                    text = f"Move {label(c)} to train {j + 1}"
                    actions.append(Action(f"mv:{code}:{j + 1}", text, "arrange"))
            if len(trains) < MAX_TRAINS and len(t) > 1:
                text = f"Move {label(c)} to a new train"
                actions.append(Action(f"mv:{code}:n", text, "arrange"))
    return actions


def _run_actions(train: list[Card], run: Running) -> list[Action]:
    if run.power is None:
        return [
            *(Action(f"pw:{kind}", f"Run on {POWER_LABEL[kind]}", "power")
              for kind in powers(train)),
            _CANCEL,
        ]
    if run.confirmed:
        return [
            *(Action(f"wv:{card_code(c)}", f"Burn {label(c)} for steam", "wave")
              for c in train if Suit.WAVES in c.suits),
            _CANCEL,
        ]
    actions = [
        Action(f"sh:{card_code(c)}", f"{_SHIP_VERB[c in run.ship]} {label(c)}", "ship")
        for c in train if goods_count(c)
    ]
    if run.ship:
        text = f"Ship {len(run.ship)} card(s) for {goods_points(run.ship)} points"
        actions.append(Action("ship", text, "ship"))
    return [*actions, _CANCEL]
