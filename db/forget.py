"""Forgetting a member inside stored games: nothing of their id or name stays.

In a finished game, every JSON document the bot stored (seats, options, events, table
data, each logged table move, other players' result details) is scrubbed the same way,
whatever the game keeps in it (:func:`scrub`): their seats say "a former player". The
names scrubbed are the ones the member had in that game: their seats', the table's
record of the players, their ballots, and the lobby's lines of their own joins and
leaves (:func:`lobby_names`: a member who left a lobby, or was removed from it, keeps no
seat).

The engine's state and its logged moves hold card, place and item names that may equal a
member's name ("Savage", "Harvest"), and a game is replayed from them: the state is
rewritten only where it holds a person's name, each ``name`` field
(:func:`scrub_state`), and an engine move (``{"seat": n, "action": id}``), which names
nobody, is left as it is (:func:`scrub_logged`).

Each store forgets a member in one transaction that picks those games, writes their
scrubbed documents back and deletes the member's own rows: :func:`forget_sqlite`,
:func:`forget_postgres`.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from db.pg_params import qmarks_to_numbered
from db.rows import to_json

if TYPE_CHECKING:
    import asyncpg

log = logging.getLogger(__name__)

#: How a forgotten member is named in the games they sat at.
FORMER_PLAYER = "a former player"


#: A member's part in daily deals, deleted but for the games still open: an open game
#: keeps what it needs to record them when it ends (docs/records.md), and a daily
#: deal's starter is credited by this part of theirs (they may not click again).
OPEN_KEPT_DAILY_SQLITE = ("DELETE FROM daily_played WHERE user_id = ? AND game_id NOT IN"
                          " (SELECT id FROM games WHERE status IN ('lobby', 'active'))")
OPEN_KEPT_DAILY_PG = OPEN_KEPT_DAILY_SQLITE.replace("?", "$1")
#: A finished game's results, for their words about the member (read by its own index,
#: ``results_by_game``: a member may have played thousands of games).
RESULTS_OF_GAME_SQL = "SELECT id, detail FROM results WHERE game_id = ?"


def seats_needle(user_id: int) -> str:
    """Return the text a seats column contains when ``user_id`` sat at the game."""
    return f'"user_id":{user_id}'


def scrub(value: Any, user_id: int, names: Collection[str], former: str) -> Any:
    """Return the JSON ``value`` with nothing left of the member ``user_id``.

    Generic, whatever the game stored: a number equal to the id becomes null; an entry
    keyed by the id (as text) goes; a string equal to the id, a mention of them, and
    every occurrence of one of their ``names`` inside a string, as a name of its own
    (not inside a longer word: forgetting "Al" leaves "Alice", "Sun" leaves "Suns"),
    become ``former``.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return None if value == user_id else value
    if isinstance(value, str):
        return _scrub_text(value, user_id, names, former)
    if isinstance(value, list):
        return [scrub(v, user_id, names, former) for v in value]
    if isinstance(value, dict):
        key = str(user_id)
        return {k: scrub(v, user_id, names, former) for k, v in value.items() if k != key}
    return value


def _scrub_id(text: str, user_id: int, former: str) -> str:
    """Return ``text`` with the member's id (the whole text) and mentions of them
    replaced by ``former``."""
    if text == str(user_id):
        return former
    return text.replace(f"<@{user_id}>", former).replace(f"<@!{user_id}>", former)


class MemberNames(frozenset[str]):
    """A member's names in one game, with the names others had there (``kept``): where
    one of theirs stands inside one of the others' ("Sam" in "Sam (2)"), the longer
    name is the other player's, and stays."""

    kept: frozenset[str]

    def __new__(cls, names: Collection[str], kept: Collection[str] = ()) -> MemberNames:
        """Return the member's ``names``, keeping ``kept``."""
        made = super().__new__(cls, names)
        made.kept = frozenset(kept)
        return made


def _scrub_text(text: str, user_id: int, names: Collection[str], former: str) -> str:
    text = _scrub_id(text, user_id, former)
    if text == former:
        return text
    if names and any(name in text for name in names):
        every = {*names, *getattr(names, "kept", ())}
        text = _names_pattern(tuple(sorted(every, key=len, reverse=True))).sub(
            lambda match: former if match.group(0) in names else match.group(0), text)
    return text


@lru_cache(maxsize=64)
def _names_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """Return a pattern matching any of ``names`` (longest first) where it stands as a
    name of its own: not right after or before a letter, a digit or an underscore."""
    choices = "|".join(re.escape(name) for name in names)
    return re.compile(rf"(?<!\w)(?:{choices})(?!\w)")


def scrub_text_column(raw: str | None, user_id: int, names: Collection[str],
                      former: str) -> str | None:
    """Return a JSON column's text scrubbed by :func:`scrub`, or None when unchanged (or
    empty, or not JSON: then it is scrubbed as plain text)."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        new = _scrub_text(raw, user_id, names, former)
    else:
        new = to_json(scrub(value, user_id, names, former))
    return None if new == raw else new


#: The key under which an engine's state holds a person's name (a seat's player): an
#: engine keeps a person's name nowhere else in its state (its other strings are cards,
#: places, items and move ids, which a member's name may equal).
NAME_FIELD = "name"


def scrub_state(value: Any, user_id: int, names: Collection[str], former: str) -> Any:
    """Return the engine state ``value`` with nothing left of the member ``user_id``,
    the game's own words untouched so it can still be replayed.

    Each :data:`NAME_FIELD` string is scrubbed as :func:`scrub` scrubs a text; anywhere
    else only the member's id goes (a number equal to it becomes null, an entry keyed by
    it goes, a text equal to it or a mention of them becomes ``former``): a card, place
    or item named like the member ("Savage", "Harvest", "Ace") keeps its name.
    """
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return None if value == user_id else value
    if isinstance(value, str):
        return _scrub_id(value, user_id, former)
    if isinstance(value, list):
        return [scrub_state(v, user_id, names, former) for v in value]
    if isinstance(value, dict):
        key = str(user_id)
        return {k: _scrub_text(v, user_id, names, former)
                if k == NAME_FIELD and isinstance(v, str)
                else scrub_state(v, user_id, names, former)
                for k, v in value.items() if k != key}
    return value


NAMES_OPTION = "names"
"""The start option that lists people's names (Steam to Solar's players)."""


def scrub_options(value: Any, user_id: int, names: Collection[str], former: str) -> Any:
    """Return a game's start options with nothing left of the member ``user_id``, the
    engine's own values untouched so the game can still be replayed: the
    :data:`NAMES_OPTION` list is scrubbed as :func:`scrub` scrubs, every other option as
    :func:`scrub_state` (a Tin Realm map preset "hard" stays "hard" when a member called
    "hard" is forgotten)."""
    if not isinstance(value, dict):
        return scrub_state(value, user_id, names, former)
    return {k: scrub(v, user_id, names, former) if k == NAMES_OPTION
            else scrub_state(v, user_id, names, former)
            for k, v in value.items() if k != str(user_id)}


Scrubber = Callable[[Any, int, Collection[str], str], Any]
"""A function that scrubs one JSON value of a member (:func:`scrub_state`, ...)."""


def scrub_state_column(raw: str | None, user_id: int, names: Collection[str],
                       former: str, scrubber: Scrubber = scrub_state) -> str | None:
    """Return a state column's text scrubbed by ``scrubber`` (:func:`scrub_state`, or
    :func:`scrub_options` for the options), or None when unchanged (or empty; a state
    that is not JSON, which no game can load, is scrubbed as plain text)."""
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return scrub_text_column(raw, user_id, names, former)
    new = to_json(scrubber(value, user_id, names, former))
    return None if new == raw else new


def is_engine_move(action: str | None) -> bool:
    """Whether a logged action is an engine move (``{"seat": n, "action": id}``, as the
    table logs it): a seat number and a move id, naming nobody but in ``by`` (the
    members its line named, by user id, with the names it gave them)."""
    value = json_or(action, dict)
    return "seat" in value and "action" in value


#: The key of a logged engine move holding the names its line gave members, by user id.
NAMED_BY = "by"


def scrub_logged(action: str | None, user_id: int, names: Collection[str],
                 former: str) -> str | None:
    """Return a logged action's text scrubbed by :func:`scrub`, or None when unchanged;
    an engine move keeps its seat and move id (its move id may hold a card named like
    the member, and the game is replayed from it) and loses only the member's entry of
    its names (:data:`NAMED_BY`)."""
    if not is_engine_move(action):
        return scrub_text_column(action, user_id, names, former)
    value = json_or(action, dict)
    named = value.get(NAMED_BY)
    if not isinstance(named, dict) or str(user_id) not in named:
        return None
    rest = {k: v for k, v in named.items() if k != str(user_id)}
    kept = {k: v for k, v in value.items() if k != NAMED_BY}
    return to_json({**kept, NAMED_BY: rest} if rest else kept)


def logged_names(logged: Sequence[Logged], user_id: int) -> set[str]:
    """Return the names the game's lines gave ``user_id``, as its logged moves keep them
    (:data:`NAMED_BY`): a member renamed during the game is found under each name."""
    names: set[str] = set()
    for _seq, _actor, action in logged:
        named = json_or(action, dict).get(NAMED_BY)
        if isinstance(named, dict) and isinstance(named.get(str(user_id)), str):
            names.add(named[str(user_id)])
    return names


def json_or(raw: str | None, kind: type[Any], what: str | None = None) -> Any:
    """Return a JSON column's value when it is a ``kind`` (list or dict), else an empty
    one (a damaged column holds no names to find); with ``what`` it is (its table and
    keys), a value there that is not one is logged."""
    try:
        value = json.loads(raw or "null")
    except ValueError:
        value = None
    if isinstance(value, kind):
        return value
    if what is not None and raw:
        log.warning("a stored %s cannot be read: taken as empty", what)
    return kind()


def member_names(seats_raw: str, extra_raw: str, user_id: int) -> set[str]:
    """Return the names ``user_id`` had in one game: their seats', the table's record of
    the players, and their ballots."""
    seats = json_or(seats_raw, list)
    extra = json_or(extra_raw, dict)
    names = {str(s.get("name")) for s in seats
             if isinstance(s, dict) and s.get("user_id") == user_id}
    players = extra.get("players")
    if isinstance(players, dict) and str(user_id) in players:
        names.add(str(players[str(user_id)]))
    poll = extra.get("poll")
    ballots = poll.get("ballots") if isinstance(poll, dict) else None
    for ballot in ballots if isinstance(ballots, list) else []:
        if isinstance(ballot, dict) and ballot.get("user") == user_id:
            names.add(str(ballot.get("name")))
    names.discard("")
    names.discard("None")
    return names


#: One entry of a game's action log as forgetting reads it: its seq, its actor's user id
#: (None: nobody's) and the action's JSON text.
Logged = tuple[int, int | None, str]


def others_names(seats_raw: str, extra_raw: str, logged: Sequence[Logged],
                 user_id: int) -> set[str]:
    """Return the names anyone but ``user_id`` had in one game (other seats, computers
    too, the table's record of the players, ballots, the names logged moves gave):
    a name the member shares with another player is that player's too, and stays."""
    seats = json_or(seats_raw, list)
    extra = json_or(extra_raw, dict)
    names = {str(s.get("name")) for s in seats  # (a seat already forgotten is nobody's)
             if isinstance(s, dict) and s.get("user_id") != user_id
             and (s.get("user_id") is not None or s.get("computer"))}
    players = extra.get("players")
    if isinstance(players, dict):
        names |= {str(name) for key, name in players.items() if key != str(user_id)}
    poll = extra.get("poll")
    ballots = poll.get("ballots") if isinstance(poll, dict) else None
    for ballot in ballots if isinstance(ballots, list) else []:
        if isinstance(ballot, dict) and ballot.get("user") not in (user_id, None):
            names.add(str(ballot.get("name")))
    for _seq, _actor, action in logged:
        named = json_or(action, dict).get(NAMED_BY)
        if isinstance(named, dict):
            names |= {str(name) for key, name in named.items() if key != str(user_id)}
    return names


#: The lobby's line for each operation that names its member as they were shown then,
#: as ``bot/table/lobby.py`` writes it (db/ knows no more of the lobby than these lines;
#: tests/db/test_forget_lobby_names.py plays the real lobby to keep them in step). A
#: host who leaves hands the role on in the same line.
LOBBY_LINES = {
    "lobby.join": re.compile(r"(?P<name>.+) joined\."),
    "lobby.leave": re.compile(r"(?P<name>.+?) left(?:\.|; .+ is the host now\.)"),
}


def _lobby_op(action: str | None) -> str | None:
    """Return the lobby operation a logged action was (``{"lobby": op}``), or None."""
    value = json_or(action, dict)
    op = value.get("lobby")
    return op if isinstance(op, str) else None


def lobby_names(events_raw: str | None, logged: Sequence[Logged], user_id: int) -> set[str]:
    """Return the names ``user_id`` was shown under in the game's lobby lines of their
    own joins and leaves (see :data:`LOBBY_LINES`).

    Each join (each leave) in the action log wrote exactly one such line; the events keep
    only the latest lines, and every lobby line comes before the game's own, so the
    last line of a kind is that of the last action of the kind, the one before it that
    of the action before, and so on.
    """
    events = [e for e in json_or(events_raw, list) if isinstance(e, str)]
    in_order = sorted(logged, key=lambda entry: entry[0])
    names: set[str] = set()
    for op, line in LOBBY_LINES.items():
        actors = [actor for _seq, actor, action in in_order if _lobby_op(action) == op]
        shown = [match["name"] for event in events if (match := line.fullmatch(event))]
        for actor, name in zip(reversed(actors), reversed(shown), strict=False):
            if actor == user_id:
                names.add(name)
    return names


#: The JSON columns of a game that forgetting scrubs, in the order :func:`scrub_game`
#: takes and answers them.
GAME_DOCUMENTS = ("seats", "options", "state", "events", "extra")


def scrub_game(documents: Sequence[str | None], user_id: int, former: str,
               voted: Collection[str] = (),
               logged: Sequence[Logged] = ()) -> tuple[MemberNames, list[str | None]]:
    """Scrub one finished game's :data:`GAME_DOCUMENTS` (the state by
    :func:`scrub_state`, the options by :func:`scrub_options`, the others by
    :func:`scrub`); return the member's names in it
    and each document's new text (None where it holds nothing of theirs).

    ``voted`` are the names the member has in the game's rows of the ``voters`` table
    (which the store deletes); ``logged`` is the game's action log, whose lobby joins
    and leaves of theirs name the lines they were shown in (:func:`lobby_names`). A
    name another player of the game had too (:func:`others_names`) is left in its
    texts: it names that player as well, whose lines and seat stay theirs."""
    seats, _options, _state, events, extra = documents
    had = (member_names(seats or "[]", extra or "{}", user_id) | set(voted)
           | lobby_names(events, logged, user_id) | logged_names(logged, user_id))
    others = others_names(seats or "[]", extra or "{}", logged, user_id)
    names = MemberNames(had - others - {"", former}, kept=others)
    return names, [scrub_state_column(raw, user_id, names, former) if column == "state"
                   else scrub_state_column(raw, user_id, names, former, scrub_options)
                   if column == "options"
                   else scrub_text_column(raw, user_id, names, former)
                   for column, raw in zip(GAME_DOCUMENTS, documents, strict=True)]


def forget_sqlite(conn: sqlite3.Connection, user_id: int, former: str) -> int:
    """Forget ``user_id`` (see :meth:`db.store.Store.forget_player`) inside the write
    transaction of ``conn``; return the results deleted."""
    documents = ", ".join(GAME_DOCUMENTS)
    games = conn.execute(
        f"SELECT id, {documents} FROM games WHERE status NOT IN ('lobby', 'active')"
        " AND (instr(seats, ?) > 0 OR instr(extra, ?) > 0 OR starter_id = ?"
        " OR id IN (SELECT game_id FROM voters WHERE user_id = ?)"
        " OR id IN (SELECT game_id FROM actions WHERE actor_id = ?)"
        " OR id IN (SELECT game_id FROM results WHERE user_id = ?))",
        (seats_needle(user_id), str(user_id), user_id, user_id, user_id, user_id),
    ).fetchall()
    names: dict[int, MemberNames] = {}  # each game's, for its results' scrub
    assignments = ", ".join(f"{c} = coalesce(?, {c})" for c in GAME_DOCUMENTS)
    for game_id, *raw in games:
        voted = {str(r[0]) for r in conn.execute(
            "SELECT name FROM voters WHERE game_id = ? AND user_id = ?", (game_id, user_id))}
        logged = conn.execute("SELECT seq, actor_id, action FROM actions WHERE game_id = ?",
                              (game_id,)).fetchall()
        found, new = scrub_game(raw, user_id, former, voted, logged)
        names[game_id] = found
        conn.execute("DELETE FROM voters WHERE game_id = ? AND user_id = ?", (game_id, user_id))
        if any(text is not None for text in new):
            conn.execute(f"UPDATE games SET {assignments} WHERE id = ?", (*new, game_id))
        conn.executemany(
            "UPDATE actions SET action = ? WHERE game_id = ? AND seq = ?",
            [(text, game_id, seq) for seq, _actor, action in logged
             if (text := scrub_logged(action, user_id, found, former)) is not None],
        )
        conn.execute("UPDATE actions SET actor_id = NULL WHERE game_id = ? AND actor_id = ?",
                     (game_id, user_id))
    deleted = conn.execute("DELETE FROM results WHERE user_id = ?", (user_id,)).rowcount
    conn.execute("DELETE FROM member_settings WHERE user_id = ?", (user_id,))
    conn.execute(OPEN_KEPT_DAILY_SQLITE, (user_id,))
    conn.execute("DELETE FROM ratings WHERE user_id = ?", (user_id,))
    for game_id, *_raw in games:  # the other players' results of those games only
        rows = conn.execute(RESULTS_OF_GAME_SQL, (game_id,)).fetchall()
        conn.executemany(
            "UPDATE results SET detail = ? WHERE id = ?",
            [(text, rid) for rid, detail in rows
             if (text := scrub_text_column(detail, user_id, names[game_id], former))
             is not None],
        )
    conn.execute("UPDATE games SET starter_id = 0 WHERE starter_id = ?"
                 " AND status NOT IN ('lobby', 'active')", (user_id,))
    return int(deleted)


async def forget_postgres(conn: asyncpg.Connection, user_id: int, former: str) -> int:
    """Forget ``user_id`` (see :meth:`db.postgres.PostgresStore.forget_player`) inside
    the write transaction of ``conn``, the games it rewrites locked; return the results
    deleted."""
    documents = ", ".join(GAME_DOCUMENTS)
    assignments = ", ".join(f"{c} = coalesce(${i}, {c})"
                            for i, c in enumerate(GAME_DOCUMENTS, start=1))
    games = await conn.fetch(
        f"SELECT id, {documents} FROM games WHERE status NOT IN ('lobby', 'active')"
        " AND (strpos(seats, $1) > 0 OR strpos(extra, $2) > 0 OR starter_id = $3"
        " OR id IN (SELECT game_id FROM voters WHERE user_id = $3)"
        " OR id IN (SELECT game_id FROM actions WHERE actor_id = $3)"
        " OR id IN (SELECT game_id FROM results WHERE user_id = $3))"
        " FOR UPDATE",
        seats_needle(user_id), str(user_id), user_id,
    )
    names: dict[int, MemberNames] = {}  # each game's, for its results' scrub
    for game_id, *raw in games:
        voted = {str(r[0]) for r in await conn.fetch(
            "SELECT name FROM voters WHERE game_id = $1 AND user_id = $2",
            game_id, user_id)}
        logged = [(int(seq), actor, action) for seq, actor, action in await conn.fetch(
            "SELECT seq, actor_id, action FROM actions WHERE game_id = $1", game_id)]
        found, new = scrub_game(raw, user_id, former, voted, logged)
        names[game_id] = found
        await conn.execute("DELETE FROM voters WHERE game_id = $1 AND user_id = $2",
                           game_id, user_id)
        if any(text is not None for text in new):
            await conn.execute(
                f"UPDATE games SET {assignments} WHERE id = ${len(new) + 1}",
                *new, game_id)
        changed = [(text, game_id, seq) for seq, _actor, action in logged
                   if (text := scrub_logged(action, user_id, found, former))]
        if changed:
            await conn.executemany(
                "UPDATE actions SET action = $1 WHERE game_id = $2 AND seq = $3",
                changed)
        await conn.execute(
            "UPDATE actions SET actor_id = NULL WHERE game_id = $1 AND actor_id = $2",
            game_id, user_id)
    status = await conn.execute("DELETE FROM results WHERE user_id = $1", user_id)
    await conn.execute("DELETE FROM member_settings WHERE user_id = $1", user_id)
    await conn.execute(OPEN_KEPT_DAILY_PG, user_id)
    await conn.execute("DELETE FROM ratings WHERE user_id = $1", user_id)
    for game_id, *_raw in games:  # the other players' results of those games only
        rows = await conn.fetch(qmarks_to_numbered(RESULTS_OF_GAME_SQL), game_id)
        details = [(text, rid) for rid, detail in rows
                   if (text := scrub_text_column(detail, user_id, names[game_id],
                                                 former))]
        if details:
            await conn.executemany("UPDATE results SET detail = $1 WHERE id = $2",
                                   details)
    await conn.execute(
        "UPDATE games SET starter_id = 0 WHERE starter_id = $1"
        " AND status NOT IN ('lobby', 'active')", user_id,
    )
    return int(status.split()[-1])
