"""Player records in Discord: /stats, /leaderboard and /forget-me.

Figures come from :mod:`db.records`; this module only turns them into replies. Players
on leaderboards are shown by the name they last played under in the server (kept with
their results): a mention in an embed shows as a raw id to a phone that has not seen
the member lately, and always for one who left the server. A member with no named
result (results kept before names were) is shown as a mention.
"""

from __future__ import annotations

import logging
import re
from datetime import UTC, datetime
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.boards.answer_clock import AnswerClock
from bot.boards.in_flight import Tracked
from bot.boards.send_errors import SEND_ERRORS, tell_after_failure
from bot.games.registry import engine
from bot.table.daily import daily_key
from bot.table.errors import Unavailable
from bot.table.ratings import RATED_KINDS
from bot.text.alike import alike
from bot.text.names import member_name, short_name
from db import records
from db.forget import FORMER_PLAYER
from db.records import (
    RANKED_BY_WINS,
    SETTLED_GAMES,
    GameStats,
    Leaderboard,
    RatingBoard,
    RatingStanding,
    Standing,
)
from db.store import StorageError

log = logging.getLogger(__name__)

COLOUR = discord.Colour.from_rgb(88, 101, 242)

#: The games with a daily deal (a /<game> daily command).
DAILY_GAMES = ("tinker", "tinrealm")

#: The games with records, by kind, and their names.
TITLES = {kind: engine(kind).title for kind in ("tinker", "tinrealm", "steam")}

GAME_CHOICES = [app_commands.Choice(name=title, value=kind) for kind, title in TITLES.items()]

#: Leaderboard periods: the choice's value and its name in titles.
PERIODS = {"all": "all time", "month": "this month", "daily": "today's daily deal",
           "yesterday": "yesterday's daily deal"}
#: The daily periods, and how many days before today each one's deal is.
DAILY_PERIODS = {"daily": 0, "yesterday": 1}
#: The leaderboard by rating (rated games only): chosen where a period is.
RATING = "rating"
PERIOD_CHOICES = [
    *(app_commands.Choice(name=name, value=key) for key, name in PERIODS.items()),
    app_commands.Choice(name="rating (Steam to Solar)", value=RATING),
]

#: The /forget-me confirmation button: a short tag and the id of the member it is for.
FORGET_TAG = "fg1"
FORGET_TEMPLATE = rf"{FORGET_TAG}:(?P<user>\d+)"

def _split_line(game: GameStats) -> str:
    """Return the solo / played-together line (C5), or nothing when all were solo."""
    if not game.played_together:
        return ""
    return (f"Solo **{game.played_solo}** (won {game.won_solo}) · played together "
            f"**{game.played_together}** (won {game.won_together})\n")


def score_text(kind: str, score: int) -> str:
    """Return a best score as players read it, the same on /stats and /leaderboard: a
    Tinker score (100 per location cleared plus the chips left) as "**13**/13 cleared, 13
    chips left"; any other game's as its number."""
    if kind == "tinker":
        cleared, chips = divmod(max(0, score), 100)
        return f"**{cleared}**/13 cleared, {chips} chip{'' if chips == 1 else 's'} left"
    return f"**{score}**"


def sureness(rating: RatingStanding) -> str:
    """Return how sure a rating is, in words: its spread (two sigma), the games it
    counts, and whether it is settled yet."""
    games = f"{rating.games} game{'s' if rating.games != 1 else ''}"
    word = "settled" if rating.settled else "still provisional"
    return f"± {2 * rating.sigma:.1f} · {games} · {word}"


def rating_line(rating: RatingStanding) -> str:
    """Return the /stats line of a rating: the figure, its place and how sure it is."""
    return (f"Rating **{rating.rating:.1f}** (#{rating.place} here) {sureness(rating)}\n")


def stats_embed(name: str, stats: list[GameStats],
                ratings: dict[str, RatingStanding] | None = None) -> discord.Embed:
    """Return the /stats embed: one field per game (at most one per known game), with
    the member's rating in rated games."""
    embed = discord.Embed(title=f"📊 Records of {name}", colour=COLOUR)
    ratings = ratings or {}
    for game in stats:
        rated = ratings.get(game.kind)
        rate = round(100 * game.won / game.played)
        embed.add_field(
            name=TITLES.get(game.kind, game.kind),
            value=(
                f"Played **{game.played}** · won **{game.won}** ({rate}%)\n"
                f"{_split_line(game)}"
                f"Best score {score_text(game.kind, game.best_score)}\n"
                f"Winning streak: current **{game.current_streak}** · "
                f"best **{game.best_streak}**"
                f"{'' if rated is None else chr(10) + rating_line(rated).rstrip()}"
            ),
            inline=False,
        )
    embed.set_footer(text="In this server · a streak is consecutive wins, in time order")
    return embed


#: The room a member's name takes on a leaderboard line, in letters (the line fits a
#: phone's width with the place and the figures).
NAME_ROOM = 16.0


def member(user_id: int, name: str | None, namesake: bool = False) -> str:
    """Name a member on a leaderboard line: the name they last played under, cut for a
    phone line (a mention in an embed shows as a raw id to a phone that has not seen
    the member lately); a mention when no name is known, and after the name of one whose
    name reads as another listed member's (``namesake``), to tell the two apart."""
    if not name:
        return f"<@{user_id}>"
    shown = short_name(name, NAME_ROOM)
    return f"{shown} (<@{user_id}>)" if namesake else shown


def namesakes(listed: list[tuple[int, str | None]]) -> set[int]:
    """Return the members of ``listed`` (user id, name) whose name reads as another
    listed member's (:func:`bot.text.alike.alike`)."""
    seen: dict[str, set[int]] = {}
    for user_id, name in listed:
        if name:
            seen.setdefault(alike(name), set()).add(user_id)
    return {user for users in seen.values() if len(users) > 1 for user in users}


def standing_text(kind: str, standing: Standing, namesake: bool = False) -> str:
    """Return one leaderboard line: place, player (told apart from a ``namesake``) and
    the figures the game ranks by."""
    s = standing
    games = f"{s.played} game{'s' if s.played != 1 else ''}"
    if kind in RANKED_BY_WINS:
        figures = f"**{s.won}** won · average {s.average_score:.1f} · {games}"
    elif kind == "tinker":
        figures = f"{score_text(kind, s.best_score)} · {games}"
    else:
        figures = f"best **{s.best_score}** · {games}"
    return f"**{s.place}.** {member(s.user_id, s.name, namesake)} · {figures}"


def leaderboard_embed(kind: str, period: str, board: Leaderboard) -> discord.Embed:
    """Return the /leaderboard embed: the top lines and the asker's place below them."""
    listed = [*board.top, *([board.mine] if board.mine is not None else [])]
    twins = namesakes([(s.user_id, s.name) for s in listed])
    lines = [standing_text(kind, s, s.user_id in twins) for s in board.top]
    if board.mine is not None:
        mine = board.mine
        lines += ["…", f"Your place: {standing_text(kind, mine, mine.user_id in twins)}"]
    embed = discord.Embed(
        title=f"🏆 {TITLES[kind]} · {period}", description="\n".join(lines), colour=COLOUR
    )
    embed.set_footer(text=f"{board.players} player{'s' if board.players != 1 else ''} "
                          "ranked in this server · see /help")
    return embed


def rating_text(rating: RatingStanding, namesake: bool = False) -> str:
    """Return one rating leaderboard line: place, player (told apart from a
    ``namesake``), rating, its spread and games, and "provisional" until it is settled
    (short, to keep one line on a phone)."""
    games = f"{rating.games} game{'s' if rating.games != 1 else ''}"
    note = "" if rating.settled else " · provisional"
    return (f"**{rating.place}.** {member(rating.user_id, rating.name, namesake)} · "
            f"**{rating.rating:.1f}** "
            f"±{2 * rating.sigma:.1f} · {games}{note}")


def rating_embed(kind: str, board: RatingBoard) -> discord.Embed:
    """Return the rating leaderboard embed: the top lines and the asker's place below."""
    listed = [*board.top, *([board.mine] if board.mine is not None else [])]
    twins = namesakes([(r.user_id, r.name) for r in listed])
    lines = [rating_text(r, r.user_id in twins) for r in board.top]
    if board.mine is not None:
        mine = board.mine
        lines += ["…", f"Your place: {rating_text(mine, mine.user_id in twins)}"]
    embed = discord.Embed(
        title=f"🏆 {TITLES[kind]} · rating", description="\n".join(lines), colour=COLOUR
    )
    embed.set_footer(text=f"{board.players} player{'s' if board.players != 1 else ''} rated "
                          f"here · provisional: under {SETTLED_GAMES} games · see /help")
    return embed


def month_start(now: float) -> float:
    """Return the unix time of the first moment of ``now``'s month (UTC)."""
    day = datetime.fromtimestamp(now, UTC)
    return day.replace(day=1, hour=0, minute=0, second=0, microsecond=0).timestamp()


#: /forget-me's answer to a member whom only games still open hold: nothing to delete yet.
PLAYING_ONLY = ("Nothing of yours can be deleted yet: a game you are in is still open, and "
                "it keeps your seat until it ends. Use /forget-me again once it has ended.")
#: The prompt's last words when a game still open holds the member too.
STILL_OPEN = (" A game you are in that is still open keeps your seat until it ends: use "
              "/forget-me again then.")


def forget_prompt(count: int, traces: records.Traces) -> str:
    """Return the /forget-me prompt: what pressing the button deletes, given the member's
    ``count`` results and what else of theirs is stored (and what stays for now)."""
    if count:
        rated = " and your ratings" if traces.rated else ""
        what = (f"all your records: {count} result{'s' if count != 1 else ''}{rated}, in "
                "every game and every server, for good. Other players' results of the same "
                "games stay, and finished games show \"a former player\" in your seat.")
    elif traces.finished:
        what = ("your name and id from the finished games that still hold them, in every "
                "server, for good: they show \"a former player\" instead (you have no "
                "results).")
        if traces.rated:
            what += " Your ratings go too."
    elif traces.rated:
        what = "your ratings (you have no results)."
    else:
        what = "your turn-ping choice (you have no results)."
    if traces.chose and (count or traces.finished or traces.rated):
        what += " Your turn-ping choice goes too."
    if traces.playing:
        what += STILL_OPEN
    return f"This deletes {what} Sure?"


#: Members whose "Delete all my records" press is being carried out (a second press
#: meanwhile, a phone's double tap, is answered privately and changes nothing).
FORGETTING: set[int] = set()


class ForgetButton(Tracked, discord.ui.DynamicItem[discord.ui.Button[Any]],
        template=FORGET_TEMPLATE):
    """The /forget-me confirmation: deletes its member's results when they press it."""

    def __init__(self, user_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Delete all my records", style=discord.ButtonStyle.danger,
                custom_id=f"{FORGET_TAG}:{user_id}",
            )
        )
        self.user_id = user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ForgetButton:
        """Rebuild the button from its custom_id (also after a restart)."""
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Delete the member's results, or refuse privately if someone else pressed it."""
        if interaction.user.id != self.user_id:
            await interaction.response.send_message(
                "This button is someone else's: it deletes their records, not yours. "
                "To delete your own, use /forget-me.", ephemeral=True,
            )
            return
        if self.user_id in FORGETTING:  # a double tap: the first press deletes
            await interaction.response.send_message(
                "Your records are being deleted already: the message above says when it "
                "is done.", ephemeral=True)
            return
        FORGETTING.add(self.user_id)
        try:
            async with AnswerClock.of(interaction) as clock:
                await self._forget(interaction, clock)
        finally:
            FORGETTING.discard(self.user_id)

    async def _forget(self, interaction: discord.Interaction[Any], clock: AnswerClock) -> None:
        """Delete the member's results and say on the prompt what went."""
        store = interaction.client.store
        try:
            before = await records.traces(store, self.user_id)
            boards = await records.boards_naming(store, self.user_id)
        except StorageError:
            await clock.send(content=str(Unavailable()), ephemeral=True)
            return
        try:
            deleted: int | None = await records.forget_player(store, self.user_id)
        except StorageError as exc:
            if not await self._forgotten_after_all(store, exc):
                await clock.send(content=str(Unavailable()), ephemeral=True)
                return
            deleted = None  # done, though how many results went is not known
        interaction.client.boards.show_forgotten(boards, FORMER_PLAYER)
        if deleted is None:
            text = "Done: your records are gone from every server."
        elif deleted:
            text = (f"Done: {deleted} result{'s' if deleted != 1 else ''} deleted. "
                    "Your records are gone from every server.")
        elif before.finished or before.rated:
            text = ("Done: finished games show \"a former player\" where you sat, and "
                    "nothing of yours is left in them." if before.finished else
                    "Done: your ratings are deleted.")
        elif before.chose:
            text = "Done: your turn-ping choice is deleted."
        else:
            text = "There was nothing left to delete: your records are already gone."
        if before.playing:
            text += STILL_OPEN
        try:
            await clock.edit(content=text, view=None)
        except SEND_ERRORS as exc:  # done all the same: /stats shows it
            log.warning("could not answer a /forget-me confirmation: %s", exc)
            await tell_after_failure(interaction, text, exc)


    async def _forgotten_after_all(self, store: Any, failed: StorageError) -> bool:
        """Whether the deletion that ``failed`` is stored all the same: the database may
        have committed it before its answer was lost (the connection dropped), so what
        it deletes is looked for again; False when it is still there, or unreadable."""
        if not failed.sent:
            return False
        try:
            after = await records.traces(store, self.user_id)
            left = await records.count_results(store, self.user_id)
        except StorageError:
            return False
        gone = not after.deletable and not left
        if gone:
            log.warning("the answer to a /forget-me deletion was lost, but it is stored: %s",
                        failed)
        return gone


class RecordsCog(commands.Cog):
    """The /stats, /leaderboard and /forget-me commands."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        """Register the /forget-me button so that it works after a restart."""
        self.bot.add_dynamic_items(ForgetButton)

    async def cog_unload(self) -> None:
        """Unregister the /forget-me button."""
        self.bot.remove_dynamic_items(ForgetButton)

    @app_commands.command(name="stats", description="Games played and won, best score, streaks")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose records (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User | None = None,
        game: str | None = None,
    ) -> None:
        """Show a member's records (also of one who has left the server: Discord then
        names a user); privately when they are your own."""
        who = member or interaction.user
        mine = who.id == interaction.user.id
        async with AnswerClock.of(interaction, private=mine) as clock:
            try:
                stats = await records.player_stats(
                    self.bot.store, interaction.guild_id or 0, who.id, game
                )
                ratings = await records.player_ratings(
                    self.bot.store, interaction.guild_id or 0, who.id
                ) if stats else {}
            except StorageError as exc:
                raise Unavailable() from exc
            shown = member_name(who)
            if stats:
                await clock.send(embed=stats_embed(shown, stats, ratings),
                                 ephemeral=mine)
                return
            what = TITLES[game] if game else "any game"
            text = (f"You have not finished {what} in this server yet. See /help to start one!"
                    if mine else
                    f"{shown} has not finished {what} in this server yet.")
            await clock.send(content=text, ephemeral=mine)

    @app_commands.command(name="leaderboard", description="This server's top 10 in a game")
    @app_commands.guild_only()
    @app_commands.describe(game="Which game", period="All time (default), this month, "
                                                     "today's or yesterday's daily deal, "
                                                     "or rating")
    @app_commands.choices(game=GAME_CHOICES, period=PERIOD_CHOICES)
    async def leaderboard(
        self, interaction: discord.Interaction, game: str, period: str = "all"
    ) -> None:
        """Show the server's leaderboard of a game, with the asker's place."""
        if period == RATING:
            await self.rating_leaderboard(interaction, game)
            return
        if period in DAILY_PERIODS and game not in DAILY_GAMES:
            await interaction.response.send_message(
                f"{TITLES[game]} has no daily deal; try all time or this month.",
                ephemeral=True,
            )
            return
        now = self.bot.clock()
        day = (daily_key(now - DAILY_PERIODS[period] * 86_400) if period in DAILY_PERIODS
               else None)
        since = month_start(now) if period == "month" else 0.0
        async with AnswerClock.of(interaction) as clock:
            try:
                board = await records.leaderboard(
                    self.bot.store, interaction.guild_id or 0, game,
                    asker_id=interaction.user.id, since=since, daily=day,
                )
            except StorageError as exc:
                raise Unavailable() from exc
            label = f"daily deal {day}" if day else PERIODS[period]
            if not board.top:
                said = (f"Nobody in this server finished {TITLES[game]}'s daily deal of "
                        f"{day}." if period == "yesterday" else
                        f"Nobody in this server has finished {TITLES[game]} ({label}) yet. "
                        "Be the first: see /help.")
                await clock.send(content=said, ephemeral=True)
                return
            await clock.send(embed=leaderboard_embed(game, label, board))

    async def rating_leaderboard(self, interaction: discord.Interaction, game: str) -> None:
        """Show the server's top 10 by rating in a rated game, or say privately why not."""
        if game not in RATED_KINDS:
            await interaction.response.send_message(
                f"{TITLES[game]} has no ratings: only Steam to Solar games are rated, "
                "against other players or computer players. Try all time or this month.",
                ephemeral=True,
            )
            return
        async with AnswerClock.of(interaction) as clock:
            try:
                board = await records.rating_board(
                    self.bot.store, interaction.guild_id or 0, game,
                    asker_id=interaction.user.id,
                )
            except StorageError as exc:
                raise Unavailable() from exc
            if not board.top:
                await clock.send(
                    content=f"Nobody in this server has a {TITLES[game]} rating yet: finish a "
                            "game against another player or computer players. See /help.",
                    ephemeral=True,
                )
                return
            await clock.send(embed=rating_embed(game, board))

    @app_commands.command(name="forget-me", description="Delete all your records (asks first)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Ask the member to confirm deleting every result of theirs."""
        async with AnswerClock.of(interaction, private=True) as clock:
            try:
                count = await records.count_results(self.bot.store, interaction.user.id)
                traces = await records.traces(self.bot.store, interaction.user.id)
            except StorageError as exc:
                raise Unavailable() from exc
            if not count and not traces.deletable:
                await clock.send(
                    content=PLAYING_ONLY if traces.playing else "You have no records to delete.",
                    ephemeral=True,
                )
                return
            view = discord.ui.View(timeout=None)
            view.add_item(ForgetButton(interaction.user.id))
            await clock.send(content=forget_prompt(count, traces), view=view, ephemeral=True)


async def setup(bot: Any) -> None:
    """Load the records cog."""
    await bot.add_cog(RecordsCog(bot))
