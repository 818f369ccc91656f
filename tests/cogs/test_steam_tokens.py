"""The text board and "Rules & details" say the Wave tokens in each total, and so who
holds each stack (S10, S12: a token adds 2)."""

from __future__ import annotations

from bot.games.steam.engine import ENGINE
from tests.cogs.board_messages import board_renderer
from tests.support import loaded, steam_until


def test_s12_the_totals_say_the_wave_tokens_in_them() -> None:
    state = steam_until(lambda s: s.two_stack is not None, seats=3)
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
