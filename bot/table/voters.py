"""The voters of a channel-played game (rulings C4, C5), kept in the ``voters`` table.

One row per member and game (:class:`db.rows.VoterRow`): the name they played under and
their latest ballot. A vote reads its member's row (one index read, none when this
process's saves of the game wrote it: ``TableData.kept_voters``), changes the poll's
small counts in the table data and writes the row with the game's save, in the same
transaction (compare-and-swap on the game's version): so a vote's work does not grow
with the number of voters, and a vote is never stored without its game or the reverse.
Only a decision needs its ballots (who chose the move, how a tie went), read back unless
all are in memory; only the end of a game reads everyone (the shared result).

Active players (C4) without lists of them: the table data keeps the board versions of
the last five decisions (``decisions``), how many members voted in them
(``recent_players``) and, per decision, how many members voted last in it
(``decision_voters``); a member is active when their latest ballot is for the open
decision or one of those, or when the latest decision they voted in that was made
(their row's ``decided``) is one of those. A decision moves its voters' count to itself
and lets the oldest decision's go; where the table data has no count per decision it can
trust (saved before there was one, or by code that did not keep them), the decision
counts them with one read of the store.

Table data written before the ``voters`` table (the ballots, players, first voters and
the last decisions' voters inside it) is moved into rows when the game is read
(:func:`upgrade`); the rows are written with the game's next save.
"""

from __future__ import annotations

from bot.table import polls
from bot.table.data import Poll, TableData, Vote
from db.base import GameStore
from db.rows import VoterRow

#: The decision version of a member who voted in a decision older than the table data
#: knows (moved from the stored list of first votes): they voted before, not recently.
EARLIER = -1


def is_active(row: VoterRow | None, data: TableData, poll: Poll | None) -> bool:
    """Whether the member of ``row`` is an active player (C4) before they vote now."""
    if row is None or row.version is None:
        return False
    if poll is not None and row.version == poll.version:
        return True
    return row.version in data.decisions or row.decided in data.decisions


async def row_of(store: GameStore, game_id: int, data: TableData, user_id: int) -> VoterRow | None:
    """Return the member's row: as about to be written, else as stored (read only when
    this process's saves did not write it)."""
    row = data.unsaved.get(user_id)
    if row is None:
        row = data.kept_voters.get(user_id)
    return row if row is not None else await store.voter(game_id, user_id)


def _after(data: TableData, poll: Poll) -> list[int]:
    """Return the last decisions' board versions once ``poll`` is decided."""
    return [*data.decisions, poll.version][-polls.RECENT_DECISIONS:]


def clicked(data: TableData, user_id: int, name: str) -> None:
    """Note a member who clicked in a game where anyone's click moves at once (C5)."""
    data.unsaved[user_id] = VoterRow(user_id, name)


def agreed_late(data: TableData, mine: VoterRow | None, user_id: int, name: str,
                decided: int, action: str, now: float) -> None:
    """Count a member who was not an active player (C4), whose vote for ``action`` on the
    board at version ``decided`` came a moment after the decision there made that very
    move, as one of that decision's voters: their ballot is for it, as if it had come in
    time, so they are an active player from now on and share the game's result (C5)."""
    earlier = mine.decided if mine is not None else None
    data.unsaved[user_id] = VoterRow(user_id, name, decided, earlier, action, None, now)
    counts = data.decision_voters
    if counts is not None and len(counts) == len(data.decisions):
        counts[data.decisions.index(decided)] += 1
        data.recent_players += 1
    poll = data.poll
    if poll is not None and poll.version > decided:  # the next decision's vote, under way
        poll.active += 1


def new_poll(data: TableData, version: int) -> Poll:
    """Return the empty poll of the board at ``version``, counting the recent voters."""
    return Poll(version, active=data.recent_players)


def cast(data: TableData, poll: Poll, mine: VoterRow | None, user_id: int, name: str,
         action: str, label: str, now: float) -> str | None:
    """Record (or change) the member's vote for ``action`` in the open ``poll``, whose
    member row was ``mine``; return the move they had voted for in it before, if any.

    The row to write goes to ``data.unsaved``; nothing is written when the vote is the
    same as before.
    """
    before = mine.action if mine is not None and mine.version == poll.version else None
    if before == action:
        return before
    if not is_active(mine, data, poll):
        poll.active += 1
    decided = mine.decided if mine is not None else None
    if mine is not None and mine.version != poll.version and mine.version in data.decisions:
        decided = mine.version  # their last ballot was for a decision made since
    if before is not None:
        left = poll.tally.get(before, 0) - 1
        if left > 0:
            poll.tally[before] = left
        else:
            poll.tally.pop(before, None)
    poll.tally[action] = poll.tally.get(action, 0) + 1
    if action not in poll.order:
        poll.order.append(action)
    poll.cast += 1
    data.unsaved[user_id] = VoterRow(user_id, name, poll.version, decided, action, label, now,
                                     poll.cast)
    return before


async def poll_rows(store: GameStore, game_id: int, data: TableData,
                    poll: Poll) -> list[VoterRow]:
    """Return the rows of ``poll``'s voters in the order cast (for a decision): from
    memory when every ballot is there (a solo voter's, say), else read."""
    rows = _with_unsaved(data.kept_voters, data, poll)
    if len(rows) < polls.voter_count(poll):
        stored = {r.user_id: r for r in await store.voters(game_id, poll.version)}
        rows = _with_unsaved(stored, data, poll)
    return sorted(rows.values(), key=lambda r: r.seq)


def _with_unsaved(rows: dict[int, VoterRow], data: TableData,
                  poll: Poll) -> dict[int, VoterRow]:
    """Return the ballots of ``poll`` among ``rows`` as the unsaved rows change them."""
    ballots = {u: r for u, r in rows.items() if r.version == poll.version}
    for user_id, row in data.unsaved.items():
        if row.version == poll.version:
            ballots[user_id] = row
        else:
            ballots.pop(user_id, None)
    return ballots


def ballots_of(poll: Poll, rows: list[VoterRow]) -> Poll:
    """Return ``poll`` with the ballots of its voters' ``rows`` in memory."""
    votes = [Vote(r.user_id, r.name, r.action or "", r.label or r.action or "", r.at or 0.0)
             for r in rows]
    return Poll(poll.version, poll.closes, votes, list(poll.order))


async def decided(store: GameStore, game_id: int, data: TableData, poll: Poll,
                  rows: list[VoterRow]) -> None:
    """Count ``poll`` (whose voters' rows are ``rows``) among the last decisions and
    count their voters again (C4).

    Where the voters per decision are known, the new count needs no read: the voters of
    ``poll`` move to it from the decision their row says they last voted in, and the
    oldest decision's remaining voters leave with it. Where they are not, one read
    counts them per decision, and the next decisions count on from there.
    """
    after = _after(data, poll)
    counts = data.decision_voters
    if counts is not None and len(counts) == len(data.decisions):
        by = dict(zip(data.decisions, counts, strict=True))
        for row in rows:
            if row.decided in by:
                by[row.decided] -= 1
        by[poll.version] = len(rows)
        if min(by.values()) >= 0:
            data.decisions = after
            data.decision_voters = [by[v] for v in after]
            data.recent_players = sum(data.decision_voters)
            return
    data.decisions = after
    by = await store.voters_per_decision(game_id, after, leaving_out=list(data.unsaved))
    for r in data.unsaved.values():
        last = r.version if r.version in after else r.decided
        if last in after:
            by[last] = by.get(last, 0) + 1
    data.decision_voters = [by.get(v, 0) for v in after]
    data.recent_players = sum(data.decision_voters)


async def everyone(store: GameStore, game_id: int, data: TableData) -> dict[int, str]:
    """Return every member who voted or clicked in the game (C5), by user id, with the
    name they last played under."""
    named = {int(k): str(v) for k, v in data.players.items()}
    named.update({r.user_id: r.name for r in await store.voters(game_id)})
    named.update({user: r.name for user, r in data.unsaved.items()})
    return dict(sorted(named.items()))


def upgrade(data: TableData) -> None:
    """Move what the table data kept of its voters before the ``voters`` table into rows
    to write (``data.unsaved``) and the poll's counts; nothing when there is none."""
    poll = data.poll
    held = poll.ballots if poll is not None else []
    if not (data.players or data.voted or data.recent or held):
        return
    # The recent decisions have no board versions: each gets one below any real one.
    marks = list(range(-1 - len(data.recent), -1))
    latest: dict[int, int] = {}
    for mark, decision in zip(marks, data.recent, strict=True):
        for user in decision:
            latest[int(user)] = mark
    names = {int(user): name for user, name in data.players.items()}
    voted = {int(u) for u in data.voted} | set(latest) | {b.user for b in held}
    rows: dict[int, VoterRow] = {}
    for user in sorted(set(names) | voted):
        last = latest.get(user)
        version = last if last is not None else (EARLIER if user in voted else None)
        rows[user] = VoterRow(user, names.get(user, ""), version, last)
    recent_players = len(latest) if data.recent else data.recent_players
    if poll is not None and not held:
        poll.active = poll.active or recent_players
    if poll is not None and held:
        if data.recent:
            poll.active = len(polls.active_players(data.recent, poll))
        else:  # ballots in memory over the rows: each counted as a newcomer
            poll.active = poll.active or recent_players + len({b.user for b in held})
        tally: dict[str, int] = {}
        for seq, ballot in enumerate(held, start=1):
            rows[ballot.user] = VoterRow(ballot.user, ballot.name, poll.version,
                                         latest.get(ballot.user), ballot.action, ballot.label,
                                         ballot.at, seq)
            tally[ballot.action] = tally.get(ballot.action, 0) + 1
        poll.tally = tally
        poll.cast = len(held)
        poll.ballots = []
    if data.recent:
        data.decisions = marks
        data.decision_voters = [sum(1 for m in latest.values() if m == mark) for mark in marks]
        data.recent_players = recent_players
    data.unsaved = {**rows, **data.unsaved}
    data.players = {}
    data.voted = []
    data.recent = []
