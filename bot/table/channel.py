"""The channel policy (rulings C1, C4, C5): a solo game played by a channel, where a
click is a vote, the move happens when a majority agrees or the window closes, and
everyone who took part shares the result."""

from __future__ import annotations

from dataclasses import replace

from bot.games.protocol import IllegalAction
from bot.table import polls, voters
from bot.table.core import TableCore
from bot.table.data import Poll
from bot.table.errors import Refusal
from bot.table.loaded import Actor, Ballot, LoadedGame, Play


class ChannelPolicy:
    """Channel votes on a one-seat game, over the shared :class:`TableCore`."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    def _label(self, game: LoadedGame, action_id: str) -> str:
        """Return the label of a legal action of seat 0; refuse, in the engine's words, if not."""
        for action in game.legal_actions(0):
            if action.id == action_id:
                return action.label
        try:
            game.engine.apply(game.state, 0, action_id)
        except IllegalAction as exc:
            raise Refusal(str(exc)) from exc
        return action_id

    async def move(self, game: LoadedGame, actor: Actor, action_id: str) -> Play:
        """A click on a channel-played solo game: a vote (C4), or a move at once.

        A vote reads the member's row of the game's voters (one index read) and writes
        it with the game's small table data, whatever the number of voters
        (:mod:`bot.table.voters`).
        """
        data = game.data
        label = self._label(game, action_id)
        if data.mode != "vote":
            if not game.row.only_starter:
                voters.clicked(data, actor.user_id, actor.name)
            return await self.core.apply(
                game, 0, action_id, actor.user_id, lead=f"{actor.name} chose: {label}.",
                named={actor.user_id: actor.name},
            )
        now = self.core.now()
        poll = data.poll
        if (poll is not None and poll.version == game.row.version and poll.closes is not None
                and poll.closes <= now):
            # The window ended before this click (the deadline loop had not come to it
            # yet): its decision is made as it stood, and this vote is not counted.
            chosen = polls.plurality(poll)
            if chosen is not None:
                return replace(await self._decide(game, poll, chosen.action), late=True)
            poll.closes = None
        if poll is None or poll.version != game.row.version:
            poll = data.poll = voters.new_poll(data, game.row.version)
        mine = await self.core.guarded(voters.row_of(self.core.store, game.id, data,
                                                     actor.user_id))
        first = mine is None or mine.version is None
        before = voters.cast(data, poll, mine, actor.user_id, actor.name, action_id, label, now)
        changed = before != action_id
        winner = polls.majority(poll, poll.active)
        if winner is not None:
            if first and winner.action == action_id:  # a vote that moved alone: not told
                data.untold.append(actor.user_id)
            return await self._decide(game, poll, winner.action, by_majority=True)
        if actor.user_id in data.untold:  # their first vote that waits for others
            data.untold.remove(actor.user_id)
            first = True
        if polls.plurality(poll) is None:
            poll.closes = None  # only moves needing a majority have votes: no countdown
        elif poll.closes is None:
            poll.closes = now + data.window
        await self.core.save_table(game)
        ballot = Ballot(label, poll.tally.get(action_id, 0), poll.active,
                        polls.needed_for_majority(poll.active), poll.closes, changed,
                        first=first, switched=changed and before is not None,
                        needs_majority=action_id in polls.CONFIRMED_MOVES)
        return Play(game, (), ballot)

    async def agreed_late(self, game_id: int, decided: int, actor: Actor,
                          action_id: str) -> bool:
        """Count ``actor``, whose vote for ``action_id`` on the board at version
        ``decided`` came a moment after the others' votes made that very move there, as
        one of that decision's voters, unless they are an active player already (C4):
        they share the game's result (C5) as if their vote had come in time. A game that
        ended with that move has shared its result already: nothing is counted. Return
        whether the board is to be drawn again: the next decision's vote, under way,
        counts one more active player now (its board says how many agreeing votes move),
        or a click no longer moves at once."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            data = game.data
            if not game.row.is_open or game.broken or decided not in data.decisions:
                return False
            mine = await core.guarded(voters.row_of(core.store, game.id, data, actor.user_id))
            poll = data.poll if data.poll and data.poll.version == game.row.version else None
            if voters.is_active(mine, data, poll):
                return False
            if (mine is None or mine.version is None) and actor.user_id not in data.untold:
                data.untold.append(actor.user_id)  # told how voting works at their next vote
            at_once = polls.moves_at_once(data, game.row.version)
            voters.agreed_late(data, mine, actor.user_id, actor.name, decided, action_id,
                               core.now())
            await core.save_table(game)
            # the board shows the vote's count, and what a click does: a player voting
            # alone moves at once, and a move such as Give up asks first (C4)
            return ((poll is not None and polls.voter_count(poll) > 0)
                    or at_once != polls.moves_at_once(data, game.row.version))

    async def agreed_last(self, game_id: int, decided: int, actor: Actor,
                          action_id: str) -> bool:
        """Count ``actor``, whose vote for ``action_id`` on the board at version
        ``decided`` came a moment after the others' votes made that very move there and
        the move ended the game, among that decision's voters: they share the game's
        result (C4, C5) as if their vote had come in time, unless they have it already.
        Return whether their result was written."""
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            row, data = game.row, game.data
            if (row.status != "over" or game.broken or game.state is None
                    or row.only_starter or decided != row.version - 1
                    or decided not in data.decisions):
                return False
            if await core.guarded(core.store.query(
                    "SELECT 1 FROM results WHERE game_id = :game AND user_id = :user",
                    {"game": game.id, "user": actor.user_id})):
                return False
            mine = await core.guarded(voters.row_of(core.store, game.id, data, actor.user_id))
            voters.agreed_late(data, mine, actor.user_id, actor.name, decided, action_id,
                               core.now())
            results = [r for r in core.results(game, game.state, {actor.user_id: actor.name})
                       if r.user_id == actor.user_id]  # (the starter has theirs already)
            if not results:
                return False
            await core.save(game, row.version, None, actor.user_id, results)
            return True

    async def _decide(self, game: LoadedGame, poll: Poll, action: str, *,
                      by_majority: bool = False) -> Play:
        """Make the poll's decision: apply ``action`` and say who chose it (``by_majority``:
        a majority agreed, else the window closed on it)."""
        data = game.data
        store = self.core.store
        rows = await self.core.guarded(voters.poll_rows(store, game.id, data, poll))
        full = voters.ballots_of(poll, rows)
        chosen = next((c for c in polls.counts(full) if c.action == action), None)
        await self.core.guarded(voters.decided(store, game.id, data, poll, rows))
        data.poll = None
        named = {b.user: b.name for b in full.ballots}
        if chosen is None:  # the ballots for it cannot be read (a damaged row): the tally
            lead = f"The vote chose: {self._label(game, action)}."
            return await self.core.apply(game, 0, action, None, lead=lead, named=named)
        lead = polls.attribution(full, chosen, by_majority=by_majority)
        first = next(b.user for b in full.ballots if b.action == chosen.action)
        return await self.core.apply(game, 0, chosen.action, first, lead=lead, named=named)

    async def close_vote(self, game_id: int) -> Play | None:
        """Close the game's voting window if it is due: the plurality's move happens (C4).

        Return the move made, or None when nothing was due; when nothing could be chosen
        (only moves needing a majority have votes), the decision stays open and the
        board is to be drawn again (its countdown stopped).
        """
        core = self.core
        async with core.hold(game_id):
            game = await core.load(game_id)
            row, data = game.row, game.data
            poll = data.poll
            if row.is_open and game.broken and row.deadline is not None:
                data.poll = None  # a damaged game waits for /abandon, not a vote
                data.timer = None
                data.notice_due = None
                await core.save_table(game)
                return None
            if not row.is_open or game.broken or poll is None:
                return None
            if poll.version != row.version:
                data.poll = None  # the game moved on some other way
                await core.save_table(game)
                return None
            if poll.closes is None or poll.closes > core.now():
                return None
            chosen = polls.plurality(poll)
            if chosen is None:  # only moves needing a majority: no countdown any more
                poll.closes = None
                await core.save_table(game)
                return Play(game, (), redraw=True)
            return await self._decide(game, poll, chosen.action)
