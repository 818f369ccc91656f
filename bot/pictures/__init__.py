"""Board pictures: a PNG of every game's board, drawn with Pillow from the engine's view.

The Discord side draws with :class:`bot.pictures.drawing.PictureDrawer` (``await
drawer.draw(kind, view, status)``, in a worker process) or :func:`render_board` (in the
calling thread), attaches the bytes as :data:`FILENAME`, and gives the attachment the
alt text of :func:`describe`. Pictures of unchanged views come from a bounded cache.
See docs/pictures.md.
"""

from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Mapping
from typing import Any

from bot.pictures.alt import describe
from bot.pictures.cache import PictureCache, picture_key
from bot.pictures.endings import Ending, ending

FILENAME = "board.png"
"""The attachment name boards use (``attachment://board.png`` in the embed)."""

CACHE = PictureCache(128)
"""Finished pictures by view hash, kind and status (least recently used dropped first)."""

TITLES = {"tinker": "Tinker, Sailor, Soldier, Spy", "steam": "Steam to Solar",
          "tinrealm": "Tin Realm"}
"""Each game's title, for the plain picture."""

log = logging.getLogger(__name__)

Drawer = Callable[[Mapping[str, Any], Ending], bytes]


def _drawer(kind: str, status: str) -> Drawer | None:
    """Return the function that draws ``kind`` in ``status``, or None if nothing is drawn."""
    if status == "lobby":
        from bot.pictures.lobby import draw as lobby

        return lobby
    if kind == "tinker":
        from bot.pictures.tinker import draw as tinker

        return tinker
    if kind == "steam":
        from bot.pictures.steam import draw as steam

        return steam
    if kind == "tinrealm":
        from bot.pictures.tinrealm import draw as tinrealm

        return tinrealm
    return None


def render_board(kind: str, view: dict, *, status: str = "active") -> bytes:
    """Return the board of game ``kind`` as PNG bytes, or ``b""`` when there is nothing to draw.

    ``view`` is the engine's public view; ``status`` the game's status (``active``,
    ``over``, ``abandoned``, ``expired`` or ``lobby``). Missing or odd view fields still
    give a picture; an unknown kind gives ``b""``.
    """
    if not isinstance(view, Mapping):
        return b""
    key = picture_key(kind, view, status)
    cached = CACHE.get(key)
    if cached is not None:
        return cached
    png = draw_picture(kind, view, status)
    CACHE.put(key, png)
    return png


def drawn(kind: str, view: Mapping[str, Any], status: str = "active") -> tuple[bytes, str | None]:
    """Draw the board without the cache (what the worker runs): the picture, and the
    failure's traceback when the board could not be drawn and a plain picture stands in
    for it (None when it was drawn). The caller logs it, naming the game."""
    draw = _drawer(kind, status)
    if draw is None or not isinstance(view, Mapping):
        return b"", None
    look = ending(kind, view, status)
    try:
        return draw(view, look), None
    except Exception:
        return plain(kind, look), traceback.format_exc()


def draw_picture(kind: str, view: Mapping[str, Any], status: str = "active") -> bytes:
    """Draw the board without the cache, in this process (what :func:`render_board` and
    the replays run); a board that cannot be drawn is logged, a plain one drawn."""
    png, failure = drawn(kind, view, status)
    if failure is not None:
        log.error("the %s board could not be drawn; drawing a plain one\n%s", kind,
                  failure.rstrip())
    return png


def plain(kind: str, look: Ending) -> bytes:
    """Return a plain picture naming the game, for a view no board could be drawn from.

    It shows the ending's banner when that can be drawn; if the banner's words are what
    broke the board (a name no font could draw), the title alone: this picture never
    fails for the words that made the board fail.
    """
    from bot.pictures.canvas import Canvas

    title = TITLES.get(kind, kind)
    if look.headline:
        try:
            c = Canvas(look.theme, height=240)
            y = c.banner(c.header(title, ""), look.headline, look.detail)
            return c.png(y)
        except Exception:
            log.exception("the %s ending's banner could not be drawn; the title alone", kind)
    c = Canvas(look.theme, height=240)
    return c.png(c.header(title, ""))


__all__ = ["CACHE", "FILENAME", "describe", "draw_picture", "drawn", "render_board"]
