"""Tinker, Sailor, Soldier, Spy in Discord: /tinker commands and the board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.layout import ASK_PREFIX, BoardItem, action_button
from bot.games.protocol import Action
from bot.table.service import LoadedGame
from cogs.base import (
    MODES_TEXT,
    PLAYERS_HELP,
    WINDOW_HELP,
    GameCog,
    choose_level,
    daily_note,
    embed_lines,
    fit_events,
    last_move_events,
    phone_lines,
    room,
    who_plays,
)
from cogs.cards import EMOJI_BY_NAME, SUIT_ORDER, card_text, cards_text, clip, suit_emoji

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
        """Return the Tinker board, phone first: the decision, chips, deck, piles, last move.

        The board fits :data:`~cogs.base.PHONE_LINES` lines at phone width: lists give way
        to counts (the full lists are in "Rules & details"), then older events are cut.
        """
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        view = game.view()
        events = last_move_events(game)
        footer = _footer(game, view)
        space = room(game)
        if view["over"]:
            ends: dict[int, tuple[discord.Embed, int]] = {}

            def ended(level: int) -> tuple[discord.Embed, int]:
                """Return the ended board at ``level`` and its lines (each made once)."""
                if level not in ends:
                    embed = _ended(view, level)
                    embed.set_footer(text=footer)
                    ends[level] = embed, embed_lines(embed)
                return ends[level]

            embed, used = ended(choose_level(lambda n: ended(n)[1] + 1, LEVELS, events, space))
        else:
            deck = _deck(view)
            embed = _head(view, deck)
            count = view["deck_count"]
            deck_name = f"Deck: {count} card{'' if count == 1 else 's'}, order hidden"
            head = embed_lines(embed) + phone_lines(footer) + phone_lines(deck_name)
            texts: dict[int, tuple[str, str, int, int]] = {}

            def texts_at(level: int) -> tuple[str, str, int, int]:
                """Return the deck and piles texts at ``level`` and their lines (made once)."""
                if level not in texts:
                    deck_text, piles = _deck_text(view, level, deck), _piles(view, level)
                    texts[level] = deck_text, piles, phone_lines(deck_text), phone_lines(piles)
                return texts[level]

            def cost(level: int) -> int:
                _, _, deck_lines, piles_lines = texts_at(level)
                return head + deck_lines + piles_lines + 3

            deck_text, piles, deck_lines, piles_lines = texts_at(
                choose_level(cost, LEVELS, events, space))
            deck_value, piles_value = clip(deck_text, 1024), clip(piles, 1024)
            embed.add_field(name=deck_name, value=deck_value, inline=False)
            embed.add_field(name="Piles", value=piles_value, inline=False)
            embed.set_footer(text=footer)
            if deck_value != deck_text:
                deck_lines = phone_lines(deck_value)
            if piles_value != piles:
                piles_lines = phone_lines(piles_value)
            used = head + deck_lines + phone_lines("Piles") + piles_lines
        embed.add_field(name="Last move", value=fit_events(events, space - used - 1),
                        inline=False)
        return embed

    def legend(self, game: LoadedGame) -> str:
        """Return what the board's icons and chip buttons mean."""
        return LEGEND

    def details(self, game: LoadedGame) -> list[discord.Embed]:
        """Return the rules, then every pile in full: deck, discard, Aces, locations, trash."""
        embeds = super().details(game)
        if game.state is None:
            return embeds
        view = game.view()
        piles = discord.Embed(title="Every pile", colour=self.colour)
        locations = view.get("locations") or {}
        for name, value in (
            (f"Deck: {view['deck_count']} cards (order hidden)",
             cards_text(_deck(view))),
            (f"Discard pile: {len(view['discard'])}", cards_text(view["discard"])),
            (f"Aces left: {view['aces_left']}", cards_text(view.get("aces_cards") or [])),
            (f"Locations ahead: {view['locations_left']} (order hidden)",
             ", ".join(locations.get("remaining") or []) or "—"),
            (f"Locations cleared: {len(view['cleared'])}/13",
             ", ".join(c["name"] for c in view["cleared"]) or "—"),
            (f"Trashed: {len(view['trashed'])}", cards_text(view["trashed"])),
        ):
            piles.add_field(name=name, value=clip(value, 1024), inline=False)
        return [*embeds[:-1], piles, embeds[-1]]

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the board's buttons: the two challenges, or a chip button per suit.

        Chip buttons say what the chip does ("+1, draws" when its suit is on the
        challenge card, those in the primary style; "draws" otherwise) and how many are
        left; a suit with none left keeps its button, disabled.
        """
        if game.state is None:
            return []
        actions = game.legal_actions(0)
        by_id = {a.id: a for a in actions}
        g, v = game.id, game.row.version
        view = game.view()
        chips = view["chips"]
        items: list[BoardItem] = []
        if any(a.group == "choose" for a in actions):
            for a in actions:
                items.append(action_button(g, v, a, style=discord.ButtonStyle.primary, row=0))
            return items
        losing = any(a.group == "lose" for a in actions)
        prefix = "lose:" if losing else "chip:"
        counting = set((view.get("challenge") or {}).get("suits") or ())
        for index, suit in enumerate(SUIT_ORDER):
            held = chips.get(suit, 0)
            action = by_id.get(prefix + suit)
            if losing:
                label, style = f"Lose one ({held} left)", discord.ButtonStyle.danger
            else:
                effect = _chip_effect(action, suit, suit in counting)
                label = f"{effect} ({held} left)"
                style = (discord.ButtonStyle.primary if suit in counting and action
                         else discord.ButtonStyle.secondary)
            items.append(
                action_button(
                    g, v, Action(prefix + suit, label), emoji=EMOJI_BY_NAME[suit],
                    disabled=action is None, row=index // 2, style=style,
                )
            )
        if "give_up" in by_id:
            give_up = by_id["give_up"]
            if game.row.only_starter or game.data.mode == "fast":
                # No vote protects it: one click would give up at once, so ask first.
                give_up = Action(ASK_PREFIX + give_up.id, give_up.label, give_up.group)
            items.append(
                action_button(g, v, give_up, style=discord.ButtonStyle.danger, row=3)
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


#: Colours of an ended board: won and lost look different at a glance.
WON_COLOUR = 0x2ECC71
LOST_COLOUR = 0x992D22
#: How far a board gives way to fit a phone: 0 lists every card by name, 1 lists cards
#: by value and suits, 2 shows counts only (the lists are in "Rules & details").
LEVELS = 3

LEGEND = "\n".join((
    "🌙 Moons · ☀️ Suns · 🌊 Waves · 🍃 Leaves · 🐉 Wyrms · 🪢 Knots: the six suits "
    "(of cards and chips)",
    "`Sailor 4 🌊🍃`: a card's name, value and suits; `4🌊🍃` the same, short",
    "👤 a personality, 📜 an event (round 1 offers one of each)",
    "⚔️ the challenge under way, 🗺️ a location (round 2)",
    "Chip buttons: **+1, draws** the chip's suit is on the challenge card, so it adds 1 "
    "and the next card is drawn and played; **draws** it adds nothing, the next card is "
    "still drawn and played; (n left) chips of that suit",
    "Counts: deck cards sharing a suit with the challenge (they add their value); "
    "n/m deck cards add x: how many of the deck's cards would count, and their total",
    "🏆 victory · 💀 defeat",
))


def _chip_effect(action: Action | None, suit: str, counts: bool) -> str:
    """Return what paying a chip of ``suit`` does, without its emoji ("+1, draws")."""
    if action is not None and action.label:
        text = action.label
        emoji = EMOJI_BY_NAME[suit]
        return text[len(emoji):].strip() if text.startswith(emoji) else text
    return "+1, draws" if counts else "draws"


def _short(card: dict[str, Any]) -> str:
    """Return a card as its value and suits only: ``4🌊🍃`` (the Excuse is ``0``)."""
    value = card.get("value")
    return f"{value if value is not None else ''}{suit_emoji(card.get('suits', ()))}" or "?"


def _cards(cards: list[dict[str, Any]], level: int) -> str:
    """Return cards by name (level 0) or short (level 1 and up)."""
    if level == 0:
        return cards_text(cards)
    return " ".join(_short(c) for c in cards) or "—"


def _deck(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the deck's cards in a fixed order (value, then name), never its own (T8)."""
    cards = view.get("deck_cards")
    if cards is None:
        return []
    return sorted(cards, key=lambda c: (c.get("value") or 0, c["name"]))


def _shares(card: dict[str, Any], suits: set[str]) -> bool:
    return bool(suits.intersection(card.get("suits") or ()))


def _footer(game: LoadedGame, view: dict[str, Any]) -> str:
    """Return the footer: who started, how the channel plays, the options, the daily deal."""
    flags = [name for name, on in (("classic journey", view["options"]["classic_journey"]),
                                   ("harsh defeat", view["options"]["harsh_defeat"])) if on]
    extra = f" · {', '.join(flags)}" if flags else ""
    return f"Started by {game.seat_name(0)} · {who_plays(game)}{extra}{daily_note(game)}"


def _head(view: dict[str, Any], deck: list[dict[str, Any]]) -> discord.Embed:
    """Return the board's top: the round, the decision and the chips.

    ``deck`` is :func:`_deck` of ``view``.
    """
    embed = discord.Embed(title=f"{TITLE} · Round {view['round']}", colour=0x5865F2)
    embed.description = clip(_decision(view, deck), 4096)
    chips = view["chips"]
    embed.add_field(
        name=f"Chips: {sum(chips.values())} left",
        value=" ".join(f"{EMOJI_BY_NAME[s]} {chips.get(s, 0)}" for s in SUIT_ORDER),
        inline=False,
    )
    return embed


def _deck_text(view: dict[str, Any], level: int, deck: list[dict[str, Any]]) -> str:
    """Return the deck's contents, sorted; in a challenge, those that count apart.

    ``deck`` is :func:`_deck` of ``view``.
    """
    if "deck_cards" not in view:
        return f"{view['deck_count']} cards"
    if not deck:
        return ("Empty: the next draw adds an Ace (if any is left) to the discard pile "
                "and shuffles it into a new deck.")
    if view["challenge"] and level < 2:
        suits = set(view["challenge"].get("suits") or ())
        counting: list[dict[str, Any]] = []
        others: list[dict[str, Any]] = []
        for c in deck:
            (counting if _shares(c, suits) else others).append(c)
        return (f"Counts: {_cards(counting, level) if counting else 'none'}\n"
                f"Adds 0: {_cards(others, level) if others else 'none'}")
    return _cards(deck, max(level, 1))


def _decision(view: dict[str, Any], deck: list[dict[str, Any]]) -> str:
    """Return the decision in front of the player: the offer, the challenge, a chip to lose.

    ``deck`` is :func:`_deck` of ``view``.
    """
    lines: list[str] = []
    if view["offer"]:
        offer = view["offer"]
        lines.append("**Choose your next challenge**; the other card is trashed.")
        for icon, kind, card in (("👤", "Personality", offer["personality"]),
                                 ("📜", "Event", offer["event"])):
            suits = set(card.get("suits") or ())
            counting = [c for c in deck if _shares(c, suits)]
            worth = sum(c.get("value") or 0 for c in counting)
            adds = f": {len(counting)}/{len(deck)} deck cards add {worth}" if deck else ""
            lines.append(f"{icon} {kind} **{card_text(card)}**{adds}")
        return "\n".join(lines)
    challenge = view["challenge"]
    if view.get("phase") == "lose_chip" and not challenge:
        return "**Harsh defeat: choose the chip you lose** with the fight (a red button)."
    if not challenge:
        return "Waiting for the next card."
    icon, what = ("🗺️", "Location") if view["round"] == 2 else ("⚔️", "Challenge")
    lines.append(f"{icon} {what} **{card_text(challenge)}**")
    if view["played"]:
        lines.append("Played: " + " → ".join(card_text(c) for c in view["played"]))
    if view["paid"]:
        lines.append("Chips paid: " + "".join(EMOJI_BY_NAME.get(s, "?") for s in view["paid"]))
    needed = max(0, (view["target"] or 0) - view["sum"])
    lines.append(f"**Sum {view['sum']} / {view['target']}**: {needed} more needed")
    if view.get("phase") == "lose_chip":
        lines.append("**Harsh defeat: choose the chip you lose.**")
        return "\n".join(lines)
    suits = suit_emoji(challenge.get("suits") or ())
    plus = f"; {suits} chips also add 1" if suits else ""
    lines.append(f"A chip draws and plays the next card{plus}.")
    if view["round"] == 1:
        lines.append(f"Or give up: the {challenge['name']} is trashed.")
    return "\n".join(lines)


def _piles(view: dict[str, Any], level: int) -> str:
    """Return the other piles: discard, Aces, round 1's offers left, the locations."""
    lines = [f"Discard {len(view['discard'])} · Aces left {view['aces_left']}"]
    if view["round"] == 1:
        lines[0] += (f" · Personalities {view['personalities_left']} · "
                     f"Events {view['events_left']}")
    if view["discard"] and level < 2:
        lines.append(f"Discard: {_cards(view['discard'], 1)}")
    locations = view.get("locations") or {}
    ahead = locations.get("remaining")
    trashed = locations.get("trashed") or []
    lines.append(f"Locations: {view['locations_left']} ahead · "
                 f"{len(view['cleared'])}/13 cleared"
                 + (f" · {len(trashed)} trashed" if trashed else ""))
    if level < 2 and ahead and view["round"] == 2:
        lines.append(f"Ahead: {', '.join(ahead)}")
    if level < 2 and trashed:
        lines.append(f"Trashed: {', '.join(trashed)}")
    return "\n".join(lines)


def _ended(view: dict[str, Any], level: int) -> discord.Embed:
    """Return an ended board: victory or defeat, the score, the locations."""
    result = view["result"] or {"summary": "", "outcomes": [{"outcome": "loss", "score": 0,
                                                              "detail": {}}]}
    outcome = result["outcomes"][0]
    detail = outcome.get("detail") or {}
    won = outcome["outcome"] == "win"
    embed = discord.Embed(
        title=f"{'🏆 Victory' if won else '💀 Defeat'} · {TITLE}",
        colour=WON_COLOUR if won else LOST_COLOUR,
    )
    cleared = detail.get("locations_cleared", len(view["cleared"]))
    chips = detail.get("chips_left", sum(view["chips"].values()))
    lines = [
        f"**{result['summary']}**",
        f"Locations cleared **{cleared}/13** · chips left **{chips}** · "
        f"score **{outcome['score']}**",
    ]
    locations = view.get("locations") or {}
    if not won and level < 2:
        if view["cleared"]:
            lines.append(f"Cleared: {', '.join(c['name'] for c in view['cleared'])}")
        if view["challenge"]:
            lines.append(f"Lost at: {card_text(view['challenge'])}")
        if locations.get("remaining"):
            lines.append(f"Never reached: {', '.join(locations['remaining'])}")
        if locations.get("trashed"):
            lines.append(f"Trashed: {', '.join(locations['trashed'])}")
    embed.description = clip("\n".join(lines), 4096)
    return embed


async def setup(bot: Any) -> None:
    """Load the Tinker cog."""
    await bot.add_cog(TinkerCog(bot))
