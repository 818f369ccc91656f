"""What "Rules & details" says of the Tinker board's buttons."""

from __future__ import annotations

from bot.games.tinker.engine import ENGINE
from cogs.tinker import TinkerCog
from tests.support import loaded


def test_t7_legend_says_red_chip_buttons_lose_a_chip() -> None:
    """T7: after a lost challenge with harsh defeat, the red "×n" buttons lose a chip of
    their suit and draw nothing; the legend says so."""
    cog = TinkerCog(None)
    state = ENGINE.new(5, 1, {"harsh_defeat": True})
    while ENGINE.view(state)["phase"] != "lose_chip":
        ids = [a.id for a in ENGINE.legal_actions(state, 0)]
        state = ENGINE.apply(state, 0, "give_up" if "give_up" in ids else ids[0]).state
    game = loaded(ENGINE, state)
    assert all((b.label or "").startswith("×") for b in cog.items(game))
    lines = cog.legend(game).split("\n")
    red = next(line for line in lines if line.startswith("Red **×n**"))
    assert "lose one chip of that suit" in red and "nothing is drawn" in red
