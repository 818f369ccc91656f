"""Tin Realm content: the cards as data, loaded from JSON and validated at start.

The rulebook lists the components but not what is printed on them, so the project ships
its own content set (``content.json`` beside this module). A player who owns the printed
game can write its values into a file of the same shape and point the bot at it (the
``TINREALM_CONTENT`` setting). The format is described in ``docs/tinrealm-content.md``.
Every problem is reported as a :class:`ContentError` naming the card and the field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

#: The shipped content file.
DEFAULT_PATH = Path(__file__).with_name("content.json")

#: Exploration icons, in the rulebook's order: a card lists its icons in this order, and
#: they resolve left to right.
ICONS = ("enemy", "trap", "encounter", "loot", "campsite", "water")
#: Edge icons of exploration cards ("skull" is half a skull).
EDGES = ("forest", "water", "mountain", "skull", "none")
#: An edge of an exploration card in words: where its path leads.
EDGE_WORDS = {"forest": "forest", "water": "water", "mountain": "mountain",
              "skull": "skull", "half-skull": "skull", "none": "no path", "-": "no path"}
#: Edge icons that advance the meeple when they match.
LANDSCAPES = ("forest", "water", "mountain")
#: What a trap costs.
TRAP_KINDS = ("health", "energy", "poison")
#: Map node marks: start, finish, campsite, water, plain road.
NODE_MARKS = ("S", "F", "campsite", "water", "-")
#: Stats an encounter may pay or change.
STATS = ("health", "energy", "food", "poison", "favor")
#: Enemy powers: kind -> whether it takes an amount.
POWERS = {
    "strikes_first": False,
    "poison": True,
    "drain": True,
    "reroll_doubles": False,
    "doubles_hit": True,
    "regenerate": True,
    "steal_food": True,
    "death_curse": True,
    "enrage": True,
}
#: Item effects: kind -> (takes an amount, allowed uses, when a player can use it).
#: ``auto`` items work by themselves; ``any`` items are used at any time, ``combat`` only
#: while fighting, ``peace`` only outside combat.
ITEM_KINDS: dict[str, tuple[bool, tuple[str, ...], str]] = {
    "helm": (True, ("passive",), "auto"),
    "weapon": (True, ("passive",), "auto"),
    "ward": (True, ("passive",), "auto"),
    "block": (True, ("once", "per_day", "per_combat"), "auto"),
    "trap_guard": (False, ("once", "per_day"), "auto"),
    "heal": (True, ("once", "per_day"), "any"),
    "restore": (True, ("once", "per_day"), "any"),
    "cure": (True, ("once", "per_day"), "any"),
    "bomb": (True, ("once", "per_day", "per_combat"), "combat"),
    "advance": (True, ("once", "per_day"), "peace"),
}
#: Race abilities (each takes an amount).
ABILITIES = ("undead_bane", "forager", "trap_ward")
#: Reference card (random encounter) effects.
ENCOUNTER_KINDS = ("gain", "offer", "campsite", "loot", "move")
#: How many of each component the rulebook lists.
COUNTS = {
    "exploration": 12,
    "map": 4,
    "enemies": 9,
    "loot": 8,
    "trappings": 3,
    "races": 3,
    "classes": 3,
    "reference": 4,
}
#: The content format this bot reads (2: race/class cards name their backs, R1).
FORMAT = 2
_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,19}$")


class ContentError(ValueError):
    """The content file is unreadable or a card in it is wrong (the message says where)."""


@dataclass(frozen=True, slots=True)
class Trap:
    """A trap on a result card: what it costs (health, energy or poison) and how much."""

    kind: str
    amount: int


@dataclass(frozen=True, slots=True)
class ExplorationCard:
    """One exploration card: illustrated side (icons, edges) and result side."""

    id: str
    name: str
    icons: tuple[str, ...]
    left: str
    right: str
    enemy: str
    trap: Trap
    encounter: tuple[str, str]
    loot: str | None


@dataclass(frozen=True, slots=True)
class MapCard:
    """One map card: its node marks on the 3-space and the 4-space side."""

    id: str
    name: str
    sides: Mapping[int, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class Enemy:
    """An enemy card: printed health, attack, defense, favor, power and undead mark."""

    id: str
    name: str
    health: int
    attack: int
    defense: int
    favor: int
    undead: bool
    power: str
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class Item:
    """A loot card or one side of a trapping card: an effect, its amount and its uses.

    ``when`` says when a player can use it: ``auto``, ``any``, ``combat`` or ``peace``.
    """

    id: str
    name: str
    kind: str
    amount: int
    uses: str
    text: str
    trapping: bool
    when: str
    card: str = ""


@dataclass(frozen=True, slots=True)
class TrappingCard:
    """A trapping card: two item sides, each taken by a different class (R1)."""

    id: str
    name: str
    sides: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Race:
    """A race: health, energy, starting food, one special ability, and its card's back.

    ``back`` is the id of the class printed on the back of this race's card (R1).
    """

    id: str
    name: str
    health: int
    energy: int
    food: int
    ability: str
    amount: int
    text: str
    back: str = ""


@dataclass(frozen=True, slots=True)
class AdventurerClass:
    """A class: health, energy, the 1/2/3-energy damage chart and two starting trappings."""

    id: str
    name: str
    health: int
    energy: int
    chart: tuple[int, int, int]
    trappings: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Encounter:
    """One side of a reference card: a random encounter and its effect."""

    id: str
    name: str
    kind: str
    pay: Mapping[str, int]
    gain: Mapping[str, int]
    amount: int
    text: str


@dataclass(frozen=True, slots=True)
class Content:
    """Every Tin Realm card, by id, as loaded from one content file."""

    source: str
    exploration: Mapping[str, ExplorationCard]
    maps: tuple[MapCard, ...]
    enemies: Mapping[str, Enemy]
    loot: tuple[str, ...]
    items: Mapping[str, Item]
    races: Mapping[str, Race]
    classes: Mapping[str, AdventurerClass]
    encounters: Mapping[str, Encounter]
    trapping_cards: Mapping[str, TrappingCard]
    #: The rules' edition these cards are played by: :data:`EDITION`, or an earlier one
    #: to read a journey logged then (see :func:`edition`).
    edition: int = 3

    def classes_for(self, race: str) -> tuple[str, ...]:
        """Return the classes open to ``race``: the backs of the two other cards (R1)."""
        return tuple(r.back for r in self.races.values() if r.id != race)

    def pairs(self) -> list[tuple[str, str]]:
        """Return every possible (race, class) pair, race by race (6 with 3 cards, R1)."""
        return [(race, klass) for race in self.races for klass in self.classes_for(race)]

    def nodes(self, sides: list[int]) -> list[str]:
        """Return the marks of every map node, S first and F last, for these sides."""
        return [
            mark for card, side in zip(self.maps, sides, strict=True) for mark in card.sides[side]
        ]


#: The rules' edition of today's engine. The journeys logged before it were played by
#: an earlier one (read by them for a replay or a share, :func:`edition`):
#:
#: - edition 2, from 5 December 2026 12:53 to 15:35 UTC: a sure blow dealt 1 to any foe
#:   (the race's bane against the undead came only with landed rolled strikes), a trap
#:   guard was spent on a trap that found nothing to take, and two cards resolved their
#:   icons in their printed order (Mossy Ford: water, then loot; Fallow Barrow:
#:   encounter, enemy, loot);
#: - edition 1, from 2 December 2026 (the content re-tuned with R6) to edition 2: as
#:   edition 2, and a Buckler was kept when the helm brought a hit to 0.
EDITION = 3

#: The cards whose icons resolved in another order before edition 3.
_PRINTED_ICONS = {
    "mossy-ford": ("water", "loot"),
    "fallow-barrow": ("encounter", "enemy", "loot"),
}


def edition(content: Content, number: int) -> Content:
    """Return ``content`` as the rules' edition ``number`` (1 or 2, see :data:`EDITION`)
    played it, to read a journey logged then the way it was played."""
    cards = {key: replace(card, icons=_PRINTED_ICONS[key])
             if key in _PRINTED_ICONS and set(card.icons) == set(_PRINTED_ICONS[key])
             else card for key, card in content.exploration.items()}
    return replace(content, exploration=cards, edition=number)


class _Entry:
    """Reads the fields of one card, raising ContentError that names the card and field."""

    def __init__(self, where: str, data: Any) -> None:
        if not isinstance(data, Mapping):
            raise ContentError(f"{where}: must be an object, not {type(data).__name__}")
        self.where = where
        self.data = data

    def fail(self, field: str, problem: str) -> ContentError:
        """Return the error for ``field``."""
        return ContentError(f"{self.where}: field {field!r}: {problem}")

    def raw(self, field: str) -> Any:
        """Return a field that must be present."""
        if field not in self.data:
            raise self.fail(field, "missing")
        return self.data[field]

    def text(self, field: str) -> str:
        """Return a non-empty string field."""
        value = self.raw(field)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(field, f"must be a non-empty string, not {value!r}")
        return value

    def ident(self, field: str = "id") -> str:
        """Return an id: 1-20 lowercase letters, digits or dashes."""
        value = self.raw(field)
        if not isinstance(value, str) or not _ID.match(value):
            raise self.fail(field, f"{value!r} is not an id (1-20 of a-z, 0-9, '-')")
        return value

    def number(self, field: str, low: int, high: int) -> int:
        """Return an integer field within ``low``..``high``."""
        value = self.raw(field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(field, f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    def choice(self, field: str, options: tuple[str, ...], value: Any = None) -> str:
        """Return a field (or ``value``) that must be one of ``options``."""
        value = self.raw(field) if value is None else value
        if value not in options:
            raise self.fail(field, f"{value!r} is not one of {', '.join(options)}")
        return value

    def flag(self, field: str) -> bool:
        """Return a true/false field."""
        value = self.raw(field)
        if not isinstance(value, bool):
            raise self.fail(field, f"must be true or false, not {value!r}")
        return value

    def items(self, field: str, low: int, high: int) -> list[Any]:
        """Return a list field with ``low``..``high`` entries."""
        value = self.raw(field)
        if not isinstance(value, list) or not low <= len(value) <= high:
            size = f"{low}" if low == high else f"{low} to {high}"
            raise self.fail(field, f"must be a list of {size} entries, not {value!r}")
        return value

    def entry(self, field: str) -> _Entry:
        """Return an object field as an entry of its own."""
        return _Entry(f"{self.where}, {field}", self.raw(field))

    def stats(self, field: str) -> dict[str, int]:
        """Return a map of stat name to a whole number (an encounter's pay or gain)."""
        value = self.raw(field)
        if not isinstance(value, Mapping) or not value:
            raise self.fail(field, f"must be a non-empty object of stats, not {value!r}")
        result = {}
        for stat, amount in value.items():
            self.choice(field, STATS, stat)
            if isinstance(amount, bool) or not isinstance(amount, int) or not -9 <= amount <= 9:
                raise self.fail(field, f"{stat}: must be a whole number from -9 to 9")
            result[stat] = amount
        return result


def _label(kind: str, data: Any, index: int) -> str:
    """Name a card for error messages: its name, else its id, else its position."""
    if isinstance(data, Mapping):
        for key in ("name", "id"):
            if isinstance(data.get(key), str):
                return f"{kind} {data[key]!r}"
    return f"{kind} #{index + 1}"


def _section(root: _Entry, field: str, kind: str) -> list[_Entry]:
    """Return the entries of one top-level list, which must hold the rulebook's count."""
    count = COUNTS[field]
    return [_Entry(_label(kind, d, i), d) for i, d in enumerate(root.items(field, count, count))]


def _unique(entries: list[Any], what: str) -> dict[str, Any]:
    """Index entries by id; a repeated id is an error."""
    result: dict[str, Any] = {}
    for entry in entries:
        if entry.id in result:
            raise ContentError(f"{what} {entry.name!r}: field 'id': {entry.id!r} is used twice")
        result[entry.id] = entry
    return result


def _item(entry: _Entry, card: str = "") -> Item:
    """Read one loot card or trapping side."""
    effect = entry.entry("effect")
    kind = effect.choice("kind", tuple(ITEM_KINDS))
    takes_amount, uses, when = ITEM_KINDS[kind]
    amount = effect.number("amount", 1, 9) if takes_amount else 0
    if not takes_amount and "amount" in effect.data:
        raise effect.fail("amount", f"a {kind} item takes no amount")
    return Item(
        entry.ident(),
        entry.text("name"),
        kind,
        amount,
        effect.choice("uses", uses),
        entry.text("text"),
        bool(card),
        when,
        card,
    )


#: The most a roll without bonus can deal before defense: the largest difference of two dice.
BEST_ROLL = 5


def _enemy(entry: _Entry) -> Enemy:
    """Read one enemy card.

    A regenerating enemy must heal less than a roll without bonus can deal through its
    defense: otherwise a player with no energy, food or gear could never wear it down
    (the sure blow's 1 heals back too), nor it the player behind a helm, and the fight
    would never end.
    """
    power = entry.entry("power")
    kind = power.choice("kind", tuple(POWERS))
    amount = power.number("amount", 1, 9) if POWERS[kind] else 0
    defense = entry.number("defense", 0, 9)
    if kind == "regenerate" and amount >= BEST_ROLL - defense:
        raise entry.fail("defense", (
            f"{defense} with regenerate {amount}: the best roll without bonus "
            f"({BEST_ROLL}) must deal more than the enemy heals, or a fight with it "
            "might never end"))
    return Enemy(
        entry.ident(),
        entry.text("name"),
        entry.number("health", 1, 20),
        entry.number("attack", 0, 9),
        defense,
        entry.number("favor", 0, 9),
        entry.flag("undead"),
        kind,
        amount,
        entry.text("text"),
    )


def _encounter(entry: _Entry) -> Encounter:
    """Read one side of a reference card."""
    effect = entry.entry("effect")
    kind = effect.choice("kind", ENCOUNTER_KINDS)
    pay = effect.stats("pay") if kind == "offer" else {}
    gain = effect.stats("gain") if kind in ("offer", "gain") else {}
    if any(amount <= 0 for amount in pay.values()):
        raise effect.fail("pay", "every amount paid must be above 0")
    amount = effect.number("amount", -9, 9) if kind == "move" else 0
    return Encounter(entry.ident(), entry.text("name"), kind, pay, gain, amount, entry.text("text"))


def _map_card(entry: _Entry, index: int) -> MapCard:
    """Read one map card; S opens the first card and F closes the last."""
    sides_entry = entry.entry("sides")
    sides: dict[int, tuple[str, ...]] = {}
    for size in (3, 4):
        marks = tuple(sides_entry.items(str(size), size, size))
        for mark in marks:
            sides_entry.choice(str(size), NODE_MARKS, mark)
        start = index == 0
        finish = index == COUNTS["map"] - 1
        if (marks[0] == "S") != start or marks.count("S") != int(start):
            where = "must start with 'S'" if start else "must not hold 'S'"
            raise sides_entry.fail(str(size), f"this card {where} (S opens the first card)")
        if (marks[-1] == "F") != finish or marks.count("F") != int(finish):
            where = "must end with 'F'" if finish else "must not hold 'F'"
            raise sides_entry.fail(str(size), f"this card {where} (F closes the last card)")
        sides[size] = marks
    return MapCard(entry.ident(), entry.text("name"), sides)


def _exploration(
    entry: _Entry,
    enemies: Mapping[str, Enemy],
    loot: tuple[str, ...],
    encounters: Mapping[str, Encounter],
) -> ExplorationCard:
    """Read one exploration card and check what its result side names."""
    icons = tuple(entry.choice("icons", ICONS, icon) for icon in entry.items("icons", 1, 3))
    if list(icons) != sorted(icons, key=ICONS.index):
        raise entry.fail(
            "icons",
            f"{', '.join(icons)} must follow the order {', '.join(ICONS)} (icons resolve "
            "left to right in that order)",
        )
    left, right = (entry.choice("edges", EDGES, edge) for edge in entry.items("edges", 2, 2))
    result = entry.entry("result")
    enemy = result.choice("enemy", tuple(enemies))
    trap_entry = result.entry("trap")
    trap = Trap(trap_entry.choice("kind", TRAP_KINDS), trap_entry.number("amount", 1, 9))
    found = result.raw("loot")
    if found is not None:
        result.choice("loot", loot)
    met = result.entry("encounter")
    if set(met.data) == {"enemy"}:
        encounter = ("enemy", met.choice("enemy", tuple(enemies)))
    elif set(met.data) == {"reference"}:
        encounter = ("reference", met.choice("reference", tuple(encounters)))
    else:
        raise result.fail("encounter", 'must be {"enemy": id} or {"reference": id}')
    return ExplorationCard(
        entry.ident(), entry.text("name"), icons, left, right, enemy, trap, encounter, found
    )


def parse_content(data: Any, source: str = "<data>") -> Content:
    """Validate already-decoded content data and return it as :class:`Content`."""
    root = _Entry(source, data)
    if root.raw("format") != FORMAT:
        old = " (format 1 predates the double-sided race/class cards)"
        raise root.fail(
            "format",
            f"unknown format {root.raw('format')!r}; this bot reads {FORMAT}"
            + (old if root.raw("format") == 1 else ""),
        )
    enemies = _unique([_enemy(e) for e in _section(root, "enemies", "enemy")], "enemy")
    loot_items = [_item(e) for e in _section(root, "loot", "loot card")]
    trapping_items: list[Item] = []
    cards: list[TrappingCard] = []
    for card in _section(root, "trappings", "trapping card"):
        card_id = card.ident()
        name = card.text("name")
        sides = card.items("sides", 2, 2)
        read = [_item(_Entry(_label("trapping", s, i), s), card_id) for i, s in enumerate(sides)]
        trapping_items += read
        cards.append(TrappingCard(card_id, name, (read[0].id, read[1].id)))
    trapping_cards = _unique(cards, "trapping card")
    items = _unique(loot_items + trapping_items, "item")
    encounter_list: list[Encounter] = []
    for card in _section(root, "reference", "reference card"):
        card.ident()
        card.text("name")
        sides = card.items("sides", 2, 2)
        encounter_list += [
            _encounter(_Entry(_label("encounter", s, i), s)) for i, s in enumerate(sides)
        ]
    encounters = _unique(encounter_list, "encounter")
    loot = tuple(item.id for item in loot_items)
    exploration = _unique(
        [
            _exploration(e, enemies, loot, encounters)
            for e in _section(root, "exploration", "exploration card")
        ],
        "exploration card",
    )
    maps = tuple(_map_card(e, i) for i, e in enumerate(_section(root, "map", "map card")))
    _unique(list(maps), "map card")
    races = _unique([_race(e) for e in _section(root, "races", "race")], "race")
    classes = _unique([_class(e, items) for e in _section(root, "classes", "class")], "class")
    _check_backs(races, classes)
    _check_trappings(classes, items, trapping_cards)
    return Content(
        source, exploration, maps, enemies, loot, items, races, classes, encounters,
        trapping_cards,
    )


def _check_backs(races: Mapping[str, Race], classes: Mapping[str, AdventurerClass]) -> None:
    """R1: every race card carries one class on its back, and every class is on one back."""
    seen: dict[str, str] = {}
    for race in races.values():
        if race.back not in classes:
            raise ContentError(
                f"race {race.name!r}: field 'back': {race.back!r} is not a class id "
                f"(one of {', '.join(classes)})"
            )
        if race.back in seen:
            raise ContentError(
                f"race {race.name!r}: field 'back': class {race.back!r} is already on the back "
                f"of {seen[race.back]!r}; each class is on the back of exactly one race card"
            )
        seen[race.back] = race.name


def _check_trappings(
    classes: Mapping[str, AdventurerClass],
    items: Mapping[str, Item],
    cards: Mapping[str, TrappingCard],
) -> None:
    """R1: a class takes one side of two different trapping cards, no side twice.

    With three classes of two sides each and six sides in all, that gives every side
    exactly one class, so each card gives one side to each of two classes.
    """
    taken: dict[str, str] = {}
    for klass in classes.values():
        first, second = (items[t] for t in klass.trappings)
        if first.card == second.card:
            raise ContentError(
                f"class {klass.name!r}: field 'trappings': {first.id!r} and {second.id!r} are "
                f"both sides of trapping card {cards[first.card].name!r}; a class takes one "
                "side of two different cards"
            )
        for item in (first, second):
            if item.id in taken:
                raise ContentError(
                    f"class {klass.name!r}: field 'trappings': {item.id!r} is already the "
                    f"starting trapping of {taken[item.id]!r}; each side belongs to one class"
                )
            taken[item.id] = klass.name


def _race(entry: _Entry) -> Race:
    """Read one race card."""
    ability = entry.entry("ability")
    return Race(
        entry.ident(),
        entry.text("name"),
        entry.number("health", 1, 20),
        entry.number("energy", 0, 20),
        entry.number("food", 0, 5),
        ability.choice("kind", ABILITIES),
        ability.number("amount", 1, 9),
        entry.text("text"),
        entry.ident("back"),
    )


def _class(entry: _Entry, items: Mapping[str, Item]) -> AdventurerClass:
    """Read one class card; its starting trappings must be trapping sides."""
    chart = [_chart_step(entry, value) for value in entry.items("chart", 3, 3)]
    if chart != sorted(chart):
        raise entry.fail("chart", f"{chart} must not drop as more energy is spent")
    trappings = entry.items("trappings", 2, 2)
    for trapping in trappings:
        if not isinstance(trapping, str) or trapping not in items or not items[trapping].trapping:
            raise entry.fail("trappings", f"{trapping!r} is not a trapping side")
    return AdventurerClass(
        entry.ident(),
        entry.text("name"),
        entry.number("health", 1, 20),
        entry.number("energy", 0, 20),
        (chart[0], chart[1], chart[2]),
        (trappings[0], trappings[1]),
    )


def _chart_step(entry: _Entry, value: Any) -> int:
    """Check one damage bonus of a class chart."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 20:
        raise entry.fail("chart", f"every bonus must be a whole number from 0 to 20, not {value!r}")
    return value


def load_content(path: str | Path | None = None) -> Content:
    """Load and validate a content file (the shipped one when ``path`` is None)."""
    file = Path(path) if path is not None else DEFAULT_PATH
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ContentError(f"{file}: cannot read the content file ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise ContentError(f"{file}: not valid JSON (line {exc.lineno}: {exc.msg})") from exc
    except (UnicodeDecodeError, ValueError) as exc:  # not UTF-8 text, or no path at all
        raise ContentError(f"{file}: not a content file ({exc})") from exc
    return parse_content(data, str(file))
