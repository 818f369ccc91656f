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
from cogs.steam import _plan_label

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
    assert whole and all(label.startswith("Train 1 runs on") for label in whole), labels

