"""The engine protocol: ids, labels, purity, view, text, result, dump and load."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from bot.games.protocol import MAX_ACTION_ID, BrokenState, Engine, GameError, IllegalAction
from bot.games.registry import engine as registry_engine
from bot.games.tinrealm import heuristic
from bot.games.tinrealm.engine import ENGINE

from .helpers import C, act, deciding, fight, hero, ids, placing

ID = re.compile(r"^[A-Za-z0-9_.:+-]+$")
VIEW_KEYS = {
    "day",
    "location_in_day",
    "health",
    "max_health",
    "energy",
    "max_energy",
    "food",
    "poison",
    "favor",
    "node",
    "nodes_total",
    "map",
    "tableau",
    "top_card",
    "location",
    "result",
    "combat",
    "items",
    "race",
    "class",
    "dice",
    "over",
}


def test_engine_follows_the_protocol_and_is_registered():
    """ENGINE satisfies the Engine protocol and the registry finds it as "tinrealm"."""
    assert isinstance(ENGINE, Engine)
    assert registry_engine("tinrealm") is ENGINE
    assert (ENGINE.kind, ENGINE.title, ENGINE.min_seats, ENGINE.max_seats) == (
        "tinrealm",
        "Tin Realm",
        1,
        1,
    )
    preset = next(o for o in ENGINE.options if o.name == "preset")
    assert preset.default == "easy" and preset.choices == ("easy", "hard", "custom")
    assert {o.name for o in ENGINE.options} == {"preset", "sides", "content_path"}


def _states():
    """A spread of states: every kind of pending choice."""
    yield ENGINE.new(3)
    yield act(ENGINE.new(3), "race:marshkin")[0]
    yield hero()
    yield placing(hero(), ["mossy-ford"], "hollow-oak")
    state = hero("cinderfolk", "chanter")
    state.items += ["salve-jar", "spark-tonic", "bitterroot", "pitch-flask", "lodestone"]
    state.health, state.energy, state.poison, state.food = 4, 3, 1, 3
    yield state
    state, _ = fight(
        "moss-troll", race="marshkin", klass="chanter", food=3, health=5, energy=4, poison=1
    )
    state.items += ["salve-jar", "spark-tonic", "bitterroot", "pitch-flask", "lodestone"]
    yield state
    state = deciding(hero("marshkin", "pathfinder"), "gullwater-bank", "cinder-pass")
    state.health, state.food = 2, 3
    yield act(state, "resolve")[0]  # a brace before a deadly trap (R7)


@pytest.mark.parametrize("state", list(_states()))
def test_action_ids_are_short_ascii_with_labels_and_groups(state):
    """Ids are short ASCII, unique, labelled and grouped; at most 20 legal at once."""
    legal = ENGINE.legal_actions(state, 0)
    assert 0 < len(legal) <= 20
    assert len({a.id for a in legal}) == len(legal)
    for action in legal:
        assert ID.match(action.id) and len(action.id) <= MAX_ACTION_ID
        assert action.label and action.group
    assert ENGINE.legal_actions(state, 1) == []


def test_apply_never_changes_its_input():
    """apply() returns a new state and leaves the given one exactly as it was."""
    state = deciding(hero(), "cinder-pass", "mossy-ford")
    before = ENGINE.dump(state)
    step = ENGINE.apply(state, 0, "resolve")
    assert ENGINE.dump(state) == before
    assert step.state is not state and step.events


@pytest.mark.parametrize("action", ["bogus", "strike:2", "place:left", "use:salve-jar", ""])
def test_illegal_actions_raise_and_change_nothing(action):
    """An unknown or illegal id raises IllegalAction with a readable message."""
    state = hero()
    before = ENGINE.dump(state)
    with pytest.raises(IllegalAction, match="not something you can do"):
        ENGINE.apply(state, 0, action)
    assert ENGINE.dump(state) == before


def test_other_seats_and_finished_games_refuse_actions():
    """Seat 1 cannot act; a finished journey refuses every action."""
    with pytest.raises(IllegalAction):
        ENGINE.apply(hero(), 1, "resolve")
    state = hero()
    state.queue, state.end = [], "dead"
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.apply(state, 0, "resolve")


@pytest.mark.parametrize("state", list(_states()))
def test_view_is_json_and_has_the_board(state):
    """The view is plain JSON and holds every field a board needs."""
    view = ENGINE.view(state)
    assert set(view) >= VIEW_KEYS
    assert json.loads(json.dumps(view)) == view
    assert 1 <= view["location_in_day"] <= 6
    assert ENGINE.render_text(state).startswith("Tin Realm")


def test_view_shows_combat_and_the_last_roll():
    """While fighting the view names the enemy and its health; dice show the last roll."""
    state, _ = fight("rust-hound", 5, 2)
    view = ENGINE.view(state)
    assert view["combat"]["name"] == "Rust Hound"
    assert view["combat"]["health"] == state.fight.health
    assert view["dice"] == [5, 2]
    text = ENGINE.render_text(state)
    assert "Rust Hound" in text and "Last roll: 5 2" in text


def test_render_text_shows_map_tableau_and_top_card():
    """The text board shows the map with the meeple, the tableau and the top card."""
    state = placing(hero(), ["lantern-marsh"], "hollow-oak")
    state, _ = act(state, "place:right")
    text = ENGINE.render_text(state)
    assert "Map: S @" in text
    assert "Lantern Marsh" in text and "Top card:" in text
    assert "Stoneborn Warden" in text


def test_result_only_when_over():
    """result() is None during play and names the rank once over."""
    state = hero()
    assert ENGINE.result(state) is None
    state.queue, state.end = [], "time"
    state.day = 8
    result = ENGINE.result(state)
    assert result.outcomes[0].outcome == "loss"
    assert result.outcomes[0].detail["rank"] in result.summary
    assert f"Score {result.outcomes[0].score}" in ENGINE.render_text(state)


def test_dump_is_compact_json_and_round_trips():
    """dump() carries the schema, is JSON, and load(dump(s)) dumps the same."""
    state, _ = fight("moss-troll", 1, 1, food=2)
    data = ENGINE.dump(state)
    assert data["schema"] == ENGINE.schema_version
    text = json.dumps(data, separators=(",", ":"))
    assert len(text) < 1500
    again = ENGINE.load(json.loads(text))
    assert ENGINE.dump(again) == data
    assert ENGINE.view(again) == ENGINE.view(state)


def _corrupt(key, value):
    """A dump of a fresh hero with one key replaced."""
    data = ENGINE.dump(hero())
    data[key] = value
    return data


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        _corrupt("schema", 99),
        _corrupt("deck", ["mossy-ford"]),
        _corrupt("deck", ["nowhere"] * 12),
        _corrupt("stats", [1, 2]),
        _corrupt("stats", [99, 10, 5, 5, 0, 0, 0, 1, 0, 0]),
        _corrupt("queue", ["dance"]),
        _corrupt("queue", []),
        _corrupt("fight", ["dragon", 3, 3, []]),
        _corrupt("fight", ["moss-troll", 3, 3, []]),
        _corrupt("queue", ["fight:moss-troll", "decide"]),
        _corrupt("items", ["crown"]),
        _corrupt("sides", [3, 3, 3, 5]),
        _corrupt("race", "elf"),
        _corrupt("rng", "seed"),
        _corrupt("dice", [7]),
        _corrupt("content", "/nowhere/tinrealm.json"),
        _corrupt("preset", "nightmare"),
        {k: v for k, v in ENGINE.dump(hero()).items() if k != "items"},
    ],
)
def test_load_rejects_bad_data(data):
    """load() raises BrokenState on bad data or an unknown schema."""
    with pytest.raises(BrokenState):
        ENGINE.load(data)


def _waiting(task: str):
    """A journey played by the computer until it waits on ``task``."""
    state = hero()
    while state.waiting_for != task:
        state = ENGINE.apply(state, 0, ENGINE.computer_action(state, 0)).state
    return state


def _damaged_journeys():
    """Dumps whose every field reads well, of journeys that cannot go on."""
    automatic = ENGINE.dump(hero())
    automatic["queue"] = ["discard", *automatic["queue"][1:]]  # a task nobody chooses
    moved = ENGINE.dump(_waiting("place"))
    moved["location"], moved["result"] = None, moved["location"]  # nothing to place
    short = ENGINE.dump(_waiting("decide"))
    short["discard"] = [*short["discard"], *short["deck"][1:]]
    short["deck"] = short["deck"][:1]  # one card to decide between
    return [automatic, moved, short]


@pytest.mark.parametrize("data", _damaged_journeys())
def test_load_rejects_a_journey_that_cannot_go_on(data):
    """A journey whose task queue and cards disagree is damaged (the table shows it so,
    with how to end it), not a game whose every click fails."""
    with pytest.raises(BrokenState):
        ENGINE.load(data)


def test_computer_action_is_always_legal():
    """The heuristic picks a legal action in every kind of state."""
    for state in _states():
        assert ENGINE.computer_action(state, 0) in ids(state)


# -- the heuristic player and the revised R6 ----------------------------------------------


def _at_zero_energy(enemy: str, health: int | None = None):
    """A fight against ``enemy`` at 0 energy with nothing to eat or use."""
    state, _ = fight(enemy, klass="pathfinder", energy=0, food=0)
    state.items = []
    if health is not None:
        state.fight.health = health
    return state


def test_r6_heuristic_rolls_at_zero_energy_when_the_roll_is_worth_more():
    """R6 (revised): at 0 energy against no defense the heuristic rolls (about 1.9 damage
    on average) rather than take the sure 1."""
    state = _at_zero_energy("larder-goblin")
    assert ids(state) == ["strike:0", "blow"]
    assert ENGINE.computer_action(state, 0) == "strike:0"


def test_r6_heuristic_takes_the_sure_blow_to_finish_an_enemy():
    """R6 (revised): an enemy with 1 health left falls to the sure blow, with or without
    energy; a roll could miss on doubles."""
    assert ENGINE.computer_action(_at_zero_energy("larder-goblin", health=1), 0) == "blow"
    state, _ = fight("larder-goblin", klass="pathfinder", energy=3, food=0)
    state.items, state.fight.health = [], 1
    assert ENGINE.computer_action(state, 0) == "blow"


def test_r6_heuristic_takes_the_sure_blow_against_a_high_defense():
    """R6 (revised): when the enemy's defense eats most of a roll without bonus (defense 2:
    about 0.6 damage on average), the sure blow, which ignores defense, is worth more."""
    state = _at_zero_energy("ironhide-boar")
    state.fight.health = 20
    legal = ENGINE.legal_actions(state, 0)
    assert heuristic.choose(C, state, legal) == "strike:0"
    enemies = dict(C.enemies)
    enemies["ironhide-boar"] = dataclasses.replace(enemies["ironhide-boar"], defense=2)
    assert heuristic.choose(dataclasses.replace(C, enemies=enemies), state, legal) == "blow"


def test_a_map_side_other_than_3_or_4_is_refused_in_words() -> None:
    """The refusal names the sides as typed, not as a Python list."""
    with pytest.raises(GameError) as refused:
        ENGINE.new(1, 1, {"preset": "custom", "sides": "3,5,3,4"})
    assert str(refused.value) == "every map side must be 3 or 4, not 3, 5, 3, 4"
