"""Rendering a board: the game's embed from its cog, its components, the vote tally,
and its picture (drawn off the event loop) with alt text."""

from __future__ import annotations

import io
import logging
from collections.abc import Callable
from typing import Any, Protocol

import discord

from bot import pictures
from bot.boards.custom_ids import parse_button_id
from bot.boards.layout import (
    ASK_PREFIX,
    MAX_BUTTONS_PER_ROW,
    PHONE_BUTTONS,
    VOTE_TITLE,
    BoardButton,
    BoardItem,
    BoardSelect,
    action_button,
    board_view,
    default_items,
    phone_lines,
    vote_line,
)
from bot.games.protocol import Action
from bot.pictures.drawing import PictureDrawer
from bot.table import polls, seating
from bot.table.data import Poll
from bot.table.loaded import LoadedGame
from bot.table.lobby import LOBBY_COMPUTER, LOBBY_JOIN, LOBBY_LEAVE, LOBBY_PANEL
from bot.text.names import plain, plain_players, read_length

log = logging.getLogger(__name__)

STATUS_TEXT = {
    "over": "The game is over.",
    "abandoned": "This game was abandoned.",
    "expired": "This game ended after being idle too long.",
}

#: The title's word for a board ended before its game was over.
ENDED_TITLES = {"abandoned": "abandoned", "expired": "ended, idle too long"}

COLOUR_ENDED = discord.Colour.light_grey()

#: Board buttons the table answers itself: the private rules and details, a new game.
TABLE_RULES = "table.rules"
TABLE_AGAIN = "table.again"
#: An ended board's buttons that post in the channel: the game's replay, a daily result.
TABLE_REPLAY = "table.replay"
TABLE_SHARE = "table.share"
#: Every button of an ended board.
END_BUTTONS = (TABLE_RULES, TABLE_AGAIN, TABLE_REPLAY, TABLE_SHARE)
#: ``table.rules.<section>.<page>``: another page of "Rules & details".
RULES_PAGE = f"{TABLE_RULES}."
#: The label of the button that answers "Rules & details" privately, and its short
#: form, for a row whose labels leave no room for the long one on a phone.
RULES_LABEL, RULES_SHORT = "Rules & details", "Rules"


def invited_line(game: LoadedGame) -> str | None:
    """Return a lobby board's text: "Invited: @…" naming the members it invited who are
    not seated yet (a mention in an edit notifies nobody), or None when there are none."""
    waiting = [u for u in game.data.invited if game.seat_of(u) is None]
    return "Invited: " + " ".join(f"<@{u}>" for u in waiting) if waiting else None


class Renderer(Protocol):
    """How one kind of game looks: its embed and its components."""

    kind: str

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the board embed for ``game`` (any status)."""
        ...

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the board's components while the game is active."""
        ...

    def details(self, game: LoadedGame, page: str = "") -> dict[str, Any]:
        """Return one page of the private "Rules & details" (embeds and view)."""
        ...

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Start the same game again in the channel and answer with its board."""
        ...

    def confirm_question(self, game: LoadedGame, action_id: str) -> str:
        """Return the private question asked before ``action_id`` (resigning), naming
        what the player gives up."""
        ...


def actions_for_board(game: LoadedGame) -> list[Action]:
    """Return the actions the board offers: those of the seat to act."""
    seat = game.to_act()
    if seat is None or game.state is None:
        return []
    return game.legal_actions(seat)


def generic_items(game: LoadedGame) -> list[BoardItem]:
    """Return the default layout of the board's legal actions."""
    return default_items(game.id, game.row.version, actions_for_board(game))


def lobby_items(game: LoadedGame) -> list[BoardItem]:
    """Return the lobby's buttons, the same for everyone: Join, Leave, Add computer
    and Host controls (which opens the host's own controls privately)."""
    g, v = game.id, game.row.version
    full = len(game.seats) >= game.engine.max_seats
    style = discord.ButtonStyle
    return [
        action_button(g, v, Action(LOBBY_JOIN, "Join"), style=style.success, disabled=full,
                      row=0),
        action_button(g, v, Action(LOBBY_LEAVE, "Leave"), row=0),
        action_button(g, v, Action(LOBBY_COMPUTER, "Add computer"), disabled=full,
                      row=0),
        action_button(g, v, Action(LOBBY_PANEL, "Host controls"), style=style.primary, row=1),
    ]


class BoardRenderer:
    """Renders the boards of every registered kind of game, pictures included."""

    def __init__(self, *, images: bool = True, drawer: PictureDrawer | None = None) -> None:
        #: Whether boards carry a picture (BOARD_IMAGES); the text stays complete without.
        self.images = images
        #: Whether a server's boards carry a picture (its setting; by default ``images``).
        self.pictures_for: Callable[[int | None], bool] = lambda guild_id: self.images
        #: Draws the pictures away from the event loop (a worker process, or a thread).
        self.drawer = drawer if drawer is not None else PictureDrawer(processes=False)
        self.renderers: dict[str, Renderer] = {}

    def register(self, renderer: Renderer) -> None:
        """Register the renderer of one kind of game."""
        self.renderers[renderer.kind] = renderer

    def render(
        self,
        game: LoadedGame,
        *,
        edit: bool = False,
        picture: bytes = b"",
        keep: bool = False,
        pictured: bool = True,
    ) -> dict[str, Any]:
        """Return the message body (``embed``, ``view`` and the picture) of ``game``'s board.

        The picture goes as ``attachments`` when ``edit`` (it replaces the last one) and
        as ``file`` for a new message; a board without a picture clears old ones on edit.
        ``picture`` is the drawn picture (:meth:`render_async` draws it off the event
        loop); with ``keep``, an edit keeps the picture the message already has (the
        board's version is unchanged: ``picture`` says it can be drawn).
        ``pictured`` false gives the text board (the picture cannot be attached); so does
        a picture that could not be drawn (or came out empty), as the short text of a
        pictured board leaves the position to the picture. A lobby's message text names
        the members its board invited who are not seated yet (:func:`invited_line`); an
        edit of a board past its lobby clears it.
        """
        body = self.body(game, pictured=pictured)
        if game.row.status == "lobby":
            line = invited_line(game)
            if line or edit:
                body["content"] = line
        elif edit:
            body["content"] = None  # the lobby's invitation leaves once the game starts
        if not pictured:
            if edit:
                body["attachments"] = []
            return body
        if keep and self.pictured_in(game):
            if picture:  # drawn to know it can be; not sent again
                body["embed"].set_image(url=f"attachment://{pictures.FILENAME}")
            elif game.pictured:  # no picture after all: the text board shows the position
                return self.render(game, edit=edit, pictured=False)
            return body
        if picture and self.pictured_in(game):
            body["embed"].set_image(url=f"attachment://{pictures.FILENAME}")
            file = discord.File(io.BytesIO(picture), filename=pictures.FILENAME,
                                description=self.alt_text(game))
            body["attachments" if edit else "file"] = [file] if edit else file
        elif game.pictured:  # no picture after all: the text board shows the position
            return self.render(game, edit=edit, pictured=False)
        elif edit:
            body["attachments"] = []
        return body

    async def render_async(self, game: LoadedGame, *, edit: bool = False,
                      keep: bool = False, pictured: bool = True) -> dict[str, Any]:
        """Return :meth:`render`'s body, drawing the picture off the event loop.

        ``pictured`` false leaves the picture out (a channel where the bot may not attach
        files); the text board is complete without it.
        """
        picture = b""
        if self.pictured_in(game) and pictured and self.has_picture(game):
            try:
                picture = await self.drawer.draw(game.row.kind, picture_view(game),
                                                 game.row.status, what=f"game {game.id}")
            except Exception:
                log.warning("could not draw the board of game %s", game.id, exc_info=True)
        return self.render(game, edit=edit, picture=picture, keep=keep and pictured,
                           pictured=pictured)

    def pictured_in(self, game: LoadedGame) -> bool:
        """Whether boards in the game's server carry a picture."""
        return self.pictures_for(game.row.guild_id)

    @staticmethod
    def has_picture(game: LoadedGame) -> bool:
        """Whether the board has a picture (not a lobby, nor a damaged game)."""
        return game.state is not None and not game.broken


    @staticmethod
    def alt_text(game: LoadedGame) -> str:
        """Return the picture's alt text: the position in words a screen reader speaks."""
        try:
            return plain(pictures.describe(game.row.kind, picture_view(game, plain_names=False),
                                           game.row.status, size=read_length))
        except Exception:
            log.warning("could not describe the board of game %s", game.id, exc_info=True)
            return f"The board of {game.engine.title}."

    def body(self, game: LoadedGame, *, pictured: bool = True) -> dict[str, Any]:
        """Return the board's embed and view, without the picture (the embed's text is the
        shorter one when the picture shows the position)."""
        renderer = self.renderers.get(game.row.kind)
        if renderer is None:  # a kind of game this bot no longer has: a damaged game
            embed = discord.Embed(title=game.engine.title, colour=COLOUR_ENDED,
                                  description=STATUS_TEXT.get(game.row.status, ""))
            embed.set_footer(text="This game's saved data is damaged; it cannot be shown.")
            return {"embed": embed, "view": None}
        game.pictured = self.pictured_in(game) and pictured and self.has_picture(game)
        embed = renderer.embed(game)
        view: discord.ui.View | None = None
        if game.broken:
            embed.colour = COLOUR_ENDED
            embed.set_footer(
                text=f"This game's saved state is damaged. Use /{game.row.kind} abandon to end it."
            )
        elif not game.row.is_open:
            ended = STATUS_TEXT.get(game.row.status, "This game has ended.")
            if game.row.status != "over":
                embed.colour = COLOUR_ENDED
                if game.row.state is not None:
                    # Abandoned, or ended idle, once started: the board asks for no move
                    # any more (the picture still shows where it stood); it says what
                    # ended it.
                    name = getattr(renderer, "short_title", "") or game.engine.title
                    embed.title = f"{name} · {ENDED_TITLES.get(game.row.status, 'ended')}"
                    events = game.row.events
                    embed.description = events[-1][:4096] if events else ended
                    embed.clear_fields()
            if game.row.status != "over" or not embed.footer.text:  # one line, either way
                embed.set_footer(text=ended)
            if game.row.state is not None or game.row.status == "over":
                # Replays are pictures: only where the server has board pictures on.
                replay = self.pictured_in(game) and game.row.kind in pictures.TITLES
                view = board_view(_table_buttons(game, again=True, replay=replay))
        else:
            items = lobby_items(game) if game.row.status == "lobby" else renderer.items(game)
            if game.row.status == "active" and game.computer_to_act():
                # a computer is choosing: its options are not live, but what a person
                # seated may do out of turn (resign) is
                acting = game.to_act()
                theirs = {a.id for seat, s in enumerate(game.seats)
                          if not s.computer and seat != acting
                          for a in game.legal_actions(seat)}
                for item in items:
                    parsed = (parse_button_id(item.custom_id or "")
                              if isinstance(item, BoardButton) else None)
                    key = parsed.key.removeprefix(ASK_PREFIX) if parsed else None
                    item.disabled = key not in theirs
            poll = game.data.poll
            if poll and poll.version == game.row.version and polls.voter_count(poll):
                _show_votes(embed, items, game, poll)
            view = board_view(_with_rules_button(items, game))
        return {"embed": embed, "view": view}


def _table_buttons(game: LoadedGame, *, again: bool, replay: bool = False) -> list[BoardItem]:
    """Return the buttons every board has: "Rules & details"; at the end also "Play
    again", "Replay" (with pictures, while the game's moves are kept) and, after a daily
    game, "Share" (while its moves are kept: the result is read from them); three to a
    row."""
    g, v = game.id, game.row.version
    wanted: list[tuple[Action, discord.ButtonStyle]] = []
    plain = discord.ButtonStyle.secondary
    if again:
        wanted.append((Action(TABLE_AGAIN, "Play again"), discord.ButtonStyle.success))
        if replay and game.row.state is not None:
            wanted.append((Action(TABLE_REPLAY, "Replay"), plain))
        if game.row.daily and game.row.status == "over" and game.row.state is not None:
            wanted.append((Action(TABLE_SHARE, "Share"), discord.ButtonStyle.primary))
    wanted.append((Action(TABLE_RULES, RULES_LABEL), plain))
    buttons = [action_button(g, v, action, style=style, row=i // PHONE_BUTTONS)
               for i, (action, style) in enumerate(wanted)]
    row = [b for b in buttons if b.row == buttons[-1].row]
    if len(row) > 1 and phone_lines(row) > 1:  # "Play again · Replay · Rules" fit a line
        buttons[-1].label = RULES_SHORT
    return list(buttons)


def _with_rules_button(items: list[BoardItem], game: LoadedGame) -> list[BoardItem]:
    """Add "Rules & details" to a board's components where a phone shows it without a
    line more: in a row of buttons it joins without wrapping onto a new line (one of
    fewer than three buttons first); where the labels are long (a vote's tally), with
    its short label, "Rules"; else in a row of its own (with five rows taken, in any
    row of buttons with room)."""
    rules = _table_buttons(game, again=False)[0]
    assert isinstance(rules, BoardButton)
    rows: dict[int, list[BoardButton]] = {}
    others: set[int] = set()
    for item in items:
        if isinstance(item, BoardButton):
            rows.setdefault(item.row or 0, []).append(item)
        else:
            others.add(item.row or 0)
    last = max([*rows, *others], default=-1)
    buttons = [r for r in sorted(rows, reverse=True)
               if r not in others and len(rows[r]) < MAX_BUTTONS_PER_ROW]

    preferred = ([r for r in buttons if len(rows[r]) < PHONE_BUTTONS]
                 + [r for r in buttons if len(rows[r]) >= PHONE_BUTTONS])

    def fitting() -> int | None:
        return next((r for r in preferred
                     if phone_lines([*rows[r], rules]) == phone_lines(rows[r])), None)

    row = fitting()
    if row is None:  # long labels (a vote's tally): the short label may fit a row still
        rules.label = RULES_SHORT
        row = fitting()
        if row is None:
            rules.label = RULES_LABEL
    if row is None and last >= 4 and buttons:  # no row left: any row of buttons with room
        row = buttons[0]
    if row is not None:
        rules.row = row
    elif last < 4:
        rules.row = last + 1
    else:
        return items
    return [*items, rules]


def vote_field(game: LoadedGame) -> tuple[str, str] | None:
    """Return the board's vote field (name, text) while the channel is voting, else None.

    One line: how many voted, how many agreeing make the move, and the countdown
    (``<t:…:R>``, counted down by Discord itself); the buttons carry each move's tally.
    """
    poll = game.data.poll
    if not poll or poll.version != game.row.version or not polls.voter_count(poll):
        return None
    active = polls.active_count(game.data.recent, poll)
    return VOTE_TITLE, vote_line(polls.voter_count(poll), polls.needed_for_majority(active),
                                 poll.closes, active, giving_up=polls.confirming(poll))


#: Between a move's label and its tally ("Add 2 · 1"): a middle dot between narrow
#: no-break spaces, so a tallied label takes little more room than its move's (three
#: tallied strikes still share a phone line) and never wraps before its count.
TALLY = "\u202f·\u202f"


def _show_votes(
    embed: discord.Embed,
    items: list[BoardItem],
    game: LoadedGame,
    poll: Poll,
) -> None:
    """Put the tally on the buttons and the vote field in the embed."""
    tally = {c.action: c.votes for c in polls.counts(poll)}
    for item in items:
        if isinstance(item, BoardButton) and item.custom_id:
            action = item.custom_id.split(":", 3)[-1]
            if action in tally:
                item.label = f"{item.label or ''}{TALLY}{tally[action]}"[:80]
        elif isinstance(item, BoardSelect):
            for option in item.options:
                if option.value in tally:
                    option.label = f"{option.label}{TALLY}{tally[option.value]}"[:100]
    field = vote_field(game)
    if field is not None:
        embed.add_field(name=field[0], value=field[1], inline=False)


def picture_view(game: LoadedGame, *, plain_names: bool = True) -> dict[str, Any]:
    """Return the engine's view with what the table adds for the picture: away seats and
    computer players (:func:`bot.table.seating.pictured`); the players' names plain, as
    a picture shows text as it is (unless ``plain_names`` is false: the alt text makes
    its whole text plain at once, a name's own backslash kept)."""
    view = game.view()
    if plain_names:
        view = plain_players(view)
    players = view.get("players")
    if len(game.seats) < 2 or not isinstance(players, list):
        return view
    seats = game.seats
    names = [s.name for s in seats]
    marked = [seating.pictured(p, seats[i], game.shown_away(i), names[:i] + names[i + 1:])
              if i < len(seats) and isinstance(p, dict) else p
              for i, p in enumerate(players)]
    return {**view, "players": marked}
