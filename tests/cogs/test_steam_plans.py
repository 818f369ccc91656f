"""A Steam to Solar plan's button names what it leads to, with every card of either deck.

A whole plan (rearranging every train at once) is labelled by its result: the train that
can run, on which power, for how many points, and the cards of each train. The Courts
(ruling S1's table option) must count as much as the Pawns.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.games import registry
from bot.games.protocol import Action
from cogs.steam import PLACEHOLDERS
from cogs.steam_words import _plan_label, short_label
from tests.cogs.board_messages import board_renderer, message, played
from tests.support import loaded

ENGINE = registry.engine("steam")


def _train_sizes(plan: Action) -> list[int]:
    """How many cards each train of the plan holds, read from its description."""
    listing = plan.description.removeprefix("Arrange as ").rstrip(".")
    return [len(part.split(": ", 1)[-1].split(", ")) for part in listing.split(" · ")]


def _label_sizes(label: str) -> list[int]:
    found = re.search(r"· ([\d + ]+) cards$", label)
    assert found, label
    return [int(n) for n in found.group(1).split(" + ")]


@pytest.mark.parametrize("deck", ["pawns", "courts"])
def test_s1_every_plan_label_counts_every_card_of_its_trains(deck: str) -> None:
    rng = random.Random(deck)
    plans = 0
    for seed in range(40):
        state = ENGINE.new(seed, 3, {"deck": deck})
        for _ in range(400):
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)
            actions = ENGINE.legal_actions(state, seat)
            for plan in (a for a in actions if a.group == "plan"):
                assert _label_sizes(_plan_label(plan)) == _train_sizes(plan), plan
                plans += 1
            choice = (ENGINE.computer_action(state, seat) if rng.random() < 0.7
                      else rng.choice(actions).id)
            state = ENGINE.apply(state, seat, choice).state
    assert plans > 50  # the games reached many rearrangements


def test_s1_a_plan_with_courts_names_the_train_that_runs() -> None:
    """Island and Consul (two Courts) make a train that runs (S8): the plan says so."""
    data = ENGINE.dump(ENGINE.new(1, 2, {"deck": "courts", "start_seat": 0}))
    data["half"] = 2
    data["deck"] += data["sunny"]
    data["sunny"] = []
    for name in ("Island", "Consul"):
        for pile in ("deck", "river"):
            if name in data[pile]:
                at = data[pile].index(name)
                if pile == "river":  # the river keeps four cards
                    data["river"][at] = data["deck"].pop()
                else:
                    data["deck"].pop(at)
    data["players"][0]["trains"] = [["Island", "Consul"]]
    state = ENGINE.apply(ENGINE.load(data), 0, "t1:1").state
    labels = {_plan_label(a) for a in ENGINE.legal_actions(state, 0) if a.group == "plan"}
    whole = [label for label in labels if label.endswith("· 3 cards")]
    assert whole and all(re.match(r"Plan [A-Z] · Train 1 runs on", label) for label in whole), \
        labels



def _moved(description: str) -> list[tuple[list[str], int]]:
    """The (cards, train number) pairs of a "Moves A, B to train 2 · C to a new train."."""
    pairs = []
    for part in description.removeprefix("Moves ").rstrip(".").split(" · "):
        names, where = part.rsplit(" to ", 1)
        pairs.append((names.split(", "), 0 if where == "a new train" else int(where[6:])))
    return pairs


def test_s6_a_plan_option_says_which_cards_it_moves_where() -> None:
    """A plan's option says the cards it moves and to which train, within Discord's 100
    letters (the whole listing, cut at 100, only where that does not fit), and each card
    named is on that train once the plan is made."""
    rng = random.Random(6)
    said = 0
    for seed in range(25):
        state = ENGINE.new(seed, 3, {})
        for _ in range(400):
            if ENGINE.is_over(state):
                break
            seat = ENGINE.to_act(state)
            actions = ENGINE.legal_actions(state, seat)
            game = loaded(ENGINE, state, seats=3)
            for plan in (a for a in actions if a.group == "plan"):
                shown = short_label(plan, game).description
                if not shown.startswith("Moves "):
                    assert shown == plan.description and len(shown) > 100
                    continue
                assert len(shown) <= 100
                trains = ENGINE.view(ENGINE.apply(state, seat, plan.id).state)[
                    "players"][seat]["trains"]
                count = len(ENGINE.view(state)["players"][seat]["trains"])
                for names, number in _moved(shown):
                    index = count if number == 0 else number - 1
                    assert set(names) <= {c["name"] for c in trains[index]}, (shown, trains)
                said += 1
            choice = (ENGINE.computer_action(state, seat) if rng.random() < 0.7
                      else rng.choice(actions).id)
            state = ENGINE.apply(state, seat, choice).state
    assert said > 100


def test_s6_no_two_plans_in_one_menu_share_a_label() -> None:
    """Two plans often lead to the same result ("No train can run yet · 2 + 1 cards"
    twice): each option starts with the plan's letter, so the menu never shows one
    label twice, and the cards each plan moves stay in its description."""
    boards = board_renderer(False)
    menus = 0
    for game in played("steam", 20, 5):
        if game.row.status != "active":
            continue
        for row in message(boards, game).json["components"]:
            for c in row["components"]:
                if c["type"] != 3 or c.get("placeholder") != PLACEHOLDERS["plan"]:
                    continue
                plans = [o["label"] for o in c["options"] if o["value"].startswith("ar:")]
                menus += bool(plans)
                assert len(plans) == len(set(plans)), plans
    assert menus > 20
