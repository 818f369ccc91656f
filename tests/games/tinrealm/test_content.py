"""The content file: the shipped set loads, and broken copies fail naming card and field."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.games.tinrealm.content import (
    DEFAULT_PATH,
    ENCOUNTER_KINDS,
    ITEM_KINDS,
    POWERS,
    ContentError,
    load_content,
    parse_content,
)
from bot.games.tinrealm.engine import TinRealmEngine

RAW: dict[str, Any] = json.loads(DEFAULT_PATH.read_text(encoding="utf-8"))


def broken(change) -> dict[str, Any]:
    """A deep copy of the shipped data with ``change`` applied to it."""
    data = copy.deepcopy(RAW)
    change(data)
    return data


def test_shipped_content_holds_every_component_the_rulebook_lists():
    """12 exploration, 4 map, 9 enemy, 8 loot cards, 6 trapping sides, 3 races and classes."""
    c = load_content()
    assert len(c.exploration) == 12
    assert len(c.maps) == 4
    assert len(c.enemies) == 9
    assert len(c.loot) == 8
    assert sum(item.trapping for item in c.items.values()) == 6
    assert len(c.races) == 3
    assert len(c.classes) == 3
    assert len(c.encounters) == 8
    assert {"Altar", "Campsite"} <= {e.name for e in c.encounters.values()}


def test_shipped_content_uses_every_power_item_and_encounter_kind():
    """Each enemy has its own power; every item and encounter kind the engine knows is used."""
    c = load_content()
    assert sorted(e.power for e in c.enemies.values()) == sorted(POWERS)
    assert {i.kind for i in c.items.values()} == set(ITEM_KINDS)
    assert {e.kind for e in c.encounters.values()} == set(ENCOUNTER_KINDS)


def test_every_result_side_names_an_enemy_trap_encounter_and_loot():
    """Every card can serve as a result card: it names an enemy, a trap and an encounter."""
    c = load_content()
    for card in c.exploration.values():
        assert card.enemy in c.enemies
        assert card.trap.amount > 0
        assert card.encounter[0] in ("enemy", "reference")
        assert card.loot is None or card.loot in c.loot


def test_skull_halves_are_rare():
    """At most 4 of the 24 edges carry half a skull."""
    edges = [e for card in load_content().exploration.values() for e in (card.left, card.right)]
    assert 0 < edges.count("skull") <= 4


def test_maps_have_start_and_finish_on_both_sides():
    """S opens the first map card and F closes the last, on both sides."""
    c = load_content()
    for sides in ([3, 3, 3, 3], [4, 4, 4, 4]):
        nodes = c.nodes(sides)
        assert nodes[0] == "S" and nodes[-1] == "F"
        assert nodes.count("S") == nodes.count("F") == 1


def _set(path: list[Any], value: Any):
    """A change that sets ``data[path...] = value``."""

    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: list[Any]):
    """A change that deletes ``data[path...]``."""

    def change(data: dict[str, Any]) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


BROKEN = [
    (_set(["exploration", 0, "icons"], ["water", "dragon"]), ["Mossy Ford", "'icons'", "dragon"]),
    (_set(["exploration", 0, "icons"], []), ["Mossy Ford", "'icons'"]),
    (_set(["exploration", 1, "edges"], ["none", "lava"]), ["Cinder Pass", "'edges'", "lava"]),
    (_set(["exploration", 0, "result", "enemy"], "dragon"), ["Mossy Ford", "'enemy'", "dragon"]),
    (_set(["exploration", 0, "result", "trap", "kind"], "gold"), ["Mossy Ford", "trap", "'kind'"]),
    (_set(["exploration", 0, "result", "trap", "amount"], 0), ["Mossy Ford", "trap", "'amount'"]),
    (_set(["exploration", 0, "result", "loot"], "crown"), ["Mossy Ford", "'loot'", "crown"]),
    (
        _set(["exploration", 0, "result", "encounter"], {"beast": "x"}),
        ["Mossy Ford", "'encounter'"],
    ),
    (
        _set(["exploration", 0, "result", "encounter"], {"reference": "x"}),
        ["Mossy Ford", "'reference'"],
    ),
    (_delete(["exploration", 2, "name"]), ["hollow-oak", "'name'", "missing"]),
    (_set(["enemies", 0, "health"], -1), ["Rust Hound", "'health'", "-1"]),
    (_set(["enemies", 0, "undead"], "no"), ["Rust Hound", "'undead'"]),
    (_set(["enemies", 1, "power"], {"kind": "fly"}), ["Bog Crawler", "power", "'kind'", "fly"]),
    (_delete(["enemies", 1, "power", "amount"]), ["Bog Crawler", "power", "'amount'", "missing"]),
    (_set(["loot", 1, "effect", "kind"], "wish"), ["Salve Jar", "effect", "'kind'", "wish"]),
    (_set(["loot", 1, "effect", "uses"], "passive"), ["Salve Jar", "effect", "'uses'"]),
    (_set(["loot", 5, "effect", "amount"], 2), ["Grapple Line", "'amount'", "no amount"]),
    (_set(["trappings", 2, "sides", 1, "effect", "uses"], "twice"), ["Buckler", "'uses'", "twice"]),
    (
        _set(["classes", 0, "trappings"], ["throwing-axe", "salve-jar"]),
        ["Warden", "'trappings'", "salve-jar"],
    ),
    (
        _set(["classes", 0, "trappings"], [["rope", "lamp"], "salve-jar"]),
        ["Warden", "'trappings'", "['rope', 'lamp']"],
    ),
    (_set(["races", 0, "back"], "bard"), ["Cinderfolk", "'back'", "bard", "not a class"]),
    (_delete(["races", 1, "back"]), ["Marshkin", "'back'", "missing"]),
    (
        _set(["races", 1, "back"], "pathfinder"),
        ["Marshkin", "'back'", "already on the back of 'Cinderfolk'"],
    ),
    (
        _set(["classes", 0, "trappings"], ["throwing-axe", "waybread-tin"]),
        ["Warden", "'trappings'", "both sides of trapping card", "Hunter's Roll"],
    ),
    (
        _set(["classes", 0, "trappings"], ["trail-chart", "buckler"]),
        ["'trappings'", "'trail-chart' is already the starting trapping of 'Warden'"],
    ),
    (_set(["classes", 0, "chart"], [5, 4, 6]), ["Warden", "'chart'"]),
    (_set(["classes", 1, "chart"], [1, 2]), ["Pathfinder", "'chart'"]),
    (_delete(["races", 1, "text"]), ["Marshkin", "'text'", "missing"]),
    (
        _set(["races", 2, "ability"], {"kind": "flight", "amount": 1}),
        ["Stoneborn", "ability", "flight"],
    ),
    (_set(["races", 0, "food"], 9), ["Cinderfolk", "'food'"]),
    (_set(["map", 1, "sides", "3"], ["S", "-", "-"]), ["Thornwood", "'3'", "S"]),
    (_set(["map", 3, "sides", "4"], ["-", "-", "-", "-"]), ["Oakinshelm Gate", "'4'", "F"]),
    (_set(["map", 0, "sides", "4"], ["S", "-", "-"]), ["Greywater Road", "'4'"]),
    (_set(["map", 2, "sides", "3"], ["bridge", "-", "-"]), ["Saltmere Flats", "'3'", "bridge"]),
    (_set(["reference", 0, "sides", 0, "effect", "pay"], {"gold": 1}), ["Altar", "'pay'", "gold"]),
    (_set(["reference", 0, "sides", 0, "effect", "pay"], {"food": -1}), ["Altar", "'pay'"]),
    (
        _set(["reference", 2, "sides", 0, "effect", "kind"], "teleport"),
        ["Hidden Trail", "teleport"],
    ),
    (_set(["exploration", 1, "id"], "mossy-ford"), ["Cinder Pass", "'id'", "twice"]),
    (_set(["exploration", 1, "id"], "Bad Id!"), ["Cinder Pass", "'id'"]),
    (_set(["exploration"], RAW["exploration"][:11]), ["'exploration'", "12"]),
    (_set(["format"], 3), ["'format'", "3", "reads 2"]),
    (_set(["format"], 1), ["'format'", "predates", "double-sided race/class cards"]),
    (_set(["enemies", 3], "Hollow Knight"), ["enemy #4", "must be an object"]),
    # A fight that could never end: the troll heals as much as a bare roll can deal.
    (_set(["enemies", 5, "defense"], 4), ["Moss Troll", "'defense'", "regenerate 1"]),
    (_set(["enemies", 5, "power", "amount"], 4), ["Moss Troll", "'defense'", "never end"]),
]


@pytest.mark.parametrize(("change", "words"), BROKEN)
def test_broken_content_names_the_card_and_field(change, words, tmp_path: Path):
    """A broken copy of the content file fails with a ContentError naming card and field."""
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(broken(change)), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(path)
    for word in words:
        assert word in str(caught.value)


def test_the_old_format_error_names_no_ruling(tmp_path: Path):
    """The error an admin reads for a format 1 file says why without a ruling id."""
    path = tmp_path / "old.json"
    path.write_text(json.dumps(broken(_set(["format"], 1))), encoding="utf-8")
    with pytest.raises(ContentError) as caught:
        load_content(path)
    assert not re.search(r"\b[TSRC][0-9]{1,2}\b|\brulings?\b", str(caught.value))


def test_unreadable_files_are_content_errors(tmp_path: Path):
    """A missing file or invalid JSON is reported as a ContentError naming the file."""
    with pytest.raises(ContentError, match="cannot read"):
        load_content(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_content(bad)
    with pytest.raises(ContentError, match="must be an object"):
        parse_content([1, 2])


def test_a_replacement_file_is_played_through_content_path(tmp_path: Path):
    """R1: a game started with content_path uses that file's numbers."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(broken(_set(["races", 2, "health"], 12))), encoding="utf-8")
    engine = TinRealmEngine()
    state = engine.new(1, options={"content_path": str(path)})
    for action in ("race:stoneborn", "class:warden"):
        state = engine.apply(state, 0, action).state
    assert state.max_health == 12 + engine.content().classes["warden"].health
    again = engine.load(engine.dump(state))
    assert again.content_path == str(path)
    assert engine.view(again)["max_health"] == state.max_health


def test_a_bad_content_path_fails_at_start(tmp_path: Path):
    """Starting a game with a broken content file raises ContentError, not a crash later."""
    with pytest.raises(ContentError):
        TinRealmEngine().new(1, options={"content_path": str(tmp_path / "none.json")})


def test_engine_can_be_built_around_loaded_content():
    """An engine made with content uses it as its default."""
    c = parse_content(broken(_set(["races", 0, "food"], 4)))
    engine = TinRealmEngine(c)
    state = engine.new(3)
    state = engine.apply(engine.apply(state, 0, "race:cinderfolk").state, 0, "class:chanter").state
    assert state.food == 4


def test_a_content_file_that_cannot_be_used_is_read_once_and_said_afresh_each_time(
        tmp_path, monkeypatch):
    """The engine reads an unusable file once: every later ask raises a fresh error that
    says why (a kept one would carry every earlier caller's frames for good), and a
    fault the checks let through is said as one of the file's."""
    from bot.games.tinrealm import engine as engines
    from bot.games.tinrealm.engine import TinRealmEngine

    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    engine = TinRealmEngine()
    reads: list[object] = []
    real = engines.load_content
    monkeypatch.setattr(engines, "load_content", lambda path=None: reads.append(path) or real(path))
    raised = []
    for _ in range(3):
        with pytest.raises(ContentError, match="not valid JSON") as caught:
            engine.content(str(broken))
        raised.append(caught.value)
    assert reads == [str(broken)] and len({id(e) for e in raised}) == 3

    def depth(error: BaseException) -> int:
        frames, tb = 0, error.__traceback__
        while tb is not None:
            frames, tb = frames + 1, tb.tb_next
        return frames

    assert depth(raised[0]) == depth(raised[-1])  # no frames gathered from ask to ask

    def odd(path: object = None) -> object:
        raise TypeError("unhashable type: 'list'")

    monkeypatch.setattr(engines, "load_content", odd)
    with pytest.raises(ContentError, match="not a content file"):
        engine.content(str(tmp_path / "odd.json"))
