"""The host's private controls of a lobby: start, cancel, computer levels, people, invitations.

Everyone sees the same lobby board (Join, Leave, Add computer, Host controls);
the host's own choices are shown to the host alone, in a private message whose
components are board components like any other (routed by their custom_id, so they work
after a restart), drawn for the lobby's current version.
"""

from __future__ import annotations

import discord

from bot.boards.custom_ids import user_select_id
from bot.boards.layout import (
    ASK_PREFIX,
    BoardUserSelect,
    PanelItem,
    action_button,
    action_select,
)
from bot.games.protocol import Action
from bot.table.loaded import LoadedGame
from bot.table.lobby import (
    COMPUTER_LEVELS,
    DEFAULT_LEVEL,
    LOBBY_CANCEL,
    LOBBY_DROP,
    LOBBY_HOST,
    LOBBY_INVITE,
    LOBBY_KICK,
    LOBBY_LEVEL,
    LOBBY_START,
)
from bot.table.seats import Seat

#: What each computer level means, for the host choosing one.
LEVEL_NOTES = {
    "easy": "Plays like a newcomer: greedy, blind to the others' plans",
    "normal": "A steady player (computer players start at this level)",
    "hard": "Also plays out the last turns before it chooses",
}


def panel_text(game: LoadedGame, note: str = "") -> str:
    """Return the panel's words: what just happened (``note``) and what the host can do."""
    seats = len(game.seats)
    lowest, highest = game.engine.min_seats, game.engine.max_seats
    ready = (f"**Start** when everyone is in ({seats} seated)." if lowest <= seats <= highest
             else f"{seats} seated: {lowest} are needed to start.")
    head = f"{note}\n" if note else ""
    return f"{head}🔑 Host controls (only you see this). {ready}"


def panel_items(game: LoadedGame) -> list[PanelItem]:
    """Return the host's controls for the lobby as it is now."""
    g, v = game.id, game.row.version
    seats = game.seats
    ready = game.engine.min_seats <= len(seats) <= game.engine.max_seats
    style = discord.ButtonStyle
    items: list[PanelItem] = [
        action_button(g, v, Action(LOBBY_START, "Start"), style=style.primary,
                      disabled=not ready, row=0),
        # asks first: it sits beside Start, and closing unseats everyone for good
        action_button(g, v, Action(ASK_PREFIX + LOBBY_CANCEL, "Close the table"),
                      style=style.danger, row=0),
    ]
    computers = [option for i, s in enumerate(seats) if s.computer
                 for option in computer_options(i, s)]
    if computers:
        items.append(action_select(g, v, "drop", computers[:25], row=1,
                                   placeholder="Computer players: level, or remove one…"))
    host = game.host_id
    people = [option for i, s in enumerate(seats)
              if not s.computer and s.user_id != host
              for option in _person_options(i, s)]
    if people:
        items.append(action_select(g, v, "people", people[:25], row=2,
                                   placeholder="People: make one the host, or remove one…"))
    if len(seats) < game.engine.max_seats:
        items.append(BoardUserSelect(user_select_id(g, v, LOBBY_INVITE.rstrip(".")),
                                     placeholder="Invite a member…", row=3))
    return items


def computer_options(seat: int, computer: Seat) -> list[Action]:
    """The host's choices for one computer player: another level, or its removal."""
    name = computer.name
    level = computer.level or DEFAULT_LEVEL
    options = [Action(f"{LOBBY_LEVEL}{seat}.{key}", f"{name}: play {label}"[:100],
                      description=LEVEL_NOTES[key])
               for key, label in COMPUTER_LEVELS.items() if key != level]
    return [*options, Action(f"{LOBBY_DROP}{seat}", f"Remove {name}"[:100])]


def _person_options(seat: int, person: Seat) -> list[Action]:
    """The host's choices for one person seated: hand them the host role, or remove them."""
    name = person.name
    return [Action(f"{LOBBY_HOST}{seat}", f"Make {name} the host"[:100]),
            Action(f"{LOBBY_KICK}{seat}", f"Remove {name} from the table"[:100],
                   description="They can join again while the table is open")]
