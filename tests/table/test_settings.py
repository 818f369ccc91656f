"""A server's settings: typed over the bot's defaults, bounds checked, read once per
server and process (no read per click), replaced at once on change."""

from __future__ import annotations

from typing import Any

import pytest

from bot.table.errors import Refusal, Unavailable
from bot.table.settings import FRESH_SECONDS, ServerBook, ServerSettings, checked, resolve
from db.errors import StorageError

DEFAULTS = ServerSettings(vote_window_seconds=30.0, threads=False, notice_grace_seconds=45.0,
                          pictures=True, max_open_games=5)


class CountingStore:
    """A store holding server settings in a dict that counts its reads."""

    def __init__(self) -> None:
        self.rows: dict[int, dict[str, Any]] = {}
        self.reads = 0
        self.down = False

    async def server_settings(self, guild_id: int) -> dict[str, Any]:
        self.reads += 1
        if self.down:
            raise StorageError("database is locked")
        return dict(self.rows.get(guild_id, {}))

    async def set_server_settings(self, guild_id: int, changes: dict[str, Any]) -> dict[str, Any]:
        if self.down:
            raise StorageError("database is locked")
        row = self.rows.setdefault(guild_id, {})
        for name, value in changes.items():
            if value is None:
                row.pop(name, None)
            else:
                row[name] = value
        return dict(row)


class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_stored_values_override_defaults_and_keep_their_types():
    """What a server stored replaces the default, typed as the default is."""
    settings = resolve(DEFAULTS, {"vote_window_seconds": 45, "threads": 1, "max_open_games": 2.0})
    assert settings == ServerSettings(45.0, True, 45.0, True, 2)
    assert isinstance(settings.max_open_games, int) and settings.threads is True
    assert resolve(DEFAULTS, {}) == DEFAULTS


@pytest.mark.parametrize(("name", "value", "reason"), [
    ("vote_window_seconds", 5, "from 10 to 600"),
    ("vote_window_seconds", 601, "from 10 to 600"),
    ("notice_grace_seconds", -1, "from 0 to 3600"),
    ("max_open_games", 101, "from 0 to 100"),
    ("colour", 3, "no setting called colour"),
])
def test_values_out_of_bounds_are_refused(name, value, reason):
    """A value out of its bounds is refused with its reason."""
    with pytest.raises(Refusal, match=reason):
        checked({name: value})


async def test_one_read_per_server_however_many_clicks():
    """A server's settings are read once, then served from memory."""
    store = CountingStore()
    store.rows[1] = {"pictures": False}
    book = ServerBook(store, DEFAULTS, Ticks())
    assert book.cached(1) == DEFAULTS  # not read yet: the defaults
    for _ in range(100):
        assert (await book.get(1)).pictures is False
    assert store.reads == 1 and book.cached(1).pictures is False
    assert await book.get(None) == DEFAULTS and store.reads == 1


async def test_a_change_replaces_this_processs_copy_at_once():
    """A change through the book is seen at once, with no read."""
    store = CountingStore()
    book = ServerBook(store, DEFAULTS, Ticks())
    await book.get(1)
    changed = await book.change(1, {"threads": True, "vote_window_seconds": 60})
    assert changed.threads and changed.vote_window_seconds == 60.0
    assert (await book.get(1)) == changed and store.reads == 1
    back = await book.change(1, {"threads": None})
    assert back.threads is False and back.vote_window_seconds == 60.0


async def test_another_processs_change_is_seen_after_a_while():
    """A change written elsewhere is read once this copy is older than FRESH_SECONDS."""
    store, ticks = CountingStore(), Ticks()
    book = ServerBook(store, DEFAULTS, ticks)
    await book.get(1)
    store.rows[1] = {"max_open_games": 0}
    ticks.now += FRESH_SECONDS - 1
    assert (await book.get(1)).max_open_games == 5
    ticks.now += 2
    assert (await book.get(1)).max_open_games == 0 and store.reads == 2


async def test_an_unreadable_store_gives_the_last_copy_or_the_defaults():
    """Games still start while the store cannot be read; a change says nothing changed."""
    store, ticks = CountingStore(), Ticks()
    book = ServerBook(store, DEFAULTS, ticks)
    store.rows[1] = {"threads": True}
    await book.get(1)
    store.down = True
    ticks.now += FRESH_SECONDS + 1
    assert (await book.get(1)).threads is True
    assert await book.get(2) == DEFAULTS
    with pytest.raises(Unavailable):
        await book.change(1, {"threads": False})
    store.down = False
    assert (await book.get(2)) == DEFAULTS and store.reads == 4


async def test_new_defaults_apply_to_every_server():
    """Changing the bot's defaults drops every copy resolved against the old ones."""
    store = CountingStore()
    book = ServerBook(store, DEFAULTS, Ticks())
    await book.get(1)
    book.defaults = ServerSettings(max_open_games=2)
    assert book.cached(1).max_open_games == 2
    assert (await book.get(1)).max_open_games == 2 and store.reads == 2


def test_lines_say_each_setting_in_plain_words():
    """Each setting has its line; 0 means at once and no limit."""
    lines = ServerSettings(notice_grace_seconds=0, max_open_games=0, threads=True).lines()
    assert lines == ["Votes stay open 30 s", "Each game in its own thread: on",
                     "Turn notices: mention at once", "Board pictures: on",
                     "Open games per member: no limit"]


def test_a_fraction_of_a_second_from_the_env_is_shown_as_used():
    """The .env takes fractions: the lines and the summary show what the bot waits, not
    the whole seconds below it (0.5 s is not "at once")."""
    settings = ServerSettings(vote_window_seconds=10.5, notice_grace_seconds=0.5)
    lines = settings.lines()
    assert lines[0] == "Votes stay open 10.5 s"
    assert lines[2] == "Turn notices: mention after 0.5 s"
    assert "Votes 10.5 s" in settings.summary() and "after 0.5 s" in settings.summary()
