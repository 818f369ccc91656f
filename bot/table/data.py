"""The table's own data, stored with each game (the ``games.extra`` column).

Typed records, each field with its one default, read from and written to the same JSON
the column has always held, so rows written before these records existed read as they
were. Keys this code does not know are kept as they are and written back unchanged.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from db.rows import VoterRow

#: The voting window when a game has none of its own (C4).
DEFAULT_WINDOW = 30.0

def _float(value: Any, default: float) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return default


def _ids(values: Any) -> list[int]:
    """Read a stored list of member ids; a forgotten member's (null: /forget-me) goes."""
    return [int(u) for u in values or () if u is not None]


def _optional_float(value: Any) -> float | None:
    return None if value is None else _float(value, 0.0)


def _decision_voters(data: dict[str, Any]) -> list[int] | None:
    """Read the stored voters per decision, stored as (decision, count) pairs: known when
    stored for the same decisions (or when no decision was made yet), else None (code
    that keeps the key without knowing it, an older bot on the same database, changes
    the decisions but not the counts)."""
    decisions = data.get("decisions") or ()
    counts = data.get("decision_voters")
    if not decisions:
        return []
    if not isinstance(counts, list):
        return None
    try:
        pairs = [(int(v), int(n)) for v, n in counts]
        wanted = [int(v) for v in decisions]
    except (TypeError, ValueError):
        return None
    if [v for v, _ in pairs] != wanted or any(n < 0 for _, n in pairs):
        return None
    return [n for _, n in pairs]


@dataclass(slots=True)
class Vote:
    """One member's vote on the open decision."""

    user: int
    name: str
    action: str
    label: str
    at: float = 0.0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Vote:
        """Read a stored vote."""
        return cls(int(data["user"]), str(data.get("name", "")), str(data["action"]),
                   str(data.get("label", data["action"])), _float(data.get("at"), 0.0))

    def to_json(self) -> dict[str, Any]:
        """Return the vote as stored."""
        return {"user": self.user, "name": self.name, "action": self.action,
                "label": self.label, "at": self.at}


@dataclass(slots=True)
class Poll:
    """The open decision of one board version: its votes and when its window closes.

    The table keeps the ballots themselves in the ``voters`` table (one row per member,
    written with the game) and here only what stays small whatever the number of
    voters: the votes per move (``tally``), how many players are active (``active``) and
    how many ballots were cast (``cast``, which orders them). ``ballots`` holds ballots
    in memory instead: a poll stored by the code before the ``voters`` table (moved
    there when the game is read), or one built to be shown or decided.
    """

    version: int
    closes: float | None = None
    ballots: list[Vote] = field(default_factory=list)
    #: Action ids in the order they were first voted for (ties go to the first).
    order: list[str] = field(default_factory=list)
    #: Votes per move (moves with none left out), when the ballots are in ``voters``.
    tally: dict[str, int] = field(default_factory=dict)
    #: The active players (C4): voters of the recent decisions and of this one (0: count
    #: them from ``ballots`` and the table's ``recent``).
    active: int = 0
    #: How many ballots were cast in this decision, changes included.
    cast: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Poll:
        """Read a stored poll."""
        return cls(int(data.get("version", -1)), _optional_float(data.get("closes")),
                   [Vote.from_json(b) for b in data.get("ballots") or ()
                    if b.get("user") is not None],  # a forgotten member's goes
                   [str(a) for a in data.get("order") or ()],
                   {str(k): int(v) for k, v in (data.get("tally") or {}).items()},
                   int(data.get("active") or 0), int(data.get("cast") or 0))

    def to_json(self) -> dict[str, Any]:
        """Return the poll as stored."""
        out: dict[str, Any] = {"version": self.version, "closes": self.closes}
        if self.ballots:
            out["ballots"] = [b.to_json() for b in self.ballots]
        out["order"] = list(self.order)
        if self.tally:
            out["tally"] = dict(self.tally)
        if self.active:
            out["active"] = self.active
        if self.cast:
            out["cast"] = self.cast
        return out


#: A timer's strikes once its reminded person got a whole turn back (C6): the next end
#: still hands the seat to a computer, and no later click gives the turn back again.
GIVEN_BACK = 2


@dataclass(slots=True)
class TurnTimer:
    """A running turn timer (C6): whose turn, when it runs out, how often it has, and
    when its current run began (None for a timer stored before that was kept: then
    ``at`` less the table's turn time).

    ``strikes`` is 0 before the reminder, 1 after it, and :data:`GIVEN_BACK` once the
    reminded person opened the table's rules and got a whole turn again (once a turn).
    """

    seat: int
    at: float
    strikes: int = 0
    since: float | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnTimer:
        """Read a stored timer."""
        return cls(int(data.get("seat", -1)), _float(data.get("at"), 0.0),
                   int(data.get("strikes") or 0), _optional_float(data.get("since")))

    def to_json(self) -> dict[str, Any]:
        """Return the timer as stored."""
        out: dict[str, Any] = {"seat": self.seat, "at": self.at, "strikes": self.strikes}
        if self.since is not None:
            out["since"] = self.since
        return out


@dataclass(frozen=True, slots=True)
class NoticeRef:
    """Where the table's current turn notice was posted, and whom it was for (0: unknown,
    a notice stored before the person was kept)."""

    channel: int
    message: int
    user: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NoticeRef:
        """Read a stored notice reference."""
        return cls(int(data["channel"]), int(data["message"]), int(data.get("user") or 0))

    def to_json(self) -> dict[str, int]:
        """Return the reference as stored."""
        out = {"channel": self.channel, "message": self.message}
        if self.user:
            out["user"] = self.user
        return out


def _invites(data: Any) -> list[NoticeRef]:
    """Read stored messages (a lobby's invitations, a game's replays), stored as
    (channel, message, user) triples (entries that are not are left out)."""
    out = []
    for entry in data if isinstance(data, list) else ():
        try:
            channel, message, user = (int(v) for v in entry)
        except (TypeError, ValueError):
            continue
        out.append(NoticeRef(channel, message, user))
    return out


def new_nonce() -> str:
    """A new name for a turn notice's posts to Discord (24 characters; Discord takes
    25): drawn at random, so that no two notices ever share one."""
    return secrets.token_hex(12)


@dataclass(frozen=True, slots=True)
class NoticeDue:
    """A turn notice waiting for its grace time (C6), or to be posted again after Discord
    refused it: posted at ``at`` unless ``user`` has acted by then; ``text`` is the
    notice's line; ``reminder`` says it is the turn timer's one reminder (C6), which
    counts as given once it is posted; ``since`` is when its wait began (None in rows
    stored before it was kept), so that a wait the bot was down for can be put off;
    ``owed`` says its wait is over and it is being posted: it is kept until it is out, so
    that a stop or a crash before then posts it after the start; ``nonce`` names every
    try's post to Discord (:func:`new_nonce`, drawn when it is first tried: owed, or a
    reminder posted), so that a post Discord took just before a stop, or while it
    answered with a failure, is not made twice by the next try."""

    user: int
    at: float
    text: str
    reminder: bool = False
    since: float | None = None
    owed: bool = False
    nonce: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> NoticeDue | None:
        """Read a waiting notice (None when its person was forgotten: no one to tell)."""
        user = data.get("user")
        if user is None:
            return None
        since = data.get("since")
        nonce = data.get("nonce")
        return cls(int(user), _float(data.get("at"), 0.0), str(data.get("text") or ""),
                   bool(data.get("reminder")), None if since is None else _float(since, 0.0),
                   bool(data.get("owed")), nonce if isinstance(nonce, str) and nonce else None)

    def to_json(self) -> dict[str, Any]:
        """Return the waiting notice as stored."""
        out: dict[str, Any] = {"user": self.user, "at": self.at, "text": self.text}
        if self.reminder:
            out["reminder"] = True
        if self.owed:
            out["owed"] = True
        if self.nonce is not None:
            out["nonce"] = self.nonce
        if self.since is not None:
            out["since"] = self.since
        return out


@dataclass(slots=True)
class TurnLog:
    """One turn of the table's log: the seat that moved (None: the table itself), its
    events, whether the turn is over, and whether a computer played an away person."""

    seat: int | None
    events: list[str] = field(default_factory=list)
    ended: bool = True
    by_computer: bool = False

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TurnLog:
        """Read a stored turn."""
        seat = data.get("seat")
        return cls(None if seat is None else int(seat), [str(e) for e in data.get("events")
                                                          or ()],
                   bool(data.get("ended", True)), bool(data.get("computer", False)))

    def to_json(self) -> dict[str, Any]:
        """Return the turn as stored."""
        out: dict[str, Any] = {"seat": self.seat, "events": list(self.events)}
        if not self.ended:
            out["ended"] = False
        if self.by_computer:
            out["computer"] = True
        return out


def _shared(stored: Any) -> tuple[float, str] | None:
    """Read when and where a result was shared (None: never, or not readable)."""
    try:
        at, link = stored
        return float(at), str(link)
    except (TypeError, ValueError):
        return None


@dataclass(slots=True)
class TableData:
    """Everything the table keeps with a game besides the engine's state."""

    #: How a channel game decides: ``vote``, ``fast`` or ``solo`` (C1).
    mode: str = "vote"
    #: The voting window in seconds (C4).
    window: float = DEFAULT_WINDOW
    #: Everyone who voted or clicked, by user id (as text), with their board name (C5),
    #: as stored before the ``voters`` table (moved there when the game is read).
    players: dict[str, str] = field(default_factory=dict)
    #: The voters of the last decisions, newest last (C4's active players), as stored
    #: before the ``voters`` table (moved there when the game is read).
    recent: list[list[int]] = field(default_factory=list)
    #: The board versions of the last decisions made by vote, newest last (C4).
    decisions: list[int] = field(default_factory=list)
    #: How many members voted in those decisions (C4's active players between votes).
    recent_players: int = 0
    #: For each of ``decisions``, how many members' latest vote among them was in it (so
    #: ``recent_players`` is their sum; stored with each decision's version), or None
    #: when not known (saved before these were counted, or by code that did not count
    #: them): the next decision counts them with a read of the store.
    decision_voters: list[int] | None = field(default_factory=list)
    #: The open decision of a channel vote, if any.
    poll: Poll | None = None
    #: The running turn timer of a seated game, if any.
    timer: TurnTimer | None = None
    #: The turn timer chosen at the table's start, in seconds (0: off).
    turn_seconds: float = 0.0
    #: Whether people are told by a mention when their turn comes (C6).
    notices: bool = True
    #: Requests to hand an absent person's seat to a computer: absent user id -> askers.
    away_votes: dict[str, list[int]] = field(default_factory=dict)
    #: The line that says what the last decision was and who made it.
    last: str = ""
    #: People at a running table who asked to abandon it (a majority of them does).
    abandon_votes: list[int] = field(default_factory=list)
    #: Those of them who asked while ending the table gave nobody a result (before any
    #: person moved, or with no computer at it): their ask keeps those terms.
    abandon_free: list[int] = field(default_factory=list)
    #: Everyone who has voted in this game (their first vote is told how voting works),
    #: as stored before the ``voters`` table (moved there when the game is read).
    voted: list[int] = field(default_factory=list)
    #: Members whose votes so far each made the decision at once (they played alone):
    #: not yet told how voting works, they are on their first vote that waits for others.
    untold: list[int] = field(default_factory=list)
    #: The host's user id once the role was handed on (None: the starter hosts).
    host: int | None = None
    #: When the lobby's host was last there (opened it, made a lobby move, opened the
    #: host controls, invited someone; None: stored before this was kept): a host away
    #: for :data:`bot.table.lobby.HOST_AWAY_SECONDS` may have the role taken by one seated.
    host_seen: float | None = None
    #: The table's current turn notice message, if any.
    notice: NoticeRef | None = None
    #: Members the lobby's board invited when it was posted (its "Invited:" line names
    #: those not seated yet).
    invited: list[int] = field(default_factory=list)
    #: The lobby's invitation messages in the channel, one per invited member, oldest
    #: first (deleted once that member joins, and when the lobby starts or closes).
    invites: list[NoticeRef] = field(default_factory=list)
    #: Whether the game's channel is a thread opened for it (archived once it ends).
    thread: bool = False
    #: The channel whose thread the game is played in (None: not a thread, or a game
    #: stored before this was kept): found from there, and ended when it is deleted.
    parent: int | None = None
    #: The turn notice waiting for the player's grace time to pass, if any.
    notice_due: NoticeDue | None = None
    #: When the seat to act last began waiting (its turn came, or it took a step of it):
    #: a seat is handed to a computer only once it has kept the table waiting a while
    #: (None in rows stored before it was kept).
    turn_since: float | None = None
    #: When a finished daily game's result was last shared in its channel, and the link
    #: to that post.
    shared: tuple[float, str] | None = None
    #: The replay posts of a finished game, oldest first (the latest few): taken down
    #: when a player in it asks the bot to forget them (their picture names them).
    replays: list[NoticeRef] = field(default_factory=list)
    #: The seats of an ended seated game whose people took no part in it (seated for
    #: them by Play again, they never came): no result, no rating.
    absent: list[int] = field(default_factory=list)
    #: The last turns and table events, oldest first (``bot.table.turnlog``).
    turns: list[TurnLog] = field(default_factory=list)
    #: Stored keys this code does not know, written back as they were.
    other: dict[str, Any] = field(default_factory=dict)
    #: Rows of the ``voters`` table to write with the next save, by user id (not part of
    #: the stored data; see :mod:`bot.table.voters`).
    unsaved: dict[int, VoterRow] = field(default_factory=dict, compare=False, repr=False)
    #: Rows of the ``voters`` table as stored, known without a read: those this
    #: process's saves of the game wrote (not part of the stored data).
    kept_voters: dict[int, VoterRow] = field(default_factory=dict, compare=False,
                                             repr=False)

    _KNOWN = frozenset(("mode", "window", "players", "recent", "poll", "timer", "turn_seconds",
                        "notices", "away_votes", "last", "host", "notice", "invites", "voted",
                        "untold", "invited", "abandon_votes", "abandon_free", "thread",
                        "parent", "notice_due", "shared", "turns", "decisions",
                        "recent_players", "decision_voters", "turn_since", "host_seen",
                        "replays", "absent"))

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TableData:
        """Read the stored table data (missing keys take their defaults)."""
        data = data or {}
        poll = data.get("poll")
        timer = data.get("timer")
        host = data.get("host")
        notice = data.get("notice")
        due = data.get("notice_due")
        parent = data.get("parent")
        return cls(
            mode=str(data.get("mode", "vote")),
            window=_float(data.get("window"), DEFAULT_WINDOW),
            players={str(k): str(v) for k, v in (data.get("players") or {}).items()},
            recent=[_ids(d) for d in data.get("recent") or ()],
            decisions=[int(v) for v in data.get("decisions") or ()],
            recent_players=int(data.get("recent_players") or 0),
            decision_voters=_decision_voters(data),
            poll=Poll.from_json(poll) if poll else None,
            timer=TurnTimer.from_json(timer) if timer else None,
            turn_seconds=_float(data.get("turn_seconds"), 0.0),
            notices=bool(data.get("notices", True)),
            away_votes={str(k): _ids(v) for k, v in (data.get("away_votes") or {}).items()},
            last=str(data.get("last") or ""),
            voted=_ids(data.get("voted")),
            untold=_ids(data.get("untold")),
            invited=_ids(data.get("invited")),
            abandon_votes=_ids(data.get("abandon_votes")),
            abandon_free=_ids(data.get("abandon_free")),
            host=None if host is None else int(host),
            host_seen=_optional_float(data.get("host_seen")),
            notice=NoticeRef.from_json(notice) if notice else None,
            invites=_invites(data.get("invites")),
            replays=_invites(data.get("replays")),
            absent=_ids(data.get("absent")),
            thread=bool(data.get("thread", False)),
            parent=None if parent is None else int(parent),
            shared=_shared(data.get("shared")),
            notice_due=NoticeDue.from_json(due) if due else None,
            turn_since=_optional_float(data.get("turn_since")),
            turns=[TurnLog.from_json(t) for t in data.get("turns") or () if isinstance(t, dict)],
            other={k: v for k, v in data.items() if k not in cls._KNOWN},
        )

    def to_json(self) -> dict[str, Any]:
        """Return the data as stored: only what differs from the defaults, plus the
        keys this code does not know."""
        out: dict[str, Any] = dict(self.other)
        if self.mode != "vote":
            out["mode"] = self.mode
        if self.window != DEFAULT_WINDOW:
            out["window"] = self.window
        if self.players:
            out["players"] = dict(self.players)
        if self.recent:
            out["recent"] = [list(d) for d in self.recent]
        if self.decisions:
            out["decisions"] = list(self.decisions)
        if self.recent_players:
            out["recent_players"] = self.recent_players
        if self.decisions and self.decision_voters is not None:
            out["decision_voters"] = [[v, n] for v, n in zip(self.decisions,
                                                             self.decision_voters,
                                                             strict=True)]
        if self.poll is not None:
            out["poll"] = self.poll.to_json()
        if self.timer is not None:
            out["timer"] = self.timer.to_json()
        if self.turn_seconds:
            out["turn_seconds"] = self.turn_seconds
        if self.turn_since is not None:
            out["turn_since"] = self.turn_since
        if not self.notices:
            out["notices"] = False
        if self.away_votes:
            out["away_votes"] = {k: list(v) for k, v in self.away_votes.items()}
        if self.last:
            out["last"] = self.last
        if self.voted:
            out["voted"] = list(self.voted)
        if self.untold:
            out["untold"] = list(self.untold)
        if self.invited:
            out["invited"] = list(self.invited)
        if self.abandon_votes:
            out["abandon_votes"] = list(self.abandon_votes)
        if self.abandon_free:
            out["abandon_free"] = list(self.abandon_free)
        if self.host is not None:
            out["host"] = self.host
        if self.host_seen is not None:
            out["host_seen"] = self.host_seen
        if self.notice is not None:
            out["notice"] = self.notice.to_json()
        if self.invites:
            out["invites"] = [[i.channel, i.message, i.user] for i in self.invites]
        if self.replays:
            out["replays"] = [[r.channel, r.message, r.user] for r in self.replays]
        if self.absent:
            out["absent"] = list(self.absent)
        if self.thread:
            out["thread"] = True
        if self.parent is not None:
            out["parent"] = self.parent
        if self.shared is not None:
            out["shared"] = list(self.shared)
        if self.notice_due is not None:
            out["notice_due"] = self.notice_due.to_json()
        if self.turns:
            out["turns"] = [t.to_json() for t in self.turns]
        return out

    def deadlines(self) -> list[float]:
        """Return every deadline the data holds (a vote window, a turn timer, a turn
        notice's grace time)."""
        due = []
        if self.poll is not None and self.poll.closes is not None:
            due.append(self.poll.closes)
        if self.timer is not None:
            due.append(self.timer.at)
        if self.notice_due is not None:
            due.append(self.notice_due.at)
        return due
