"""Saving and loading a game as compact JSON; bad data raises BrokenState."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any

from bot.games.protocol import BrokenState
from bot.games.rng import SeededRandom
from bot.games.tinrealm.content import ICONS, Content, ContentError
from bot.games.tinrealm.state import FOOD_CAP, LAST_DAY, Fight, TinState

#: Numbers stored in the "stats" list, in order.
STATS = (
    "health",
    "max_health",
    "energy",
    "max_energy",
    "food",
    "poison",
    "favor",
    "day",
    "node",
    "furthest",
)
#: How a game can end ("" while it goes on).
ENDS = ("", "won", "dead", "time")
#: Tasks that take no argument.
PLAIN_TASKS = ("race", "class", "decide", "camp", "place", "discard", "dawn", "brace")


def dump(s: TinState, schema: int) -> dict[str, Any]:
    """Return the state as compact JSON-able data, sharing nothing with the state (a
    change of the data cannot change the state)."""
    fight = s.fight
    return {
        "schema": schema,
        "rng": s.rng.to_json(),
        "sides": list(s.sides),
        "preset": s.preset,
        "content": s.content_path,
        "race": s.race,
        "class": s.klass,
        "stats": [getattr(s, name) for name in STATS],
        "deck": list(s.deck),
        "discard": list(s.discard),
        "tableau": list(s.tableau),
        "location": s.location,
        "result": s.result_card,
        "queue": list(s.queue),
        "fight": ([fight.enemy, fight.health, fight.start_health, list(fight.spent)]
                  if fight else None),
        "items": list(s.items),
        "spent": list(s.spent_today),
        "dice": list(s.dice),
        "end": s.end,
        "supper": s.supper,
    }


def _need(ok: bool, problem: str) -> None:
    """Raise BrokenState unless ``ok``."""
    if not ok:
        raise BrokenState(f"saved Tin Realm game is broken: {problem}")


def _ids(value: Any, known: Mapping[str, Any], what: str) -> list[str]:
    """A list of known ids."""
    _need(isinstance(value, list) and all(v in known for v in value), f"bad {what} {value!r}")
    return list(value)


def _id(value: Any, known: Mapping[str, Any], what: str) -> str | None:
    """A known id or None."""
    _need(value is None or value in known, f"bad {what} {value!r}")
    return value


def _task(c: Content, task: Any) -> bool:
    """Whether a queue entry is a task this engine knows."""
    if not isinstance(task, str):
        return False
    kind, _, arg = task.partition(":")
    if kind in PLAIN_TASKS:
        return not arg
    return (
        (kind == "icon" and arg in ICONS)
        or (kind == "fight" and arg in c.enemies)
        or (kind == "offer" and arg in c.encounters)
    )


def load(
    data: Mapping[str, Any],
    schema: int,
    content_for: Callable[[str | None], Content],
    presets: tuple[str, ...],
) -> TinState:
    """Rebuild a state from :func:`dump` output, checking every field."""
    _need(isinstance(data, Mapping), "not an object")
    _need(data.get("schema") == schema, f"unknown schema {data.get('schema')!r}")
    try:
        return _load(data, content_for, presets)
    except ContentError as exc:
        raise BrokenState(f"saved Tin Realm game names unusable content: {exc}") from exc
    except (KeyError, TypeError, ValueError) as exc:
        raise BrokenState(f"saved Tin Realm game is broken: {exc!r}") from exc


def _load(
    data: Mapping[str, Any], content_for: Callable[[str | None], Content], presets: tuple[str, ...]
) -> TinState:
    """Rebuild and check the state (any KeyError/TypeError/ValueError means broken)."""
    path = data["content"]
    _need(path is None or isinstance(path, str), "bad content path")
    c = content_for(path)
    rng = data["rng"]
    _need(isinstance(rng, list) and len(rng) == 2 and all(type(v) is int for v in rng), "bad rng")
    sides = data["sides"]
    _need(
        isinstance(sides, list) and len(sides) == len(c.maps) and all(v in (3, 4) for v in sides),
        "bad map sides",
    )
    _need(data["preset"] in presets, "bad preset")
    stats = data["stats"]
    _need(
        isinstance(stats, list)
        and len(stats) == len(STATS)
        and all(type(v) is int and v >= 0 for v in stats),
        "bad stats",
    )
    s = TinState(SeededRandom.from_json(rng), list(sides), data["preset"], path)
    for name, value in zip(STATS, stats, strict=True):
        setattr(s, name, value)
    s.race = _id(data["race"], c.races, "race")
    s.klass = _id(data["class"], c.classes, "class")
    s.deck = _ids(data["deck"], c.exploration, "deck")
    s.discard = _ids(data["discard"], c.exploration, "discard")
    s.tableau = _ids(data["tableau"], c.exploration, "tableau")
    s.location = _id(data["location"], c.exploration, "location")
    s.result_card = _id(data["result"], c.exploration, "result card")
    cards = s.deck + s.discard + s.tableau + [v for v in (s.location, s.result_card) if v]
    _need(
        Counter(cards) == Counter(list(c.exploration)), "the 12 exploration cards are not all there"
    )
    s.queue = list(data["queue"])
    _need(all(_task(c, task) for task in s.queue), "bad task queue")
    braced = [then for task, then in pairwise(s.queue) if task == "brace"]
    _need(
        s.queue[-1:] != ["brace"] and all(then.startswith(("icon:", "fight:")) for then in braced),
        "a brace must come just before an icon or a combat",
    )
    s.items = _ids(data["items"], c.items, "items")
    s.spent_today = _ids(data["spent"], c.items, "spent items")
    fight = data["fight"]
    if fight is not None:
        enemy, health, start, spent = fight
        _need(enemy in c.enemies and type(health) is int and type(start) is int, "bad fight")
        s.fight = Fight(enemy, health, start, _ids(spent, c.items, "fight items"))
    fighting = bool(s.queue) and s.queue[0].startswith("fight:")
    _need(fighting == (s.fight is not None), "combat does not match the task queue")
    dice = data["dice"]
    _need(isinstance(dice, list) and all(type(v) is int and 1 <= v <= 6 for v in dice), "bad dice")
    s.dice = list(dice)
    _need(data["end"] in ENDS and (data["end"] == "") == bool(s.queue), "bad end")
    s.end = data["end"]
    supper = data.get("supper", False)  # absent from games saved before it was kept
    _need(type(supper) is bool and (not supper or s.end in ("dead", "time")), "bad supper")
    s.supper = supper
    _need(
        s.health <= s.max_health
        and s.energy <= s.max_energy
        and s.food <= FOOD_CAP
        and 1 <= s.day <= LAST_DAY + 1
        and s.node <= s.furthest < len(c.nodes(s.sides)),
        "stats out of bounds",
    )
    return s
