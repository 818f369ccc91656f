"""Boards: rendering a game as one message, answering clicks, posting and reposting.

Each game's cog registers a :class:`Renderer` for its kind; everything else here is
generic: the click path (one UPDATE_MESSAGE per click), refusals as ephemeral replies,
reposting a deleted or retired board, and computer players' moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import logging
from typing import Any, Protocol

import aiohttp
import discord

from bot import pictures
from bot.boards.answer_clock import AnswerClock
from bot.boards.layout import (
    ASK_PREFIX,
    BoardButton,
    BoardItem,
    BoardSelect,
    action_button,
    action_select,
    default_items,
    view_of,
)
from bot.games.protocol import Action
from bot.pictures.drawing import PictureDrawer
from bot.table import polls
from bot.table.data import NoticeRef, Poll
from bot.table.errors import (
    GameEnded,
    NotYourTurn,
    Refusal,
    StaleBoard,
    Unavailable,
    board_link,
)
from bot.table.lobby import (
    COMPUTER_LEVELS,
    DEFAULT_LEVEL,
    LOBBY_CANCEL,
    LOBBY_COMPUTER,
    LOBBY_DROP,
    LOBBY_HOST,
    LOBBY_JOIN,
    LOBBY_LEAVE,
    LOBBY_LEVEL,
    LOBBY_START,
)
from bot.table.service import Actor, LoadedGame, Tables

log = logging.getLogger(__name__)

#: What a request to Discord may fail with: an HTTP error, a rate limit longer than the
#: client waits (``max_ratelimit_timeout``), or the transport itself (a reset connection,
#: a timeout, an answer that is not JSON).
SEND_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, discord.RateLimited, aiohttp.ClientError, OSError, TimeoutError,
    ValueError,
)

#: Discord's error code for a permission the bot lacks (such as Attach Files).
MISSING_PERMISSIONS = 50013

#: Discord's error code for a message past its edit limit.
EDIT_CAP = 30046

#: How often a computer player retries after the database was busy, and the first pause.
COMPUTER_RETRIES = 5
COMPUTER_RETRY_SECONDS = 1.0
#: How many times a computer player that died of an error is started again per process.
COMPUTER_RESTARTS = 100

STATUS_TEXT = {
    "over": "The game is over.",
    "abandoned": "This game was abandoned.",
    "expired": "This game ended after being idle too long.",
}

COLOUR_ENDED = discord.Colour.light_grey()

#: Board buttons the table answers itself: the private rules and details, a new game.
TABLE_RULES = "table.rules"
TABLE_AGAIN = "table.again"


class Renderer(Protocol):
    """How one kind of game looks: its embed and its components."""

    kind: str

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the board embed for ``game`` (any status)."""
        ...

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the board's components while the game is active."""
        ...

    def details(self, game: LoadedGame) -> list[discord.Embed]:
        """Return the private "Rules & details" answer."""
        ...

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Start the same game again in the channel and answer with its board."""
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
    """Return the lobby: Join, Leave, Add computer player, Start, Cancel, and the host's
    selects to remove a computer player or hand the host role on."""
    v, g = game.row.version, game.id
    seats = game.row.seats
    full = len(seats) >= game.engine.max_seats
    ready = game.engine.min_seats <= len(seats) <= game.engine.max_seats
    style = discord.ButtonStyle
    items: list[BoardItem] = [
        action_button(g, v, Action(LOBBY_JOIN, "Join"), style=style.success, disabled=full, row=0),
        action_button(g, v, Action(LOBBY_LEAVE, "Leave"), row=0),
        action_button(g, v, Action(LOBBY_COMPUTER, "Add computer player"), disabled=full, row=0),
        action_button(g, v, Action(LOBBY_START, "Start"), style=style.primary,
                      disabled=not ready, row=1),
        action_button(g, v, Action(LOBBY_CANCEL, "Cancel"), style=style.danger, row=1),
    ]
    host = game.host_id
    drop = [option for i, s in enumerate(seats) if s.get("computer")
            for option in _computer_options(i, s)]
    heirs = [Action(f"{LOBBY_HOST}{i}", f"Make {s['name']} the host"[:100])
             for i, s in enumerate(seats) if not s.get("computer") and s.get("user_id") != host]
    if drop:
        items.append(action_select(g, v, "drop", drop[:25], row=2,
                                   placeholder="Host: computer players' level, or remove one…"))
    if heirs:
        items.append(action_select(g, v, "host", heirs, row=3,
                                   placeholder="Host: hand the host role to…"))
    return items


def _computer_options(seat: int, computer: dict[str, Any]) -> list[Action]:
    """The host's choices for one computer player: another level, or its removal."""
    name = str(computer["name"])
    level = str(computer.get("level") or DEFAULT_LEVEL)
    options = [Action(f"{LOBBY_LEVEL}{seat}.{key}", f"{name}: play {label}"[:100],
                      description=LEVEL_NOTES[key])
               for key, label in COMPUTER_LEVELS.items() if key != level]
    return [*options, Action(f"{LOBBY_DROP}{seat}", f"Remove {name}"[:100])]


#: What each computer level means, for the host choosing one.
LEVEL_NOTES = {
    "easy": "Plays like a newcomer: greedy, blind to the others' plans",
    "normal": "A steady player (computer players start at this level)",
    "hard": "Also plays out the last turns before it chooses",
}


def actor_of(interaction: discord.Interaction[Any]) -> Actor:
    """Return the Actor behind an interaction (with Manage Messages if they have it).

    The name is made safe to show: markdown and mentions escaped, blank names replaced.
    """
    user = interaction.user
    perms = interaction.permissions
    return Actor(user.id, safe_name(user.display_name, user.name), bool(perms.manage_messages))


@functools.lru_cache(maxsize=4096)
def safe_name(name: str, fallback: str = "") -> str:
    """Return a member's name as boards show it: one line, markdown and mentions escaped.

    A name with no visible character (only spaces such as U+3000) becomes ``fallback``
    (the account name) or "a player". Remembered for the last few thousand names: every
    click asks for its member's.
    """
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not text:
        text = " ".join("".join(ch for ch in fallback if ch.isprintable()).split()) or "a player"
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return text[:64]


class Boards:
    """Posts, edits and reposts boards; answers clicks; moves computer players."""

    def __init__(
        self,
        bot: discord.Client,
        tables: Tables,
        computer_delay: float = 1.5,
        *,
        images: bool = True,
        drawer: PictureDrawer | None = None,
    ) -> None:
        self.bot = bot
        #: Draws the pictures away from the event loop (a worker process, or a thread).
        self.drawer = drawer if drawer is not None else PictureDrawer(processes=False)
        self.tables = tables
        self.computer_delay = computer_delay
        #: Whether boards carry a picture (BOARD_IMAGES); the text stays complete without.
        self.images = images
        self.renderers: dict[str, Renderer] = {}
        #: The version each board message shows, as far as this process knows.
        self._shown: dict[int, int] = {}
        self._computers: dict[int, asyncio.Task[None]] = {}
        #: Boards waiting for an edit (votes, closed windows), and the task editing each.
        self._dirty: set[int] = set()
        self._latest: dict[int, LoadedGame] = {}
        self._updaters: dict[int, asyncio.Task[None]] = {}
        #: Pause between two edits of one board made by the bot itself (not a click's answer).
        self.edit_interval = 1.0
        #: Each table's current turn notice, and a lock so notices go out one at a time.
        self._notices: dict[int, NoticeRef] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._restarts = 0
        self._notice_locks: dict[int, asyncio.Lock] = {}

    def register(self, renderer: Renderer) -> None:
        """Register the renderer of one kind of game."""
        self.renderers[renderer.kind] = renderer

    # -- rendering ----------------------------------------------------------------------

    def render(
        self,
        game: LoadedGame,
        *,
        edit: bool = False,
        picture: bytes | None = None,
        keep: bool = False,
    ) -> dict[str, Any]:
        """Return the message body (``embed``, ``view`` and the picture) of ``game``'s board.

        The picture goes as ``attachments`` when ``edit`` (it replaces the last one) and
        as ``file`` for a new message; a board without a picture clears old ones on edit.
        ``picture`` is the drawn picture (drawn here when None); with ``keep``, an edit
        keeps the picture the message already has (the board's version is unchanged).
        """
        body = self._body(game)
        if keep and self.images:
            if picture if picture is not None else self._picture(game):  # not sent again
                body["embed"].set_image(url=f"attachment://{pictures.FILENAME}")
            return body
        if picture is None:
            picture = self._picture(game) if self.images else b""
        if picture:
            body["embed"].set_image(url=f"attachment://{pictures.FILENAME}")
            file = discord.File(io.BytesIO(picture), filename=pictures.FILENAME,
                                description=self._alt_text(game))
            body["attachments" if edit else "file"] = [file] if edit else file
        elif edit:
            body["attachments"] = []
        return body

    async def _render(self, game: LoadedGame, *, edit: bool = False,
                      keep: bool = False, pictured: bool = True) -> dict[str, Any]:
        """Return :meth:`render`'s body, drawing the picture off the event loop.

        ``pictured`` false leaves the picture out (a channel where the bot may not attach
        files); the text board is complete without it.
        """
        picture = b""
        if self.images and pictured and self._has_picture(game):
            try:
                picture = await self.drawer.draw(game.row.kind, picture_view(game),
                                                 game.row.status)
            except Exception:
                log.warning("could not draw the board of game %s", game.id, exc_info=True)
        return self.render(game, edit=edit, picture=picture, keep=keep and pictured)

    @staticmethod
    def _has_picture(game: LoadedGame) -> bool:
        return game.state is not None and not game.broken

    def _picture(self, game: LoadedGame) -> bytes:
        """Return the board's picture as PNG bytes, or b"" (a lobby, a broken game)."""
        if not self._has_picture(game):
            return b""
        try:
            return pictures.render_board(game.row.kind, picture_view(game),
                                         status=game.row.status)
        except Exception:
            log.warning("could not draw the board of game %s", game.id, exc_info=True)
            return b""

    @staticmethod
    def _alt_text(game: LoadedGame) -> str:
        """Return the picture's alt text: the position in words a screen reader speaks."""
        try:
            return pictures.describe(game.row.kind, picture_view(game), game.row.status)
        except Exception:
            log.warning("could not describe the board of game %s", game.id, exc_info=True)
            return f"The board of {game.engine.title}."

    def _body(self, game: LoadedGame) -> dict[str, Any]:
        """Return the board's embed and view, without the picture."""
        renderer = self.renderers[game.row.kind]
        game.pictured = self.images and self._has_picture(game)
        embed = renderer.embed(game)
        view: discord.ui.View | None = None
        if game.broken:
            embed.colour = COLOUR_ENDED
            embed.set_footer(
                text=f"This game's saved state is damaged. Use /{game.row.kind} abandon to end it."
            )
        elif not game.row.is_open:
            if game.row.status != "over":
                embed.colour = COLOUR_ENDED
            footer = STATUS_TEXT.get(game.row.status, "This game has ended.")
            if embed.footer.text and game.row.status == "over":
                footer = f"{embed.footer.text} · {footer}"
            embed.set_footer(text=footer[:2048])
            if game.row.state is not None or game.row.status == "over":
                view = view_of(_table_buttons(game, again=True))
        else:
            items = lobby_items(game) if game.row.status == "lobby" else renderer.items(game)
            if game.row.status == "active" and game.computer_to_act():
                for item in items:  # a computer is choosing: its options are not live
                    item.disabled = True
            poll = game.data.poll
            if poll and poll.version == game.row.version and poll.ballots:
                _show_votes(embed, items, game, poll)
            view = view_of(_with_rules_button(items, game))
        return {"embed": embed, "view": view}

    # -- clicks -------------------------------------------------------------------------

    async def handle_click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        """Apply a board click and answer it with one UPDATE_MESSAGE, or refuse privately."""
        with self.tables.busy():  # a clean shutdown waits for the answer too
            await self._click(interaction, game_id, version, action_id)

    async def _click(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        if self.tables.closing:
            await self._closing(interaction)
            return
        if action_id.startswith(ASK_PREFIX):
            await self._ask(interaction, game_id, version, action_id.removeprefix(ASK_PREFIX))
            return
        if action_id in (TABLE_RULES, TABLE_AGAIN):
            await self._table_button(interaction, game_id, action_id)
            return
        clock = AnswerClock(interaction, game_id)
        try:
            await self._move(interaction, clock, game_id, version, action_id)
        finally:
            clock.stop()

    async def _move(self, interaction: discord.Interaction[Any], clock: AnswerClock,
                    game_id: int, version: int, action_id: str) -> None:
        """Apply a move click and answer it; ``clock`` defers it if the answer is late.

        The clock runs until the answer leaves, the board's drawing included: under a
        burst of clicks, or with a slow picture, a saved move is never shown as failed.
        """
        try:
            play = await self.tables.act(game_id, version, actor_of(interaction), action_id)
        except Refusal as refusal:
            if isinstance(refusal, StaleBoard | GameEnded) and await self._heal(
                interaction, game_id, clock
            ):
                return
            text = str(refusal)
            if isinstance(refusal, StaleBoard) and interaction.message is not None:
                on_board = refusal.link.endswith(f"/{interaction.message.id}")
                text = refusal.text(show_link=not on_board)
            await clock.settle()
            await self._refuse(interaction, text)
            if isinstance(refusal, NotYourTurn):
                await self._wake_computers(game_id)
            return
        except Exception:
            log.exception("click %r on game %s failed", action_id, game_id)
            await clock.settle()
            await self._refuse(
                interaction, "Something went wrong on our side; the game was not changed."
            )
            return
        game = play.game
        message = interaction.message
        if play.ballot is not None:
            await clock.settle()
            await self._refuse(interaction, play.ballot.text(self.tables.now()))
            if message is not None and not message.flags.ephemeral:
                self.update_soon(game.id, game)
            return
        try:
            if message is not None and message.flags.ephemeral:
                await clock.settle()
                await _edit_answer(
                    interaction, content=" ".join(play.events) or "Done.", embed=None, view=None
                )
                await self.refresh(game)
            else:
                # Known as shown before the answer leaves, so a click racing this one is
                # refused as stale rather than taken for a board left behind.
                self._mark_shown(game)
                body = await self._render(game, edit=True)
                await clock.settle()
                await _edit_answer(interaction, **body)
                if message is not None and message.id != game.row.board_message_id:
                    await self.tables.set_board(game, message.channel.id, message.id)
        except SEND_ERRORS as exc:
            log.warning("could not answer a click on game %s (%s); editing the board instead",
                        game.id, exc)
            self._shown.pop(game.id, None)  # not shown after all, unless refresh manages
            await self.refresh(game)
        await self.announce(game, play.notice)
        self.schedule_computers(game)

    async def _closing(self, interaction: discord.Interaction[Any]) -> None:
        """Answer a click that reaches a process on its way out.

        During a deployment overlap the new process may be applying this very click, so
        the answer claims nothing: a silent acknowledgement, then a private word that the
        click may need repeating if the board did not change.
        """
        try:
            await interaction.response.defer()
            await interaction.followup.send(
                "The bot is restarting: if the board did not change, press again in a few "
                "seconds.", ephemeral=True,
            )
        except SEND_ERRORS as exc:
            log.warning("could not answer a click while stopping: %r", exc)

    def _mark_shown(self, game: LoadedGame) -> None:
        """Remember the version on the game's board (forgotten once the game has ended)."""
        if game.row.is_open:
            self._shown[game.id] = game.row.version
        else:
            self._shown.pop(game.id, None)

    async def _heal(self, interaction: discord.Interaction[Any], game_id: int,
                    clock: AnswerClock) -> bool:
        """Bring a board left behind (the bot stopped before answering) up to date.

        A stale click on the game's current board message, when this process has not
        shown the current version on it, means the answer to the last move was lost: the
        click is answered with the current board instead of a refusal. Nothing is applied.
        """
        message = interaction.message
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return False
        if (
            message is None
            or message.id != game.row.board_message_id
            or self._shown.get(game_id) == game.row.version
        ):
            return False
        self._mark_shown(game)
        try:
            body = await self._render(game, edit=True)
            await clock.settle()
            await _edit_answer(interaction, **body)
        except SEND_ERRORS as exc:
            log.warning("could not bring the board of game %s up to date: %s", game_id, exc)
            self._shown.pop(game_id, None)
            return False
        return True

    async def _ask(
        self, interaction: discord.Interaction[Any], game_id: int, version: int, action_id: str
    ) -> None:
        """Ask privately to confirm ``action_id``, with a button that applies it.

        A player who could not take the action is refused at once instead.
        """
        with contextlib.suppress(Refusal):
            await self._come_back(interaction, await self.tables.load(game_id))
        try:
            await self.tables.check(game_id, version, actor_of(interaction), action_id)
        except Refusal as refusal:
            await self._refuse(interaction, str(refusal))
            return
        except Exception:
            log.exception("checking %r on game %s failed", action_id, game_id)
            await self._refuse(interaction, "Something went wrong on our side; nothing changed.")
            return
        yes = action_button(game_id, version, Action(action_id, "Yes, I am sure"),
                            style=discord.ButtonStyle.danger)
        try:
            await interaction.response.send_message(
                "Are you sure? This cannot be undone. (Dismiss this message to keep playing.)",
                view=view_of([yes]), ephemeral=True,
            )
        except SEND_ERRORS as exc:
            log.warning("could not ask to confirm %r on game %s: %s", action_id, game_id, exc)

    async def _table_button(
        self, interaction: discord.Interaction[Any], game_id: int, action_id: str
    ) -> None:
        """Answer "Rules & details" privately, or start the same game again."""
        try:
            game = await self.tables.load(game_id)
            renderer = self.renderers[game.row.kind]
            if action_id == TABLE_RULES:
                await self._come_back(interaction, game)
                await interaction.response.send_message(
                    embeds=renderer.details(game)[:10], ephemeral=True
                )
                self.schedule_computers(game)  # a stalled computer player moves on
                return
            if game.row.is_open:
                raise Refusal("This game is still going: finish or abandon it first.")
            await renderer.play_again(interaction, game)
        except Refusal as refusal:
            await self._refuse(interaction, str(refusal))
        except SEND_ERRORS as exc:
            log.warning("could not answer %s on game %s: %s", action_id, game_id, exc)

    async def _come_back(self, interaction: discord.Interaction[Any], game: LoadedGame) -> None:
        """Bring an away player back when they use a button that is not a move (C6): the
        board is brought up to date and whose turn it is announced; never raise.

        ``game`` as just read tells whether they are away at all (usually not: no more work).
        """
        seat = game.seat_of(interaction.user.id) if len(game.row.seats) > 1 else None
        if seat is None or not game.row.seats[seat].get("away"):
            return
        try:
            play = await self.tables.come_back(game.id, actor_of(interaction))
        except Refusal:
            return
        if play is None:
            return
        self.update_soon(play.game.id, play.game)
        await self.announce(play.game, play.notice)
        self.schedule_computers(play.game)

    async def _wake_computers(self, game_id: int) -> None:
        """Make sure a computer player whose turn it is gets moving (after a hiccup)."""
        try:
            game = await self.tables.load(game_id)
        except Refusal:
            return
        self.schedule_computers(game)

    async def _refuse(self, interaction: discord.Interaction[Any], text: str) -> None:
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except SEND_ERRORS as exc:
            log.warning("could not send a refusal: %s", exc)

    # -- posting ------------------------------------------------------------------------

    async def send_board(
        self,
        interaction: discord.Interaction[Any],
        game: LoadedGame,
        *,
        invite: tuple[int, ...] = (),
    ) -> None:
        """Answer a command with a new board for ``game`` and retire the previous one.

        ``invite`` names members the board's message mentions (once, when it is posted).
        """
        old = (game.row.board_channel_id, game.row.board_message_id)
        body = _without_none(await self._render(game))
        if invite:
            body["content"] = "Invited: " + " ".join(f"<@{u}>" for u in invite)
            body["allowed_mentions"] = discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False,
                users=[discord.Object(u) for u in invite],
            )
        try:
            response = await interaction.response.send_message(**body)
        except SEND_ERRORS as exc:
            log.warning("could not answer with the board of game %s (%s); posting it", game.id,
                        exc)
            await self.post(game)
        else:
            channel_id = interaction.channel_id or game.row.channel_id
            if response.message_id is not None:
                await self.tables.set_board(game, channel_id, response.message_id)
                self._mark_shown(game)
            await self._retire(old[0], old[1], game)
        self.schedule_computers(game)

    async def post(self, game: LoadedGame) -> None:
        """Post a fresh board in the game's channel and retire the previous one."""
        old = (game.row.board_channel_id, game.row.board_message_id)
        channel = self.bot.get_partial_messageable(
            game.row.board_channel_id or game.row.channel_id, guild_id=game.row.guild_id
        )
        try:
            try:
                message = await channel.send(**_without_none(await self._render(game)))
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS:
                    raise
                # no Attach Files here: the board goes as text
                message = await channel.send(
                    **_without_none(await self._render(game, pictured=False))
                )
        except SEND_ERRORS as exc:
            log.warning("could not post the board of game %s: %s", game.id, exc)
            return
        await self.tables.set_board(game, message.channel.id, message.id)
        self._mark_shown(game)
        await self._retire(old[0], old[1], game)

    async def refresh(self, game: LoadedGame, *, keep: bool = False) -> None:
        """Edit the game's board in place; post a new one if it was deleted or capped.

        With ``keep`` the message keeps its picture (only the text changed: a vote).
        """
        if game.row.board_message_id is None or game.row.board_channel_id is None:
            await self.post(game)
            return
        channel = self.bot.get_partial_messageable(
            game.row.board_channel_id, guild_id=game.row.guild_id
        )
        message = channel.get_partial_message(game.row.board_message_id)
        try:
            try:
                await message.edit(**(await self._render(game, edit=True, keep=keep)))
            except discord.Forbidden as exc:
                if exc.code != MISSING_PERMISSIONS:
                    raise
                # no Attach Files here: the board goes as text
                await message.edit(**(await self._render(game, edit=True, pictured=False)))
            self._mark_shown(game)
        except discord.NotFound:
            log.info("board of game %s was deleted; posting a new one", game.id)
            game.row.board_message_id = None
            await self.post(game)
        except discord.HTTPException as exc:
            if exc.code == EDIT_CAP:
                await self.post(game)
            else:
                log.warning("could not edit the board of game %s: %s", game.id, exc)
        except SEND_ERRORS as exc:
            log.warning("could not edit the board of game %s: %r", game.id, exc)

    async def _retire(self, channel_id: int | None, message_id: int | None,
                      game: LoadedGame) -> None:
        if channel_id is None or message_id is None or message_id == game.row.board_message_id:
            return
        channel = self.bot.get_partial_messageable(channel_id, guild_id=game.row.guild_id)
        link = board_link(game.row.guild_id, game.row.board_channel_id, game.row.board_message_id)
        with contextlib.suppress(*SEND_ERRORS):
            await channel.get_partial_message(message_id).edit(
                content=f"This board moved: {link}", embed=None, view=None, attachments=[]
            )

    # -- edits the bot makes by itself ---------------------------------------------------

    def update_soon(self, game_id: int, game: LoadedGame | None = None) -> None:
        """Edit the game's board soon; edits asked for meanwhile are made as one.

        Votes and closed windows change a board without a click to answer: at most one
        edit per board is in flight, and a burst of votes costs one or two edits.
        ``game`` is the game as just saved, which spares reading it again.
        """
        if game is not None:
            self._latest[game_id] = game
        else:
            self._latest.pop(game_id, None)
        self._dirty.add(game_id)
        task = self._updaters.get(game_id)
        if task is None or task.done():
            self._updaters[game_id] = asyncio.create_task(
                self._update(game_id), name=f"board-update-{game_id}"
            )

    async def _update(self, game_id: int) -> None:
        try:
            while game_id in self._dirty and not self.tables.closing:
                self._dirty.discard(game_id)
                game = self._latest.pop(game_id, None)
                if game is None:
                    try:
                        game = await self.tables.load(game_id)
                    except Refusal:
                        return
                shown = self._shown.get(game_id, -1)
                if shown > game.row.version:
                    continue  # a newer board is already shown
                await self.refresh(game, keep=shown == game.row.version)
                if game_id in self._dirty:
                    await asyncio.sleep(self.edit_interval)
        except Exception:
            log.warning("could not update the board of game %s", game_id, exc_info=True)
        finally:
            self._updaters.pop(game_id, None)
            self._latest.pop(game_id, None)

    async def fire_deadline(self, game_id: int) -> None:
        """Handle a game's due deadline (a vote window closing) and show what it did."""
        play = await self.tables.fire_deadline(game_id)
        if play is None:
            return
        if play.events:
            self.update_soon(game_id, play.game)
        await self.announce(play.game, play.notice)
        self.schedule_computers(play.game)

    async def announce(self, game: LoadedGame, notice: tuple[int, str] | None) -> None:
        """Tell a person it is their turn: one short message that mentions only them.

        The table's previous notice is deleted first, so a channel holds at most one per
        table; a finished table's last notice goes too. Nothing is sent for a table started
        with notices off.
        """
        if len(game.row.seats) < 2:
            return
        if notice is None and game.row.is_open:
            return
        async with self._notice_lock(game.id):
            try:
                stored = (await self.tables.load(game.id)).data.notice
            except Refusal:
                stored = None
            old = self._notices.pop(game.id, None) or stored
            if old:
                channel = self.bot.get_partial_messageable(old.channel,
                                                           guild_id=game.row.guild_id)
                with contextlib.suppress(*SEND_ERRORS):
                    await channel.get_partial_message(old.message).delete()
            if not game.row.is_open or notice is None or not game.data.notices:
                if stored:
                    await self.tables.remember_notice(game.id, None)
                return
            user_id, text = notice
            channel = self.bot.get_partial_messageable(
                game.row.board_channel_id or game.row.channel_id, guild_id=game.row.guild_id
            )
            link = game.link
            try:
                message = await channel.send(
                    f"{text} {link}".strip(),
                    allowed_mentions=discord.AllowedMentions(
                        everyone=False, roles=False, replied_user=False,
                        users=[discord.Object(user_id)],
                    ),
                )
            except SEND_ERRORS as exc:
                log.warning("could not post a turn notice in game %s: %s", game.id, exc)
                return
            note = NoticeRef(message.channel.id, message.id)
            self._notices[game.id] = note
            await self.tables.remember_notice(game.id, note)

    def _notice_lock(self, game_id: int) -> asyncio.Lock:
        lock = self._notice_locks.get(game_id)
        if lock is None:
            lock = self._notice_locks[game_id] = asyncio.Lock()
            if len(self._notice_locks) > 1000:  # forget idle tables' locks
                for gid in [g for g, lk in self._notice_locks.items() if not lk.locked()][:500]:
                    if gid != game_id:
                        del self._notice_locks[gid]
        return lock

    async def stop_updates(self) -> None:
        """Cancel pending board edits (at shutdown)."""
        tasks = list(self._updaters.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # -- computer players ---------------------------------------------------------------

    def schedule_computers(self, game: LoadedGame) -> None:
        """Start moving computer players of ``game`` if one is to act."""
        if not game.row.is_open or game.broken or not game.computer_to_act():
            return
        task = self._computers.get(game.id)
        if task is not None and not task.done():
            return
        self._computers[game.id] = asyncio.create_task(
            self._run_computers(game.id), name=f"computer-players-{game.id}"
        )

    async def _run_computers(self, game_id: int) -> None:
        failures = 0
        try:
            while not self.tables.closing:
                pause = self.computer_delay + COMPUTER_RETRY_SECONDS * (2**failures - 1)
                await asyncio.sleep(pause)
                try:
                    play = await self.tables.computer_move(game_id)
                except (Unavailable, StaleBoard) as refusal:
                    failures += 1
                    if failures > COMPUTER_RETRIES:
                        log.warning("computer player in game %s gave up: %s", game_id, refusal)
                        return
                    continue
                except Refusal as refusal:
                    log.warning("computer player in game %s stopped: %s", game_id, refusal)
                    return
                failures = 0
                if play is None:
                    return
                self.update_soon(game_id, play.game)  # at most one edit a second per board
                await self.announce(play.game, play.notice)
        except Exception:
            log.exception("computer player in game %s failed; it starts again shortly", game_id)
            self._computers.pop(game_id, None)
            if not self.tables.closing:
                self._restart_computers(game_id)
        finally:
            if self._computers.get(game_id) is asyncio.current_task():
                self._computers.pop(game_id, None)

    def _restart_computers(self, game_id: int) -> None:
        """Start a computer player again a little later, after it died of an error."""
        async def later() -> None:
            await asyncio.sleep(COMPUTER_RETRY_SECONDS * 5)
            await self._wake_computers(game_id)

        self._restarts += 1
        if self._restarts <= COMPUTER_RESTARTS:
            task = asyncio.create_task(later(), name=f"computer-restart-{game_id}")
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def resume_computers(self) -> int:
        """After a restart, let computer players move wherever one is to act; return how many."""
        resumed = 0
        for game_id in await self.tables.store.active_multiseat_ids(shards=self.tables.shards):
            try:
                game = await self.tables.load(game_id)
            except Refusal:
                continue
            if game.computer_to_act():
                self.schedule_computers(game)
                resumed += 1
        return resumed

    async def stop_computers(self) -> None:
        """Cancel computer players' pending moves (at shutdown)."""
        tasks = [*self._computers.values(), *self._background]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _edit_answer(interaction: discord.Interaction[Any], **body: Any) -> None:
    """Answer a click by editing its message (after a deferral, through the webhook)."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**body)
    else:
        await interaction.response.edit_message(**body)


def _table_buttons(game: LoadedGame, *, again: bool) -> list[BoardItem]:
    """Return the buttons every board has: "Rules & details" (and "Play again" at the end)."""
    g, v = game.id, game.row.version
    items: list[BoardItem] = []
    if again:
        items.append(action_button(g, v, Action(TABLE_AGAIN, "Play again"),
                                   style=discord.ButtonStyle.success, row=0))
    items.append(action_button(g, v, Action(TABLE_RULES, "Rules & details"), row=0))
    return items


def _with_rules_button(items: list[BoardItem], game: LoadedGame) -> list[BoardItem]:
    """Add "Rules & details" to a board's components where there is room for it."""
    rules = _table_buttons(game, again=False)[0]
    rows: dict[int, list[BoardItem]] = {}
    for item in items:
        rows.setdefault(item.row or 0, []).append(item)
    last = max(rows, default=-1)
    if last >= 0 and len(rows[last]) < 5 and all(
        isinstance(i, BoardButton) for i in rows[last]
    ):
        rules.row = last
    elif last < 4:
        rules.row = last + 1
    else:
        return items
    return [*items, rules]


def vote_field(game: LoadedGame) -> tuple[str, str] | None:
    """Return the board's vote field (name, text) while the channel is voting, else None.

    Who voted for what, and the countdown (``<t:…:R>``, counted down by Discord itself).
    """
    poll = game.data.poll
    if not poll or poll.version != game.row.version or not poll.ballots:
        return None
    active = polls.active_players(game.data.recent, poll)
    lines = [f"**{c.label}** · {c.votes}: {polls.join_names(c.names)}"
             for c in polls.counts(poll)]
    closes = poll.closes
    needed = polls.needed_for_majority(active)
    if closes is not None:
        lines.append(f"Closes <t:{int(closes)}:R>, or at once when {needed} agree.")
    else:
        lines.append(f"Giving up needs a majority: {needed} of {len(active)} active players.")
    text = "\n".join(lines)
    if len(text) > 1024:
        text = text[:1023] + "…"
    return "🗳️ The channel is voting", text


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
                item.label = f"{item.label or ''} · {tally[action]}"[:80]
        elif isinstance(item, BoardSelect):
            for option in item.options:
                if option.value in tally:
                    option.label = f"{option.label} · {tally[option.value]}"[:100]
    field = vote_field(game)
    if field is not None:
        embed.add_field(name=field[0], value=field[1], inline=False)


def _without_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def picture_view(game: LoadedGame) -> dict[str, Any]:
    """Return the engine's view with what the table adds for the picture: away seats."""
    view = game.view()
    players = view.get("players")
    if len(game.row.seats) < 2 or not isinstance(players, list):
        return view
    seats = game.row.seats
    marked = [{**p, "away": bool(seats[i].get("away"))} if i < len(seats) and isinstance(p, dict)
              else p for i, p in enumerate(players)]
    return {**view, "players": marked}
