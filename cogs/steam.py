"""Steam to Solar in Discord: the lobby, /steam commands and the table's board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards import actions_for_board, actor_of
from bot.errors import Refusal
from bot.games.protocol import Action
from bot.layout import ASK_PREFIX, action_button, default_items
from bot.tables import LoadedGame
from cogs.base import GameCog, recent_events, seat_list
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
                     "Full rules: docs/steam.md in the bot's repository."),
)


def _train_text(train: list[dict[str, Any]]) -> str:
    """Return a train as its cards, with what it can do marked."""
    suits = {s for c in train for s in c["suits"]}
    power = " ".join(p for p, s in (("🚂steam", "Waves"), ("🔆solar", "Suns")) if s in suits)
    ready = "Moons" in suits and power and suits & {"Leaves", "Wyrms", "Knots"}
    cards = ", ".join(card_text(c, value=False) for c in train)
    mark = f" ✅ can run: {power}" if ready else ""
    return f"[{cards}]{mark}"


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

    async def play_again(
        self, interaction: discord.Interaction[Any], game: LoadedGame
    ) -> LoadedGame:
        """Open a new table with the same options; computers come along, people join again."""
        if interaction.channel_id is None:
            raise Refusal("Games are played in a server channel or thread.")
        computers = sum(1 for s in game.row.seats if s.get("computer"))
        options = {k: v for k, v in game.row.options.items() if k != "names"}
        new = await self.bot.tables.open_lobby(
            self.kind, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            host=actor_of(interaction), options=options, computers=computers,
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
            return embed
        view = game.view()
        half = "first half" if view["half"] == 1 else "second half"
        embed = discord.Embed(title=f"{TITLE} · {half}", colour=0x2B8A3E)
        embed.description = clip(_status(view), 4096)
        river = "\n".join(
            f"**{i}.** {card_text(c, value=False)} — cost {c['cost']}"
            for i, c in enumerate(view["river"], start=1)
        ) or "empty"
        embed.add_field(name="River", value=river, inline=False)
        for player in view["players"]:
            trains = "\n".join(f"{i}. {_train_text(t)}" for i, t in enumerate(player["trains"], 1))
            tokens = "🌊" * player["tokens"]
            turn = "▶️ " if view["turn"] == player["seat"] else ""
            gone = " (resigned)" if player["resigned"] else ""
            embed.add_field(
                name=clip(f"{turn}{player['name']}{gone} · {player['score']} points "
                          f"{tokens}".rstrip(), 256),
                value=clip(trains or "no trains", 1024),
                inline=False,
            )
        sunny = ""
        if view["sunny_aside"]:
            sunny = " · set aside until the second half: " + ", ".join(
                card_text(c, value=False) for c in view["sunny_aside"]
            )
        embed.add_field(
            name="Deck",
            value=f"{view['deck_count']} cards · discard {view['discard_count']}{sunny}",
            inline=False,
        )
        embed.add_field(name="Recent events", value=recent_events(game, 5), inline=False)
        return embed

    def items(self, game: LoadedGame) -> list[discord.ui.Item[discord.ui.View]]:
        """Return the acting player's choices: selects for long lists, buttons otherwise."""
        actions = actions_for_board(game)
        main = [a for a in actions if a.id not in CONTROLS]
        controls = [a for a in actions if a.id in CONTROLS]
        items = default_items(game.id, game.row.version, main, placeholders=PLACEHOLDERS)
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
    @app_commands.describe(first="Who takes the first turn (default: drawn at random)")
    async def new(
        self,
        interaction: discord.Interaction,
        first: Literal["random", "me (the host)"] = "random",
    ) -> None:
        """Open a lobby; the host may take the first turn instead of drawing it (S3)."""
        await self.open_lobby(interaction, {"start_seat": 0} if first != "random" else {})

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


def _status(view: dict[str, Any]) -> str:
    """Return whose turn it is and what they are doing, or the final scores."""
    players = view["players"]
    if view["over"]:
        result = view["result"]
        lines = [f"🏁 **{result['summary']}**"]
        ranked = sorted(result["outcomes"], key=lambda o: -o["score"])
        for o in ranked:
            d = o["detail"]
            crown = "🏆 " if o["outcome"] == "win" else ""
            lines.append(
                f"{crown}**{players[o['seat']]['name']}**: {o['score']} "
                f"({d['points']} points + {2 * d['tokens']} for tokens; "
                f"{d['goods_left']} goods left)"
            )
        return "\n".join(lines)
    name = players[view["turn"]]["name"]
    lines = [f"🚂 It is **{name}**'s turn."]
    if view["final_round"]:
        lines.append("⏳ Final round: everyone takes one last turn.")
    pending = view["pending"]
    if pending:
        if pending["kind"] == "place":
            lines.append("Placing: " + ", ".join(card_text(c, value=False)
                                                 for c in pending["cards"]))
        elif pending["kind"] == "arrange":
            lines.append("Rearranging trains; press **done** to end the turn.")
        elif pending["kind"] == "run":
            power = f" on {pending['power']}" if pending.get("power") else ""
            ship = ", ".join(card_text(c, value=False) for c in pending.get("ship") or [])
            lines.append(f"Running train {pending['train']}{power}. Shipping: {ship or '—'}")
    return "\n".join(lines)


async def setup(bot: Any) -> None:
    """Load the Steam to Solar cog."""
    await bot.add_cog(SteamCog(bot))
