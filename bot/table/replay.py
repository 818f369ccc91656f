"""Playing a finished game again, move by move, from its seed and its action log.

Nothing of a replay is stored: the engine deals the game again from the seed its final
state carries, with the options it was started with, and applies every move of the log.
The last position must be the stored final state, or the game cannot be replayed (its
start cannot be told apart). :class:`ReplayRequest` is plain data, so the rebuilding can
run in the drawing process.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.games.protocol import Engine, GameError
from bot.games.registry import ENGINES
from bot.games.registry import engine as engine_of
from bot.table import seating
from bot.table.errors import Refusal, Unavailable
from bot.table.seats import Seat
from db.base import GameStore
from db.errors import StorageError
from db.rows import GameRow

log = logging.getLogger(__name__)

_T = TypeVar("_T")

#: The statuses of a game that has ended.
ENDED = ("over", "abandoned", "expired")

#: How an engine move starts in the action log (``{"seat": n, "action": id}``, as the
#: table writes it); table moves (lobby, votes, the end) never do.
ENGINE_MOVE = '{"seat":%'


class NoReplay(Refusal):
    """A game that cannot be replayed; the text says why."""


@dataclass(frozen=True, slots=True)
class ReplayRequest:
    """What rebuilding one game needs: its kind, stored final state, seats, start options,
    the engine moves of its log (seat, action id) and how it ended."""

    game_id: int
    kind: str
    state: Mapping[str, Any]
    seats: int
    options: Mapping[str, Any]
    moves: tuple[tuple[int, str], ...]
    status: str
    daily: str | None = None
    #: The server the game was played in (its settings say whether replays are drawn).
    guild_id: int | None = None
    #: The seats as stored (who is a person, a computer), and each hand of a person's
    #: seat to a computer and back: (engine moves before it, seat, away), in order.
    seat_rows: tuple[Mapping[str, Any], ...] = ()
    aways: tuple[tuple[int, int, bool], ...] = ()
    #: Whether it is asked for to share the result (a refusal then says "shared").
    sharing: bool = False

    @property
    def doing(self) -> str:
        """What is asked, as a refusal says it: "shared" or "replayed"."""
        return "shared" if self.sharing else "replayed"


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of a replay: the engine's view and the status to draw it with."""

    view: dict[str, Any]
    status: str


def moves_of(log: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, str], ...]:
    """Return the engine moves of an action log, in order (table moves are left out)."""
    moves = []
    for entry in log:
        action = entry.get("action")
        if isinstance(action, Mapping) and "seat" in action and "action" in action:
            moves.append((int(action["seat"]), str(action["action"])))
    return tuple(moves)


def aways_of(log: Sequence[Mapping[str, Any]]) -> tuple[tuple[int, int, bool], ...]:
    """Return the seats handed to a computer and back in an action log (the table's
    ``{"away": seat}`` and ``{"back": seat}``), each with how many engine moves came
    before it and whether it went away."""
    found: list[tuple[int, int, bool]] = []
    moves = 0
    for entry in log:
        action = entry.get("action")
        if not isinstance(action, Mapping):
            continue
        if "seat" in action and "action" in action:
            moves += 1
        for key, away in (("away", True), ("back", False)):
            seat = action.get(key)
            if isinstance(seat, int) and not isinstance(seat, bool):
                found.append((moves, seat, away))
    return tuple(found)


def request_of(row: GameRow, log: Sequence[Mapping[str, Any]], *,
               sharing: bool = False) -> ReplayRequest:
    """Return the replay request of the finished game ``row`` with its action ``log``;
    refuse a game still going or one whose state was pruned, in words of a replay or,
    ``sharing``, of a result to share."""
    if row.kind not in ENGINES:
        raise NoReplay(f"That game is no longer on this bot, so it cannot be "
                       f"{'shared' if sharing else 'replayed'}.")
    if row.status not in ENDED:
        raise NoReplay("This game is not over yet: its result is shared once it has ended."
                       if sharing else
                       "This game is not over yet: a replay is shown once it has ended.")
    if row.state is None and row.raw_state is not None:
        raise NoReplay(f"This game's saved data is damaged, so it cannot be "
                       f"{'shared' if sharing else 'replayed'}.")
    if row.state is None and row.events:  # a table closed before it began (not pruned)
        raise NoReplay(f"That table closed before its game began, so there is nothing to "
                       f"{'share' if sharing else 'replay'}.")
    if row.state is None:
        raise NoReplay(f"That game is too old to {'share' if sharing else 'replay'}: old "
                       "games keep only their results.")
    return ReplayRequest(row.id, row.kind, row.state, len(row.seats), dict(row.options),
                         moves_of(log), row.status, row.daily, row.guild_id,
                         tuple(s for s in row.seats if isinstance(s, Mapping)), aways_of(log),
                         sharing)


async def _read(work: Awaitable[_T]) -> _T:
    """Return what a read of the store gives; refuse as :class:`Unavailable` (the
    table's usual private words) when the store cannot be reached."""
    try:
        return await work
    except StorageError as exc:
        log.debug("storage unavailable reading a game to replay or share: %s", exc)
        raise Unavailable() from exc


async def load_request(store: GameStore, game_id: int, *,
                       sharing: bool = False) -> ReplayRequest:
    """Read game ``game_id`` and its log from ``store`` as a replay request (or refuse,
    in words of a result to share when ``sharing``; as :class:`Unavailable` when the
    store cannot be read)."""
    row = await _read(store.get_game(game_id))
    if row is None:
        raise NoReplay("That game no longer exists.")
    if row.status not in ENDED or row.state is None:
        return request_of(row, [], sharing=sharing)
    try:
        return request_of(row, await _read(store.actions(game_id)), sharing=sharing)
    except (TypeError, ValueError) as exc:  # a logged move whose text cannot be read
        log.warning("the action log of game %s cannot be read: %s", game_id, exc)
        raise NoReplay(f"This game's saved moves are damaged, so it cannot be "
                       f"{'shared' if sharing else 'replayed'}.") from exc


async def last_finished(store: GameStore, channel_id: int, kind: str) -> int | None:
    """Return the id of the channel's most recently ended game of ``kind`` that was
    played (a state and at least one engine move), or else of its most recently ended
    one with a state (a deal nobody played), or else of its most recently ended one (to
    be told why not), or None. Refuse as :class:`Unavailable` when the store cannot be
    read.

    A channel holds one open game at a time, so its games end in the order they started.
    A game abandoned, expired or called off before its first move is passed over for
    one that was played; a table closed before it began has nothing to replay and is
    passed over, as is a game whose moves were deleted (older games go first, so none
    after it has them).
    """
    rows = await _read(store.query(
        "SELECT id FROM games WHERE channel_id = :channel AND kind = :kind"
        " AND status IN ('over', 'abandoned', 'expired')"
        " ORDER BY (state IS NOT NULL AND EXISTS (SELECT 1 FROM actions"
        " WHERE actions.game_id = games.id AND actions.action LIKE :move)) DESC,"
        " (state IS NOT NULL) DESC, id DESC LIMIT 1",
        {"channel": channel_id, "kind": kind, "move": ENGINE_MOVE},
    ))
    return int(rows[0][0]) if rows else None


def _start_options(kind: str, final: Any, request: ReplayRequest) -> list[dict[str, Any]]:
    """The options the game may have been dealt with, most likely first.

    A one-seat game keeps its start options. A seated game was dealt with its players'
    names and levels, and a start seat either drawn or chosen (which draws differently).
    """
    if request.seats == 1 or not hasattr(final, "players"):
        return [dict(request.options)]
    base: dict[str, Any] = {"names": [p.name for p in final.players],
                            "levels": [p.level for p in final.players]}
    if not all(getattr(p, "person", True) for p in final.players):
        base["people"] = [i for i, p in enumerate(final.players) if p.person]
    if hasattr(final, "deck_kind"):
        base["deck"] = final.deck_kind
    drawn = {**base, "start_seat": None}
    chosen = {**base, "start_seat": getattr(final, "start", 0)}
    return [drawn, chosen]


def _plain(data: Any) -> Any:
    """``data`` as JSON gives it back (lists for tuples, string keys)."""
    return json.loads(json.dumps(data))


def _kept(data: Mapping[str, Any], fields: set[str]) -> Any:
    """The fields of a dumped state that a saved state has, as JSON gives them back."""
    return _plain({key: value for key, value in data.items() if key in fields})


#: A way of reading a game's log: a move's reading, and the last state's (None: as it is).
Reading = tuple[Callable[..., Any], Callable[[Any], Any] | None]


def rebuild(request: ReplayRequest, engine: Engine[Any] | None = None) -> list[Any]:
    """Return every state of the game: the deal, then the state after each move.

    Raise :class:`NoReplay` when no start reproduces the stored final state.
    """
    eng = engine or engine_of(request.kind)
    try:
        final = eng.load(request.state)
        seed = final.rng.seed
    except (GameError, AttributeError) as exc:
        raise NoReplay(f"This game's saved data cannot be {request.doing}.") from exc
    # As the engine writes it now: a state saved by an older release (an older schema
    # the engine still reads) is compared in today's form, less the fields it was saved
    # without (kept since; the load gave them their default, the moves their value).
    saved = set(request.state)
    wanted = _kept(eng.dump(final), saved)
    # the log as this release writes it; then, if the engine has them, as older releases
    # wrote it (``older_readings``: each a move's reading, and the last state's)
    readings: list[Reading] = [(eng.apply, None)]
    older = getattr(eng, "older_readings", None)
    if older is not None:
        readings += older()
    for options in _start_options(request.kind, final, request):
        for apply, settle in readings:
            try:
                states = [eng.new(seed, request.seats, options)]
                for seat, action in request.moves:
                    states.append(apply(states[-1], seat, action).state)
                if settle is not None:
                    states[-1] = settle(states[-1])
            except GameError:
                continue
            if _kept(eng.dump(states[-1]), saved) == wanted:
                return states
        # under way when the bot was upgraded: its first moves read by an older reading,
        # the rest by a newer one (the readings are newest first)
        for old, (older, _settle) in enumerate(readings[1:], start=1):
            for newer in readings[:old]:
                mixed = _upgraded_on_the_way(
                    eng, eng.new(seed, request.seats, options), request.moves, older, newer,
                    lambda state: _kept(eng.dump(state), saved) == wanted)
                if mixed is not None:
                    return mixed
    raise NoReplay(f"This game cannot be {request.doing}: its moves do not lead to how it "
                   "ended.")


def _upgraded_on_the_way(eng: Engine[Any], start: Any, moves: Sequence[tuple[int, str]],
                         older: Callable[..., Any], newer: Reading,
                         ends_right: Callable[[Any], bool]) -> list[Any] | None:
    """Return every state of a game whose first moves were logged by an older release
    (read by ``older``) and the rest by a newer one (``newer``: a move's reading and the
    last state's; the bot was upgraded on the way), if a place of the upgrade makes it
    end as it did (``ends_right``); else None.

    Only the moves where the two readings part are places to try (elsewhere the upgrade
    changes nothing), latest first: a few, so a long game is read a few times at most.
    """
    apply, settle = newer
    earlier = [start]
    parts: list[int] = []  # the moves (their index) the two readings read apart
    for seat, action in moves:
        try:
            then = older(earlier[-1], seat, action).state
        except GameError:  # the older release never logged it: upgraded before it
            parts.append(len(earlier) - 1)
            break
        try:
            apart = eng.dump(apply(earlier[-1], seat, action).state) != eng.dump(then)
        except GameError:
            apart = True
        if apart:
            parts.append(len(earlier) - 1)
        earlier.append(then)
    for upgrade in reversed(parts):
        states = earlier[: upgrade + 1]
        try:
            for seat, action in moves[upgrade:]:
                states.append(apply(states[-1], seat, action).state)
            if settle is not None:
                states[-1] = settle(states[-1])
        except GameError:
            continue
        if ends_right(states[-1]):
            return states
    return None


def frames(request: ReplayRequest, engine: Engine[Any] | None = None) -> list[Frame]:
    """Return the replay's frames: the view of every state, the last drawn as it ended;
    a seat a computer played for its away person is marked away, as the board did."""
    eng = engine or engine_of(request.kind)
    states = rebuild(request, eng)
    last = len(states) - 1
    return [Frame(_marked(eng.view(s), request, i), request.status if i == last else "active")
            for i, s in enumerate(states)]


def _marked(view: dict[str, Any], request: ReplayRequest, moves: int) -> dict[str, Any]:
    """``view`` (after ``moves`` engine moves) with each player's ``away`` as the board
    showed it then (:meth:`bot.table.loaded.LoadedGame.shown_away`)."""
    players = view.get("players")
    if len(request.seat_rows) < 2 or not isinstance(players, list):
        return view
    away: set[int] = set()
    for before, seat, gone in request.aways:
        if before > moves:
            break
        (away.add if gone else away.discard)(seat)
    try:
        seats = [Seat.from_json({**row, "away": i in away})
                 for i, row in enumerate(request.seat_rows)]
    except (TypeError, ValueError):  # damaged seats: the board said so; shown unmarked
        return view
    resigned = seating.resigned_seats(view)
    names = [s.name for s in seats]
    marked = [seating.pictured(p, seats[i], i in away
                               and seating.played_by_computer(seats, i, resigned),
                               names[:i] + names[i + 1:])
              if isinstance(p, dict) and i < len(seats) else p for i, p in enumerate(players)]
    return {**view, "players": marked}
