"""The errors every store raises, whichever database is behind it."""

from __future__ import annotations


class StorageError(Exception):
    """The database cannot be written or read right now (locked, read-only, gone, broken).
    ``sent``: the request had reached a connection when it failed (it may have been
    carried out all the same); False when no connection was had."""

    def __init__(self, *args: object, sent: bool = False) -> None:
        super().__init__(*args)
        self.sent = sent


class ChannelBusy(Exception):
    """The channel already has an open game (ruling C3)."""

    def __init__(self, game_id: int | None) -> None:
        super().__init__(f"channel already has open game {game_id}")
        self.game_id = game_id


class DailyPlayed(Exception):
    """The channel already played this day's daily deal of this kind."""


class VersionConflict(Exception):
    """The game moved on since it was loaded (compare-and-swap failed)."""


class NotEmpty(Exception):
    """A copy was refused because the target database already holds data."""


class TooManyOpen(Exception):
    """The starter already has the most open games a server allows (the create's cap)."""

    def __init__(self, cap: int) -> None:
        super().__init__(f"the starter already has {cap} open games here")
        self.cap = cap
