"""Channel votes (rulings C1, C4): ballots, tallies, majorities and closing a window.

Pure functions over the table's typed data (:class:`bot.table.data.Poll`), which is
stored with the game, so a vote survives a restart with it. A poll is the open decision
of one board version; ``recent`` lists the voters of the game's last five decisions.
The table keeps a poll's ballots in the ``voters`` table and only its counts in the poll
(:mod:`bot.table.voters`); these functions read either, and the rules over ballots in
memory are the ones a decision's ballots are read back for.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from bot.table.data import Poll, TableData, Vote
from bot.text.alike import distinct

#: How players of a channel game decide: by vote (C1), anyone's click at once, one player.
MODES = ("vote", "fast", "solo")
#: Decisions whose voters count as active players (C4).
RECENT_DECISIONS = 5
#: Moves that need confirming: by vote they need a majority, never a plurality (C4).
CONFIRMED_MOVES = frozenset({"give_up", "resign"})
#: Window lengths a starter may choose, in seconds (C4: 10 s to 10 minutes).
MIN_WINDOW = 10
MAX_WINDOW = 600
#: The window of a game whose starter and server chose none (seconds).
DEFAULT_WINDOW = 30.0


@dataclass(frozen=True, slots=True)
class Count:
    """One move's standing in a poll: its votes and who cast them, in voting order (the
    names are known when the ballots are in memory; from the poll's tally, they are not)."""

    action: str
    label: str
    votes: int
    names: tuple[str, ...] = ()


def new_poll(version: int) -> Poll:
    """Return an empty poll for the board at ``version``."""
    return Poll(version)


def cast(
    poll: Poll, user_id: int, name: str, action: str, label: str, now: float
) -> bool:
    """Record (or change) ``user_id``'s vote for ``action``; return whether it changed.

    A member has one vote per decision; voting again replaces it.
    """
    for ballot in poll.ballots:
        if ballot.user == user_id:
            if ballot.action == action:
                return False
            poll.ballots.remove(ballot)
            break
    poll.ballots.append(Vote(user_id, name, action, label, now))
    if action not in poll.order:
        poll.order.append(action)
    return True


def voters(poll: Poll | None) -> list[int]:
    """Return the members who have a vote in ``poll``, in voting order."""
    return [b.user for b in poll.ballots] if poll is not None else []


def active_players(recent: Iterable[Iterable[int]], poll: Poll | None) -> set[int]:
    """Return the active players: voters of the last decisions plus this one's (C4)."""
    active = {int(user) for decision in recent for user in decision}
    active.update(voters(poll))
    return active


def counts(poll: Poll) -> list[Count]:
    """Return each voted move's count, most votes first, ties in the order first voted.

    From the ballots in memory when the poll holds them (with the voters' names), else
    from its tally (labels are then the action ids).
    """
    order = {action: index for index, action in enumerate(poll.order)}
    if poll.ballots:
        names: dict[str, list[str]] = {}
        labels: dict[str, str] = {}
        shown = voter_names(poll)
        for ballot in poll.ballots:
            names.setdefault(ballot.action, []).append(shown[ballot.user])
            labels[ballot.action] = ballot.label
        standing = [Count(a, labels[a], len(n), tuple(n)) for a, n in names.items()]
    else:
        standing = [Count(a, a, v) for a, v in poll.tally.items() if v > 0]
    standing.sort(key=lambda c: (-c.votes, order.get(c.action, len(order))))
    return standing


def voter_names(poll: Poll) -> dict[int, str]:
    """Return each voter's name as the decision's line names them: a member whose name
    reads as an earlier voter's (two members called Alex) gets a number after it, "Alex
    (2)", in the order they voted, as seats are told apart."""
    shown: dict[int, str] = {}
    for ballot in poll.ballots:
        if ballot.user not in shown:
            shown[ballot.user] = distinct(ballot.name, shown.values())
    return shown


def confirming(poll: Poll) -> bool:
    """Whether a move that needs a majority (giving up, resigning: C4) has a vote."""
    return any(c.action in CONFIRMED_MOVES for c in counts(poll))


def voter_count(poll: Poll) -> int:
    """Return how many members have a vote in ``poll``."""
    return len(poll.ballots) if poll.ballots else sum(poll.tally.values())


def active_count(recent: Iterable[Iterable[int]], poll: Poll) -> int:
    """Return how many players are active while ``poll`` is open (C4): as the poll keeps
    it, or counted from its ballots in memory and ``recent``."""
    return poll.active or len(active_players(recent, poll))


def active_on(data: TableData, version: int) -> int:
    """Return how many players are active (C4) on the board at ``version``: as its open
    poll counts them, else the voters of the last decisions."""
    poll = data.poll
    if poll is not None and poll.version == version:
        return active_count(data.recent, poll)
    return data.recent_players or len(active_players(data.recent, None))


def moves_at_once(data: TableData, version: int) -> bool:
    """Whether a vote on the board at ``version`` would be a majority by itself: at most
    one player is active (C4), so a click there moves at once, as in a fast game."""
    return data.mode != "vote" or active_on(data, version) <= 1


def _size(active: int | Collection[int]) -> int:
    return active if isinstance(active, int) else len(active)


def majority(poll: Poll, active: int | Collection[int]) -> Count | None:
    """Return the move voted for by more than half of the active players (``active``:
    them, or how many they are), if any."""
    needed = needed_for_majority(active)
    for count in counts(poll):
        if count.votes >= needed:
            return count
    return None


def needed_for_majority(active: int | Collection[int]) -> int:
    """Return how many votes make a majority of ``active`` (them, or how many they are)."""
    return _size(active) // 2 + 1


def plurality(poll: Poll) -> Count | None:
    """Return the move chosen when the window closes: most votes, ties to the first voted.

    Moves that need confirming are left out (they need a majority); None when nothing
    else has a vote, and the decision stays open.
    """
    for count in counts(poll):
        if count.action not in CONFIRMED_MOVES:
            return count
    return None


def decided(recent: list[list[int]], poll: Poll) -> list[list[int]]:
    """Return ``recent`` with the voters of the decision just made added (last five kept)."""
    made = voters(poll)
    return ([*recent, made] if made else list(recent))[-RECENT_DECISIONS:]


def join_names(names: Iterable[str]) -> str:
    """Return "Alice", "Alice and Bob" or "Alice, Bob and Carol"."""
    items = list(names)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def attribution(poll: Poll, chosen: Count, *, by_majority: bool = False) -> str:
    """Return who chose the move, with the count: "Alice and Bob chose: X (2 votes to 1)".

    A tie broken by the first vote (C4) says so: "Tie 1–1–1: Bob voted first, so X
    happened." A move chosen when the window closed (not ``by_majority``) is counted
    against the other moves of the plurality only: votes for moves needing a majority
    were left out of it (C4).
    """
    standing = [c for c in counts(poll) if c.action not in CONFIRMED_MOVES]
    tied = [c for c in standing if c.votes == chosen.votes]
    if len(tied) > 1 and chosen in tied:
        return tie_line(poll, chosen, standing, tied)
    against = counts(poll) if by_majority else standing
    others = sum(c.votes for c in against if c.action != chosen.action)
    line = f"{join_names(chosen.names)} chose: {chosen.label}"
    if others:
        plural = "vote" if chosen.votes == 1 else "votes"
        line += f" ({chosen.votes} {plural} to {others})"
    return line + "."


def tie_line(poll: Poll, chosen: Count, standing: list[Count], tied: list[Count]) -> str:
    """Return how a tie was broken: "Tie 2–2–1: Alice voted first, so X happened."

    The voter is named when the earliest of the tied moves' votes still standing is for
    the chosen move; otherwise (that voter changed their mind since) the line says the
    move was voted for first.
    """
    score = "–".join(str(c.votes) for c in standing)
    actions = {c.action for c in tied}
    earliest = next((b for b in poll.ballots if b.action in actions), None)
    if earliest is not None and earliest.action == chosen.action:
        return (f"Tie {score}: {voter_names(poll)[earliest.user]} voted first, so "
                f"{chosen.label} happened.")
    return f"Tie {score}: {chosen.label} was voted for first, so it happened."


def window_seconds(value: Any, default: float) -> float:
    """Return a voting window length within the allowed range (default when unset)."""
    try:
        seconds = float(value) if value is not None else float(default)
    except (TypeError, ValueError):
        seconds = float(default)
    return min(max(seconds, MIN_WINDOW), MAX_WINDOW)
