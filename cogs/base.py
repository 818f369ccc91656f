"""What every game cog shares: starting, reposting and abandoning a game from a command."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock
from bot.boards.layout import BoardItem
from bot.boards.render import generic_items, vote_field
from bot.boards.send_errors import DISMISS
from bot.table.errors import Refusal
from bot.table.lobby import LOBBY_CANCEL
from bot.table.service import LoadedGame
from bot.table.turnlog import COMPUTER_MARK
from cogs.abandoning import AbandonButton, abandon_question, ask_to_abandon
from cogs.details import PAGE_LINES, Section, page_body
from cogs.footer import FOOTER_LINES, last_moves
from cogs.rules_pages import RulesPageButton, rules_body

if TYPE_CHECKING:
    from bot.client import TableBot


def newest_events(game: LoadedGame, budget: int) -> str:
    """Return the newest events as bullet lines, as many as fit ``budget`` phone lines."""
    lines: list[str] = []
    used = 0
    for event in reversed(game.row.events):
        line = f"• {event}"
        used += phone_lines(line)
        if used > budget and lines:
            break
        lines.insert(0, line)
    return "\n".join(lines) or "—"


def last_turns(game: LoadedGame) -> list[tuple[str, str]]:
    """Return "Last turns"' fields: at a seated table every turn its log keeps, newest
    first (a field each, named by who played it, its events in order as bullet lines
    without that name before them: the board's footer cuts each turn to a line); in a
    one-seat game its newest events, newest last."""
    if len(game.seats) <= 1 or not game.data.turns:
        return [("The game's last events, newest last",
                 newest_events(game, PAGE_LINES - 3))]
    fields = []
    for turn in reversed(game.data.turns):
        if turn.seat is None:
            fields.append(("The table", "\n".join(f"• {e}" for e in turn.events) or "—"))
            continue
        name = game.seat_name(turn.seat)
        lead = (f"{COMPUTER_MARK} {name}: ", f"{name} ")
        events = [_unled(event, lead) for event in turn.events]
        shown = f"{COMPUTER_MARK} {name}" if turn.by_computer else name
        fields.append((shown, "\n".join(f"• {event}" for event in events) or "—"))
    return fields


def _unled(event: str, leads: tuple[str, ...]) -> str:
    """Return ``event`` without the first of ``leads`` it starts with, its first letter
    a capital ("Bob takes Mill." under Bob's turn reads "Takes Mill.")."""
    for lead in leads:
        if event.startswith(lead) and len(event) > len(lead):
            rest = event[len(lead):]
            return rest[0].upper() + rest[1:]
    return event


#: A phone shows about this many characters on a line of a board embed...
PHONE_WIDTH = 38
#: ...and a board's text (title, description, fields, footer) should fit in this many lines.
PHONE_LINES = 30


def phone_lines(text: str, width: int = PHONE_WIDTH) -> int:
    """Return how many lines ``text`` takes at ``width`` characters, each line wrapped alone."""
    if not text:
        return 0
    if len(text) <= width:  # no line of it can be too long
        return text.count("\n") + 1
    return sum(
        1 if len(line) <= width else _wrapped(line, width) for line in text.split("\n")
    )


@lru_cache(maxsize=8192)
def _wrapped(line: str, width: int) -> int:
    """Return how many lines textwrap makes of one long line (boards repeat many lines)."""
    return len(textwrap.wrap(line, width)) or 1


def embed_lines(embed: discord.Embed, width: int = PHONE_WIDTH) -> int:
    """Return how many phone lines an embed's text takes: title, description, fields, footer."""
    texts = [embed.title or "", embed.description or ""]
    for f in embed.fields:
        texts += [f.name or "", f.value or ""]
    texts.append(embed.footer.text or "")
    return sum(phone_lines(t, width) for t in texts)


def voting(game: LoadedGame) -> bool:
    """Return whether the board shows a vote under way (the table adds its field)."""
    return vote_field(game) is not None


def last_line(game: LoadedGame, announced: Callable[[str], bool] = lambda _: False,
              budget: int = FOOTER_LINES, said: Callable[[str], bool] = lambda _: False) -> str:
    """Return what happened since the player to act last moved, a phone line a turn, the
    table's own events (``announced`` ones too) whole (:func:`cogs.footer.last_moves`).

    Every event of the last turns is in "Rules & details"; lines the board says
    elsewhere (``said``) are left out.
    """
    return last_moves(game, announced, budget, said=said)


def daily_note(game: LoadedGame) -> str:
    """Return " · 📅 daily deal YYYY-MM-DD" for a daily game, else ""."""
    return f" · 📅 daily deal {game.row.daily}" if game.row.daily else ""


#: The start commands' "players" choice, and the mode it stands for (ruling C1).
PLAYERS_CHOICES = {"vote": "vote", "fast": "fast", "only me": "solo"}
#: How the start commands describe the "players" and "vote_seconds" options.
PLAYERS_HELP = "vote (default: the channel votes), fast (any click moves) or only me"
WINDOW_HELP = "Seconds a vote stays open, 10 to 600 (default: this server's setting)"
THREAD_HELP = "Play in a new thread of its own (default: this server's setting)"


def modes_text(give_up: bool) -> str:
    """Return two sentences on the ways to play a channel's game, for its rules; giving
    up (``give_up``: the game has it) needs a majority."""
    majority = "; giving up needs a majority" if give_up else ""
    return ("By default the channel votes: a click is a vote (click again to change it), a "
            "move with a majority of the active players happens at once, otherwise the "
            f"most-voted move happens when the vote closes{majority}. Start with players: "
            "fast to let any click move at once, or only me to play alone.")


#: The ways to play a game that can be given up (Tinker).
MODES_TEXT = modes_text(give_up=True)


def thread_choice(value: str | None) -> bool | None:
    """Return a start command's ``thread`` option as a choice (None: not given)."""
    return None if value is None else value == "yes"


def who_plays(game: LoadedGame) -> str:
    """Return how the game is played: by vote, fast, or only its starter (ruling C1)."""
    starter = game.seat_name(0)
    mode = "solo" if game.row.only_starter else game.data.mode
    if mode == "solo":
        return f"only {starter} plays"
    if mode == "fast":
        return "anyone's click moves"
    window = int(game.data.window)
    return f"the channel votes ({window} s)"


def table_line(game: LoadedGame) -> str:
    """Return who started the game, how it is played, and the daily deal; at a seated
    table, who hosts it and that each player acts on their own turn."""
    if len(game.seats) > 1 or game.engine.min_seats > 1:
        host = game.seat_of(game.host_id)
        hosted = f"Hosted by {game.seat_name(host)} · " if host is not None else ""
        seats = len(game.seats)
        return f"{hosted}{seats} seat{'s' * (seats != 1)}, each played on its own turn"
    return f"Started by {game.seat_name(0)} · {who_plays(game)}{daily_note(game)}"


def seat_list(game: LoadedGame) -> str:
    """Return the seats as numbered lines: the host 👑, computer players 🤖, away 💤."""
    host = game.host_id
    lines = []
    for i, seat in enumerate(game.seats):
        marks = "".join(mark for mark, on in (
            (" 👑", seat.holds(host)),
            (" 🤖", seat.computer),
            (" 💤", game.shown_away(i)),
        ) if on)
        level = f" · {(seat.level or 'normal').title()}" if seat.computer else ""
        lines.append(f"{i + 1}. {seat.name}{marks}{level}")
    return "\n".join(lines) or "—"


class GameCog(commands.Cog):
    """Base of a game's cog; subclasses set ``kind`` and register their renderer."""

    kind: str = ""
    #: The command that starts a game of this kind, for hints in replies.
    start_command: str = ""
    #: The game's name, its rules in the bot's words (name, text) and its board colour.
    title: str = ""
    #: The game's name in a thread's name ("Tinker · Alice · 2 Dec"); default ``title``.
    short_title: str = ""
    rules_text: Sequence[tuple[str, str]] = ()
    colour: int = 0x5865F2
    #: The ways to play a channel's game, on its "Rules & details".
    modes_text: str = MODES_TEXT

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register this cog as the renderer of its kind, and the buttons of its private
        answers (confirming an abandon, the rules' pages), so they work after a restart."""
        self.bot.boards.register(self)  # type: ignore[arg-type]
        self.bot.add_dynamic_items(AbandonButton, RulesPageButton)

    # Renderer defaults ------------------------------------------------------------------

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the board's components: by default, the generic layout of legal actions."""
        return generic_items(game)

    def legend(self, game: LoadedGame) -> str:
        """Return what every icon on the board means ("" when the board has none)."""
        return ""

    def sections(self, game: LoadedGame) -> list[Section]:
        """Return the sections of "Rules & details": the rules, this table and its icons,
        the cog's own (cards, piles, the table), the last turns."""
        rules = Section("rules", "Rules", f"{self.title or self.kind}: how to play",
                        list(self.rules_text))
        table = [("At this table", table_line(game))]
        legend = self.legend(game)
        if legend:
            table.append(("What the icons mean", legend))
        if game.engine.max_seats <= 1 and all(text != self.modes_text
                                              for _, text in self.rules_text):
            # (a seated table's lobby has one seat at first; rules that say who plays
            # already are not said twice)
            table.append(("Ways to play", self.modes_text))
        icons = Section("icons", "Icons", "This table and its icons", table)
        seated = len(game.seats) > 1 and game.data.turns
        turns = Section("turns", "Last turns",
                        "The last turns, newest first" if seated else "The last turns",
                        last_turns(game))
        return [rules, icons, *self.card_sections(game), turns]

    def card_sections(self, game: LoadedGame) -> list[Section]:
        """Return the game's own sections of "Rules & details" (none by default)."""
        return []

    def details(self, game: LoadedGame, page: str = "") -> dict[str, Any]:
        """Return one page of the private "Rules & details" (the rules when ``page`` is
        empty): its embeds and the buttons to the other pages."""
        return page_body(game.id, game.row.version, self.sections(game), page, self.colour)

    def default_options(self) -> dict[str, Any]:
        """Return the options the start command uses when none is chosen."""
        return {}

    async def start_default(self, interaction: discord.Interaction[Any]) -> LoadedGame:
        """Start a game here as the start command does with its default options."""
        return await self.start_solo(interaction, self.default_options())

    def confirm_question(self, game: LoadedGame, action_id: str) -> str:
        """Return the private question asked before ``action_id``: closing a lobby says
        what it does; by default, plain."""
        if action_id == LOBBY_CANCEL:
            return abandon_question(game, ends=True)
        return f"Are you sure? This cannot be undone. ({DISMISS})"

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Start the same game again where it was played, with the same options (a solo
        game); a game's own thread holds the new game too."""
        mode = "solo" if game.row.only_starter else game.data.mode
        return await self.start_solo(
            interaction, dict(game.row.options), only_me=mode == "solo",
            players={"vote": "vote", "fast": "fast"}.get(mode, "vote"),
            window=round(game.data.window), thread="no",
        )

    # Command helpers --------------------------------------------------------------------

    async def start_solo(
        self,
        interaction: discord.Interaction[Any],
        options: Mapping[str, Any],
        *,
        only_me: bool = False,
        seed: int | None = None,
        daily: bool = False,
        players: str = "vote",
        window: int | None = None,
        thread: str | None = None,
    ) -> LoadedGame:
        """Start a one-seat game and answer with its board.

        ``players`` is the start command's choice (vote, fast, only me) and ``window`` the
        voting window in seconds. With ``daily``, it is today's daily deal (the same for
        every server). ``thread`` ("yes" or "no"; None: the server's setting) puts the
        game in a new thread of its own.
        """
        mode = "solo" if only_me else PLAYERS_CHOICES.get(players, "vote")
        if interaction.channel_id is None:
            raise Refusal("Games are played in a server channel or thread.")

        async def create(channel_id: int, own_thread: bool, parent: int | None) -> LoadedGame:
            return await self.bot.tables.start(
                self.kind, guild_id=interaction.guild_id, channel_id=channel_id,
                starter=actor_of(interaction), options=options, seed=seed, daily=daily,
                mode=mode, window=window, thread=own_thread, parent=parent,
            )

        return await self.bot.boards.start_game(
            interaction, create, title=self.short_title or self.title,
            thread=thread_choice(thread),
        )

    async def open_lobby(
        self,
        interaction: discord.Interaction[Any],
        options: Mapping[str, Any],
        *,
        thread: str | None = None,
        invite: tuple[int, ...] = (),
        **table: Any,
    ) -> LoadedGame:
        """Open a lobby and answer with its board; ``table`` goes to ``Tables.open_lobby``
        (computer players, turn timer, notices), ``thread`` as for :meth:`start_solo`, and
        ``invite`` names members the board mentions."""
        if interaction.channel_id is None:
            raise Refusal("Games are played in a server channel or thread.")

        async def create(channel_id: int, own_thread: bool, parent: int | None) -> LoadedGame:
            return await self.bot.tables.open_lobby(
                self.kind, guild_id=interaction.guild_id, channel_id=channel_id,
                host=actor_of(interaction), options=options, thread=own_thread,
                parent=parent, invited=invite, **table,
            )

        return await self.bot.boards.start_game(
            interaction, create, title=self.short_title or self.title,
            thread=thread_choice(thread), invite=invite,
        )

    async def current(self, interaction: discord.Interaction[Any], *,
                      damaged: bool = False) -> LoadedGame:
        """Return the channel's open game of this cog's kind, or refuse; with ``damaged``,
        a damaged game of any kind too (so it can be abandoned)."""
        game = await self.bot.tables.open_in_channel(interaction.channel_id or 0)
        if game is not None and damaged and game.broken:
            return game
        if game is None or game.row.kind != self.kind:
            in_threads = await self._in_threads(interaction)
            if in_threads is not None:
                raise Refusal(in_threads)
            if game is not None and not game.broken:
                # another game holds the channel: its own command for what was asked
                raise Refusal(f"This channel's game is {game.engine.title}, not "
                              f"{self.title or self.kind}: "
                              f"{self._its_command(interaction, game.row.kind)}.")
            start = self.start_command or f"/{self.kind} start"
            raise Refusal("There is no game of this kind going in this channel. Start one "
                          f"with {start}.")
        return game

    def _its_command(self, interaction: discord.Interaction[Any], kind: str) -> str:
        """Say which of ``kind``'s commands does what the member asked of the channel's
        other game ("/tinker abandon is the one for it"), or else where it is shown."""
        asked = interaction.command.name if interaction.command is not None else ""
        group = self.bot.tree.get_command(kind)
        if asked and asked != "board" and isinstance(group, app_commands.Group) and \
                group.get_command(asked) is not None:
            return f"/{kind} {asked} is the one for it"
        return f"/{kind} board shows it"

    async def _in_threads(self, interaction: discord.Interaction[Any]) -> str | None:
        """Say where this kind's games of the channel are played when they have threads
        of their own there (None: they have none)."""
        threads: list[tuple[int, int, str]] = []
        if interaction.guild_id is not None and not isinstance(interaction.channel,
                                                               discord.Thread):
            # (a game started in a member's thread is that thread's: it may be private)
            threads = await self.bot.tables.find.open_in_threads_of(
                interaction.guild_id, interaction.channel_id or 0, own=True)
        places = [f"<#{thread}>" for _game, thread, kind in threads if kind == self.kind]
        if places:
            named = places[-3:]  # the newest, and how many more
            named += [f"{len(places) - 3} more"] if len(places) > 3 else []
            where = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
            return (f"This channel's {self.title or self.kind} "
                    + (f"games are played in threads of their own: {where}. Use the command "
                       "in one." if len(places) > 1 else
                       f"game is played in a thread of its own: {where}. Use the command "
                       "there."))
        return None

    async def send_rules(self, interaction: discord.Interaction[Any]) -> None:
        """Explain the game privately: its rules, a page a phone shows whole at a time."""
        body = rules_body(self.kind, self.title or self.kind, self.rules_text, self.colour)
        await interaction.response.send_message(**body, ephemeral=True)

    async def repost(self, interaction: discord.Interaction[Any]) -> None:
        """Post the current board again here and retire the old message; a standing turn
        notice's button then opens the new board. The person whose turn it is, asking
        for it, is at the table: their turn notice waits its grace time again, as when
        they open "Rules & details".

        No lock is held across Discord requests: a move made while the new board was on
        its way is shown by an edit right after.
        """
        async with AnswerClock.of(interaction) as clock:
            game = await self.current(interaction)
            await self.bot.boards.messages.send_board(interaction, game, before=clock.settle)
        await self.bot.boards.clicks.presence.looking(interaction, game)
        self.bot.boards.schedule_computers(game)
        try:
            latest: LoadedGame | None = await self.bot.tables.load(game.id)
        except Refusal:  # the board is posted; its edit reads the game again
            latest = None
        if latest is not None:
            await self.bot.boards.notices.relink(latest)
        if latest is None or latest.row.version != game.row.version:
            self.bot.boards.messages.update_soon(game.id)

    async def replay_last(self, interaction: discord.Interaction[Any]) -> None:
        """Post the replay of the channel's last ended game of this kind."""
        await self.bot.boards.replays.replay_last(interaction, self.kind)

    async def abandon(self, interaction: discord.Interaction[Any]) -> None:
        """Ask privately whether to end the channel's game, naming what is given up; the
        answer's button does it (its starter, its host, its players by majority, or a
        member with Manage Messages)."""
        async with AnswerClock.of(interaction, private=True):
            await self.current(interaction, damaged=True)
            await ask_to_abandon(self.bot, interaction)
