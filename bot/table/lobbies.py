"""The lobby policy: the moves of a multi-seat table before its game starts (join,
leave, computer players, start, close: :mod:`bot.table.lobby`), saved over the shared
:class:`TableCore`, and the claim of the host role of a host who left the server or is
away."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from bot.table import downtime, seating
from bot.table.core import SaveConflict, TableCore, record
from bot.table.loaded import Actor, LoadedGame, Play
from bot.table.lobby import (
    HOST_AWAY_SECONDS,
    LOBBY_CANCEL,
    LOBBY_CLAIM,
    LOBBY_START,
    LobbyStep,
    computer_seat,
    distinct_name,
    free_computer_name,
    lobby_step,
)
from bot.table.seats import Seat
from bot.table.turns import TurnPolicy
from bot.text.alike import alike


def lobby_seats(host: Actor, max_seats: int, people: Sequence[tuple[int, str]],
                computers: Sequence[str], named: Sequence[str]) -> list[Seat]:
    """Return a new lobby's seats: the host first, then ``people`` (user id, name) and
    ``computers`` (their levels), as many as there are seats, each person once. The
    computers keep their ``named`` names where no seat has one like it (else each gets
    the first name free, as Add computer does)."""
    seats = [Seat.person(host.user_id, host.name)]
    for user_id, name in people:
        if len(seats) < max_seats and all(s.user_id != user_id for s in seats):
            seats.append(Seat.person(user_id, distinct_name(name, seats)))
    for index, level in enumerate(list(computers)[: max_seats - len(seats)]):
        kept = named[index] if index < len(named) else ""
        free = kept and alike(kept) not in {alike(s.name) for s in seats}
        seats.append(computer_seat(kept if free else free_computer_name(seats), level))
    return seats


class Lobbies:
    """Lobby moves, over the shared :class:`TableCore` (the turn policy tells the first
    player their turn has come when the game starts)."""

    def __init__(self, core: TableCore, turns: TurnPolicy) -> None:
        self.core = core
        self.turns = turns

    def try_move(self, game: LoadedGame, actor: Actor, op: str) -> None:
        """Refuse as :meth:`move` would, on copies: nothing is changed or saved."""
        lobby_step(LobbyStep(copy.deepcopy(game.row), copy.deepcopy(game.seats),
                             copy.deepcopy(game.data), game.engine, actor.user_id, actor.name,
                             actor.can_manage, self.core.seeds,
                             host_away=self.host_away(game)), op)

    def host_away_at(self, game: LoadedGame) -> float:
        """When the lobby's host, doing nothing there, counts as away (and a seated person
        may take the role): :data:`bot.table.lobby.HOST_AWAY_SECONDS` after the host was
        last here, not counting the time the bot was down or its database out of reach
        (nobody could act then). A lobby stored before this was kept counts from its
        last move."""
        seen = game.data.host_seen
        if seen is None:
            seen = game.row.updated_at
        down = downtime.down_between([*self.turns.outages, *self.core.unplayed()],
                                     seen, self.core.now())
        return seen + down + HOST_AWAY_SECONDS

    def host_away(self, game: LoadedGame) -> bool:
        """Whether the lobby's host is away by now (see :meth:`host_away_at`)."""
        return self.core.now() >= self.host_away_at(game)

    async def host_here(self, game_id: int, user_id: int) -> None:
        """Note that ``user_id``, the lobby's host, is here (they opened the controls),
        so nobody takes the role for a while; nothing is done when they no longer host."""
        async with self.core.hold(game_id):
            game = await self.core.load(game_id)
            if game.row.status == "lobby" and game.host_id == user_id:
                game.data.host_seen = self.core.now()
                await self.core.save_table(game)

    async def move(self, game: LoadedGame, actor: Actor, op: str, *,
                   host_left: int | None = None) -> Play:
        """Apply lobby operation ``op`` for ``actor`` to ``game`` (read under its lock)
        and save it; return the game afterwards, or refuse and change nothing.
        ``host_left`` is the host Discord said left the server (for a claim)."""
        row = game.row
        logged: dict[str, Any] = {"lobby": op}
        if op == LOBBY_CLAIM:  # the name a claim's line gives the host, for forget-me
            logged["by"] = {str(s.user_id): s.name for s in game.seats
                            if s.holds(game.host_id)}
        elif op == LOBBY_CANCEL and game.seat_of(actor.user_id) is None:  # a moderator
            logged["by"] = {str(actor.user_id): actor.name}
        now, host = self.core.now(), game.host_id
        event = lobby_step(LobbyStep(row, game.seats, game.data, game.engine, actor.user_id,
                                     actor.name, actor.can_manage, self.core.seeds,
                                     host_left, self.host_away(game)), op)
        if actor.user_id in (host, seating.host_id(game.data, row.starter_id)):
            game.data.host_seen = now  # the host did something (or the new host took it)
        expected = row.version
        row.version += 1
        record(row, (event,))
        notice = None
        started = self.core.wrap(row)
        started.data = game.data
        started.seats = game.seats
        if op == LOBBY_START:
            seating.start_timer(game.data, started.to_act(), started.seats, now)
            user = started.person_to_act()
            if user is not None:
                title = started.engine.title
                notice = self.turns.turn_notice(
                    started, user, f"<@{user}>, {title} has started and it is your turn.")
        await self.core.save(started, expected, logged, actor.user_id)
        return Play(started, (event,), notice=notice)

    async def claim_host(self, game_id: int, actor: Actor, departed: int | None) -> Play:
        """Hand a lobby's host role to ``actor``, seated there, once Discord has said its
        host ``departed`` is no longer in the server, or (``departed`` None) while the
        host is away (:data:`bot.table.lobby.LOBBY_CLAIM`); refuse as a lobby move does,
        and when someone else hosts by now."""
        async with self.core.hold(game_id):
            game = await self.core.load(game_id)
            self.core.check_open(game, game.row.version)
            try:
                return await self.move(game, actor, LOBBY_CLAIM, host_left=departed)
            except SaveConflict:  # written since it was read: read it again
                return await self.move(await self.core.load(game_id), actor, LOBBY_CLAIM,
                                       host_left=departed)
