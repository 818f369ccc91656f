"""The game table's part for channel play (rulings C1, C4, C5): a click as a vote, the
decision when a majority agrees or the window closes, and who shares the result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.games.protocol import IllegalAction
from bot.table import polls
from bot.table.errors import Refusal
from bot.table.loaded import Actor, Ballot, LoadedGame, Play
from db.store import GameRow, ResultRow

if TYPE_CHECKING:
    from bot.table.service import Tables


class ChannelPlay:
    """Channel votes; mixed into :class:`bot.table.service.Tables`."""

    def _label(self: Tables, game: LoadedGame, action_id: str) -> str:
        """Return the label of a legal action of seat 0; refuse, in the engine's words, if not."""
        for action in game.legal_actions(0):
            if action.id == action_id:
                return action.label
        try:
            game.engine.apply(game.state, 0, action_id)
        except IllegalAction as exc:
            raise Refusal(str(exc)) from exc
        return action_id

    async def _channel_move(self: Tables, game: LoadedGame, actor: Actor, action_id: str) -> Play:
        """A click on a channel-played solo game: a vote (C4), or a move at once."""
        row = game.row
        extra = row.extra
        label = self._label(game, action_id)
        extra.setdefault("players", {})[str(actor.user_id)] = actor.name
        if extra.get("mode", "vote") != "vote":
            return await self._apply(
                game, 0, action_id, actor.user_id, lead=f"{actor.name} chose: {label}."
            )
        now = self._clock()
        poll = extra.get("poll")
        if not poll or poll.get("version") != row.version:
            poll = extra["poll"] = polls.new_poll(row.version)
        changed = polls.cast(poll, actor.user_id, actor.name, action_id, label, now)
        active = polls.active_players(extra.get("recent", []), poll)
        winner = polls.majority(poll, active)
        if winner is not None:
            return await self._decide(game, poll, winner)
        if poll["closes"] is None and polls.plurality(poll) is not None:
            poll["closes"] = now + float(extra.get("window", self.vote_window))
        await self._save_table(game)
        mine = next(c for c in polls.counts(poll) if c.action == action_id)
        ballot = Ballot(label, mine.votes, len(active), polls.needed_for_majority(active),
                        poll["closes"], changed)
        return Play(game, (), ballot)

    async def _decide(
        self: Tables, game: LoadedGame, poll: dict[str, Any], chosen: polls.Count
    ) -> Play:
        """Make the poll's decision: apply ``chosen`` and say who chose it."""
        extra = game.row.extra
        extra["recent"] = polls.decided(extra.get("recent", []), poll)
        extra.pop("poll", None)
        lead = polls.attribution(poll, chosen)
        first = next(int(b["user"]) for b in poll["ballots"] if b["action"] == chosen.action)
        return await self._apply(game, 0, chosen.action, first, lead=lead)

    async def close_vote(self: Tables, game_id: int) -> Play | None:
        """Close the game's voting window if it is due: the plurality's move happens (C4).

        Return the move made, or None when nothing was due or nothing could be chosen
        (only moves needing a majority have votes: the decision stays open).
        """
        async with self.hold(game_id):
            game = await self.load(game_id)
            row = game.row
            poll = row.extra.get("poll")
            if row.is_open and game.broken and row.deadline is not None:
                row.extra.pop("poll", None)  # a damaged game waits for /abandon, not a vote
                row.extra.pop("timer", None)
                await self._save_table(game)
                return None
            if not row.is_open or game.broken or not poll:
                return None
            if poll.get("version") != row.version:
                row.extra.pop("poll", None)  # the game moved on some other way
                await self._save_table(game)
                return None
            closes = poll.get("closes")
            if closes is None or closes > self._clock():
                return None
            chosen = polls.plurality(poll)
            if chosen is None:
                poll["closes"] = None
                await self._save_table(game)
                return None
            return await self._decide(game, poll, chosen)


def shared_results(row: GameRow, outcome: Any) -> list[ResultRow]:
    """Return a channel game's result for everyone who played it (C5).

    An "only me" game credits its player; a channel game credits its starter and
    every member who voted or clicked, as a game played together when they were several.
    """
    if row.only_starter:
        players = {str(row.starter_id): ""}
    else:
        players = dict(row.extra.get("players") or {})
        players.setdefault(str(row.starter_id), "")
    together = len(players) > 1
    detail = dict(outcome.detail)
    return [
        ResultRow(int(user), outcome.outcome, outcome.score, detail, together)
        for user in sorted(players, key=int)
    ]
