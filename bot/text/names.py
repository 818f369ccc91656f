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
import unicodedata
from collections.abc import Mapping
from typing import Any

import discord

from bot.text.alike import BLANK
from bot.text.widths import FSI, PDI, clip_name, fits, group_start, joins_on, printable

#: The most characters of a name a board shows.
NAME_LIMIT = 64

#: A markdown escape (a backslash and the character it escapes), or the zero-width space
#: that keeps a mention from pinging.
_ESCAPE = re.compile(r"\\(.)|\u200b", re.DOTALL)
#: What Discord's markdown reads in a line: emphasis, code, spoilers and escapes
#: anywhere, a masked link's brackets, and a quote, heading, list item or subtext at the
#: line's start (a numbered item's dot is :data:`_NUMBERED`).
_MARKDOWN = re.compile(r"[_\\~|*`\[\]]|^>(?:>>)?\s|^#{1,3}|^\s*-", re.MULTILINE)
#: A numbered list item's number at a line's start ("1. Bob", or a name "1." that a
#: line goes on after): its dot is escaped.
_NUMBERED = re.compile(r"^(\s*\d+)\.(?=\s|$)", re.MULTILINE)


#: Characters that are not printable but that a name keeps: the joiners (one emoji of
#: emoji joined by U+200D, Persian and Indic spelling with U+200C and U+200D) and the tag
#: letters of a region's flag (🏴 and its tags).
_KEPT = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))



def blank(text: str) -> bool:
    """Whether ``text`` shows as nothing: only spaces, letters that show as nothing
    (:data:`bot.text.alike.BLANK`), marks, selectors and format characters."""
    return all(ch.isspace() or ch in BLANK or joins_on(ch) for ch in text)


def one_line(text: str) -> str:
    """Return ``text`` on one line with only the characters a name keeps (printable ones,
    emoji newer than Python's tables among them, and :data:`_KEPT`: no control
    characters, bidi controls or U+200B; a run of spaces of any kind becomes one space),
    or "" when it would show as blank."""
    kept = " ".join("".join(ch for ch in text if printable(ch) or ch in _KEPT
                            or ch.isspace()).split())
    return "" if blank(kept) else kept


def isolated(text: str) -> str:
    """Return ``text`` between a first-strong isolate and its end when it holds a
    right-to-left letter (Arabic, Hebrew, ...), else as it is. An isolated name reads as
    one word wherever it stands: it does not turn the line it opens right to left
    ("أحمد chose: Strike" keeps its order) nor draw the numbers after it into its run."""
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text):
        return FSI + text + PDI
    return text


def _made_safe(text: str) -> str:
    """Return plain ``text`` with its markdown and mentions escaped, and no web address
    in it a link."""
    return discord.utils.escape_mentions(_escape_markdown(text)).replace("://", ":\u200b//")


def _escape_markdown(text: str) -> str:
    """Return ``text`` with its markdown escaped, a web address's too (it is made no
    link, so Discord would read its ``**`` or ``__``), and its ``<`` (``<t:0:R>`` would
    show as a time, ``<:name:id>`` as an emoji). Each bracket is escaped on its own: a
    masked link's shape (``[a](b)``) is then no link, and what stands between its
    brackets is escaped like the rest (discord.py escapes only its first bracket)."""
    escaped = _MARKDOWN.sub(r"\\\g<0>", text).replace("<", "\\<")
    return _NUMBERED.sub(r"\1\\.", escaped)


@functools.lru_cache(maxsize=4096)
def safe_name(name: str, fallback: str = "") -> str:
    """Return a member's name as boards show it: one line, markdown, mentions, times and
    emoji (``<t:0:R>``, ``<:name:id>``) escaped, and a web address in it no link (a
    zero-width space after its ``:``, as after a mention's ``@``).

    Joiners and variation selectors stay (an emoji family is one emoji; Persian and Indic
    words are spelt right); control characters, bidi controls and line breaks go. A name
    that would show blank (only spaces such as U+3000, or letters that show as nothing,
    such as U+3164) becomes ``fallback`` (the account name) or "a player". Cut at
    :data:`NAME_LIMIT` characters, never inside an emoji, a flag or an escape; a name
    with right-to-left letters is :func:`isolated` (its isolate counted in the limit).
    Remembered for the last few thousand names: every click asks for its member's.
    """
    text = _made_safe(one_line(name) or one_line(fallback) or "a player")
    limit = NAME_LIMIT - (2 if isolated(text) != text else 0)
    if len(text) > limit:
        text = text[:group_start(text, limit)]
        if (len(text) - len(text.rstrip("\\"))) % 2:  # an escape's backslash alone
            text = text[:-1]
    return isolated(text)


def shown_name(member: discord.User | discord.Member) -> str:
    """Return the name a member goes by, as they wrote it: their server nickname, else
    their global name, else their account name (:func:`first_shown`)."""
    return first_shown(member.display_name, member.global_name, member.name)


def first_shown(*names: object) -> str:
    """Return the first of ``names`` that shows as something (a nickname of only U+3164
    gives way to the next), as text; "" if none does."""
    return next((str(n) for n in names if n and one_line(str(n))), "")


def member_name(member: discord.User | discord.Member) -> str:
    """Return a member's name as boards show it: :func:`shown_name` made safe
    (:func:`safe_name`)."""
    return safe_name(shown_name(member))


def plain(text: str) -> str:
    """Return ``text`` (which may hold names made safe by :func:`safe_name`) as a place
    that shows text as it is must show it: without the escapes."""
    if "\\" not in text and "\u200b" not in text:
        return text
    return _ESCAPE.sub(lambda match: match.group(1) or "", text)


def read_length(text: str) -> int:
    """Return how long ``text`` (which may hold names made safe by :func:`safe_name`) is
    once :func:`plain`: the characters a screen reader is given."""
    return len(plain(text))


def short_name(name: str, room: float) -> str:
    """Return a name made safe by :func:`safe_name`, cut to ``room`` letters' room as
    shown (:mod:`bot.text.widths`; marked "…") and made safe again: a cut never splits an
    escape."""
    shown = plain(name)
    if fits(shown, room):
        return name
    return _made_safe(clip_name(shown, room))


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
