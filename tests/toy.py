"""A minimal engine and cog that prove the platform: "Race to Ten".

Seats take turns adding 1 or 2 to a shared count; whoever brings it to 10 or more
wins. One seat plays alone. Lives under tests/ only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands

from bot.games.protocol import Action, BrokenState, IllegalAction, Outcome, Result, Step
from bot.table.service import LoadedGame
from cogs.base import GameCog, seat_list

TARGET = 10


def recent_events(game: LoadedGame, count: int = 5, limit: int = 1000) -> str:
    """Return the last ``count`` events as bullet lines, at most ``limit`` characters."""
    lines = [f"• {e}" for e in game.row.events[-count:]]
    text = "\n".join(lines)
    while len(text) > limit and lines:
        lines.pop(0)
        text = "\n".join(lines)
    return text or "—"


@dataclass(frozen=True)
class ToyState:
    count: int
    seats: int
    turn: int
    seed: int
    winner: int | None = None
    resigned: tuple[int, ...] = ()


class ToyEngine:
    kind = "toy"
    title = "Race to Ten"
    schema_version = 1
    min_seats = 1
    max_seats = 3
    options = ()

    def new(self, seed: int, seats: int = 1, options: Mapping[str, Any] | None = None) -> ToyState:
        return ToyState(count=0, seats=seats, turn=0, seed=seed)

    def to_act(self, state: ToyState) -> int | None:
        return None if self.is_over(state) else state.turn

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if self.is_over(state) or seat in state.resigned:
            return []
        resign = [Action("resign", "Resign", "end")] if state.seats > 1 else []
        if seat != state.turn:
            return resign
        return [Action("add1", "Add 1", "add"), Action("add2", "Add 2", "add"), *resign]

    def apply(self, state: ToyState, seat: int, action_id: str) -> Step:
        if action_id not in {a.id for a in self.legal_actions(state, seat)}:
            raise IllegalAction(f"{action_id!r} is not a legal move now")
        if action_id == "resign":
            resigned = (*state.resigned, seat)
            left = [s for s in range(state.seats) if s not in resigned]
            winner = left[0] if len(left) == 1 else None
            turn = state.turn
            if seat == state.turn:
                turn = self._next(state.turn, state.seats, resigned)
            new = replace(state, resigned=resigned, winner=winner, turn=turn)
            return Step(new, (f"Seat {seat + 1} resigned.",))
        count = state.count + (1 if action_id == "add1" else 2)
        winner = seat if count >= TARGET else None
        turn = self._next(seat, state.seats, state.resigned)
        new = replace(state, count=count, turn=turn, winner=winner)
        return Step(new, (f"Seat {seat + 1} added {action_id[-1]}: {count}.",))

    @staticmethod
    def _next(seat: int, seats: int, resigned: tuple[int, ...]) -> int:
        for step in range(1, seats + 1):
            candidate = (seat + step) % seats
            if candidate not in resigned:
                return candidate
        return seat

    def view(self, state: ToyState) -> dict[str, Any]:
        return {"count": state.count, "turn": state.turn, "over": self.is_over(state)}

    def is_over(self, state: ToyState) -> bool:
        return state.winner is not None

    def result(self, state: ToyState) -> Result | None:
        if state.winner is None:
            return None
        outcomes = tuple(
            Outcome(s, "win" if s == state.winner else "loss", state.count, {"count": state.count})
            for s in range(state.seats)
        )
        return Result(f"Seat {state.winner + 1} won.", outcomes)

    def dump(self, state: ToyState) -> dict[str, Any]:
        return {"schema": self.schema_version, "count": state.count, "seats": state.seats,
                "turn": state.turn, "seed": state.seed, "winner": state.winner,
                "resigned": list(state.resigned)}

    def load(self, data: Mapping[str, Any]) -> ToyState:
        if data.get("schema") != self.schema_version:
            raise BrokenState(f"unknown schema {data.get('schema')!r}")
        try:
            return ToyState(int(data["count"]), int(data["seats"]), int(data["turn"]),
                            int(data["seed"]), data["winner"], tuple(data["resigned"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise BrokenState(str(exc)) from exc

    def render_text(self, state: ToyState) -> str:
        return f"Count: {state.count}"

    def computer_action(self, state: ToyState, seat: int) -> str:
        return "add2" if state.count >= TARGET - 2 else "add1"


ENGINE = ToyEngine()


class ToyCog(GameCog):
    kind = "toy"

    toy = app_commands.Group(name="toy", description="Race to Ten (a test game)")

    def embed(self, game: LoadedGame) -> discord.Embed:
        embed = discord.Embed(title="Race to Ten")
        if game.state is not None:
            embed.description = f"Count: **{game.state.count}** / {TARGET}"
        embed.add_field(name="Seats", value=seat_list(game), inline=False)
        embed.add_field(name="Events", value=recent_events(game), inline=False)
        return embed

    @toy.command(name="start", description="Start a game of Race to Ten")
    @app_commands.describe(only_me="Only you may press the buttons",
                           players="vote, fast (the toy's default) or only me",
                           vote_seconds="Seconds a vote stays open")
    async def start(self, interaction: discord.Interaction, only_me: bool = False,
                    players: str = "fast", vote_seconds: int | None = None) -> None:
        await self.start_solo(interaction, {}, only_me=only_me, players=players,
                              window=vote_seconds)

    @toy.command(name="new", description="Open a table for Race to Ten")
    async def new(self, interaction: discord.Interaction) -> None:
        await self.open_lobby(interaction, {})

    @toy.command(name="board", description="Post the board again")
    async def board(self, interaction: discord.Interaction) -> None:
        await self.repost(interaction)

    @toy.command(name="abandon", description="Abandon the game")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        await self.abandon(interaction)


async def setup(bot: Any) -> None:
    await bot.add_cog(ToyCog(bot))
