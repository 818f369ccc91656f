"""The abandoning policy: who may end an open game, and how a running table's players
end it by a majority of their asks (the game stays open, the ask recorded, until then)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.table import polls, seating
from bot.table.core import TableCore
from bot.table.errors import GameEnded, NotAllowed, Refusal
from bot.table.loaded import Actor, LoadedGame

#: The refusal of a confirmed abandon whose question said it gives no result, once the
#: game has come to count as a loss.
TERMS_CHANGED = ("The game moved on since you were asked: abandoning it now counts as a "
                 "loss. Use /{kind} abandon again if you still want to.")


class Abandoning:
    """Ending games on request, over the shared :class:`TableCore`."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def abandon(self, channel_id: int, actor: Actor, *, game_id: int | None = None,
                      as_a_loss: bool | None = None) -> LoadedGame:
        """End the channel's open game, or record the ask; return the game afterwards.

        A member with Manage Messages always may. A one-seat game is its starter's to
        end, a lobby its host's; a running table is ended by a majority of the people
        still playing at it (one of them alone when only one plays). While the asks are
        fewer, the game stays open with the ask recorded (its last event says so).
        ``game_id`` is the game the member confirmed abandoning: refused if the
        channel's open game is another one now. ``as_a_loss`` is whether the question
        they confirmed said it counts as a loss for them (:meth:`counts_as_loss`): one
        that said it gives no result is refused once the game has come to count as a
        loss (a move was made meanwhile), so that nobody loses a game they were told
        would give no result.
        """
        game = await self.core.open_in_channel(channel_id)
        if game is None or (game_id is not None and game.id != game_id):
            raise Refusal("There is no game going in this channel."
                          if game is None else "That game has ended already.")
        async with self.core.hold(game.id):
            game = await self.core.load(game.id)
            if not game.row.is_open:
                raise GameEnded(game.row.status)
            self._step(game, actor)
            if as_a_loss is False and self.counts_as_loss(game, actor):
                raise Refusal(TERMS_CHANGED.format(kind=game.row.kind))
            if (not actor.can_manage and _running_table(game)
                    and actor.user_id in _playing(game)):
                return await self._ask(game, actor)
            ended = f"{actor.name} abandoned the game."
            # a player ending it at once (a moderator seated at it, or the last of its
            # people at a table that waits for away people) loses it, with those who had
            # asked and everyone who resigned or walked away, as a majority's end would
            asked = [u for u in game.data.abandon_votes if u in _playing(game)]
            forfeit = (left_seats(game, [actor.user_id, *_bound(game, asked)])
                       if self.forfeits(game, actor) else set())
            return await self.core.close(game, "abandoned", ended, actor.user_id,
                                         forfeit=forfeit, came=asked,
                                         named={actor.user_id: actor.name})

    async def may_abandon(self, channel_id: int, actor: Actor) -> tuple[LoadedGame, bool]:
        """Refuse as :meth:`abandon` would, changing nothing (before asking to confirm);
        return the channel's open game and whether the member's word ends it at once
        (False: it records their ask, and a majority of the players ends it)."""
        game = await self.core.open_in_channel(channel_id)
        if game is None:
            raise Refusal("There is no game going in this channel.")
        return game, self._step(game, actor) == "close"

    def counts_as_loss(self, game: LoadedGame, actor: Actor) -> bool:
        """Whether abandoning ``game`` (or asking to) counts as a loss for ``actor``: a
        daily deal played on (:meth:`TableCore.deal_played`), or a table where a
        computer plays (:meth:`forfeits`)."""
        return self.core.deal_played(game) or self.forfeits(game, actor)

    def forfeits(self, game: LoadedGame, actor: Actor) -> bool:
        """Whether ``actor`` abandoning ``game`` (with the others asking, if need be)
        loses it for its people: they are seated at it (a moderator too), and a computer
        plays at the table (:meth:`TableCore.left_to_computers`). A moderator not seated
        at it gives no result."""
        return (_running_table(game) and game.seat_of(actor.user_id) is not None
                and self.core.left_to_computers(game))

    def _step(self, game: LoadedGame, actor: Actor) -> str:
        """What abandoning does for ``actor``: ``close`` the game, or record an ``ask``;
        raise NotAllowed when they may do neither."""
        if actor.can_manage:
            return "close"
        if game.broken and len(game.seats) > 1 and game.row.status != "lobby":
            # A damaged table cannot go on: anyone seated at it may end it, as its host may.
            if game.seat_of(actor.user_id) is None and actor.user_id != game.host_id:
                raise NotAllowed(_who_may_abandon(game))
            return "close"
        if not _running_table(game):
            lobby = game.row.status == "lobby"
            owner = game.host_id if lobby or len(game.seats) > 1 else game.row.starter_id
            if actor.user_id != owner:
                raise NotAllowed(_who_may_abandon(game))
            return "close"
        playing = _playing(game)
        if actor.user_id not in playing:
            if _nobody_plays(game, actor):
                # Nobody plays for themselves any more (the table waits for away people):
                # anyone seated may end it, so that it does not hold the channel.
                return "close"
            seat = game.seat_of(actor.user_id)
            if (seat is not None and game.seats[seat].away
                    and seat not in seating.resigned_seats(game.view())):
                raise NotAllowed(seating.AWAY_REFUSAL)
            raise NotAllowed(_who_may_abandon(game))
        asked = {u for u in game.data.abandon_votes if u in playing}
        needed = len(playing) // 2 + 1
        if actor.user_id in asked and len(asked) < needed:  # a double click, or again
            raise Refusal(f"You have asked to abandon this game already ({len(asked)} of "
                          f"{needed} needed: another player can use /{game.row.kind} "
                          "abandon too).")
        return "close" if len(asked) + 1 >= needed else "ask"

    async def _ask(self, game: LoadedGame, actor: Actor) -> LoadedGame:
        """A person at a running table asks to end it; a majority of those playing does."""
        data = game.data
        playing = _playing(game)
        asks = [u for u in data.abandon_votes if u in playing]
        # the asks standing made on terms of no result keep them; this ask has today's
        free = [u for u in data.abandon_free if u in asks and u != actor.user_id]
        if not self.core.left_to_computers(game):
            free.append(actor.user_id)
        data.abandon_free = free
        if actor.user_id not in asks:
            asks.append(actor.user_id)
        needed = len(playing) // 2 + 1
        if len(asks) >= needed:
            names = polls.join_names(game.seat_name(game.seat_of(u)) for u in asks)
            forfeit = left_seats(game, _bound(game, asks))
            data.abandon_votes, data.abandon_free = [], []
            return await self.core.close(game, "abandoned", f"{names} abandoned the game.",
                                         actor.user_id, forfeit=forfeit, came=asks)
        data.abandon_votes = asks
        event = (f"{game.seat_name(game.seat_of(actor.user_id))} asks to abandon the game "
                 f"({len(asks)} of {needed} needed: "
                 f"another player can use /{game.row.kind} abandon too).")
        return await self.core.table_note(game, (event,))


def _bound(game: LoadedGame, asks: Iterable[int]) -> list[int]:
    """Return the people of ``asks`` whose ask loses the table for them: not those who
    asked while ending it gave nobody a result (they were told so)."""
    free = set(game.data.abandon_free)
    return [u for u in asks if u not in free]


def left_seats(game: LoadedGame, people: Iterable[int]) -> set[int]:
    """The seats that lose a table where a computer plays when it ends unfinished
    (:meth:`TableCore.left_to_computers`): ``people``'s (those who abandoned it, or
    the one whose turn it stalled on), and every person who resigned or walked away
    (a computer playing their seat)."""
    seats = game.seats
    wanted = set(people)
    resigned = seating.resigned_seats(game.view())
    return {i for i, seat in enumerate(seats) if not seat.computer
            and (seat.user_id in wanted or i in resigned or seat.away)}


def _running_table(game: LoadedGame) -> bool:
    """Whether ``game`` is a seated table in play (ended by a majority of its players)."""
    return len(game.seats) > 1 and game.row.status != "lobby" and not game.broken


def _nobody_plays(game: LoadedGame, actor: Actor) -> bool:
    """Whether ``actor`` is seated at a running table where nobody plays for themselves
    any more: every person resigned, or a computer plays their seat while it waits for
    them."""
    return (_running_table(game) and game.seat_of(actor.user_id) is not None
            and not seating.present_people(game.seats, seating.resigned_seats(game.view())))


def _playing(game: LoadedGame) -> set[int]:
    """The people still playing at a running table (not resigned, not away); at a table
    where every one of them is away (it waits for them), the away people."""
    seats = game.seats
    resigned = seating.resigned_seats(game.view())
    present = seating.present_people(seats, resigned)
    if not present:
        present = [i for i in seating.person_seats(seats) if i not in resigned]
    return {user for i in present if (user := seats[i].user_id)}


def _who_may_abandon(game: LoadedGame) -> str:
    """The refusal that names who may end the game."""
    if len(game.seats) <= 1 and game.row.status != "lobby":
        return (f"Only {game.seat_name(0)}, who started it, or a member with Manage "
                "Messages can abandon this game.")
    if game.broken and game.row.status != "lobby":
        return ("Only the people seated at this table or a member with Manage Messages "
                "can end it.")
    if game.row.status == "lobby":
        host = game.seat_of(game.host_id)
        return (f"Only the host, {game.seat_name(host)}, or a member with Manage "
                "Messages can close this table.")
    return ("Only the people still playing at this table (a majority of them, when "
            "several play) or a member with Manage Messages can abandon it.")
