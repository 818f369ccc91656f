"""The guard that fails a test on an ERROR logged by discord.py or the bot keeps its own
records: a test that clears ``caplog`` does not clear them."""

from __future__ import annotations

import logging

import pytest

from tests.conftest import _ErrorRecords


@pytest.mark.error_logs_expected  # the errors below are the test's own
def test_the_guard_sees_an_error_a_test_cleared_from_caplog(
        caplog: pytest.LogCaptureFixture) -> None:
    """An ERROR of discord.py's logger, then ``caplog.clear()``: still kept; a logger
    the guard does not watch (aiohttp's) and a WARNING are not."""
    guard = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(guard)
    try:
        logging.getLogger("discord.client").error("Ignoring exception in on_interaction")
        logging.getLogger("aiohttp.access").error("not watched")
        logging.getLogger("bot.boards").warning("a warning")
        caplog.clear()
    finally:
        root.removeHandler(guard)
    assert [r.name for r in guard.records] == ["discord.client"]
    assert caplog.records == []
