"""Every command's texts fit Discord's limits as written: discord.py cuts a longer one to
100 letters ending with "…" as the command is made, and members would read it cut (no
text of ours ends with "…")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from discord import app_commands

from tests.support import make_bot

COGS = ("cogs.help", "cogs.records", "cogs.tinker", "cogs.tinrealm", "cogs.steam", "cogs.server")
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


def _texts() -> list[tuple[str, str]]:
    """Every string the bot's and the cogs' code holds but its docstrings: (where, text)."""
    found = []
    root = Path(__file__).resolve().parents[2]
    for path in sorted([*root.glob("bot/**/*.py"), *root.glob("cogs/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                           ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        found += [(f"{path.relative_to(root)}:{node.lineno}", node.value)
                  for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and id(node) not in docstrings]
    return found


#: A command named in a text: "/name" and the word after it, if any (a name followed by
#: "/" is a path, a route or a seed's tag, not a command).
NAMED = re.compile(r"(?:(?<=[\s(`\"'])|^)/(<?[a-z][a-z-]*>?)(?![\w/-])(?: ([a-z][a-z-]*))?")


def _misnamed(texts: list[tuple[str, str]], commands: set[str],
              groups: dict[str, set[str]]) -> list[tuple[str, str]]:
    """The commands ``texts`` name that the bot does not have: an unknown name, or a
    group's name followed by a word that is not one of its subcommands."""
    wrong = []
    for where, text in texts:
        for match in NAMED.finditer(text):
            name, sub = match.groups()
            if name == "<game>" and where.startswith("cogs/help.py"):
                continue
            if name not in commands or (name in groups and sub is not None
                                        and sub not in groups[name]):
                wrong.append((where, match.group(0)))
    return wrong


def test_a_misspelt_command_in_a_text_is_found() -> None:
    """The check itself: a typo in a subcommand or a command is caught, a right one and
    a path are not."""
    groups = {"tinker": {"start", "abandon"}, "steam": {"new"}}
    texts = [("a", "Use /tinker abandn."), ("b", "Try `/steam strat`"), ("c", "/start it"),
             ("d", "Use /tinker abandon or /steam new."), ("e", "see /tinker/rules")]
    assert _misnamed(texts, {"tinker", "steam", "help"}, groups) == [
        ("a", "/tinker abandn"), ("b", "/steam strat"), ("c", "/start it")]


async def test_every_command_a_text_names_exists(discord_driver, tmp_path) -> None:
    """A reply, a rules page or a button that tells members to type ``/tinker abandon``
    names a command the bot has, with its subcommand; no text names one it has not
    (``/start``) or a placeholder (``/<game> abandon``) but /help's list of each game's
    commands."""
    bot = await discord_driver.login(make_bot(tmp_path, cogs=COGS))
    groups = {c.name: {s.name for s in c.commands} for c in bot.tree.get_commands()
              if isinstance(c, app_commands.Group)}
    commands = {c.name for c in bot.tree.get_commands()}
    texts = _texts()
    assert len(texts) > 1000
    wrong = _misnamed(texts, commands, groups)
    assert not wrong, wrong
