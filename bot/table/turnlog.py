"""The table's log of the last turns: who moved, what it said, and whether a computer
played an away person's seat.

Pure functions over the table's typed data (:class:`bot.table.data.TableData`); the
boards read the log to say what happened since a player's own last turn.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.table.data import TableData, TurnLog

#: How many turns (and table events) the log of a seated table keeps.
KEPT_TURNS = 12
#: How many decisions (and table events) a one-seat game's log keeps: its board's footer
#: shows them all, and "Rules & details" shows the game's recent events instead.
KEPT_DECISIONS = 2
#: How many events one turn keeps (a long turn keeps its first and latest ones, and marks
#: the gap between them).
KEPT_EVENTS = 8
#: The mark of moves a computer made for an away person (ruling C6).
COMPUTER_MARK = "🤖 for"


def for_away(name: str, events: Sequence[str], others: Sequence[str] = ()) -> tuple[str, ...]:
    """Return ``events`` of a move a computer made for ``name``'s away seat, marked so:
    "Bob takes Mill" reads "🤖 for Bob: takes Mill"; events not led by the name (the
    river running dry, a card placed by itself) stay as they are.

    ``others`` are the names of the table's other seats. An event is marked only when it
    begins with ``name`` and a space, and no other seat's name at least as long also
    begins it: with "Sam" away, "Sam Lee takes …" is Sam Lee's and stays as it is; when
    another seat is also called "Sam", whose event it is cannot be told from its words,
    so none is marked (an event left unmarked never blames the wrong player)."""
    rivals = [o for o in others if len(o) >= len(name)]

    def ours(event: str) -> bool:
        return event.startswith(f"{name} ") and not any(event.startswith(o) for o in rivals)

    return tuple(f"{COMPUTER_MARK} {name}: {e.removeprefix(name + ' ')}" if ours(e) else e
                 for e in events)


def kept_turns(seats: int) -> int:
    """Return how many turns the log of a game of ``seats`` seats keeps."""
    return KEPT_DECISIONS if seats <= 1 else KEPT_TURNS


def ends_turn(seats: int, seat: int, next_seat: int | None, over: bool) -> bool:
    """Whether a move of ``seat`` ends its turn in the log: a one-seat game's every move
    is a decision of its own (its footer shows the last ones); at a seated table a turn
    lasts until someone else (``next_seat``) is to act, or the game is over."""
    return over or seats <= 1 or next_seat != seat


def note_move(data: TableData, seat: int, events: Sequence[str], *, ended: bool,
              by_computer: bool = False, seats: int = 2) -> None:
    """Add a move of ``seat`` to the log of a game of ``seats`` seats: to its open turn,
    or as a new turn (always, in a one-seat game: each move is a decision of its own,
    even after a log saved when they were not). ``ended`` says the turn is over
    (:func:`ends_turn`); ``by_computer`` that a computer played an away person's seat.
    The log keeps the newest :func:`kept_turns`."""
    log = data.turns
    last = log[-1] if log else None
    if (seats > 1 and last is not None and last.seat == seat and not last.ended
            and last.by_computer == by_computer):
        last.events = _kept([*last.events, *events])
        last.ended = ended
    else:
        log.append(TurnLog(seat, _kept(list(events)), ended, by_computer))
    del log[:-kept_turns(seats)]


def note_table(data: TableData, events: Sequence[str], seats: int = 2) -> None:
    """Add events of the table itself (a timer, an away seat, a lobby step) to the log of
    a game of ``seats`` seats, which keeps the newest :func:`kept_turns`."""
    if not events:
        return
    data.turns.append(TurnLog(None, _kept(list(events)), True))
    del data.turns[:-kept_turns(seats)]


def since_last_turn(data: TableData, seat: int | None) -> list[TurnLog]:
    """Return the log since ``seat``'s own last finished turn (everything kept if it has
    none); with no seat, the whole log."""
    log = data.turns
    if seat is None:
        return list(log)
    start = 0
    for index, turn in enumerate(log):
        if turn.seat == seat and turn.ended:
            start = index + 1
    return list(log[start:])


#: Stands where a long turn's middle events were left out, so that what is kept does not
#: read as one thing leading to the next.
GAP = "…"


def _kept(events: list[str]) -> list[str]:
    if len(events) <= KEPT_EVENTS:
        return events
    return [events[0], GAP, *events[-(KEPT_EVENTS - 2):]]
