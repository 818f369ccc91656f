"""A board's footer: what happened since the player to act last moved, a line a turn.

Each player's turn is one phone line, cut at a word with "…" if it is longer; what the
table itself says (a turn timer, an away seat, a final round, a new half) is never cut
and stands on its own line. Moves a computer made for an away person are marked
"🤖 for Bob".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from bot.boards.render import vote_field
from bot.table.data import TurnLog
from bot.table.loaded import LoadedGame
from bot.table.turnlog import COMPUTER_MARK, GAP, KEPT_DECISIONS, since_last_turn
from bot.text.names import plain, short_name
from bot.text.widths import clip_name, clip_words, cut_to, fits, rows, shown_width

#: A board footer line on a phone: this many letters' room (an emoji takes two) stay on one
#: line, wide letters (W, M) and emoji included (measured with the preview tool: 48 wrap).
FOOTER_WIDTH = 43
#: The most lines a footer shows (the rest is in "Rules & details").
FOOTER_LINES = 6
#: How many decisions a one-seat game's footer shows: all its log keeps.
DECISIONS = KEPT_DECISIONS
#: Who chose a move, and the move: "Alice and Bob chose: X", "Tie 2–2: Alice voted
#: first, so X happened."
_CHOICE = re.compile(r"(?P<tie>Tie [^:·]*: )?(?P<names>.+?)(?P<sep> chose: | voted first, so )"
                     r"(?P<move>.*)", re.DOTALL)
#: When a footer line is too long, the room its first move keeps (in letters) after who
#: chose it, and the least room those names keep.
MOVE_ROOM = 20
NAMES_ROOM = 6
#: Letters a phone line may leave empty when it wraps at a word (a line of several rows
#: is cut this much shorter a row, so it stays within its rows).
WRAP_SLACK = 6
#: The most room a player's name takes in a line the table says ("…; Bob starts the
#: second half."): the line stands whole, so a long name is cut instead (whole in the
#: players' list and in "Rules & details").
ANNOUNCED_NAME_ROOM = 16
#: The phone lines a lobby gives its last event: enough for the two people it may name
#: ("… handed the host role to …").
LOBBY_ROWS = 3
#: A one-seat game's line saying who may press its buttons: its starter alone ("only
#: me", ruling C1), or the channel by vote (until the first vote, which the board's vote
#: field then says); a fast game's buttons move for anyone, as they look.
ONLY_STARTER = "Only {name} plays this game."
CHANNEL_VOTES = "The channel votes: a click is a vote."


def _lead(name: str, by_computer: bool, width: float) -> str:
    """Return how a turn's line begins: the player's name, cut at a letter ("…") when it
    would leave the move less than :data:`MOVE_ROOM` letters of the line."""
    room = max(width - MOVE_ROOM - (shown_width(COMPUTER_MARK) + 3 if by_computer else 1),
               NAMES_ROOM)
    shown = short_name(name, room)
    return f"{COMPUTER_MARK} {shown}: " if by_computer else f"{shown} "


def shorten_names(line: str, width: float = FOOTER_WIDTH) -> str:
    """Return ``line`` with the names of who chose its first move ("… chose:", "Tie 2–2:
    … voted first") cut at a letter, marked "…", when the whole line is longer than
    ``width`` letters, so that the move shows: "Maximilian Alex… chose: Cinderfolk (…".
    The names keep the room the move leaves them, and at least all but
    :data:`MOVE_ROOM` of the line (:data:`NAMES_ROOM` at least)."""
    found = _CHOICE.match(line)
    if found is None or " · " in found["names"] or fits(line, width):
        return line
    tie, names, rest = found["tie"] or "", found["names"], found["sep"] + found["move"]
    room = max(width - shown_width(tie + rest),
               width - shown_width(tie + found["sep"]) - MOVE_ROOM, NAMES_ROOM)
    return tie + clip_name(names, room) + rest


def said_whole(event: str, names: Sequence[str]) -> str:
    """A line the table says, shown whole: each of the players' ``names`` in it longer
    than :data:`ANNOUNCED_NAME_ROOM` cut to it, and as a footer shows text, plain."""
    for name in sorted(names, key=len, reverse=True):
        if name and name in event:
            event = event.replace(name, short_name(name, ANNOUNCED_NAME_ROOM))
    return plain(event)


def turn_lines(turn: TurnLog, name: str, announced: Callable[[str], bool],
               width: int = FOOTER_WIDTH, rows_kept: int = 1,
               names: Sequence[str] = ()) -> list[str]:
    """Return a turn as footer lines: its moves in one line of ``rows_kept`` phone lines
    at most, each announcement whole but for long ``names`` of players in it (cut); as a
    footer shows text as it is, names without their markdown escapes."""
    if turn.seat is None:
        return [said_whole(event, names) for event in turn.events]
    lead = _lead(name, turn.by_computer, width)
    moves: list[str] = []
    whole: list[str] = []
    for event in turn.events:
        if announced(event):
            whole.append(event)
            continue
        text = event.removeprefix(f"{COMPUTER_MARK} {name}: ").removeprefix(f"{name} ")
        if not moves and (text != event or turn.by_computer):
            text = lead + text
        moves.append(text.rstrip("."))
    room = width * rows_kept - WRAP_SLACK * (rows_kept - 1)
    line = clip_words(shorten_names(plain(" · ".join(moves)), room), room) if moves else ""
    if line.endswith(f" · {GAP}…"):  # cut right after the mark of events left out
        line = line[:-len(f" · {GAP}…")] + "…"
    return [*([line] if line else []), *(said_whole(event, names) for event in whole)]


def who_may_press(game: LoadedGame, width: int = FOOTER_WIDTH) -> str:
    """Return the line saying who may press an open one-seat game's buttons, or "": only
    its starter (their name cut to fit the line), or the channel by vote while no vote
    is under way (the vote field says so once one is)."""
    if len(game.seats) != 1 or game.row.status != "active" or vote_field(game) is not None:
        return ""
    if game.row.only_starter or game.data.mode == "solo":
        room = width - shown_width(ONLY_STARTER.format(name=""))
        return ONLY_STARTER.format(name=clip_name(plain(game.seat_name(0)), room))
    if game.data.mode == "vote":
        return CHANNEL_VOTES
    return ""


def last_moves(game: LoadedGame, announced: Callable[[str], bool] = lambda _: False,
               budget: int = FOOTER_LINES, width: int = FOOTER_WIDTH,
               said: Callable[[str], bool] = lambda _: False) -> str:
    """Return the footer: at a seated table every turn since the player to act last moved
    (a line each), in a one-seat game the last decisions (two phone lines: the latest
    with what it did takes both when it needs them); a game with no turns logged
    shows its last event (a lobby's in up to :data:`LOBBY_ROWS` lines, whole). The
    newest lines are kept within ``budget`` phone lines (the newest always); the older
    ones are in "Rules & details". While the board shows the
    channel's vote, the footer gives the vote a line: it keeps a phone line less than it
    would (one at least). Lines the board says elsewhere (``said``) are left out before
    the lines are counted.

    An open one-seat game's footer begins with who may press its buttons
    (:func:`who_may_press`), in the line its older decision would take; an ended one's
    gives that line to the board (its last decision will do)."""
    data = game.data
    who = who_may_press(game, width)
    if not data.turns:
        last = next((event for event in reversed(game.row.events) if not said(event)), "")
        if announced(last):
            return plain(last) or "—"
        if game.row.status != "lobby":
            return "\n".join(filter(None, (who, clip_words(plain(last), width)))) or "—"
        # A lobby's last word ("Alexandra removed Bartholomew from the table."): its
        # players' long names cut, and room for both people it names.
        seated = [game.seat_name(i) for i in range(len(game.seats))]
        room = width * LOBBY_ROWS - WRAP_SLACK * (LOBBY_ROWS - 1)
        shown = plain(last)
        return clip_words(shown if fits(shown, room) else said_whole(last, seated),
                          room) or "—"
    voted = vote_field(game) is not None
    players = [game.seat_name(i) for i in range(len(game.seats))] if len(game.seats) > 1 else []
    if len(game.seats) > 1:
        turns = since_last_turn(data, game.to_act()) or data.turns[-1:]
        newest = 1
    else:  # the latest decision's results take the room of the one before if need be
        turns = data.turns[-DECISIONS:]
        ended = game.row.status != "active"  # the board says how: its last decision will do
        budget = newest = max(1, min(budget, DECISIONS) - (voted or bool(who) or ended))
        voted = False
    lines = [line for i, turn in enumerate(turns)
             for line in turn_lines(turn, game.seat_name(turn.seat), announced, width,
                                    newest if i == len(turns) - 1 else 1, players)
             if not said(line)]
    if voted:
        budget = max(1, min(budget, sum(rows(line, width) for line in lines)) - 1)
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        used += rows(line, width)
        if kept and used > budget:
            break
        kept.insert(0, line)
    return cut_to("\n".join([who, *kept] if who else kept), 2048) or "—"
