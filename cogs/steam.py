"""Steam to Solar in Discord: the lobby, /steam commands and the table's board."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.actors import actor_of
from bot.boards.answer_clock import AnswerClock
from bot.boards.hosting import invitation, left_server, sees_channel, why_not_invite
from bot.boards.layout import (
    ASK_PREFIX,
    MAX_SELECT_OPTIONS,
    PHONE_BUTTONS,
    BoardButton,
    BoardItem,
    phone_items,
)
from bot.boards.render import actions_for_board
from bot.boards.send_errors import DISMISS, SEND_ERRORS, tell_after_failure, tell_privately
from bot.games.protocol import Action
from bot.table import seating
from bot.table.errors import ChannelOccupied, Refusal
from bot.table.lobby import CANNOT_SEE, DEFAULT_LEVEL, NO_BOTS, not_a_member
from bot.table.service import LoadedGame
from bot.text.names import member_name
from cogs.base import THREAD_HELP, GameCog, last_line
from cogs.cards import card_text, clip
from cogs.details import Section
from cogs.steam_words import (
    GAME_OVER,
    TITLE,
    WHOLE_RUN,
    announced,
    burn_option,
    damaged,
    fit_ship,
    lobby,
    position,
    short_label,
    stacks,
    status,
    timer_running,
    total,
    train_text,
)

log = logging.getLogger(__name__)

#: The member menu's command (Apps → Invite to Steam to Solar).
INVITE_MENU = f"Invite to {TITLE}"

#: Single-click controls shown together on the last row.
CONTROLS = ("done", "ship", "cancel", "pass", "resign")

PLACEHOLDERS = {
    "take": "Take cards from the river…",
    "place": "Place the card…",
    "arrange": "Move a card between trains…",
    "plan": "Arrange: a plan (ends the turn) or a card…",
    "ship": "Choose the goods cards to ship…",
    "ship_discard": "Cards to ship, or a discard…",
    "wave_discard": "Burn a Wave card, or a discard…",
    "discard": "Discard a card from a train…",
    "other": "Another run, step by step, or a discard…",
    "all": "Take cards, another run, or a discard…",
}
#: The groups that share one select beside the usual runs: the other runs in one go,
#: the runs step by step (for a partial shipment) and the discards.
OTHER_RUNS = ("other", "run", "discard")
#: Choices that always go in a select: their options need their descriptions.
ALWAYS_SELECT = ("take", "arrange", "plan", "discard", "ship")
#: The fewest footer lines in which the table-wide events are shown whole (a final
#: round's takes two phone lines, and the newest turn one more).
WHOLE_FROM = 3

RULES = (
    ("Goal", "Run trains to deliver goods (🍃 Leaves, 🐉 Wyrms, 🪢 Knots) for points. "
             "Most points at the end wins; each Wave token adds 2; ties: most goods left "
             "on your trains, then a shared win. Deck: the 36 basic cards and the 4 Pawns "
             "(or the 4 Courts, a table option). The sunny cards (Ace of Suns, Bard, "
             "Harvest and Light Keeper, or Island and Window with the Courts) sit out the "
             "first half."),
    ("Your turn", "Take cards from the river or run one of your trains (with an empty "
                  "river and no train that can run, you pass). At any point of your turn "
                  "you may discard cards from your trains. At most 2 trains of at most 5 "
                  "cards each."),
    ("Taking", "River costs are 0, 0, 1, 2 (position 1 is furthest from the deck). Take two "
               "and place each on a train, or take one, place it and rearrange your trains. "
               "Everyone starts with 5 points, which pay for cards; you can never pay more "
               "than you have."),
    ("Running a train", "It needs a 🌙 Moon (locomotive), power (🌊 Wave: steam, or ☀️ Sun: "
                        "solar) and goods. Ship at least one goods card; each kind scores n, "
                        "+1 for each beyond the second. Shipped cards are discarded; steam "
                        "also burns one Wave card, unless a shipped card has a Wave (it "
                        "burns for the steam too); solar burns nothing."),
    ("Two halves", "The first half ends when the river cannot be refilled: the sunny cards "
                   "and the discard pile are shuffled into the new deck, and the next player "
                   "starts the second half. There, steam takes the two-token Wave stack "
                   "(its holder gets the one-token stack). When the river cannot be "
                   "refilled again, everyone gets one last turn."),
    ("At the table", "Only the player to act can act. Anyone seated may resign: a resigned "
                     "player scores nothing and loses. A slow player is mentioned once; with "
                     "a turn timer, a computer plays for them after a reminder until they "
                     "click again. `/steam away` does that by majority, once their turn has "
                     "waited a minute."),
)

#: What the board's icons mean (the "Rules & details" legend).
LEGEND = (
    "▶️ whose turn · 👑 the host · 🤖 computer player · 💤 away (a computer plays the seat) · "
    "🏳️ resigned · 🎫 Wave token (2 points each; in the picture a disc with a Wave) · "
    "✅ the train can run, on 🌊 steam "
    "(Waves) or ☀️ solar (Suns) · 🌙 Moons (locomotive) · 🍃 Leaves, 🐉 Wyrms, 🪢 Knots "
    "(goods) · 🚂 the turn · "
    "⏳ final round · ⏰ turn timer"
)



def footer_lines(game: LoadedGame) -> int:
    """Return how many phone lines the footer may take: fewer as seats add to the board,
    and one fewer while a turn timer runs (its line is under the title)."""
    return max(2, 7 - len(game.seats)) - (1 if timer_running(game) else 0)


def _announced(game: LoadedGame) -> Callable[[str], bool]:
    """Return which events the footer shows whole: the table-wide ones, unless the
    footer of a game being played has fewer than :data:`WHOLE_FROM` lines (five seats,
    or a running turn timer's line): each is then cut to a line ("Rules & details" has
    it whole, and the picture marks a final round). An ended board's result stands
    whole, so the footer leaves it to the board."""
    if footer_lines(game) < WHOLE_FROM and game.row.status == "active":
        return lambda _event: False
    return announced


class SteamCog(GameCog):
    """The /steam commands and the Steam to Solar board."""

    kind = "steam"
    title = TITLE
    rules_text = RULES
    colour = 0x2B8A3E
    start_command = "/steam new"

    steam = app_commands.Group(
        name="steam", description="Steam to Solar: a railroad game for 2 to 5 players",
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        super().__init__(bot)
        #: "Invite to Steam to Solar" in a member's Apps menu.
        self.invite_menu = app_commands.ContextMenu(name=INVITE_MENU, callback=self.invite_member)
        self.invite_menu.guild_only = True

    async def cog_load(self) -> None:
        """Register the renderer and the member menu's command."""
        await super().cog_load()
        self.bot.tree.add_command(self.invite_menu)

    async def cog_unload(self) -> None:
        """Remove the member menu's command."""
        self.bot.tree.remove_command(INVITE_MENU, type=discord.AppCommandType.user)

    async def invite_member(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """Open a table in this channel with ``member`` invited; with a table open here,
        its host invites them to it (anyone else is told why not). Discord names a user
        who has left the server as a user, not a member: they are refused, as the
        command's invite options refuse them."""
        if interaction.channel_id is None or interaction.guild_id is None:
            raise Refusal("Games are played in a server channel or thread.")
        channel = interaction.channel
        if channel is not None and channel.type in (discord.ChannelType.forum,
                                                    discord.ChannelType.media):
            raise Refusal("Games are played in a forum's posts: open one (or go to one) "
                          "and invite them from there.")
        if member.bot:
            raise Refusal("Bots cannot take a seat; open a table and add a computer player.")
        if not isinstance(member, discord.Member):
            raise Refusal(not_a_member(member_name(member)))
        if not sees_channel(member):
            raise Refusal(CANNOT_SEE)
        async with AnswerClock.of(interaction) as clock:  # a new table runs on it too
            game = await self.bot.tables.open_in_channel(interaction.channel_id)
            if game is None:
                game = await self._own_lobby_in_a_thread(interaction)
            if game is not None:
                if game.row.kind != self.kind or game.row.status != "lobby":
                    raise ChannelOccupied(game.engine.title, game.link, game.row.kind,
                                          game.open_to(interaction.user.id),
                                          game.seat_name(0))
                why = why_not_invite(game, interaction.user.id, member.id, is_bot=False)
                if why is not None:
                    raise Refusal(why)
                invitations = self.bot.boards.hosting.invitations
                with invitations.posting(game.id, member.id) as free:
                    if not free:  # another ask's invitation is on its way
                        raise Refusal(f"{member_name(member)} is being invited already.")
                    await clock.send(**invitation(game, member.id))
                    try:
                        sent = await interaction.original_response()
                    except SEND_ERRORS as exc:  # sent, but not to be deleted with the lobby
                        log.warning("could not read the invitation to game %s: %r", game.id,
                                    exc)
                        return
                    # kept with the lobby: deleted once they join or it starts or closes
                    await invitations.keep(game.id, member.id, sent)
                return
            await self.start_default(interaction, invite=member.id)

    async def _own_lobby_in_a_thread(self, interaction: discord.Interaction) -> LoadedGame | None:
        """Return the open lobby the member hosts in a thread of this channel opened for
        it (where game threads put it), newest first, or None: a lobby opened in a
        thread the member made (a private one, perhaps) is not invited to from the
        channel."""
        guild = interaction.guild
        if guild is None:
            return None
        lobbies = await self.bot.tables.find.thread_lobbies_hosted_by(
            guild.id, self.kind, interaction.user.id, interaction.channel_id or 0)
        for game in lobbies:
            if game.data.parent == interaction.channel_id:
                return game
            thread: Any = guild.get_thread(game.row.channel_id)
            if thread is None:
                try:
                    thread = await self.bot.fetch_channel(game.row.channel_id)
                except SEND_ERRORS:
                    continue
            if getattr(thread, "parent_id", None) == interaction.channel_id:
                return game
        return None

    def default_options(self) -> dict[str, Any]:
        """Return /steam new's options when none is chosen (the first player drawn)."""
        return {"deck": "pawns"}

    async def start_default(self, interaction: discord.Interaction[Any],
                            invite: int | None = None) -> LoadedGame:
        """Open a table here as /steam new does with its defaults; ``invite`` is a member
        the table's message mentions (once)."""
        invited = () if invite is None or invite == interaction.user.id else (invite,)
        return await self.open_lobby(interaction, self.default_options(), invite=invited)

    def legend(self, game: LoadedGame) -> str:
        """Return what the board's icons mean."""
        return LEGEND

    def confirm_question(self, game: LoadedGame, action_id: str) -> str:
        """Ask before resigning, saying what it gives up (S10: a resigned player scores
        nothing; the seat is not handed to a computer)."""
        if action_id != "resign":
            return super().confirm_question(game, action_id)
        return ("Resign from this Steam to Solar game? You lose: your trains and any cards "
                "in your hand are discarded, you score nothing, and no computer plays your "
                f"seat. ({DISMISS})")

    def card_sections(self, game: LoadedGame) -> list[Section]:
        """Return the table in full: the river and the piles, then every player's trains."""
        if game.state is None:
            return []
        view = game.view()
        river = "\n".join(f"{i}. {card_text(c, value=False)} (cost {c['cost']})"
                          for i, c in enumerate(view["river"], start=1)) or "empty"
        discard = " · ".join(card_text(c, value=False) for c in view.get("discard") or [])
        fields = [(f"River · deck {view['deck_count']} · discard {view['discard_count']}",
                   river)]
        deck = str(view.get("deck_text") or "")
        if deck:
            fields.append(("Deck", deck))
        fields.append((f"Discard pile, first discarded first ({view['discard_count']})",
                       discard or "empty"))
        trains = [(f"{player['name']} · "
                   + (f"🏳️ resigned{stacks(player)}" if player.get("resigned")
                      else total(player)),
                   "\n".join(f"{i}. {train_text(t)}" for i, t in enumerate(player["trains"], 1))
                   or "no trains") for player in view["players"]]
        return [Section("cards", "River", "The river and the piles", fields),
                Section("trains", "Trains", "Every player's trains", trains)]

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Open a new table with the same options and the same table: whoever presses hosts,
        and when they sat at the last table every other person still playing at its end
        is seated again (each may leave; one who resigned, whose seat a computer played,
        or who was seated for it and never came may join again) and the computer players
        come along, each with its name and level (a name a person there has is given up
        for a free one). Someone who
        did not sit there seats nobody but themselves (and the computers): they cannot
        seat others at a table they never chose."""
        computers = [s.level or DEFAULT_LEVEL for s in game.seats if s.computer]
        named = [s.name for s in game.seats if s.computer]  # each keeps its name and level
        sat = game.seat_of(interaction.user.id) is not None
        if game.state is not None:
            # and those seated for it who never came (as the end found them): one who
            # never chose to play is not seated, and pinged, again and again
            left = seating.resigned_seats(game.view()) | set(game.data.absent)
        else:  # emptied by retention: its results still say who had left by the end
            gone = await self.bot.tables.find.left_before_the_end(
                game.id, [s.user_id for s in game.seats if s.user_id and not s.computer],
                finished=game.row.status == "over")
            left = {i for i, s in enumerate(game.seats) if s.user_id in gone}
        people = [(s.user_id, s.name) for i, s in enumerate(game.seats)
                  if sat and not s.computer and s.user_id is not None and not s.away
                  and i not in left and s.user_id != interaction.user.id]
        # one who left the server (or was kicked or banned) since could never click
        banned = await asyncio.gather(*(left_server(interaction, user) for user, _ in people))
        people = [person for person, out in zip(people, banned, strict=True) if not out]
        options = {k: v for k, v in game.row.options.items() if k not in ("names", "levels")}
        return await self.open_lobby(
            interaction, options, thread="no", computers=computers, people=people, named=named,
            turn_seconds=game.data.turn_seconds, notices=game.data.notices,
        )

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the lobby or the table, phone first: whose turn and what they decide in a
        line or two, the last event in the footer; without a picture, the river and each
        player's trains in a line each. Every train in full is in "Rules & details".

        A table whose saved data cannot be read shows its title and its seats only: it has
        no buttons, and its footer says how to end it."""
        if game.broken:
            return damaged(game)
        if game.row.status == "lobby" or game.state is None:  # a lobby, or one closed
            return lobby(game)
        view = game.view()
        half = "first half" if view["half"] == 1 else "second half"
        head, _, rest = status(game, view).partition("\n")
        if view["over"]:
            embed = discord.Embed(title=f"{TITLE} · the end", colour=0x2B8A3E)
            lines = [head, rest]
        elif game.pictured and timer_running(game):
            # a title cannot show the timer's countdown: whose turn leads the text instead,
            # so the timer takes no line of its own above the picture
            embed = discord.Embed(colour=0x2B8A3E)
            lines = [head, rest]
        else:  # the decision is the title: whose turn it is
            embed = discord.Embed(title=clip(head.replace("**", ""), 256), colour=0x2B8A3E)
            lines = [rest] if game.pictured else [f"{TITLE} · {half}", rest]
        if not game.pictured:
            lines += position(game, view)
        embed.description = clip("\n".join(line for line in lines if line), 4096) or None
        # the result leads an ended board's text (and the picture's banner): not again
        footer = last_line(game, _announced(game), footer_lines(game),
                           said=lambda line: view["over"] and line.startswith(GAME_OVER))
        embed.set_footer(text=footer or None)
        return embed

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the acting player's choices, phone first: a select for each long list
        (its options say what each does), short buttons three to a row (a train's usual
        run in one go among them), and the single-click controls last."""
        actions = [short_label(a, game) for a in actions_for_board(game)]
        main = sorted((a for a in actions if a.id not in CONTROLS),
                      key=lambda a: a.group != "plan")  # a whole plan first, then card moves
        counts: dict[str, int] = {}
        for a in main:
            counts[a.group] = counts.get(a.group, 0) + 1
        selects: dict[str, tuple[str, ...]] = {}
        if "plan" in counts:  # one select: a card at a time, or a whole plan
            selects[PLACEHOLDERS["plan"]] = ("plan", "arrange")
        merged = {"plan", "arrange"} if "plan" in counts else set()
        if "ship" in counts and "discard" in counts and (
                counts["ship"] + counts["discard"] <= MAX_SELECT_OPTIONS):
            # one select: the shipment's confirm, which says what it ships, keeps a row
            selects[PLACEHOLDERS["ship_discard"]] = ("ship", "discard")
            merged |= {"ship", "discard"}
        if "wave" in counts and "discard" in counts and (
                counts["wave"] + counts["discard"] <= MAX_SELECT_OPTIONS):
            # S8: the Wave card to burn and the discards in one select, each option saying
            # what it loses: as buttons, the engine's labels wrap a line each on a phone
            selects[PLACEHOLDERS["wave_discard"]] = ("wave", "discard")
            merged |= {"wave", "discard"}
        others: tuple[str, ...] = OTHER_RUNS
        if counts.get(WHOLE_RUN, 0) > 1 and counts.get("take") and sum(
                counts.get(g, 0) for g in ("take", *others)) <= MAX_SELECT_OPTIONS:
            others = ("take", *others)  # two run buttons: the takes share the select
        if WHOLE_RUN in counts:  # the usual run of each train is a button, the rest a select
            merged |= set(others)
        for group, count in counts.items():
            if group != WHOLE_RUN and group not in merged and (
                    count > PHONE_BUTTONS or group in ALWAYS_SELECT):
                selects[PLACEHOLDERS.get(group, "Choose…")] = (group,)
        if WHOLE_RUN in counts:
            selects[PLACEHOLDERS["all" if "take" in others else "other"]] = others
        controls = []
        for action in (a for a in actions if a.id in CONTROLS):
            if action.id == "resign":
                action = Action(ASK_PREFIX + "resign", "Resign", "controls")
            controls.append(Action(action.id, action.label, "controls", action.description,
                                   action.id not in ("cancel", "resign")))
        buttons = [replace(a, label=burn_option(a) if "wave" in merged else a.label,
                           primary=a.primary or len(main) <= 2) for a in main]
        items = phone_items(game.id, game.row.version, [*buttons, *controls],
                            selects=selects)
        short = fit_ship(items, game)
        if short is not None:
            controls = [Action(a.id, short, a.group, a.description, a.primary)
                        if a.id == "ship" else a for a in controls]
            items = phone_items(game.id, game.row.version, [*buttons, *controls],
                                selects=selects)
        for item in items:
            if isinstance(item, BoardButton) and item.custom_id.endswith(":" + ASK_PREFIX
                                                                         + "resign"):
                item.style = discord.ButtonStyle.danger
        return items

    # -- commands -------------------------------------------------------------------------

    @steam.command(name="new", description="Open a Steam to Solar table in this channel")
    @app_commands.describe(
        first="Who takes the first turn (default: drawn at random)",
        turn_timer="Remind a player once, then let a computer play their seat (default off)",
        notices="Mention each player when their turn comes (default on; off: the timer's "
                "one reminder has no mention)",
        deck="The 4 Pawns (default) or the 4 Courts in the deck",
        invite="A member to invite (mentioned once)",
        invite2="Another member to invite",
        invite3="Another member to invite",
        thread=THREAD_HELP,
    )
    async def new(
        self,
        interaction: discord.Interaction,
        first: Literal["random", "me (the host)"] = "random",
        turn_timer: Literal["off", "2 min", "10 min", "1 h", "24 h"] = "off",
        notices: Literal["on", "off"] = "on",
        deck: Literal["pawns", "courts"] = "pawns",
        invite: discord.Member | None = None,
        invite2: discord.Member | None = None,
        invite3: discord.Member | None = None,
        thread: Literal["yes", "no"] | None = None,
    ) -> None:
        """Open a lobby; the host may take the first turn instead of drawing it (S3). A
        member who cannot see the channel, or a bot, is not invited: the host is told
        privately why."""
        named = [m for m in (invite, invite2, invite3)
                 if m is not None and m.id != interaction.user.id]
        chosen = [m for m in named if not m.bot]
        invited = tuple(dict.fromkeys(m.id for m in chosen if sees_channel(m)))
        unseen = list({m.id: member_name(m)
                       for m in chosen if not sees_channel(m)}.values())
        bots = list({m.id: member_name(m)
                     for m in named if m.bot}.values())
        await self.open_lobby(
            interaction, {**({"start_seat": 0} if first != "random" else {}), "deck": deck},
            thread=thread, invite=invited,
            turn_seconds=seating.TIMERS[turn_timer], notices=notices == "on",
        )
        notes = [f"Not invited: {', '.join(names)}. {why}"
                 for names, why in ((unseen, CANNOT_SEE), (bots, NO_BOTS)) if names]
        if notes:
            await tell_privately(interaction, "\n".join(notes))

    @steam.command(name="away", description="Hand an absent player's seat to a computer (by "
                   "majority, once their turn waited a minute)")
    @app_commands.describe(player="The seated player who is away")
    async def away(self, interaction: discord.Interaction,
                   player: discord.Member | discord.User) -> None:
        """Vote to let a computer play an absent player's seat until they click again (C6);
        a player who has left the server (Discord names a user) is found by their seat."""
        async with AnswerClock.of(interaction) as clock:
            await self.current(interaction)  # refused: none here (its thread, if it has one)
            play = await self.bot.tables.hand_to_computer(
                interaction.channel_id or 0, actor_of(interaction), player.id
            )
            seat = play.game.seat_of(player.id)
            handed = seat is not None and play.game.seats[seat].away
            said = " ".join(play.events)
            try:  # an ask alone is answered privately: the board's footer shows it
                await clock.send(content=said, ephemeral=not handed,
                                 allowed_mentions=discord.AllowedMentions.none())
            except SEND_ERRORS as exc:  # the vote is cast: the board still shows it
                log.warning("could not answer /steam away on game %s: %r", play.game.id, exc)
                await tell_after_failure(interaction, said, exc)
        self.bot.boards.messages.update_soon(play.game.id)
        if handed:
            self.bot.boards.schedule_computers(play.game)

    @steam.command(name="board", description="Post the table's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @steam.command(name="replay", description="Replay the last game that ended in this channel")
    async def replay(self, interaction: discord.Interaction) -> None:
        """Post the replay of the channel's last ended game."""
        await self.replay_last(interaction)

    @steam.command(name="rules", description="How Steam to Solar is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction)

    @steam.command(
        name="abandon",
        description="Ask to end this table (a majority of players ends it); "
        "the host closes a lobby; mods end it at once",
    )
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


async def setup(bot: Any) -> None:
    """Load the Steam to Solar cog."""
    await bot.add_cog(SteamCog(bot))
