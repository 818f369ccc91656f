"""Tinker, Sailor, Soldier, Spy in Discord: /tinker commands and the board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.games.protocol import Action
from bot.layout import action_button
from bot.tables import LoadedGame
from cogs.base import (
    MODES_TEXT,
    PLAYERS_HELP,
    WINDOW_HELP,
    GameCog,
    daily_note,
    recent_events,
    who_plays,
)
from cogs.cards import EMOJI_BY_NAME, SUIT_ORDER, card_text, cards_text, clip

TITLE = "Tinker, Sailor, Soldier, Spy"

RULES = (
    (
        "The story",
        "You are the tinker (the Excuse). With the Sailor, the Soldier and the Diplomat you "
        "recruit personalities and master events (round 1), then rid all 13 locations of "
        "evil (round 2). You carry 36 chips, 6 of each suit.",
    ),
    (
        "A challenge",
        "The challenge card's value is the target. Each card you play adds its whole value "
        "once if it shares a suit with the challenge card, else nothing. The first card is "
        "free and plays itself; each further card costs one chip of any suit you pick, and "
        "that chip adds 1 if its suit is on the challenge card. Reach the target to win it.",
    ),
    (
        "Round 1: recruiting",
        "Eleven times, a personality and an event are offered: challenge one, the other is "
        "trashed. A won card joins your discard pile with the cards you played. After the "
        "first card you may give up: the challenge card is trashed (with *harsh defeat*, "
        "you also lose a chip of your choice).",
    ),
    (
        "Round 2: the journey",
        "Face the 13 locations one by one; you cannot give up. Beaten locations leave the "
        "game. You lose if a location needs another card and no chip is left, or nothing "
        "can be drawn. Clear all 13 to win.",
    ),
    (
        "Your deck",
        "When your deck runs out, an Ace (while any are left) joins your discard pile, "
        "which is shuffled into your new deck. *Classic journey*: the Origin is the first "
        "location and the End the last.",
    ),
    (
        "Who plays",
        MODES_TEXT,
    ),
)


class TinkerCog(GameCog):
    """The /tinker commands and the Tinker board."""

    kind = "tinker"
    title = TITLE
    rules_text = RULES
    colour = 0x5865F2

    tinker = app_commands.Group(
        name="tinker", description="Tinker, Sailor, Soldier, Spy: a solo Decktet adventure",
        guild_only=True,
    )

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the Tinker board: the offer or challenge, sum, chips, piles, events."""
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        view = game.view()
        round_name = "Round 1: recruiting" if view["round"] == 1 else "Round 2: the journey"
        embed = discord.Embed(title=f"{TITLE} · {round_name}", colour=0x5865F2)
        embed.description = _situation(view)
        chips = view["chips"]
        embed.add_field(
            name=f"Chips ({sum(chips.values())} left)",
            value=" ".join(f"{EMOJI_BY_NAME[s]} {chips.get(s, 0)}" for s in SUIT_ORDER),
            inline=False,
        )
        embed.add_field(
            name="Piles",
            value=(
                f"Deck {view['deck_count']} · Discard {len(view['discard'])} · "
                f"Aces left {view['aces_left']}\n"
                f"Personalities {view['personalities_left']} · Events {view['events_left']} · "
                f"Locations {view['locations_left']} · Cleared {len(view['cleared'])}/13"
            ),
            inline=False,
        )
        if view["discard"]:
            embed.add_field(
                name="Discard pile", value=clip(cards_text(view["discard"]), 1024), inline=False
            )
        embed.add_field(name="Recent events", value=recent_events(game, 5), inline=False)
        starter = game.seat_name(0)
        who = who_plays(game)
        flags = [name for name, on in (("classic journey", view["options"]["classic_journey"]),
                                       ("harsh defeat", view["options"]["harsh_defeat"])) if on]
        extra = f" · {', '.join(flags)}" if flags else ""
        embed.set_footer(text=f"Started by {starter} · {who}{extra}{daily_note(game)}")
        return embed

    def items(self, game: LoadedGame) -> list[discord.ui.Item[discord.ui.View]]:
        """Return the board's buttons: the choice, or one chip button per suit, give up."""
        if game.state is None:
            return []
        actions = game.engine.legal_actions(game.state, 0)
        by_id = {a.id: a for a in actions}
        g, v = game.id, game.row.version
        chips = game.view()["chips"]
        items: list[discord.ui.Item[discord.ui.View]] = []
        if any(a.group == "choose" for a in actions):
            for a in actions:
                items.append(action_button(g, v, a, style=discord.ButtonStyle.primary, row=0))
            return items
        prefix = "lose:" if any(a.group == "lose" for a in actions) else "chip:"
        for index, suit in enumerate(SUIT_ORDER):
            action = by_id.get(prefix + suit) or Action(prefix + suit, str(chips.get(suit, 0)))
            label = f"{chips.get(suit, 0)}"
            if prefix == "lose:":
                label = f"Lose ({chips.get(suit, 0)})"
            items.append(
                action_button(
                    g, v, Action(action.id, label), emoji=EMOJI_BY_NAME[suit],
                    disabled=action.id not in by_id, row=index // 3,
                    style=discord.ButtonStyle.danger if prefix == "lose:"
                    else discord.ButtonStyle.secondary,
                )
            )
        if "give_up" in by_id:
            items.append(
                action_button(g, v, by_id["give_up"], style=discord.ButtonStyle.danger, row=2)
            )
        return items

    # -- commands -------------------------------------------------------------------------

    @tinker.command(name="start", description="Start Tinker, Sailor, Soldier, Spy here")
    @app_commands.describe(
        players=PLAYERS_HELP,
        vote_seconds=WINDOW_HELP,
        classic_journey="Origin is the first location and End the last",
        harsh_defeat="Lose one more chip of your choice when you give up a fight",
    )
    async def start(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        classic_journey: bool = False,
        harsh_defeat: bool = False,
    ) -> None:
        """Start a game in this channel."""
        options = {"classic_journey": classic_journey, "harsh_defeat": harsh_defeat}
        await self.start_solo(interaction, options, players=players, window=vote_seconds)

    @tinker.command(name="daily", description="Play today's daily deal: the same for every server")
    @app_commands.describe(players=PLAYERS_HELP, vote_seconds=WINDOW_HELP)
    async def daily(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
    ) -> None:
        """Start today's daily deal (standard rules) in this channel."""
        await self.start_solo(interaction, {}, players=players, window=vote_seconds,
                              daily=True)

    @tinker.command(name="board", description="Post the game's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @tinker.command(name="rules", description="How Tinker, Sailor, Soldier, Spy is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction, TITLE, RULES, 0x5865F2)

    @tinker.command(name="abandon", description="End this channel's game (starter or moderators)")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


def _situation(view: dict[str, Any]) -> str:
    """Return the board's main text: the offer, the challenge and sum, or the result."""
    lines: list[str] = []
    if view["over"]:
        result = view["result"]
        outcome = result["outcomes"][0]
        detail = outcome["detail"]
        verdict = "🏆 **Victory!**" if outcome["outcome"] == "win" else "💀 **Defeat.**"
        lines.append(f"{verdict} {result['summary']}")
        lines.append(
            f"Locations cleared: **{detail['locations_cleared']}/13** · "
            f"chips left: **{detail['chips_left']}**"
        )
    elif view["offer"]:
        offer = view["offer"]
        lines.append("Choose your next challenge; the other card is trashed:")
        lines.append(f"👤 Personality: **{card_text(offer['personality'])}**")
        lines.append(f"📜 Event: **{card_text(offer['event'])}**")
    if view["challenge"] and not view["over"]:
        lines.append(f"Challenge: **{card_text(view['challenge'])}** · target **{view['target']}**")
        played = " → ".join(card_text(c) for c in view["played"]) or "—"
        paid = "".join(EMOJI_BY_NAME[s] for s in view["paid"])
        lines.append(f"Played: {played}")
        if paid:
            lines.append(f"Chips paid: {paid}")
        lines.append(f"Sum: **{view['sum']} / {view['target']}**")
    return clip("\n".join(lines), 4096)


async def setup(bot: Any) -> None:
    """Load the Tinker cog."""
    await bot.add_cog(TinkerCog(bot))
