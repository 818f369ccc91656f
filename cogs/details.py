""""Rules & details" as pages a phone shows whole: the rules, the icons, the cards (or the
table), the last turns.

Each game's cog gives its sections as fields (:class:`Section`); :func:`pages` cuts each
section into pages of at most :data:`PAGE_LINES` phone lines (a long field goes on over
the next page), and :func:`page_body` draws one page as a private message with buttons
to the other sections (and the section's next page). Those buttons are board components
(``table.rules.<section>.<page>``), so they work after a restart, and a click on one
edits the private message in place.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.boards.layout import BoardButton, action_button, view_of
from bot.boards.render import TABLE_RULES
from bot.games.protocol import Action
from bot.text.widths import cut_to

#: The most phone lines (38 characters) of text a page's embed holds, so that the page
#: with its two rows of buttons fits one phone screen.
PAGE_LINES = 19
#: Characters on a phone line of an embed.
WIDTH = 38


@dataclass(slots=True)
class Section:
    """One section of "Rules & details": its button's label, its title, its fields."""

    key: str
    label: str
    title: str
    fields: list[tuple[str, str]] = field(default_factory=list)


def _wrapped(line: str) -> list[str]:
    """Return ``line`` wrapped to phone lines (between words; a hyphenated word whole)."""
    return textwrap.wrap(line, WIDTH, break_on_hyphens=False)


def _lines(text: str) -> int:
    """Return the phone lines ``text`` takes (each line wrapped alone)."""
    return sum(len(_wrapped(line)) or 1 for line in text.split("\n")) if text else 0


#: Where a line going on over the next page is cut, best first: after a sentence, between
#: two items of a list ("· Betrayal 🐉🪢 · Lunatic"), after a clause; and how much of the
#: mark stays on the first page.
PAGE_BREAKS = ((". ", 1), (" · ", 0), ("; ", 1), (", ", 1))


def _cut(value: str, room: int) -> tuple[str, str]:
    """Cut ``value`` after at most ``room`` phone lines: (the part that fits, the rest).

    A line that does not fit after others goes whole to the next page (an item of a list
    is never split); a first line longer than the room is cut after a sentence or
    between two items where one ends in the second half of what fits, else between words
    (never inside a hyphenated word)."""
    kept: list[str] = []
    used = 0
    lines = value.split("\n")
    for index, line in enumerate(lines):
        wrapped = _wrapped(line) or [""]
        if used + len(wrapped) <= room:
            kept.append(line)
            used += len(wrapped)
            continue
        fits = room - used
        if fits > 0 and not kept:  # one line longer than the page: it goes on over the next
            end = 0
            for piece in wrapped[:fits]:  # where the pieces sit in the line as written
                at = line.find(piece, end)
                end = at + len(piece) if at >= 0 else end + len(piece) + 1
            head = line[:end]
            while len(_wrapped(head)) > fits and " " in head.strip():  # a tab wrapped wide
                head = head.rstrip()[:head.rstrip().rfind(" ")]
            for mark, keep in PAGE_BREAKS:
                at = head.rfind(mark)
                if at >= end // 2:
                    head = head[:at + keep]
                    break
            kept.append(head.rstrip())
            rest = [line[len(head):].lstrip(" ·"), *lines[index + 1:]]
        else:
            rest = lines[index:]
        return "\n".join(kept), "\n".join(rest)
    return "\n".join(kept), ""


def paginate(fields: Sequence[tuple[str, str]], budget: int = PAGE_LINES) -> list[
        list[tuple[str, str]]]:
    """Return ``fields`` laid out on pages of at most ``budget`` phone lines each (a field
    too long for what is left of a page goes on over the next, "(continued)")."""
    pages: list[list[tuple[str, str]]] = [[]]
    used = 0
    for name, value in fields:
        value = value or "—"
        while value:
            room = budget - used - _lines(name)
            if room < 2 and pages[-1]:  # not even two lines left: a new page
                pages.append([])
                used = 0
                continue
            part, value = _cut(value, max(room, 1))
            pages[-1].append((name, part or "—"))
            used += _lines(name) + _lines(part)
            if value:
                name = f"{name.split(' (continued)')[0]} (continued)"
                pages.append([])
                used = 0
    return [p for p in pages if p] or [[]]


def page_keys(sections: Sequence[Section]) -> list[tuple[str, int, int]]:
    """Return every page as (section key, page index, pages in the section)."""
    keys = []
    for section in sections:
        count = len(paginate(section.fields))
        keys += [(section.key, i, count) for i in range(count)]
    return keys


def read_page(sections: Sequence[Section], page: str) -> tuple[Section, int]:
    """Return the section and page index ``page`` names ("cards.1"), the first if unknown."""
    key, _, number = page.partition(".")
    section = next((s for s in sections if s.key == key), sections[0])
    index = int(number) if number.isascii() and number.isdigit() else 0
    return section, min(index, len(paginate(section.fields)) - 1)


def page_action(key: str, index: int) -> str:
    """Return the action id of the button that shows page ``index`` of section ``key``."""
    return f"{TABLE_RULES}.{key}.{index}"


def page_body(game_id: int, version: int, sections: Sequence[Section], page: str,
              colour: int) -> dict[str, Any]:
    """Return one page of "Rules & details" as a private message: its embed, and a button
    for each section (the one shown marked; on a section's later pages it leads back to
    the first) and for the section's next page."""
    section, index = read_page(sections, page)
    laid = paginate(section.fields)
    title = section.title + (f" ({index + 1}/{len(laid)})" if len(laid) > 1 else "")
    embed = discord.Embed(title=title[:256], colour=colour)
    for name, value in laid[index]:
        embed.add_field(name=cut_to(name, 256), value=cut_to(value, 1024), inline=False)
    buttons: list[BoardButton] = []
    for s in sections:
        here = s.key == section.key
        buttons.append(action_button(
            game_id, version, Action(page_action(s.key, 0), s.label),
            style=discord.ButtonStyle.primary if here else discord.ButtonStyle.secondary,
            disabled=here and len(laid) == 1))
    if index + 1 < len(laid):  # on the last page, the section's button leads back
        buttons.append(action_button(
            game_id, version, Action(page_action(section.key, index + 1),
                                     f"Page {index + 2} of {len(laid)}")))
    for number, button in enumerate(buttons):
        button.row = number // 3
    return {"embeds": [embed], "view": view_of(buttons)}
