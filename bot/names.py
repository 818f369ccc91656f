"""Member names as the bot shows them: escaped where Discord reads markdown, plain where not.

A member's name is made safe once, when their click or command arrives
(:func:`safe_name`): one line, markdown and mentions escaped, so that ``cool_guy`` or
``*star*`` shows as written in an embed's description, a field or a message, and
``@everyone`` pings nobody. The seats, the events and the engines' views keep it so.

Some places show text exactly as it is, markdown and all: an embed's footer, a button's
label, a select's options, a picture's alt text and the picture itself. There the
escapes would show as backslashes (``cool\\_guy``), so the text goes through
:func:`plain` first, which takes them out again. Nothing there can ping anyone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

import discord

from bot.widths import clip_name, fits

#: The most characters of a name a board shows.
NAME_LIMIT = 64

#: A markdown escape (a backslash and the character it escapes), or the zero-width space
#: that keeps a mention from pinging.
_ESCAPE = re.compile(r"\\(.)|\u200b", re.DOTALL)


@functools.lru_cache(maxsize=4096)
def safe_name(name: str, fallback: str = "") -> str:
    """Return a member's name as boards show it: one line, markdown and mentions escaped.

    A name with no visible character (only spaces such as U+3000) becomes ``fallback``
    (the account name) or "a player". Remembered for the last few thousand names: every
    click asks for its member's.
    """
    text = " ".join("".join(ch for ch in name if ch.isprintable()).split())
    if not text:
        text = " ".join("".join(ch for ch in fallback if ch.isprintable()).split()) or "a player"
    text = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return text[:NAME_LIMIT]


def plain(text: str) -> str:
    """Return ``text`` (which may hold names made safe by :func:`safe_name`) as a place
    that shows text as it is must show it: without the escapes."""
    if "\\" not in text and "\u200b" not in text:
        return text
    return _ESCAPE.sub(lambda match: match.group(1) or "", text)


def short_name(name: str, room: float) -> str:
    """Return a name made safe by :func:`safe_name`, cut to ``room`` letters' room as
    shown (:mod:`bot.widths`; marked "…") and made safe again: a cut never splits an
    escape."""
    shown = plain(name)
    if fits(shown, room):
        return name
    return discord.utils.escape_markdown(clip_name(shown, room))


def plain_players(view: dict[str, Any]) -> dict[str, Any]:
    """Return an engine's view with its players' names plain (for a picture and its alt
    text); the view itself is left as it was."""
    players = view.get("players")
    if not isinstance(players, list) or not any(
            isinstance(p, Mapping) and isinstance(p.get("name"), str)
            and plain(p["name"]) != p["name"] for p in players):
        return view
    shown = [{**p, "name": plain(p["name"])}
             if isinstance(p, Mapping) and isinstance(p.get("name"), str) else p
             for p in players]
    return {**view, "players": shown}
