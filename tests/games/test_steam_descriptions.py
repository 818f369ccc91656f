"""What a Steam to Solar choice says under its name in a select: whole within Discord's
100 characters, what matters first (S8: the card steam burns; S10: the Wave token stack
of two it takes)."""

from __future__ import annotations

import random

import pytest

from bot.boards.layout import BoardSelect
from bot.games.protocol import Action
from bot.games.steam.engine import ENGINE
from bot.games.steam.legal import MAX_DESCRIPTION, burn_of
from bot.games.steam.state import COURTS, PAWNS, STEAM, SteamState, card_code, goods_count
from cogs.steam import SteamCog
from tests.games.test_steam_build import build
from tests.support import loaded

#: The Lunatic train: steam burns Lunatic, which loses the train its 🌙.
LUNATIC_TRAIN = [["Lunatic", "Diplomat", "Chance Meeting", "Watchman", "Merchant"]]
LUNATIC_RIVER = ["Ace of Moons", "Mill", "Savage", "Sailor"]


def _burnt(state: SteamState, action: Action) -> str | None:
    """The name of the card a steam run in one go burns besides its shipment (None when a
    shipped card has the Wave), from the state, not from the description."""
    parts = action.id.split(":")
    train = state.players[state.turn].trains[int(parts[1]) - 1]
    goods = [c for c in train if goods_count(c)]
    if len(parts) == 4:
        return next(c.name for c in train if card_code(c) == parts[3])
    burn, _pick = burn_of(train, STEAM, goods)
    return None if burn is None else burn.name


def _check(state: SteamState, seat: int, actions: list[Action]) -> int:
    """Check every description of ``actions`` and return how many steam runs in one go
    were checked."""
    runs = 0
    for action in actions:
        assert action.description or action.id == "pass", action
        if action.group != "plan":  # a plan lists its trains; the board says its moves
            assert len(action.description) <= MAX_DESCRIPTION, action
        if action.id.startswith("go:") and action.id.split(":")[2] == STEAM:
            burnt = _burnt(state, action)
            if burnt is None:
                assert action.description.startswith("Nothing else burns"), action
            else:
                assert action.description.startswith(f"Burns {burnt} "), action
            takes = state.half == 2 and state.two_stack != seat
            assert ("stack of two" in action.description) == takes, action
            runs += 1
    return runs


@pytest.mark.parametrize("deck", [PAWNS, COURTS])
def test_s8_every_description_fits_a_select_option_and_a_steam_run_names_its_burn(
        deck: str) -> None:
    """Random games of 2 to 5 seats, the computer players choosing most moves: every
    choice's description fits a select option's 100 characters (the board shows it
    whole), and a steam run in one go begins with the card it burns (S8) and says the
    stack of two exactly when the run takes it (S10)."""
    rng = random.Random(deck)
    states = runs = 0
    for seed in range(12):
        state = ENGINE.new(seed, rng.randint(2, 5), {"deck": deck})
        for _ in range(300):
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)
            actions = ENGINE.legal_actions(state, seat)
            runs += _check(state, seat, actions)
            states += 1
            eager = [a.id for a in actions if a.id.startswith(("go:", "run:", "all", "wv:"))]
            choice = (ENGINE.computer_action(state, seat) if rng.random() < 0.6
                      else rng.choice(eager) if eager and rng.random() < 0.5
                      else rng.choice([a.id for a in actions if a.id != "resign"]))
            state = ENGINE.apply(state, seat, choice).state
    assert states > 300 and runs > 50


def test_s8_the_lunatic_train_s_steam_run_says_it_burns_lunatic() -> None:
    """The Lunatic train: first half, a train with both powers; the steam run in one
    go is in the "Another run…" select, and its option says first that it burns Lunatic
    and loses the 🌙, whole (the train keeps Diplomat 🌙☀️: a locomotive and power)."""
    state = build(river=LUNATIC_RIVER, trains=[LUNATIC_TRAIN])
    steam = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go:1:steam")
    said = ("Burns Lunatic 🌙🌊 (loses 🌙); ships Chance Meeting, Watchman, Merchant for 5 "
            "points.")
    assert steam.description == said
    game = loaded(ENGINE, state, seats=2)
    options = [o for item in SteamCog(None).items(game) if isinstance(item, BoardSelect)
               for o in item.options if o.value.endswith("go:1:steam")]
    assert [o.description for o in options] == [said]


def test_s10_the_lunatic_train_s_steam_run_in_the_second_half_says_the_stack_of_two() -> None:
    """The same train in the second half: the stack of two the run takes is said before
    what it ships, and the whole fits."""
    state = build(river=LUNATIC_RIVER, trains=[LUNATIC_TRAIN], half=2)
    steam = next(a for a in ENGINE.legal_actions(state, 0) if a.id == "go:1:steam")
    assert steam.description.startswith(
        "Burns Lunatic 🌙🌊 (loses 🌙); you take the ")
    assert "stack of two" in steam.description
    assert len(steam.description) <= MAX_DESCRIPTION


def test_s6_take_one_keeps_its_limits_and_the_discard() -> None:
    """A take one with the longest card labels still says the limits and that what does
    not fit is discarded (S6)."""
    state = build(river=["Chance Meeting", "Light Keeper", "Borderland", "Discovery"],
                  trains=[[["Journey", "Market"]]])
    takes = [a for a in ENGINE.legal_actions(state, 0) if a.id.startswith(("t1:", "t2:"))]
    assert takes
    for action in takes:
        assert len(action.description) <= MAX_DESCRIPTION, action
        assert "at most 2 trains of 5" in action.description, action
        if action.id.startswith("t1:"):
            assert action.description.endswith("discard what does not fit."), action


def test_s8_a_steam_run_says_what_the_train_lacks_only_when_it_lacks_it() -> None:
    """S8: a train that keeps its 🌙 and a power after the run runs again once it has
    goods: its option says nothing of it; one whose burn takes its last power says so."""
    keeps = build(river=["Mill", "Savage", "Sailor", "Forest"],
                  trains=[[["Ace of Moons", "Ace of Suns", "Ace of Waves", "Ace of Leaves"]]])
    steam = next(a for a in ENGINE.legal_actions(keeps, 0) if a.id == "go:1:steam")
    assert steam.description.startswith("Burns Ace of Waves 🌊; ships"), steam.description
    assert " left" not in steam.description
    loses = build(river=["Mill", "Savage", "Sailor", "Forest"],
                  trains=[[["Ace of Moons", "Ace of Waves", "Ace of Leaves"]]])
    steam = next(a for a in ENGINE.legal_actions(loses, 0) if a.id == "go:1:steam")
    assert steam.description.startswith("Burns Ace of Waves 🌊; no power left; ships")
