"""Golden boards: the Tinker engine and its board, byte for byte.

Seeded random games are played to their end with random legal moves (and some
computer moves). For every board this records what the engine says (the stored state,
the legal actions, the public view, the text board, the result, the events of the move
made and the refusal of an illegal one) and what the board shows (the embed, the
components, "Rules & details"), as JSON, into one sha256. The boards are shown the
ways a table shows them: voting, fast or "only me", with or without a vote under way
(which takes room from the board), some as a daily deal.

The constant below is the digest of that output. A change that should not change any
output (a faster engine, a faster board) keeps it; a deliberate change of the board or
of the rules updates it: print the new one with
``python -m tests.cogs.test_tinker_board_golden``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterator
from typing import Any

from bot.boards.layout import view_of
from bot.games.protocol import Action, IllegalAction
from bot.games.tinker.engine import ENGINE as TINKER
from bot.table import polls, turnlog
from bot.table.core import RECENT_EVENTS
from bot.table.data import TableData
from bot.table.loaded import LoadedGame
from cogs.tinker import TinkerCog
from tests.support import detail_embeds, loaded

#: Seeded Tinker games played to their end.
TINKER_GAMES = 300

#: sha256 of every Tinker board of :data:`TINKER_GAMES` games (see the module docstring).
TINKER_DIGEST = "6511ce2057fd46c90c826c66222e2a509617080b377b12c70aa51f41ccf17b66"

#: Action ids tried on every board to record the engine's refusal when they are illegal.
TRIED = ("chip:Moons", "lose:Knots", "give_up", "choose:event", "chip:Nothing", "what")


def _action(a: Action) -> list[Any]:
    return [a.id, a.label, a.group, a.description, a.primary]


def _dumps(record: Any) -> bytes:
    return json.dumps(record, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":")).encode()


def _table(game: LoadedGame, rng: random.Random, actions: list[Action]) -> None:
    """Set how the table plays ``game``: its mode, a vote under way, a daily deal."""
    row = game.row
    mode = rng.choice(("vote", "vote", "fast", "solo"))
    row.only_starter = mode == "solo"
    if mode != "solo":
        game.data.mode = mode
        game.data.window = rng.choice((30, 45, 600))
    if rng.random() < 0.1:
        row.daily = "2025-03-14"
    if mode == "vote" and actions and rng.random() < 0.4:
        poll = polls.new_poll(row.version)
        for voter in range(rng.randint(1, 4)):
            chosen = rng.choice(actions)
            polls.cast(poll, 500 + voter, f"Voter {voter} with a name", chosen.id,
                       chosen.label, 1_800_000_000.0 + voter)
        if rng.random() < 0.7:
            poll.closes = 1_800_000_030.0
        game.data.poll = poll
        game.data.recent = [[500, 501, 502]] if rng.random() < 0.5 else []


def _board(cog: Any, engine: Any, game: LoadedGame, seat: int | None) -> dict[str, Any]:
    """Return what one board shows and what the engine says of its state."""
    state = game.state
    record: dict[str, Any] = {
        "dump": engine.dump(state),
        "to_act": seat,
        "over": engine.is_over(state),
        "view": engine.view(state),
        "text": engine.render_text(state),
        "embed": cog.embed(game).to_dict(),
        "details": [e.to_dict() for e in detail_embeds(cog, game)],
    }
    result = engine.result(state)
    if result is not None:
        record["result"] = [result.summary, [[o.seat, o.outcome, o.score, dict(o.detail)]
                                             for o in result.outcomes]]
    if seat is not None:
        record["legal"] = [_action(a) for a in engine.legal_actions(state, seat)]
        items = cog.items(game)
        record["items"] = [item.to_item().to_component_dict() for item in items]
        record["components"] = view_of(items).to_components()
    return record


def _played(cog: Any, engine: Any, states: Iterator[Any], digest: Any, computer: float) -> int:
    """Hash every board of the games ``states`` yields; return how many boards."""
    boards = 0
    for index, state in enumerate(states):
        rng = random.Random(index)
        events: list[str] = ["Alice started the game."]
        log = TableData()  # the turn log, kept as the table keeps it (its footer)
        version, lead = 0, None
        while True:
            over = engine.is_over(state)
            seat = None if over else engine.to_act(state)
            actions = [] if seat is None else engine.legal_actions(state, seat)
            game = loaded(engine, state, version=version, events=list(events),
                          status="over" if over else "active")
            if lead:
                game.data.last = lead
            game.data.turns = copy.deepcopy(log.turns)
            game.pictured = rng.random() < 0.5
            _table(game, rng, actions)
            record = _board(cog, engine, game, seat)
            if seat is not None:
                for tried in TRIED:
                    if tried not in {a.id for a in actions}:
                        try:
                            engine.apply(state, seat, tried)
                        except IllegalAction as exc:
                            record.setdefault("refused", []).append([tried, str(exc)])
                chosen = rng.choice(actions)
                if rng.random() < computer:
                    best = engine.computer_action(state, seat)
                    chosen = next((a for a in actions if a.id == best), chosen)
                step = engine.apply(state, seat, chosen.id)
                record["move"] = [chosen.id, list(step.events)]
            digest.update(_dumps(record))
            digest.update(b"\n")
            boards += 1
            if seat is None:
                break
            lead = f"Alice chose: {chosen.label}."
            turnlog.note_move(log, seat, [lead, *step.events], seats=1,
                              ended=turnlog.ends_turn(1, seat, engine.to_act(step.state),
                                                      engine.is_over(step.state)))
            events = [*events, lead, *step.events][-RECENT_EVENTS:]
            state = step.state
            version += 1
    return boards


def tinker_digest(games: int = TINKER_GAMES) -> tuple[str, int]:
    """Return the sha256 of every board of ``games`` Tinker games, and how many boards."""
    digest = hashlib.sha256()
    states = (TINKER.new(seed, 1, {"classic_journey": seed % 3 == 0,
                                   "harsh_defeat": seed % 2 == 0})
              for seed in range(games))
    boards = _played(TinkerCog(None), TINKER, states, digest, computer=0.5)
    return digest.hexdigest(), boards


def test_every_tinker_board_is_unchanged() -> None:
    """300 Tinker games: engine answers and boards hash to the recorded digest."""
    found, boards = tinker_digest()
    assert boards > 5000
    assert found == TINKER_DIGEST


if __name__ == "__main__":
    found, boards = tinker_digest()
    print(f"TINKER_DIGEST = {found!r}  # {boards} boards")
