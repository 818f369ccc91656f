"""Phone first: every Tinker and Tin Realm board's text is short, its footer the news.

A phone shows about 38 characters a line of an embed; a board's text without its
picture (title, description, every field name and value, footer) fits in 20 such lines,
and its footer is the newest event. The boards of 1,000 random games of each game are
rendered straight from LoadedGame objects (their heights in pixels are measured in
``test_board_heights``).
"""

from __future__ import annotations

import random
import textwrap
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

import discord

from bot.games.tinker.engine import ENGINE as TINKER
from bot.games.tinrealm.engine import ENGINE as TINREALM
from bot.table.core import RECENT_EVENTS
from bot.table.service import LoadedGame
from cogs.tinker import TinkerCog
from cogs.tinrealm import TinRealmCog
from tests.support import loaded

WIDTH = 38
MAX_LINES = 20
GAMES = 1000


@cache
def _wrapped(line: str) -> int:
    return len(textwrap.wrap(line, WIDTH)) or 1


def phone_lines(embed: discord.Embed) -> int:
    """Count an embed's lines at 38 characters, each existing line wrapped on its own."""
    texts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        texts += [f.name or "", f.value or ""]
    texts.append(embed.footer.text or "")
    return sum(_wrapped(line) for text in texts if text for line in text.split("\n"))


def boards(engine: Any, state: Any, rng: random.Random) -> Iterator[LoadedGame]:
    """Yield every board of one game played with random legal or computer moves.

    The game row's events grow as the table makes them: the move's lead line ("Alice
    chose: ...") then the engine's events, the last 12 kept, the lead remembered.
    """
    events: list[str] = ["Alice started the game."]
    version, lead = 0, None
    while True:
        over = engine.is_over(state)
        game = loaded(engine, state, version=version, events=list(events),
                      status="over" if over else "active")
        if lead:
            game.data.last = lead
        # Without a turn log the footer is the last event whole; a fast game's, so its
        # line is the news alone (who may press a vote's or "only me" board takes the
        # line of an older decision: tests/cogs/test_footer.py, test_board_heights).
        game.data.mode = "fast"
        yield game
        if over:
            return
        actions = engine.legal_actions(state, 0)
        chosen = rng.choice(actions)
        if rng.random() < 0.5:
            best = engine.computer_action(state, 0)
            chosen = next((a for a in actions if a.id == best), chosen)
        lead = f"Alice chose: {chosen.label}."
        step = engine.apply(state, 0, chosen.id)
        events = [*events, lead, *step.events][-RECENT_EVENTS:]
        state = step.state
        version += 1


def _last_move(game: LoadedGame) -> list[str]:
    """The events of the game's last move, as the test understands them."""
    lead = game.data.last
    events = game.row.events
    if lead in events:
        return events[len(events) - 1 - events[::-1].index(lead):]
    return list(events)


def _check_all(cog: Any, engine: Any, new: Callable[[int], Any]) -> dict[str, Any]:
    """Render every board of GAMES games; return the longest and what the ends were."""
    longest, ends = 0, {}
    for seed in range(GAMES):
        for game in boards(engine, new(seed), random.Random(seed)):
            embed = cog.embed(game)
            lines = phone_lines(embed)
            assert lines <= MAX_LINES, (seed, game.row.version, lines, embed.to_dict())
            longest = max(longest, lines)
            last = embed.footer.text or ""
            newest = _last_move(game)[-1]
            assert newest[:20] in last and "\n" not in last, (seed, game.row.version, last)
            if engine.is_over(game.state):
                ends.setdefault(embed.title, embed.colour)
    return {"longest": longest, "ends": ends}


def test_every_tinker_board_fits_a_phone() -> None:
    """1,000 Tinker games, every board: at most 20 lines of 38 characters, news shown."""
    seen = _check_all(
        TinkerCog(None), TINKER,
        lambda seed: TINKER.new(seed, 1, {"classic_journey": seed % 3 == 0,
                                          "harsh_defeat": seed % 2 == 0}),
    )
    assert 8 <= seen["longest"] <= MAX_LINES
    titles = set(seen["ends"])
    assert any(t.startswith("🏆 Victory") for t in titles)
    assert any(t.startswith("💀 Defeat") for t in titles)
    colours = {t.split(" ·")[0]: c for t, c in seen["ends"].items()}
    assert colours["🏆 Victory"] != colours["💀 Defeat"]


def test_every_tinrealm_board_fits_a_phone() -> None:
    """1,000 Tin Realm journeys, every board: at most 20 lines, death and time told apart."""
    seen = _check_all(
        TinRealmCog(None), TINREALM,
        lambda seed: TINREALM.new(seed, 1, {"preset": "hard" if seed % 2 else "easy"}),
    )
    assert 8 <= seen["longest"] <= MAX_LINES
    heads = {t.split(" · ")[0] for t in seen["ends"]}
    assert "💀 Defeat" in heads
    assert "⌛ Defeat" in heads or "🏆 Victory" in heads
