"""Steam to Solar in Discord: the lobby, /steam commands and the table's board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.layout import (
    ASK_PREFIX,
    BoardButton,
    BoardItem,
    action_button,
    action_select,
    default_items,
)
from bot.boards.render import actions_for_board
from bot.boards.service import actor_of
from bot.games.protocol import Action
from bot.games.steam.state import POWER_EMOJI
from bot.table import seating
from bot.table.errors import Refusal
from bot.table.lobby import DEFAULT_LEVEL
from bot.table.service import LoadedGame
from cogs.base import PHONE_LINES, GameCog, embed_lines, fit_events, recent_events, seat_list
from cogs.cards import card_text, clip

TITLE = "Steam to Solar"

#: Single-click controls shown together on the last row.
CONTROLS = ("done", "ship", "cancel", "pass", "resign")

PLACEHOLDERS = {
    "take": "Take cards from the river…",
    "place": "Place the card…",
    "arrange": "Move a card between trains…",
    "ship": "Choose the goods cards to ship…",
    "discard": "Discard a card from a train…",
}

RULES = (
    ("Goal", "Run trains to deliver goods (🍃 Leaves, 🐉 Wyrms, 🪢 Knots) for points. "
             "Most points at the end wins; each Wave token adds 2."),
    ("Your turn", "Take cards from the river, or run one of your trains. At any point of "
                  "your turn you may discard cards from your trains. At most 2 trains of "
                  "at most 5 cards each."),
    ("Taking", "River costs are 0, 0, 1, 2 (position 1 is furthest from the deck). Take two "
               "and place each on a train, or take one, place it and rearrange your trains. "
               "Points pay for cards; you can never pay more than you have."),
    ("Running a train", "It needs a 🌙 Moon (locomotive), power (🌊 Wave: steam, or ☀️ Sun: "
                        "solar) and goods. Ship at least one goods card; each kind scores n, "
                        "+1 for each beyond the second. Shipped cards are discarded; steam "
                        "also burns one Wave card, solar burns nothing."),
    ("Two halves", "The first half ends when the river cannot be refilled; the four sunny "
                   "cards join the deck. In the second half, running on steam takes the "
                   "two-token Wave stack (its holder drops to the one-token stack). When the "
                   "river cannot be refilled again, everyone gets one last turn."),
    ("At the table", "Only the player whose turn it is can act; anyone seated may resign "
                     "(their trains are discarded). Ties: most goods left on your trains. "
                     "When your turn comes you get one mention. With a turn timer, a player "
                     "is reminded once, then a computer plays their seat until they click "
                     "again; `/steam away` lets the others hand an absent player's seat to a "
                     "computer by majority."),
)

#: What the board's icons mean (the "Rules & details" legend).
LEGEND = (
    "▶️ whose turn · 👑 the host · 🤖 computer player · 💤 away (a computer plays the seat) · "
    "🏳️ resigned · 🎫 Wave token (2 points each) · ✅ the train can run, on 🌊 steam "
    "(Waves) or ☀️ solar (Suns) · 🌙 Moons (locomotive) · 🍃 Leaves, 🐉 Wyrms, 🪢 Knots "
    "(goods) · 🚂 the turn · "
    "⏳ final round · ⏰ turn timer"
)


def _train_text(train: list[dict[str, Any]]) -> str:
    """Return a train as its cards, with what it can do marked."""
    suits = {s for c in train for s in c["suits"]}
    power = " ".join(p for p, s in ((POWER_EMOJI["steam"], "Waves"),
                                    (POWER_EMOJI["solar"], "Suns")) if s in suits)
    ready = "Moons" in suits and power and suits & {"Leaves", "Wyrms", "Knots"}
    cards = ", ".join(card_text(c, value=False) for c in train)
    mark = f" ✅{power}" if ready else ""
    return f"{cards}{mark}"


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

    def legend(self, game: LoadedGame) -> str:
        """Return what the board's icons mean."""
        return LEGEND

    def details(self, game: LoadedGame) -> list[discord.Embed]:
        """Return the rules, the legend, the last turns, and every train and the river."""
        embeds = super().details(game)
        if game.state is None:
            return embeds
        view = game.view()
        table = discord.Embed(title="The table", colour=self.colour,
                              description=clip(str(view.get("deck_text") or ""), 4096) or None)
        river = "\n".join(f"{i}. {card_text(c, value=False)} (cost {c['cost']})"
                          for i, c in enumerate(view["river"], start=1)) or "empty"
        table.add_field(name=f"River · deck {view['deck_count']} · discard "
                             f"{view['discard_count']}", value=clip(river, 1024), inline=False)
        discard = " · ".join(card_text(c, value=False) for c in view.get("discard") or [])
        table.add_field(name=f"Discard pile, first discarded first ({view['discard_count']})",
                        value=clip(discard or "empty", 1024), inline=False)
        for player in view["players"][:20]:
            trains = "\n".join(f"{i}. {_train_text(t)}"
                               for i, t in enumerate(player["trains"], 1)) or "no trains"
            table.add_field(name=clip(f"{player['name']} · {player.get('total', 0)}", 256),
                            value=clip(trains, 1024), inline=False)
        return [*embeds, table]

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Open a new table with the same options; computers come along, people join again."""
        if interaction.channel_id is None:
            raise Refusal("Games are played in a server channel or thread.")
        computers = [str(s.get("level") or DEFAULT_LEVEL) for s in game.row.seats
                     if s.get("computer")]
        options = {k: v for k, v in game.row.options.items() if k not in ("names", "levels")}
        new = await self.bot.tables.open_lobby(
            self.kind, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host=actor_of(interaction), options=options, computers=computers,
            turn_seconds=game.data.turn_seconds,
            notices=game.data.notices,
        )
        await self.bot.boards.send_board(interaction, new)
        return new

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the lobby or the table: river, players, trains, turn and events."""
        if game.row.status == "lobby" or game.state is None:
            state = "table open" if game.row.status == "lobby" else "table closed"
            embed = discord.Embed(title=f"{TITLE} · {state}", colour=0x2B8A3E)
            embed.description = (
                "Press **Join** to take a seat (2 to 5 players). The host can add computer "
                "players, then press **Start**."
            )
            embed.add_field(name=f"Seated ({len(game.row.seats)}/5)", value=seat_list(game),
                            inline=False)
            embed.add_field(name="Recent events", value=recent_events(game, 4), inline=False)
            seconds = game.data.turn_seconds
            notices = "on" if game.data.notices else "off"
            deck = "Courts" if game.row.options.get("deck") == "courts" else "Pawns"
            embed.set_footer(text=f"{deck} deck · turn timer {seating.timer_name(seconds)} · "
                                  f"turn notices {notices} · 👑 host · 🤖 computer player")
            return embed
        view = game.view()
        half = "first half" if view["half"] == 1 else "second half"
        embed = discord.Embed(title=f"{TITLE} · {half}", colour=0x2B8A3E)
        embed.description = clip(_status(game, view), 4096)
        if not view["over"] and not game.pictured:
            river = " · ".join(
                f"**{i}.** {card_text(c, value=False)} ({c['cost']})"
                for i, c in enumerate(view["river"], start=1)
            ) or "empty"
            deck = f"deck {view['deck_count']} · discard {view['discard_count']}"
            embed.add_field(name=f"River (cost) · {deck}", value=clip(river, 1024), inline=False)
        lines: list[str] = []
        for player in [] if view["over"] and game.pictured else view["players"]:
            seat = game.row.seats[player["seat"]] if player["seat"] < len(game.row.seats) else {}
            marks = "".join(m for m, on in (
                ("▶️ ", view["turn"] == player["seat"]),
                ("👑 ", seat.get("user_id") == game.host_id
                 and not seat.get("computer")),
                ("🤖 ", bool(seat.get("computer"))),
                ("💤 ", bool(seat.get("away"))),
                ("🏳️ ", bool(player["resigned"])),
            ) if on)
            tokens = f" + {'🎫' * player['tokens']}" if player["tokens"] else ""
            total = player.get("total", player["score"])
            goods = player.get("goods_left", 0)
            name = (f"{marks}{player['name']} · {total} ({player['score']}{tokens})"
                    f" · {goods} goods")
            trains = "\n".join(f"{i}. {_train_text(t)}"
                               for i, t in enumerate(player["trains"], 1))
            if game.pictured and view["turn"] != player["seat"]:
                # The picture shows everyone's trains; the text keeps the one who decides.
                ready = sum(1 for t in player["trains"] if "✅" in _train_text(t))
                summary = f"{len(player['trains'])} train(s)" + (f", {ready} can run"
                                                                 if ready else "")
                lines.append(f"{name} · {summary}")
                continue
            if game.pictured:
                lines.append(name)
                lines.extend(trains.split("\n") if trains else ["no trains"])
                continue
            embed.add_field(name=clip(name, 256), value=clip(trains or "no trains", 1024),
                            inline=False)
        if lines:
            embed.add_field(name="Players", value=clip("\n".join(lines), 1024), inline=False)
        if game.pictured:
            budget = max(2, PHONE_LINES - 2 - embed_lines(embed))
            embed.add_field(name="Last move", value=fit_events(game.row.events, budget),
                            inline=False)
        else:
            embed.add_field(name="Last move", value=recent_events(game, 4, 600), inline=False)
        notes = []
        if game.pictured and not view["over"]:
            notes.append(f"deck {view['deck_count']} · discard {view['discard_count']}")
        seconds = game.data.turn_seconds
        if seconds:
            notes.append(f"⏰ turn timer {seating.timer_name(seconds)}")
        if not game.data.notices:
            notes.append("turn notices off")
        if notes:
            embed.set_footer(text=" · ".join(notes))
        return embed

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the acting player's choices: selects for long lists, buttons otherwise."""
        actions = actions_for_board(game)
        discards = [a for a in actions if a.id.startswith("d:")]
        main = [a for a in actions if a.id not in CONTROLS and not a.id.startswith("d:")]
        controls = [a for a in actions if a.id in CONTROLS]
        items = default_items(game.id, game.row.version, main, placeholders=PLACEHOLDERS)
        for item in items:
            if isinstance(item, BoardButton) and item.custom_id:
                action = item.custom_id.split(":", 3)[-1]
                if any(a.id == action and a.primary for a in main) or len(main) <= 2:
                    item.style = discord.ButtonStyle.primary
        if discards:
            row = 1 + max((i.row or 0 for i in items), default=-1)
            if row <= 3:
                items.append(action_select(game.id, game.row.version, "discard", discards[:25],
                                           placeholder=PLACEHOLDERS["discard"], row=row))
        row = 1 + max((i.row or 0 for i in items), default=-1)
        for action in controls:
            style = discord.ButtonStyle.primary
            if action.id == "resign":
                action = Action(ASK_PREFIX + "resign", "Resign")
                style = discord.ButtonStyle.danger
            elif action.id == "cancel":
                style = discord.ButtonStyle.secondary
            items.append(action_button(game.id, game.row.version, action, style=style, row=row))
        return items

    # -- commands -------------------------------------------------------------------------

    @steam.command(name="new", description="Open a Steam to Solar table in this channel")
    @app_commands.describe(
        first="Who takes the first turn (default: drawn at random)",
        turn_timer="Remind a player once, then let a computer play their seat (default off)",
        notices="Mention each player when their turn comes (default on)",
        deck="The 4 Pawns (default) or the 4 Courts in the deck",
        invite="A member to invite (mentioned once)",
        invite2="Another member to invite",
        invite3="Another member to invite",
    )
    async def new(
        self,
        interaction: discord.Interaction,
        first: Literal["random", "me (the host)"] = "random",
        turn_timer: Literal["off", "2 min", "10 min", "1 h", "24 h"] = "off",
        notices: bool = True,
        deck: Literal["pawns", "courts"] = "pawns",
        invite: discord.Member | None = None,
        invite2: discord.Member | None = None,
        invite3: discord.Member | None = None,
    ) -> None:
        """Open a lobby; the host may take the first turn instead of drawing it (S3)."""
        if interaction.channel_id is None:
            raise Refusal("Games are played in a server channel or thread.")
        game = await self.bot.tables.open_lobby(
            self.kind, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host=actor_of(interaction),
            options={**({"start_seat": 0} if first != "random" else {}), "deck": deck},
            turn_seconds=seating.TIMERS[turn_timer], notices=notices,
        )
        invited = tuple(dict.fromkeys(
            m.id for m in (invite, invite2, invite3)
            if m is not None and not m.bot and m.id != interaction.user.id
        ))
        await self.bot.boards.send_board(interaction, game, invite=invited)

    @steam.command(name="away", description="Hand an absent player's seat to a computer (by "
                   "majority of the others)")
    @app_commands.describe(player="The seated player who is away")
    async def away(self, interaction: discord.Interaction, player: discord.Member) -> None:
        """Vote to let a computer play an absent player's seat until they click again (C6)."""
        play = await self.bot.tables.hand_to_computer(
            interaction.channel_id or 0, actor_of(interaction), player.id
        )
        await interaction.response.send_message(
            " ".join(play.events), allowed_mentions=discord.AllowedMentions.none()
        )
        if play.game.row.seats and any(s.get("away") for s in play.game.row.seats):
            self.bot.boards.update_soon(play.game.id)
            self.bot.boards.schedule_computers(play.game)

    @steam.command(name="board", description="Post the table's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @steam.command(name="rules", description="How Steam to Solar is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction, TITLE, RULES, 0x2B8A3E)

    @steam.command(name="abandon", description="End this channel's table (host or moderators)")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


def _status(game: LoadedGame, view: dict[str, Any]) -> str:
    """Return whose turn it is and what they are doing, or the places at the end."""
    players = view["players"]
    if view["over"]:
        result = view["result"]
        lines = [f"🏁 **{result['summary']}**"]
        for place in result.get("places") or []:
            crown = "🏆 " if place["place"] == 1 and not place["resigned"] else ""
            words = place["breakdown"]
            if game.pictured:  # short: the picture has the details
                words = "resigned" if place["resigned"] else (
                    f"{place['points']} + {2 * place['tokens']} for tokens; "
                    f"{place['goods_left']} goods")
            lines.append(f"{crown}**{place['ordinal']}** {place['name']}: {place['total']}"
                         f" — {words}")
        return "\n".join(lines)
    seat = view["turn"]
    name = players[seat]["name"]
    away = game.row.seats[seat].get("away") if seat < len(game.row.seats) else False
    who = f"a computer plays for **{name}**" if away else f"it is **{name}**'s turn"
    lines = [f"🚂 {who[0].upper()}{who[1:]}."]
    timer = game.data.timer
    if timer and timer.seat == seat:
        lines[0] += f" ⏰ <t:{int(timer.at)}:R>"
    if view["final_round"]:
        still = ", ".join(view.get("still_to_play") or []) or "nobody"
        lines.append(f"⏳ Final round: still to play: {still}.")
    pending = view["pending"]
    if pending:
        if pending["kind"] == "place":
            lines.append("Placing: " + ", ".join(card_text(c, value=False)
                                                 for c in pending["cards"]))
        elif pending["kind"] == "arrange":
            problem = pending.get("problem")
            lines.append("Rearranging trains; press **Done** when they are right."
                         + (f" ({problem})" if problem else ""))
        elif pending["kind"] == "run":
            power = f" on {pending['power']}" if pending.get("power") else ""
            ship = ", ".join(card_text(c, value=False) for c in pending.get("ship") or [])
            lines.append(f"Running train {pending['train']}{power}. Shipping: {ship or '—'}")
    return "\n".join(lines)


async def setup(bot: Any) -> None:
    """Load the Steam to Solar cog."""
    await bot.add_cog(SteamCog(bot))
