"""The text board and "Rules & details" say the Wave tokens in each total, and so who
holds each stack (S10, S12: a token adds 2)."""

from __future__ import annotations

import random

from bot.games.steam.engine import ENGINE
from tests.cogs.board_messages import board_renderer
from tests.support import loaded


def _with_a_stack():
    """A game where someone holds the stack of two, played by the computer players."""
    for seed in range(200):
        state = ENGINE.new(seed, 3, {})
        rng = random.Random(seed)
        while not ENGINE.is_over(state) and state.two_stack is None:
            seat = ENGINE.to_act(state)
            legal = [a.id for a in ENGINE.legal_actions(state, seat) if a.id != "resign"]
            action = rng.choice(legal) if rng.random() < 0.2 else ENGINE.computer_action(
                state, seat)
            state = ENGINE.apply(state, seat, action).state
        if state.two_stack is not None and not ENGINE.is_over(state):
            return state
    raise AssertionError("no game handed out the stack of two")


def test_s12_the_totals_say_the_wave_tokens_in_them() -> None:
    state = _with_a_stack()
    holder = state.two_stack
    game = loaded(ENGINE, state, seats=3)
    boards = board_renderer(False)
    renderer = boards.renderers["steam"]
    text = renderer.embed(game).description or ""
    name = state.players[holder].name
    total = state.players[holder].score + 2 * state.tokens(holder)
    assert f"**{name}** {total} (🎫{state.tokens(holder)})" in text
    for seat, player in enumerate(state.players):
        (line,) = [line for line in text.split("\n") if f"**{player.name}**" in line]
        assert ("🎫" in line) == (state.tokens(seat) > 0), line
    trains = next(s for s in renderer.card_sections(game) if s.key == "trains")
    assert any(title == f"{name} · {total} (🎫{state.tokens(holder)})"
               for title, _ in trains.fields)
