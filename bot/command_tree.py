"""The bot's command tree: the application commands' way in and, when one fails, its
private answer (a refusal's reason, an option the command cannot take, a command Discord
showed from before an update, or a short apology).
"""

from __future__ import annotations

import logging

import discord

from bot.boards.in_flight import let_in
from bot.boards.send_errors import UNKNOWN_INTERACTION, passing_failure, tell_privately
from bot.table.errors import AnsweredElsewhere, Refusal
from bot.table.lobby import not_a_member
from bot.text.names import member_name

log = logging.getLogger(__name__)


#: The private answer to an option value Discord did not offer from this version's list.
NOT_OFFERED = ("One of this command's options could not be read: choose it again from the "
               "list Discord shows (reload Discord if it still shows the same choices).")


def offered(interaction: discord.Interaction) -> bool:
    """A command's check: every option with a fixed list of choices has one of this
    version's (Discord may still show a member an older version's list, or another
    process's during a deploy); raise CheckFailure with :data:`NOT_OFFERED` if not."""
    command = interaction.command
    if isinstance(command, discord.app_commands.Command):
        for param in command.parameters:
            value = getattr(interaction.namespace, param.display_name, None)
            if param.choices and value is not None and value not in {
                    choice.value for choice in param.choices}:
                log.info("command %s got %s=%r, not one of its choices", command.name,
                         param.display_name, value)
                raise discord.app_commands.CheckFailure(NOT_OFFERED)
    return True


class TableTree(discord.app_commands.CommandTree):
    """The command tree: commands count as work in flight, and none start while closing;
    a failed command is answered privately."""

    def check_choices(self) -> None:
        """Give every command with an option of fixed choices the check :func:`offered`
        (once every command is added)."""
        for command in self.walk_commands():
            if (isinstance(command, discord.app_commands.Command)
                    and any(p.choices for p in command.parameters)
                    and offered not in command.checks):
                command.add_check(offered)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Refuse new commands privately once the bot is shutting down.

        A command let through counts as in flight until the task running it ends, so a
        clean shutdown waits for commands as it does for clicks (Tables.drain).
        """
        return await let_in(interaction)

    async def on_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError, /
    ) -> None:
        """Answer every failed command privately: a refusal's reason, or a short apology."""
        cause = getattr(error, "original", error)
        if isinstance(cause, AnsweredElsewhere):
            return  # the process that took the start answers
        if isinstance(cause, Refusal):
            text = str(cause)
        elif isinstance(error, discord.app_commands.CheckFailure):
            text = str(error) or "You cannot use this command here."
        elif isinstance(error, discord.app_commands.TransformerError):
            # Discord sent an option the command cannot take (a member named who has left
            # the server comes as a user only): the member chose it, nothing failed here.
            log.info("command %s got an option it cannot take: %s",
                     interaction.command and interaction.command.name, error)
            text = option_refusal(error)
        elif isinstance(error, discord.app_commands.CommandNotFound | discord.app_commands
                        .CommandSignatureMismatch):
            # Discord still shows a command as it was before an update.
            log.info("a command Discord showed is not this bot's now: %s", error)
            text = ("This command has changed since Discord last showed it to you: reload "
                    "Discord (Ctrl+R, or reopen the app) and use /help to see the commands.")
        elif passing_failure(cause) or (isinstance(cause, discord.NotFound)
                                        and cause.code in UNKNOWN_INTERACTION):
            # Discord refused the command's answer for a while: what the command did stays
            # done (a private line is tried, and may be refused too).
            log.warning("could not answer command %s: %r",
                        interaction.command and interaction.command.name, cause)
            text = "Discord did not take the bot's answer just now. Please look again in a moment."
        else:
            log.error("command %s failed", interaction.command and interaction.command.name,
                      exc_info=cause)
            text = "Something went wrong on our side; nothing was changed. Please try again."
        await tell_privately(interaction, text)


def option_refusal(error: discord.app_commands.TransformerError) -> str:
    """Return the private answer to a command given an option it cannot take: a member
    who is not in the server (any more), or a value Discord did not offer."""
    if error.type in (discord.AppCommandOptionType.user,
                      discord.AppCommandOptionType.mentionable):
        who = error.value
        return not_a_member(member_name(who)
                            if isinstance(who, discord.User | discord.Member) else "That member")
    return NOT_OFFERED
