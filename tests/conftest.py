"""Shared fixtures: the offline fake Discord, its driver, and failing on error logs."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Iterator

import discord.http
import pytest

from tests.fake_discord import Driver, FakeDiscord

WATCHED_LOGGERS = ("discord", "bot", "cogs", "db", "asyncio")
"""Loggers (and their children) whose ERROR records fail the test that produced them
(asyncio: a background task that died with an exception nobody retrieved)."""


def pytest_configure(config: pytest.Config) -> None:
    """Register the markers that relax the checks below."""
    config.addinivalue_line(
        "markers", "limits_expected: the test means to send bodies that break Discord's limits"
    )
    config.addinivalue_line(
        "markers", "error_logs_expected: the test means to make the bot log errors"
    )


def _watched(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in WATCHED_LOGGERS)


@pytest.fixture(autouse=True)
def fail_on_error_logs(
    request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture
) -> Iterator[None]:
    """Fail a test when discord.py, bot, cogs or db logged an ERROR (swallowed exceptions)."""
    yield
    if request.node.get_closest_marker("error_logs_expected"):
        return
    bad = [
        record
        for phase in ("setup", "call")
        for record in caplog.get_records(phase)
        if record.levelno >= logging.ERROR and _watched(record.name)
    ]
    if bad:
        lines = [f"{r.name} {r.levelname}: {r.getMessage()}\n{r.exc_text or ''}" for r in bad]
        pytest.fail("error logged during the test:\n" + "\n".join(lines), pytrace=False)


@pytest.fixture
async def fake_discord(request: pytest.FixtureRequest) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord with discord.py's ``Route.BASE`` pointed at it for the test."""
    previous = discord.http.Route.BASE
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    try:
        yield fake
    finally:
        discord.http.Route.BASE = previous
        await fake.stop()
    if fake.limit_violations and not request.node.get_closest_marker("limits_expected"):
        broken = "\n".join(str(v) for v in fake.limit_violations)
        pytest.fail(f"Discord would refuse these bodies:\n{broken}", pytrace=False)
    if fake.unhandled:
        routes = "\n".join(f"{r.method} {r.path}" for r in fake.unhandled)
        pytest.fail(f"the fake has no route for:\n{routes}", pytrace=False)


@pytest.fixture
async def discord_driver(fake_discord: FakeDiscord) -> AsyncIterator[Driver]:
    """A driver over ``fake_discord``; closes every client it logged in."""
    driver = Driver(fake_discord)
    try:
        yield driver
    finally:
        await driver.close()
