"""Seated players' presence at a table (ruling C6), from the buttons that are not moves:
an away player who uses one plays their own seat again, and the person to act who opens
the rules is reading the table (their turn notice waits longer; once reminded, their
turn's time starts again)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.boards.actors import actor_of
from bot.boards.computers import ComputerPlayers
from bot.boards.messages import BoardMessages
from bot.table.errors import Refusal, Unavailable
from bot.table.service import LoadedGame, Tables
from bot.table.turns import notice_waits_for, reminded_to_act

#: Says a person it is their turn (or a table's lobby invitations and thread are done).
Announce = Callable[[LoadedGame, "tuple[int, str] | None"], Awaitable[None]]
#: A reminded player whose turn's new time could not be saved is told so.
TIME_NOT_GIVEN = ("Your turn's time could not be started again just now (the bot could not "
                  "save it), so a computer still plays your seat at the time set. Press "
                  "Rules & details again in a moment.")


class NotBack(Refusal):
    """An away player's return could not be saved (C6): the computer still plays them."""

    def __init__(self) -> None:
        super().__init__("You are still away: the bot could not save your return just now, "
                         "so a computer still plays your seat. Press Rules & details again "
                         "in a moment.")


class Presence:
    """Brings away players back and lets readers' turns wait, over the table service,
    the board messages, the computer players and how a turn is announced."""

    def __init__(self, tables: Tables, messages: BoardMessages, computers: ComputerPlayers,
                 announce: Announce) -> None:
        self.tables = tables
        self.messages = messages
        self.computers = computers
        self.announce = announce

    async def come_back(self, interaction: discord.Interaction[Any],
                        game: LoadedGame) -> LoadedGame | None:
        """Bring an away player back when they use a button that is not a move (C6): the
        board is brought up to date and whose turn it is announced. Return the game
        afterwards if they came back; raise :class:`NotBack` if their return could not
        be saved.

        ``game`` as just read tells whether they are away at all (usually not: no more work).
        """
        seat = game.seat_of(interaction.user.id) if len(game.seats) > 1 else None
        if seat is None or not game.seats[seat].away:
            return None
        try:
            play = await self.tables.come_back(game.id, actor_of(interaction))
        except Unavailable:
            raise NotBack from None
        except Refusal:
            return None
        if play is None:
            return None
        self.messages.update_soon(play.game.id, play.game)
        await self.announce(play.game, play.notice)
        self.computers.schedule(play.game)
        return play.game

    async def looking(self, interaction: discord.Interaction[Any],
                      game: LoadedGame) -> bool:
        """Let the turn notice waiting for the person whose turn it is, who opened the
        rules, wait its grace time again from now; return whether one waits (``game`` as
        just read tells; never raise)."""
        if not notice_waits_for(game, interaction.user.id):
            return False
        with contextlib.suppress(Refusal):
            await self.tables.looking(game.id, actor_of(interaction))
        return True

    async def still_here(self, interaction: discord.Interaction[Any],
                         game: LoadedGame) -> str | None:
        """Give the reminded person whose turn it is, who opened the rules, a whole turn
        again (C6); return the private word that says so (or that it could not be saved),
        or None (usually: ``game`` as just read tells; never raise). Not reminded yet,
        their turn notice waits longer: they are reading the table."""
        if await self.looking(interaction, game):
            return None
        if not reminded_to_act(game, interaction.user.id):
            return None
        try:
            play = await self.tables.still_here(game.id, actor_of(interaction))
        except Unavailable:
            return TIME_NOT_GIVEN
        except Refusal:
            return None
        timer = None if play is None else play.game.data.timer
        if play is None or timer is None:
            return None
        self.messages.update_soon(play.game.id, play.game)
        return (f"Your turn's time starts again: a computer plays your seat only if you "
                f"have not played by <t:{int(timer.at)}:t> (<t:{int(timer.at)}:R>).")


def back_text(game: LoadedGame, user_id: int, *, unmade: bool = False) -> str:
    """Return the private word to a player who came back by a click that moved nothing
    (``unmade``: their move could not be stored, so it is to be made again)."""
    seat = game.to_act()
    if seat is None:
        whose = ""
    elif seat == game.seat_of(user_id):
        whose = " It is your turn now."
    else:
        whose = f" It is {game.seat_name(seat)}'s turn now."
    if unmade:
        whose += (" Your move could not be saved (the bot could not reach its game storage),"
                  " so it did not happen: make it again in a moment.")
    return f"Welcome back: you play your own seat again.{whose}"
