"""The channels whose boards Discord lately refused a picture (no Attach Files there):
their boards go as text, without a request refused first, and a picture is tried again
after :data:`NO_PICTURES_SECONDS` (the permission may have been granted since)."""

from __future__ import annotations

import asyncio
from typing import Any

#: How long boards of a channel that refused a board's picture go as text before a
#: picture is tried again, and how many such channels are remembered.
NO_PICTURES_SECONDS = 600.0
NO_PICTURES_KEPT = 1000


class NoPictures:
    """The latest :data:`NO_PICTURES_KEPT` channels that refused a board's picture, with
    when (the event loop's clock)."""

    def __init__(self) -> None:
        self._refused: dict[int, float] = {}

    def as_text(self, channel_id: int) -> dict[str, Any]:
        """Return how a board of ``channel_id`` is drawn: as text (``pictured=False``)
        while Discord refused the channel's last picture lately, else as its game says."""
        refused = self._refused.get(channel_id)
        if refused is None:
            return {}
        if asyncio.get_running_loop().time() - refused < NO_PICTURES_SECONDS:
            return {"pictured": False}
        del self._refused[channel_id]  # a picture is tried again (granted since?)
        return {}

    def refused(self, channel_id: int) -> None:
        """Note that Discord refused a board's picture in ``channel_id``."""
        self._refused.pop(channel_id, None)
        self._refused[channel_id] = asyncio.get_running_loop().time()
        if len(self._refused) > NO_PICTURES_KEPT:
            del self._refused[next(iter(self._refused))]
