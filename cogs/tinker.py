"""Tinker, Sailor, Soldier, Spy in Discord: /tinker commands and the board."""

from __future__ import annotations

from typing import Any, Literal

import discord
from discord import app_commands

from bot.boards.layout import ASK_PREFIX, BoardItem, action_button
from bot.boards.send_errors import DISMISS
from bot.games.protocol import Action
from bot.table import polls
from bot.table.service import LoadedGame
from cogs.base import MODES_TEXT, PLAYERS_HELP, THREAD_HELP, WINDOW_HELP, GameCog, last_line, voting
from cogs.cards import EMOJI_BY_NAME, SUIT_ORDER, card_text, cards_text, clip
from cogs.details import Section

TITLE = "Tinker, Sailor, Soldier, Spy"
#: The board's title, short enough for one phone line with the round.
SHORT_TITLE = "Tinker"
#: Chip buttons a row: three fit a phone's width.
CHIPS_PER_ROW = 3

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
        "Eleven times (the title counts them), a personality and an event are offered: "
        "challenge one, the other is trashed. A won card joins your discard pile with the "
        "cards you played. After the first card you may give up: the challenge card is "
        "trashed, your played cards go to your discard pile. With nothing left to draw, the "
        "challenge is lost so. *Harsh defeat*: each lost challenge also costs a chip.",
    ),
    (
        "Your deck",
        "When you must draw from an empty deck, an Ace (while any are left) joins your "
        "discard pile, which is shuffled into your new deck. *Classic journey*: the Origin "
        "is the first location and the End the last.",
    ),
    (
        "Round 2: the journey",
        "Face the 13 locations one by one; no giving up. Beaten locations leave the game, "
        "your played cards go to your discard pile. You lose if a location needs another "
        "card and no chip is left, or nothing can be drawn. Clear all 13 to win. Score: "
        "100 a location cleared, plus chips left.",
    ),
    (
        "Who plays",
        MODES_TEXT,
    ),
)


def _offer_count(view: dict[str, Any]) -> str:
    """The title's count of round 1's offers (T3: eleven choices), e.g. " · offer 4/11"."""
    number = view.get("offer_number")
    return f" · offer {number}/{view['offers']}" if number else ""


class TinkerCog(GameCog):
    """The /tinker commands and the Tinker board."""

    kind = "tinker"
    title = TITLE
    short_title = SHORT_TITLE
    rules_text = RULES
    colour = 0x5865F2

    tinker = app_commands.Group(
        name="tinker", description="Tinker, Sailor, Soldier, Spy: a solo Decktet adventure",
        guild_only=True,
    )

    # -- board ----------------------------------------------------------------------------

    def embed(self, game: LoadedGame) -> discord.Embed:
        """Return the Tinker board, phone first: the decision in a line or two, the last
        event in the footer; without a picture, the position in a few more lines.

        Every pile in full is in "Rules & details".
        """
        if game.state is None:
            return discord.Embed(title=TITLE, description="This game cannot be shown.")
        view = game.view()
        if view["over"]:
            embed = _ended(view, 2)
        else:
            deck = _deck(view)
            embed = discord.Embed(title=f"{SHORT_TITLE} · round {view['round']}"
                                        + _offer_count(view), colour=0x5865F2)
            lines = [_decision(view, brief=voting(game))]
            if not game.pictured:
                lines += _position(view, deck)
            embed.description = clip("\n".join(lines), 4096)
        embed.set_footer(text=last_line(game))
        return embed

    def default_options(self) -> dict[str, Any]:
        """Return /tinker start's options when none is chosen: the standard rules."""
        return {"classic_journey": False, "harsh_defeat": False}

    def legend(self, game: LoadedGame) -> str:
        """Return what the board's icons and chip buttons mean."""
        return LEGEND

    def card_sections(self, game: LoadedGame) -> list[Section]:
        """Return every pile in full: deck, discard, Aces, locations, trash."""
        if game.state is None:
            return []
        view = game.view()
        flags = [name for name, key in (("classic journey", "classic_journey"),
                                        ("harsh defeat", "harsh_defeat"))
                 if view["options"].get(key)]
        locations = view.get("locations") or {}
        fields = [
            ("Options", ", ".join(flags) or "standard rules"),
            *([("Round 1 offers", f"this is offer {view['offer_number']} of "
                f"{view['offers']}; {view['personalities_left']} more to come")]
              if view.get("offer_number") else []),
            (f"Deck: {view['deck_count']} card{'' if view['deck_count'] == 1 else 's'} "
             "(order hidden)", cards_text(_deck(view))),
            (f"Discard pile: {len(view['discard'])}", cards_text(view["discard"])),
            (f"Aces left: {view['aces_left']}", cards_text(view.get("aces_cards") or [])),
            (f"Locations ahead: {view['locations_left']} ({_known_order(view)})",
             ", ".join(locations.get("remaining") or []) or "—"),
            (f"Locations cleared: {len(view['cleared'])}/13",
             ", ".join(c["name"] for c in view["cleared"]) or "—"),
            (f"Trashed: {len(view['trashed'])}", cards_text(view["trashed"])),
        ]
        return [Section("cards", "Piles", "Every pile", [(n, v or "—") for n, v in fields])]

    def items(self, game: LoadedGame) -> list[BoardItem]:
        """Return the board's buttons: the two challenges, or a chip button per suit.

        Chip buttons say what the chip adds ("+1 ×n" when its suit is on the challenge
        card, those in the primary style; "×n" otherwise) and how many are held (n); a
        suit with none left keeps its button, disabled.
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
                items.append(action_button(g, v, _offer_label(a),
                                           style=discord.ButtonStyle.primary, row=0))
            return items
        losing = any(a.group == "lose" for a in actions)
        prefix = "lose:" if losing else "chip:"
        counting = set((view.get("challenge") or {}).get("suits") or ())
        for index, suit in enumerate(SUIT_ORDER):
            held = chips.get(suit, 0)
            action = by_id.get(prefix + suit)
            adds = suit in counting and not losing
            label = f"+1 ×{held}" if adds else f"×{held}"
            style = (discord.ButtonStyle.danger if losing else discord.ButtonStyle.primary
                     if adds and action else discord.ButtonStyle.secondary)
            items.append(
                action_button(
                    g, v, Action(prefix + suit, label), emoji=EMOJI_BY_NAME[suit],
                    disabled=action is None, row=index // CHIPS_PER_ROW, style=style,
                )
            )
        if "give_up" in by_id:
            # Round 1 only (T7); a vote to give up needs a majority (CONFIRMED_MOVES), and
            # where a click moves at once (fast, "only me", a vote with one active
            # player) it asks first (C4).
            asks = polls.moves_at_once(game.data, game.row.version)
            give_up = Action(f"{ASK_PREFIX}give_up" if asks else "give_up", "Give up",
                             "give_up")
            items.append(
                action_button(g, v, give_up, style=discord.ButtonStyle.danger, row=2)
            )
        return items

    def confirm_question(self, game: LoadedGame, action_id: str) -> str:
        """Ask before giving up, saying what it costs (T7)."""
        if action_id != "give_up" or game.state is None:
            return super().confirm_question(game, action_id)
        view = game.view()
        challenge = (view.get("challenge") or {}).get("name") or "challenge"
        harsh = (", and you lose one chip of your choice"
                 if (view.get("options") or {}).get("harsh_defeat") else "")
        return (f"Give up the {challenge}? It is trashed and the cards you played go to your "
                f"discard pile; spent chips stay spent{harsh}. ({DISMISS})")

    # -- commands -------------------------------------------------------------------------

    @tinker.command(name="start", description="Start Tinker, Sailor, Soldier, Spy here")
    @app_commands.describe(
        players=PLAYERS_HELP,
        vote_seconds=WINDOW_HELP,
        classic_journey="Origin is the first location and End the last",
        harsh_defeat="Lose one more chip of your choice with each lost fight",
        thread=THREAD_HELP,
    )
    async def start(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        classic_journey: bool = False,
        harsh_defeat: bool = False,
        thread: Literal["yes", "no"] | None = None,
    ) -> None:
        """Start a game in this channel (or a new thread)."""
        options = {**self.default_options(), "classic_journey": classic_journey,
                   "harsh_defeat": harsh_defeat}
        await self.start_solo(interaction, options, players=players, window=vote_seconds,
                              thread=thread)

    @tinker.command(name="daily", description="Play today's daily deal: the same for every server")
    @app_commands.describe(players=PLAYERS_HELP, vote_seconds=WINDOW_HELP, thread=THREAD_HELP)
    async def daily(
        self,
        interaction: discord.Interaction,
        players: Literal["vote", "fast", "only me"] = "vote",
        vote_seconds: app_commands.Range[int, 10, 600] | None = None,
        thread: Literal["yes", "no"] | None = None,
    ) -> None:
        """Start today's daily deal (standard rules) in this channel."""
        await self.start_solo(interaction, {}, players=players, window=vote_seconds,
                              daily=True, thread=thread)

    @tinker.command(name="board", description="Post the game's board again at the bottom")
    async def board(self, interaction: discord.Interaction) -> None:
        """Repost the board."""
        await self.repost(interaction)

    @tinker.command(name="replay", description="Replay the last game that ended in this channel")
    async def replay(self, interaction: discord.Interaction) -> None:
        """Post the replay of the channel's last ended game."""
        await self.replay_last(interaction)

    @tinker.command(name="rules", description="How Tinker, Sailor, Soldier, Spy is played")
    async def rules(self, interaction: discord.Interaction) -> None:
        """Explain the game privately."""
        await self.send_rules(interaction)

    @tinker.command(name="abandon", description="End this channel's game (starter or moderators)")
    async def abandon_command(self, interaction: discord.Interaction) -> None:
        """Abandon the game."""
        await self.abandon(interaction)


#: Colours of an ended board: won and lost look different at a glance.
WON_COLOUR = 0x2ECC71
LOST_COLOUR = 0x992D22

LEGEND = "\n".join((
    "🌙 Moons · ☀️ Suns · 🌊 Waves · 🍃 Leaves · 🐉 Wyrms · 🪢 Knots: the six suits "
    "(of cards and chips)",
    "`Sailor 4 🌊🍃`: a card's name, value and suits; `4🌊🍃` the same, short",
    "👤 a personality, 📜 an event (round 1 offers one of each)",
    "⚔️ the challenge under way, 🗺️ a location (round 2); ✓ a card played on it that "
    "counts (it shares a suit with it)",
    "Chip buttons: **+1 ×n** the chip's suit is on the challenge card, so paying it adds 1; "
    "**×n** it adds nothing; either way the next card is drawn and played; n is how many "
    "chips of that suit you hold",
    "Red **×n** buttons (harsh defeat, after a lost challenge): you lose one chip of that "
    "suit; nothing is drawn",
    "In the picture, each chip shows how many you hold; under it **+1** (gold) when paying "
    "it adds 1 now, else **-n**: how many of that suit you have spent",
    "Counts: deck cards sharing a suit with the challenge (they add their value); "
    "n of your m deck cards match it, worth x: how many of the deck's cards would count, "
    "and their total",
    "🏆 victory · 💀 defeat",
))


def _known_order(view: dict[str, Any]) -> str:
    """Return what is known of the order of the locations ahead: with the classic journey
    (T2), the Origin first while it is ahead and the End last; the rest is hidden."""
    remaining = (view.get("locations") or {}).get("remaining") or []
    known = []
    if view["options"].get("classic_journey") and remaining:
        if remaining[0] == "Origin":
            known.append("Origin first")
        if remaining[-1] == "End":
            known.append("End last")
    return ", ".join([*known, "the rest hidden"]) if known else "order hidden"


def _deck(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the deck's cards in a fixed order (value, then name), never its own (T8)."""
    cards = view.get("deck_cards")
    if cards is None:
        return []
    return sorted(cards, key=lambda c: (c.get("value") or 0, c["name"]))


def _shares(card: dict[str, Any], suits: set[str]) -> bool:
    return bool(suits.intersection(card.get("suits") or ()))


def _decision(view: dict[str, Any], *, brief: bool = False) -> str:
    """Return the decision in front of the player, in a line or two (one when ``brief``:
    a vote under way takes the room, and the chip buttons say the rest)."""
    if view["offer"]:
        return "**Choose your next challenge**; the other card is trashed."
    challenge = view["challenge"]
    if view.get("phase") == "lose_chip":
        return "**Harsh defeat: choose the chip you lose**: each suit's button loses one."
    if not challenge:
        return "Waiting for the next card."
    icon = "🗺️" if view["round"] == 2 else "⚔️"
    needed = max(0, (view["target"] or 0) - view["sum"])
    head = (f"{icon} **{challenge['name']}: {view['sum']} of {view['target']}**, "
            f"{needed} to go.")
    also = " or give up" if view["round"] == 1 else ""
    if brief:
        return head
    return f"{head}\nPay a chip to draw{also}; **+1**: its suit counts."


def _position(view: dict[str, Any], deck: list[dict[str, Any]]) -> list[str]:
    """Return what the picture shows, as text: the offer or the challenge, chips, piles.

    ``deck`` is :func:`_deck` of ``view``.
    """
    lines: list[str] = []
    if view["offer"]:
        for icon, card in (("👤", view["offer"]["personality"]), ("📜", view["offer"]["event"])):
            suits = set(card.get("suits") or ())
            counting = [c for c in deck if _shares(c, suits)]
            worth = sum(c.get("value") or 0 for c in counting)
            adds = (f": {len(counting)} of your {len(deck)} deck cards match it, worth "
                    f"{worth}" if deck else "")
            lines.append(f"{icon} **{card_text(card)}**{adds}")
    elif view["challenge"]:
        lines.append(f"Challenge: {card_text(view['challenge'])}")
        suits = set(view["challenge"].get("suits") or ())
        if view["played"]:  # the cards that share a suit with the challenge add their value
            lines.append("Played (✓ counts): " + ", ".join(
                ("✓ " if _shares(c, suits) else "") + card_text(c) for c in view["played"]))
        paid = view.get("paid") or []
        if paid:  # a chip of a suit on the challenge adds 1
            bonus = sum(s in suits for s in paid)
            lines.append("Paid: " + "".join(EMOJI_BY_NAME.get(s, s) for s in paid)
                         + f" (+{bonus})")
    chips = view["chips"]
    lines.append("Chips " + " ".join(f"{EMOJI_BY_NAME[s]}{chips.get(s, 0)}" for s in SUIT_ORDER))
    lines.append(f"Deck {view['deck_count']} · discard {len(view['discard'])} · "
                 f"Aces {view['aces_left']} · cleared {len(view['cleared'])}/13")
    return lines


def _offer_label(action: Action) -> Action:
    """Return a challenge choice labelled by its card alone ("Sailor 4")."""
    name = action.label.removeprefix("Challenge ")
    short = " ".join(w for w in name.split(" ") if not any(ch in w for ch in "🌙☀️🌊🍃🐉🪢"))
    return Action(action.id, short or name, action.group, action.description, action.primary)


def _ended(view: dict[str, Any], level: int) -> discord.Embed:
    """Return an ended board: victory or defeat, the score, the locations."""
    result = view["result"] or {"summary": "", "outcomes": [{"outcome": "loss", "score": 0,
                                                              "detail": {}}]}
    outcome = result["outcomes"][0]
    detail = outcome.get("detail") or {}
    won = outcome["outcome"] == "win"
    embed = discord.Embed(
        title=f"{'🏆 Victory' if won else '💀 Defeat'} · {SHORT_TITLE}",  # one phone line
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
