"""Steam to Solar: the legal actions of each step, with ids, labels and descriptions.

Action ids (all short ASCII, stable for Discord custom_ids):

- start of a turn: ``t2:1+3`` take two (positions), ``t1:2`` take one and rearrange,
  ``run:1`` run train 1 step by step, ``go:1:steam`` run train 1 on steam and ship
  every goods card in one go (``go:1:steam:<card>`` names the Wave card to burn where
  the train has several), ``pass`` (only with no move at all, S13);
- placing (``Placing``, take two): ``p:<card>:1``, ``p:<card>:2`` or ``p:<card>:n``
  (new train); a placement with one possible place happens by itself;
- rearranging (``Arranging``, take one, S6): ``mv:<card>:<train or n>`` moves the taken
  card or any train card (no limits on the way), ``ar:<mask>`` arranges everything at
  once as suggested and ends the turn (``arrange.py``), ``done`` (only within limits);
- running (``Running``): ``pw:steam`` / ``pw:solar``, ``all`` ships every goods card,
  ``sh:<card>`` toggles a card to ship, ``ship`` confirms, ``wv:<card>`` picks the Wave
  card burnt for steam, ``cancel``;
- ``d:<card>`` discards from a train at any point of one's own turn (S7);
  ``resign`` at any time, even out of turn.

``<card>`` is :func:`card_code`, for example ``Mill`` or ``AWaves``. Labels fit a
button (:data:`MAX_LABEL`); descriptions say what a choice does and what it loses, what
matters first, within a select option's :data:`MAX_DESCRIPTION` (a plan's description is
the exception: it lists the trains it leads to, which a board reads and shows in short).
"""

from __future__ import annotations

from bot.games.decktet import Card, Suit
from bot.games.protocol import MAX_LABEL, MAX_OPTION, Action
from bot.games.steam.arrange import arrangements, mask_of, suggested
from bot.games.steam.state import (
    MAX_TRAIN_CARDS,
    MAX_TRAINS,
    POWER_EMOJI,
    RIVER_COSTS,
    STEAM,
    Arranging,
    Placing,
    Player,
    Running,
    SteamState,
    can_run,
    card_code,
    fits,
    goods_count,
    goods_points,
    label,
    powers,
    room,
)

#: How each kind of power reads on a board: its name and its one emoji.
POWER_LABEL = {kind: f"{kind} {emoji}" for kind, emoji in POWER_EMOJI.items()}
#: The longest description a select option shows whole (Discord's limit).
MAX_DESCRIPTION = 100
#: The limits a placement or a rearrangement keeps to (S5, S6), as a description says them.
_LIMITS = f"at most {MAX_TRAINS} trains of {MAX_TRAIN_CARDS}"
_RESIGN = Action(
    "resign", "Resign", "resign",
    "You lose and score nothing; your trains are discarded; Wave token stacks you hold "
    "stay until taken.",
)
_CANCEL = Action("cancel", "Cancel the run", "ship", "Nothing has changed yet.")
_PASS = Action("pass", "Pass (no move left)", "pass", primary=True)


def fit(*labels: str) -> str:
    """Return the first label that fits a button, else the last one cut with an ellipsis."""
    for text in labels:
        if len(text) <= MAX_LABEL:
            return text
    return labels[-1][: MAX_LABEL - 1] + "…"


def in_full(*labels: str) -> str:
    """Return the first label that fits a select option where :func:`fit` gives a
    shorter one (an action's ``option``), else ""."""
    if fit(*labels) == labels[0]:
        return ""  # the button's label leaves nothing out
    return next((text for text in labels if len(text) <= MAX_OPTION), "")


def brief(*texts: str) -> str:
    """Return the first text that fits a select option's description, else the last one
    cut with an ellipsis: give the fullest wording first and shorter ones after it."""
    for text in texts:
        if len(text) <= MAX_DESCRIPTION:
            return text
    return texts[-1][: MAX_DESCRIPTION - 1] + "…"


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
        actions = _place_actions(player, pending.cards[0])
    elif isinstance(pending, Arranging):
        actions = _arrange_actions(player, pending)
    else:
        actions = _run_actions(player.trains[pending.train], pending, state.half,
                               state.two_stack == seat)
    return [*actions, *_discard_actions(player), _RESIGN]


def cost_label(cost: int) -> str:
    """Return how a cost reads: ``free`` or ``pay 2``."""
    return "free" if cost == 0 else f"pay {cost}"


def symbols(cards: list[Card], skip: tuple[Suit, ...] = ()) -> str:
    """Return the suit emoji of ``cards`` (one per symbol), leaving out ``skip``."""
    return "".join(s.emoji for c in cards for s in c.suits if s not in skip)


def _start_actions(state: SteamState, player: Player) -> list[Action]:
    river, space, points = state.river, room(player.trains), player.score
    actions = []
    place = f"place each on a train or start one ({_LIMITS})"
    if len(river) == 1 and space >= 1:
        last = (f"Take {label(river[0])} (free)", f"Take {river[0].name} (free)")
        actions.append(Action("t2:1", fit(*last), "take", "The last river card; then place "
                              f"it on a train or start one ({_LIMITS}).",
                              option=in_full(*last)))
    if space >= 2:
        for i in range(len(river)):
            for j in range(i + 1, len(river)):
                cost = RIVER_COSTS[i] + RIVER_COSTS[j]
                if cost <= points:
                    a, b, paid = river[i], river[j], cost_label(cost)
                    texts = (f"Take {label(a)} + {label(b)} ({paid})",
                             f"Take {a.name} + {b.name} ({paid})",
                             f"{a.name} + {b.name} ({paid})")
                    actions.append(Action(f"t2:{i + 1}+{j + 1}", fit(*texts), "take", brief(
                        f"Take {label(a)} and {label(b)}, then {place}.",
                        f"Take {a.name} and {b.name}, then {place}.",
                        f"Then {place}."), option=in_full(*texts)))
    for i, c in enumerate(river):
        if RIVER_COSTS[i] <= points:
            paid = cost_label(RIVER_COSTS[i])
            one = (f"Take {label(c)} + rearrange ({paid})",
                   f"Take {c.name} + rearrange ({paid})")
            rest = f"into {_LIMITS}; discard what does not fit"
            actions.append(Action(f"t1:{i + 1}", fit(*one), "take", brief(
                f"Take {label(c)}, then arrange it and all your train cards {rest}.",
                f"Arrange {label(c)} and all your train cards {rest}.",
                f"Arrange {c.name} and your train cards {rest}.",
                f"Then arrange it and your train cards {rest}."), option=in_full(*one)))
    runs = [_run_action(i, t) for i, t in enumerate(player.trains) if can_run(t)]
    actions += [a for i, t in enumerate(player.trains) if can_run(t)
                for a in whole_runs(i, t, state.half, state.two_stack == state.turn)]
    actions += runs
    if not river and not runs:
        actions.append(_PASS)
    return actions


def _run_action(index: int, train: list[Card]) -> Action:
    kinds = " or ".join(POWER_EMOJI[k] for k in powers(train))
    best = goods_points([c for c in train if goods_count(c)])
    return Action(
        f"run:{index + 1}", f"Run train {index + 1} on {kinds} (up to {best})", "run",
        f"Run train {index + 1} step by step: choose which goods cards to ship, for up "
        f"to {points_text(best).replace('pt', 'point')}.",
    )


def points_text(points: int) -> str:
    """Return points as a button says them: ``1 pt``, ``6 pts``."""
    return f"{points} pt" if points == 1 else f"{points} pts"


def whole_runs(index: int, train: list[Card], half: int, holds_two: bool) -> list[Action]:
    """S8: each way to run train ``index`` and ship every goods card on it in one go.

    One action per power the train has; with steam and several Wave cards left after
    the shipment, one per Wave card that could burn (its code ends the id). ``holds_two``
    says the player already holds the Wave token stack of two (S10). The usual one is
    primary: the one that takes the stack of two, else the one that burns nothing more
    than the shipment, else the one that loses the fewest symbols. A description says
    first what the run burns, then the Wave tokens it takes, then what it ships
    (:func:`run_text`).
    """
    goods = [c for c in train if goods_count(c)]
    worth = points_text(goods_points(goods))
    number = index + 1
    runs: list[tuple[tuple[bool, bool, int], Action]] = []
    for kind in powers(train):
        burn, pick = burn_of(train, kind, goods)
        choices = ([c for c in train if Suit.WAVES in c.suits and c not in goods]
                   if pick else [burn])
        takes = kind == STEAM and half == 2 and not holds_two
        for wave in choices:
            head = f"Run train {number} on {kind} · ship all · {worth}"
            if pick and wave is not None:
                text = fit(f"{head} · burn {wave.name}",
                           f"Run train {number} on {kind}, burn {wave.name} · {worth}",
                           f"Run train {number}, burn {wave.name} · {worth}",
                           f"Train {number}, burn {wave.name} · {worth}")
                suffix = f":{card_code(wave)}"
            else:
                text, suffix = fit(head), ""
            description = run_text(train, kind, goods, wave, takes)
            lost = 0 if wave is None else len(wave.suits)
            runs.append(((takes, wave is None, -lost),
                         Action(f"go:{number}:{kind}{suffix}", text, "run", description)))
    best = max(range(len(runs)), key=lambda k: runs[k][0], default=None)
    return [Action(a.id, a.label, a.group, a.description, k == best)
            for k, (_, a) in enumerate(runs)]


def run_text(train: list[Card], power: str, ship: list[Card], burn: Card | None,
             takes: bool) -> str:
    """S8, S10: say what running ``train`` on ``power`` and shipping ``ship`` does, what
    matters first: the card steam burns (``burn``) and what that loses, the Wave token
    stack of two it takes (``takes``), then what it ships, e.g. "Burns Lunatic 🌙🌊 (loses
    🌙); the train can no longer run; you take the stack of two; ships 3 cards for 5
    points.", worded shorter where the whole would not fit a select option."""
    if burn is not None:
        kept = [c for c in train if c not in ship and c is not burn]
        first = burn_text(burn, kept)
    elif power == STEAM:
        first = "nothing else burns (a shipped card has a Wave)"
    else:
        first = "solar burns nothing"
    points = points_text(goods_points(ship)).replace("pt", "point")
    named = f"ships {', '.join(c.name for c in ship)} for {points}"
    counted = f"ships {len(ship)} card{'s' * (len(ship) > 1)} for {points}"
    rests = ([f"you take the Wave token stack of two; {named}",
              f"you take the Wave token stack of two; {counted}",
              f"you take the stack of two; {counted}",
              "you take the stack of two"] if takes else [named, counted])
    return brief(*(_sentence(f"{first}; {rest}") for rest in rests))


def burn_text(burn: Card, kept: list[Card]) -> str:
    """Say in short what burning ``burn`` for steam loses, ``kept`` being what is left of
    the train: "burns Lunatic 🌙🌊 (loses 🌙); no 🌙 locomotive left"."""
    lost = symbols([burn], (Suit.WAVES,))
    text = f"burns {label(burn)}" + (f" (loses {lost})" if lost else "")
    return text + _left_without(kept)


def _left_without(kept: list[Card]) -> str:
    """What the train kept (``kept``, after a run: goods shipped) lacks to run again
    besides goods, as a clause ("; no 🌙 locomotive left"), or "" (nothing kept, or
    it keeps a locomotive and power: goods added, it runs again)."""
    if not kept:
        return ""
    missing = [what for what, has in (
        ("🌙 locomotive", any(Suit.MOONS in c.suits for c in kept)),
        ("power", bool(powers(kept)))) if not has]
    return f"; no {' and no '.join(missing)} left" if missing else ""


def _discard_actions(player: Player) -> list[Action]:
    return [
        Action(
            f"d:{card_code(c)}", fit(f"Discard {label(c)} (train {i + 1})",
                                     f"Discard {c.name} (train {i + 1})"),
            "discard", f"Discard it from train {i + 1}, losing its {symbols([c])}.",
        )
        for i, t in enumerate(player.trains) for c in t
    ]


def _place_actions(player: Player, c: Card) -> list[Action]:
    code = card_code(c)
    actions = [
        Action(f"p:{code}:{i + 1}", fit(f"{label(c)} → train {i + 1}", f"{c.name} → train {i + 1}"),
               "place", f"Add it to train {i + 1} ({len(t)} cards).")
        for i, t in enumerate(player.trains) if len(t) < MAX_TRAIN_CARDS
    ]
    if len(player.trains) < MAX_TRAINS:
        actions.append(Action(f"p:{code}:n", fit(f"{label(c)} → new train",
                                                 f"{c.name} → new train"),
                              "place", "Start a new train with it."))
    return actions


def place_choices(trains: list[list[Card]]) -> list[str]:
    """Return where a card can be placed (S5): train numbers with room, ``n`` for new."""
    dests = [str(i + 1) for i, t in enumerate(trains) if len(t) < MAX_TRAIN_CARDS]
    return dests + (["n"] if len(trains) < MAX_TRAINS else [])


def arrange_problem(player: Player, pending: Arranging) -> str | None:
    """Return why the arrangement cannot be done yet (S6), or None when it can."""
    if pending.hand:
        return f"place {', '.join(label(c) for c in pending.hand)} first"
    big = [i + 1 for i, t in enumerate(player.trains) if len(t) > MAX_TRAIN_CARDS]
    if big:
        return (f"train {big[0]} has {len(player.trains[big[0] - 1])} cards; "
                f"at most {MAX_TRAIN_CARDS}")
    return None


def _arrange_actions(player: Player, pending: Arranging) -> list[Action]:
    trains = player.trains
    actions: list[Action] = []
    for c in pending.hand:
        for j in range(len(trains)):
            actions.append(_move(c, str(j + 1), "from your hand"))
        if len(trains) < MAX_TRAINS:
            actions.append(_move(c, "n", "from your hand"))
    for i, t in enumerate(trains):
        for c in t:
            for j in range(len(trains)):
                if j != i:
                    actions.append(_move(c, str(j + 1), f"from train {i + 1}"))
            if len(trains) < MAX_TRAINS and len(t) > 1:
                actions.append(_move(c, "n", f"from train {i + 1}"))
    cards = [*pending.hand, *(c for t in trains for c in t)]
    current = None if pending.hand or not fits(trains) else mask_of(trains)
    options = dict(arrangements(cards))
    for n, mask in enumerate(m for m in suggested(cards) if m != current):
        plan = options[mask]
        sizes = " + ".join(str(len(t)) for t in plan)
        text = f"Plan {'ABC'[n]}: {sizes} cards, end turn"
        listing = " · ".join(
            f"train {k + 1}: {', '.join(x.name for x in t)}" for k, t in enumerate(plan))
        actions.append(Action(f"ar:{mask:x}", text, "plan", f"Arrange as {listing}."))
    if arrange_problem(player, pending) is None:
        actions.append(Action("done", "Done: end the turn", "arrange",
                              "Keep the trains as they are now and end the turn.",
                              primary=True))
    return actions


def _move(c: Card, dest: str, source: str) -> Action:
    where = "a new train" if dest == "n" else f"train {dest}"
    return Action(f"mv:{card_code(c)}:{dest}",
                  fit(f"{label(c)} → {where}", f"{c.name} → {where}"),
                  "arrange", f"Move it {source} to {where}.")


def burn_of(train: list[Card], power: str, ship: list[Card]) -> tuple[Card | None, bool]:
    """S8: the Wave card steam burns, and whether the player must pick it.

    Returns ``(None, False)`` when nothing more burns (solar, or a shipped Wave card),
    ``(card, False)`` for a lone Wave card, ``(None, True)`` when the player picks.
    """
    if power != STEAM or any(Suit.WAVES in c.suits for c in ship):
        return None, False
    waves = [c for c in train if Suit.WAVES in c.suits and c not in ship]
    if len(waves) == 1:
        return waves[0], False
    return None, True


def losing(c: Card, kept: list[Card]) -> str:
    """Return what burning ``c`` loses: its symbols other than its Wave, and what the
    train then lacks to run again besides goods."""
    lost = symbols([c], (Suit.WAVES,))
    text = f"{label(c)}, losing its {lost}" if lost else label(c)
    return text + _left_without(kept)


def ship_text(train: list[Card], power: str, ship: list[Card]) -> str:
    """Say what a shipment does: ``ships Forest for 1; burns Sailor 🌊🍃, losing its 🍃``;
    with many cards, ``ships 4 cards for 9; …``, so that made a sentence it fits a select
    option."""
    points = goods_points(ship)
    heads = [f"ships {', '.join(c.name for c in ship)} for {points}",
             f"ships {len(ship)} card{'s' * (len(ship) > 1)} for {points}"]
    burn, pick = burn_of(train, power, ship)
    if pick:
        tails = ["; then you pick the Wave card to burn"]
    elif burn is not None:
        kept = [c for c in train if c not in ship and c is not burn]
        tails = [f"; burns {losing(burn, kept)}", f"; {burn_text(burn, kept)}"]
    else:
        tails = ["; nothing else burns" if power == STEAM else "; solar burns nothing"]
    texts = [head + tail for tail in tails for head in heads]
    return next((t for t in texts if len(_sentence(t)) <= MAX_DESCRIPTION), texts[-1])


def _run_actions(train: list[Card], run: Running, half: int,
                 holds_two: bool) -> list[Action]:
    if run.power is None:
        return [
            *(Action(f"pw:{kind}", f"Run on {POWER_LABEL[kind]}", "power",
                     _power_text(kind, half, holds_two))
              for kind in powers(train)),
            _CANCEL,
        ]
    if run.confirmed:
        return [
            *(Action(f"wv:{card_code(c)}",
                     fit(f"Burn {losing(c, [])}", f"Burn {c.name}, losing its "
                         f"{symbols([c], (Suit.WAVES,))}", f"Burn {c.name}"),
                     "wave", f"Burn {losing(c, [x for x in train if x not in (*run.ship, c)])}.")
              for c in train if Suit.WAVES in c.suits and c not in run.ship),
            _CANCEL,
        ]
    goods = [c for c in train if goods_count(c)]
    actions = []
    if len(run.ship) < len(goods):
        points = goods_points(goods)
        text = fit(f"Ship all {len(goods)} goods cards for {points}", f"Ship all for {points}")
        if len(goods) == 1:
            text = fit(f"Ship {label(goods[0])} for {points}", f"Ship {goods[0].name} for {points}")
        actions.append(Action("all", text, "ship",
                              _sentence(ship_text(train, run.power, goods)),
                              primary=True))
    for c in goods:
        if c in run.ship:
            after = [x for x in run.ship if x is not c]
            text = fit(f"Don't ship {label(c)}", f"Don't ship {c.name}")
            gain = goods_points(run.ship) - goods_points(after)
            actions.append(Action(f"sh:{card_code(c)}", text, "ship",
                                  f"Gives up {points_text(gain).replace('pt', 'point')}."))
        else:
            gain = goods_points([*run.ship, c]) - goods_points(run.ship)
            text = fit(f"Ship {label(c)} (+{gain})", f"Ship {c.name} (+{gain})")
            actions.append(Action(f"sh:{card_code(c)}", text, "ship",
                                  f"Add it to the shipment "
                                  f"(+{points_text(gain).replace('pt', 'point')})."))
    if run.ship:
        text = f"Ship {len(run.ship)} card{'s' * (len(run.ship) > 1)} for {goods_points(run.ship)}"
        actions.append(Action("ship", text, "ship",
                              _sentence(ship_text(train, run.power, run.ship)),
                              primary=len(goods) == 1 or len(run.ship) == len(goods)))
    return [*actions, _CANCEL]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + "."


def _power_text(kind: str, half: int, holds_two: bool) -> str:
    """Say what running on ``kind`` costs; in the second half steam takes the Wave token
    stack of two unless the player holds it already (``holds_two``, S10)."""
    if kind == STEAM:
        takes = half == 2 and not holds_two
        tokens = "; you take the Wave token stack of two" if takes else ""
        return f"Steam burns one Wave card{tokens}."
    return "Solar burns nothing; Sun cards go only if shipped."
