"""Server settings in the store, on both backends: only what a server chose is kept."""

from __future__ import annotations

import pytest

from db.store import Store
from tests.support import Clock


async def test_nothing_chosen_reads_as_nothing(tmp_path, backend):
    """A server that never set anything has no stored settings."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        assert await store.server_settings(1) == {}
    finally:
        await store.close()


async def test_changes_are_kept_per_server_and_cleared_by_none(tmp_path, backend):
    """Each change is stored for its server alone; None goes back to the default."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        first = await store.set_server_settings(1, {"threads": True, "vote_window_seconds": 45.0})
        assert first == {"threads": True, "vote_window_seconds": 45.0}
        after = await store.set_server_settings(1, {"max_open_games": 2, "pictures": False})
        assert after == {"threads": True, "vote_window_seconds": 45.0, "max_open_games": 2,
                         "pictures": False}
        assert await store.server_settings(1) == after
        assert await store.server_settings(2) == {}
        cleared = await store.set_server_settings(1, {"threads": None,
                                                      "notice_grace_seconds": 0.0})
        assert cleared == {"vote_window_seconds": 45.0, "max_open_games": 2, "pictures": False,
                           "notice_grace_seconds": 0.0}
        assert (await store.count_rows())["server_settings"] == 1
    finally:
        await store.close()


async def test_settings_survive_reopening(tmp_path, backend):
    """What a server chose is read back after the store is opened again."""
    store = await Store.open(tmp_path / "s.db", Clock())
    await store.set_server_settings(7, {"threads": True})
    await store.close()
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        assert await store.server_settings(7) == {"threads": True}
    finally:
        await store.close()


async def test_unknown_setting_is_refused(tmp_path, backend):
    """A name that is not a setting is refused before anything is written."""
    store = await Store.open(tmp_path / "s.db", Clock())
    try:
        with pytest.raises(ValueError, match="unknown"):
            await store.set_server_settings(1, {"colour": 3})
        assert await store.server_settings(1) == {}
    finally:
        await store.close()
