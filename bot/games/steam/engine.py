"""Steam to Solar: the railroad card game for 2 to 5 players as a pure engine.

Rules: the published rule text as read by the project's rulings S1-S13
(../shared/rules/RULINGS.md); our own summary, the view fields and the pending steps are in
docs/steam.md. The modules beside this one hold the state (``state``), the rules
(``rules``), scoring (``score``), saving (``store``), the board
(``text``) and the computer player (``ai``).

Seats are 0..n-1 and carry names given by the caller through option ``names``
(default ``Seat 1``, ``Seat 2``, ...). Any seat still in the game may resign at any
time, so ``legal_actions`` for a seat that is not to act returns only ``resign``.

Option ``deck`` picks the deck (S1: ``pawns``, the default, or ``courts``); option
``levels`` gives each seat the level its computer player plays at (``easy``, ``normal``,
the default, or ``hard``), kept in the state with the seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.games.protocol import Action, IllegalAction, OptionSpec, Result, Step
from bot.games.steam.legal import legal_actions
from bot.games.steam.levels import computer_choice
from bot.games.steam.rules import FIT_WORDS, apply_action, check_options, new_game
from bot.games.steam.score import game_result
from bot.games.steam.state import DECKS, DEFAULT_DECK, SCHEMA_VERSION, Arranging, SteamState
from bot.games.steam.store import dump_state, load_state
from bot.games.steam.text import render_text, view


class SteamEngine:
    """The engine object for Steam to Solar (2 to 5 seats)."""

    kind = "steam"
    title = "Steam to Solar"
    schema_version = SCHEMA_VERSION
    min_seats = 2
    max_seats = 5
    options = (
        OptionSpec("start_seat", "Seat that starts (none: drawn at random)", None,
                   (None, 0, 1, 2, 3, 4)),
        OptionSpec("names", "Player names in seat order (none: Seat 1, Seat 2, ...)", None),
        OptionSpec("deck", "The deck: the 4 Pawns or the 4 Courts with the 36 basic "
                   "cards", DEFAULT_DECK, DECKS),
        OptionSpec("levels", "Computer level per seat, in seat order (easy, normal or hard; "
                   "e.g. normal,hard); none: normal", None),
        OptionSpec("people", "The seats people hold (none: every seat); once every person "
                   "has resigned the game ends", None),
    )

    def new(
        self, seed: int, seats: int = 2, options: Mapping[str, Any] | None = None
    ) -> SteamState:
        """Return a new game for ``seats`` seats dealt from ``seed`` (S1-S4)."""
        setup = check_options(seats, options or {})
        return new_game(seed, setup.names, setup.start_seat, setup.deck, setup.levels,
                        setup.people)

    def to_act(self, state: SteamState) -> int | None:
        """Return the seat to act, or None once the game is over."""
        return None if state.over else state.turn

    def legal_actions(self, state: SteamState, seat: int) -> list[Action]:
        """Return the actions ``seat`` may take; a seat not to act may only resign."""
        return legal_actions(state, seat)

    def apply(self, state: SteamState, seat: int, action_id: str) -> Step:
        """Apply ``action_id`` to a copy of ``state``; raise IllegalAction if not legal."""
        new = state.copy()
        events: list[str] = []
        apply_action(new, seat, action_id, events)
        return Step(new, tuple(events))

    def apply_unfitted(self, state: SteamState, seat: int, action_id: str) -> Step:
        """Apply a move as releases before 7 December 2026 did, for a replay or a share of
        a game they ended: an end that came mid-arrangement kept the trains as they stood,
        over the limits or not (today what does not fit is discarded: S6)."""
        step = self.apply(state, seat, action_id)
        arranger = state.turn
        if (not step.state.over or state.over or not isinstance(state.pending, Arranging)
                or arranger is None or step.state.players[arranger].resigned):
            return step
        before = [list(train) for train in state.players[arranger].trains]
        cut = sum(map(len, before)) - sum(map(len, step.state.players[arranger].trains))
        if cut <= 0:
            return step
        new = step.state
        new.players[arranger].trains = before
        del new.discard[-cut:]
        return Step(new, tuple(e for e in step.events if FIT_WORDS not in e))

    def older_readings(self) -> list[tuple[Callable[[SteamState, int, str], Step], None]]:
        """Return the ways a log written by an older release is read, for a replay or a
        share, newest first: before an arrangement left unfinished was fitted at the end
        (:meth:`apply_unfitted`)."""
        return [(self.apply_unfitted, None)]

    def view(self, state: SteamState) -> dict[str, Any]:
        """Return the public view (fields listed in docs/steam.md)."""
        return view(state)

    def is_over(self, state: SteamState) -> bool:
        """Return whether the game has ended."""
        return state.over

    def result(self, state: SteamState) -> Result | None:
        """Return the result once the game is over, else None."""
        return game_result(state) if state.over else None

    def dump(self, state: SteamState) -> dict[str, Any]:
        """Return the state as compact JSON-able data carrying ``schema``."""
        return dump_state(state)

    def load(self, data: Mapping[str, Any]) -> SteamState:
        """Rebuild a state from :meth:`dump` output; raise BrokenState on bad data."""
        return load_state(data)

    def render_text(self, state: SteamState) -> str:
        """Return the board as plain text for the terminal."""
        return render_text(state)

    def computer_action(self, state: SteamState, seat: int, level: str | None = None) -> str:
        """Return the computer player's choice for ``seat``, which must be the seat to act.

        It plays at ``level`` if given, else at the seat's own level (option ``levels``;
        ``normal`` unless set).
        """
        if state.over or seat != state.turn:
            raise IllegalAction("The computer player only moves on its own turn.")
        return computer_choice(state, seat, level or state.players[seat].level)


#: The Steam to Solar engine.
ENGINE = SteamEngine()
