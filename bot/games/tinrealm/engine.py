"""The Tin Realm engine: the protocol's questions answered for the solo journey."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from typing import Any

from bot.games.protocol import (
    Action,
    BrokenState,
    GameError,
    IllegalAction,
    OptionSpec,
    Outcome,
    Result,
    Step,
)
from bot.games.rng import SeededRandom
from bot.games.tinrealm import actions, heuristic, serial
from bot.games.tinrealm.content import EDITION, Content, ContentError, edition, load_content
from bot.games.tinrealm.scoring import end_words, rank, score, score_parts, score_words
from bot.games.tinrealm.state import TinState
from bot.games.tinrealm.text import render
from bot.games.tinrealm.view import view

#: Map sides per preset (R2): easy is every 3-space side, hard every 4-space side.
PRESETS: dict[str, tuple[int, ...]] = {"easy": (3, 3, 3, 3), "hard": (4, 4, 4, 4)}


def parse_sides(value: Any, cards: int) -> list[int]:
    """Read the "sides" option: a list like [3, 4, 3, 4] or text like "3,4,3,4" or "3434"."""
    if isinstance(value, str):
        value = [int(d) for d in re.findall(r"\d", value)]
    if not isinstance(value, list | tuple) or len(value) != cards:
        raise GameError(f"sides must list {cards} map sides, each 3 or 4 (e.g. 3,4,3,4)")
    sides = [
        int(v) if isinstance(v, int | str) and str(v).strip() in ("3", "4") else 0 for v in value
    ]
    if 0 in sides:
        given = ", ".join(str(v) for v in value)
        raise GameError(f"every map side must be 3 or 4, not {given}")
    return sides


class TinRealmEngine:
    """Tin Realm: a solo journey to Oakinshelm within 7 days."""

    kind = "tinrealm"
    title = "Tin Realm"
    schema_version = 1
    min_seats = 1
    max_seats = 1
    options = (
        OptionSpec(
            "preset",
            "Map difficulty: easy (3-space sides), hard (4-space) or custom",
            "easy",
            ("easy", "hard", "custom"),
        ),
        OptionSpec("sides", "With preset custom: each map card's side, e.g. 3,4,3,4", None),
        OptionSpec("content_path", "A content file to play with instead of the shipped one", None),
    )

    def __init__(self, content: Content | None = None) -> None:
        self._default = content or load_content()
        self._loaded: dict[str, Content | ContentError] = {}
        self._editions: dict[tuple[str | None, int], Content] = {}

    def content(self, path: str | None = None) -> Content:
        """Return the content for a game: the engine's own, or the file at ``path``.

        A file is read once: what it held, or why it could not be used, is kept (a file
        mended later is read again after a restart)."""
        if path is None:
            return self._default
        if path not in self._loaded:
            try:
                self._loaded[path] = load_content(path)
            except ContentError as exc:
                self._loaded[path] = exc
            except Exception as exc:  # a file the checks let through: unusable all the same
                self._loaded[path] = ContentError(f"{path}: not a content file ({exc!r})")
        found = self._loaded[path]
        if isinstance(found, ContentError):
            raise ContentError(str(found))  # a fresh one: the kept one holds no frames
        return found

    def new(self, seed: int, seats: int = 1, options: Mapping[str, Any] | None = None) -> TinState:
        """Return a new journey: the race and class are the first choices."""
        if seats != 1:
            raise GameError("Tin Realm is a solo game: it takes exactly 1 seat.")
        opts = dict(options or {})
        unknown = set(opts) - {o.name for o in self.options}
        if unknown:
            raise GameError(f"unknown option(s): {', '.join(sorted(unknown))}")
        preset = opts.get("preset") or "easy"
        path = opts.get("content_path")
        c = self.content(path)
        if preset == "custom":
            sides = parse_sides(opts.get("sides") or [3] * len(c.maps), len(c.maps))
        elif preset in PRESETS and opts.get("sides") is None:
            sides = list(PRESETS[preset])
        elif preset in PRESETS:
            raise GameError("the sides option is only used with preset custom")
        else:
            raise GameError(f"preset must be easy, hard or custom, not {preset!r}")
        state = TinState(SeededRandom(seed), sides, preset, path)
        state.deck = sorted(c.exploration)
        state.rng.shuffle(state.deck)
        state.queue = ["race", "class", "decide"]
        return state

    def to_act(self, state: TinState) -> int | None:
        """Return 0 while the journey goes on, None once it is over."""
        return 0 if state.queue else None

    def legal_actions(self, state: TinState, seat: int) -> list[Action]:
        """Return the actions seat 0 may take now."""
        if seat != 0:
            return []
        return actions.legal(self.content(state.content_path), state)

    def apply(self, state: TinState, seat: int, action_id: str) -> Step:
        """Apply an action to a copy of ``state``; raise IllegalAction if it is not legal."""
        if seat != 0:
            raise IllegalAction("Tin Realm has only seat 0.")
        new = state.copy()
        log: list[str] = []
        actions.perform(self.content(state.content_path), new, action_id, log)
        return Step(new, tuple(log))

    def apply_logged(self, state: TinState, seat: int, action_id: str) -> Step:
        """Apply a move of a log written before braces existed (R7), for a replay or a
        share: where a brace now waits, that game went on by itself, so the brace goes on
        first, then the move is applied as :meth:`apply` does. A brace draws no dice, so
        the game comes out as it was played."""
        return _logged(self.content(state.content_path), state, action_id)

    def settle_logged(self, state: TinState) -> TinState:
        """Return the state a log written before braces existed (R7) ends on, as that
        game ended: it may end where a brace now waits (the harm it went on to took the
        journey), so the brace goes on, as the game then did by itself."""
        return _settled(self.content(state.content_path), state)

    def apply_by_edition(self, number: int, state: TinState, seat: int,
                         action_id: str) -> Step:
        """Apply a move of a log written under the rules' edition ``number`` (see
        :data:`bot.games.tinrealm.content.EDITION`), braces or not, as
        :meth:`apply_logged` does, by that edition's rules."""
        return _logged(self._edition(state.content_path, number), state, action_id)

    def settle_by_edition(self, number: int, state: TinState) -> TinState:
        """Return the state a log of the rules' edition ``number`` ends on (see
        :meth:`settle_logged`)."""
        return _settled(self._edition(state.content_path, number), state)

    def older_readings(self) -> list[tuple[Callable[[TinState, int, str], Step],
                                           Callable[[TinState], TinState]]]:
        """Return the ways a log written by an older release is read, for a replay or a
        share, each a move's and the last state's: before braces existed (R7), and by
        each earlier edition of the rules, the latest first."""
        return [(self.apply_logged, self.settle_logged),
                *((functools.partial(self.apply_by_edition, number),
                   functools.partial(self.settle_by_edition, number))
                  for number in range(EDITION - 1, 0, -1))]

    def _edition(self, path: str | None, number: int) -> Content:
        """Return a game's content as the rules' edition ``number`` plays it (kept once
        made)."""
        key = (path, number)
        if key not in self._editions:
            self._editions[key] = edition(self.content(path), number)
        return self._editions[key]

    def view(self, state: TinState) -> dict[str, Any]:
        """Return the public view (see :func:`bot.games.tinrealm.view.view`)."""
        return view(self.content(state.content_path), state)

    def is_over(self, state: TinState) -> bool:
        """Return whether the journey has ended."""
        return not state.queue

    def result(self, state: TinState) -> Result | None:
        """Return the outcome once over: win if Oakinshelm was reached, scored per R10."""
        if state.queue:
            return None
        points = score(state)
        title = rank(points)
        words = score_words(state)
        detail = {
            "parts": score_parts(state),
            "words": words,
            "rank": title,
            "end": state.end,
            "race": state.race,
            "class": state.klass,
        }
        outcome = Outcome(0, "win" if state.end == "won" else "loss", points, detail)
        summary = f"{end_words(state)}: {points} points, {title}. {words}."
        return Result(summary, (outcome,))

    def dump(self, state: TinState) -> dict[str, Any]:
        """Return the state as compact JSON-able data carrying ``schema``."""
        return serial.dump(state, self.schema_version)

    def load(self, data: Mapping[str, Any]) -> TinState:
        """Rebuild a state from :meth:`dump` output; raise BrokenState on bad data, and on
        a journey whose fields each read well but which cannot go on (a task waiting that
        nobody can do, its cards not where the task needs them)."""
        state = serial.load(data, self.schema_version, self.content, (*PRESETS, "custom"))
        if state.queue:
            c = self.content(state.content_path)
            try:
                playable = bool(actions.legal(c, state)) and bool(view(c, state))
            except (KeyError, IndexError, TypeError, ValueError) as exc:
                raise BrokenState(f"saved Tin Realm game cannot go on: {exc!r}") from exc
            if not playable or (state.waiting_for == "decide" and len(state.deck) < 2):
                raise BrokenState(f"saved Tin Realm game cannot go on from "
                                  f"{state.waiting_for!r}")
        return state

    def render_text(self, state: TinState) -> str:
        """Return the board as plain text."""
        return render(self.view(state))

    def computer_action(self, state: TinState, seat: int) -> str:
        """Return the built-in heuristic player's choice."""
        c = self.content(state.content_path)
        return heuristic.choose(c, state, actions.legal(c, state))


#: The engine the registry loads.
ENGINE = TinRealmEngine()


def _logged(c: Content, state: TinState, action_id: str) -> Step:
    """Apply a logged move by ``c``'s rules: any brace waiting goes on first (see
    :meth:`TinRealmEngine.apply_logged`)."""
    new = state.copy()
    log: list[str] = []
    while new.waiting_for == "brace":
        actions.carry_out(c, new, "go", log)
    actions.perform(c, new, action_id, log)
    return Step(new, tuple(log))


def _settled(c: Content, state: TinState) -> TinState:
    """Return the state a log ends on by ``c``'s rules: a waiting brace goes on (see
    :meth:`TinRealmEngine.settle_logged`)."""
    if state.waiting_for != "brace":
        return state
    new = state.copy()
    while new.waiting_for == "brace":
        actions.carry_out(c, new, "go", [])
    return new
