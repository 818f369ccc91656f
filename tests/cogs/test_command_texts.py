"""Every command's texts fit Discord's limits as written: discord.py cuts a longer one to
100 letters ending with "…" as the command is made, and members would read it cut (no
text of ours ends with "…")."""

from __future__ import annotations

from discord import app_commands

from tests.support import make_bot

COGS = ("cogs.records", "cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.server")
#: Discord's limit on a command's, an option's and a choice's text.
LIMIT = 100


def _cut(text: str) -> bool:
    return len(text) > LIMIT or text.endswith("…")


async def test_no_command_or_option_text_is_cut(discord_driver, tmp_path) -> None:
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    too_long = []
    for command in bot.tree.walk_commands():
        if _cut(command.description):
            too_long.append((command.qualified_name, command.description))
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                if _cut(parameter.description):
                    too_long.append((f"{command.qualified_name} {parameter.name}",
                                     parameter.description))
                too_long += [(f"{command.qualified_name} {parameter.name}", choice.name)
                             for choice in parameter.choices if _cut(choice.name)]
    assert not too_long, too_long
