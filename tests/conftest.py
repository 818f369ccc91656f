"""Shared fixtures: the offline fake Discord, its driver, and failing on error logs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import asyncpg
import discord.http
import pytest

from db.store import Store
from tests.ci import missing
from tests.db.pg_server import PgServer, find_bin
from tests.db.sql_console import ConsoleStore, SqlConsole
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
    config.addinivalue_line(
        "markers", "sqlite_only: the test is about SQLite itself; not run on PostgreSQL"
    )


def _watched(name: str) -> bool:
    return any(name == root or name.startswith(root + ".") for root in WATCHED_LOGGERS)


class _ErrorRecords(logging.Handler):
    """Keeps the ERROR records of the watched loggers (its own list: a test's
    ``caplog.clear()`` does not empty it)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        """Keep ``record`` if a watched logger made it."""
        if _watched(record.name):
            self.records.append(record)


@pytest.fixture(autouse=True)
def fail_on_error_logs(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test when discord.py, bot, cogs or db logged an ERROR (swallowed exceptions)."""
    errors = _ErrorRecords()
    root = logging.getLogger()
    root.addHandler(errors)
    try:
        yield
    finally:
        root.removeHandler(errors)
    if request.node.get_closest_marker("error_logs_expected"):
        return
    bad = errors.records
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
    if fake.crashes:
        crashed = "\n".join(f"{r.method} {r.path}: {why}" for r, why in fake.crashes)
        pytest.fail(f"the fake failed on these requests:\n{crashed}", pytrace=False)


@pytest.fixture
async def discord_driver(fake_discord: FakeDiscord) -> AsyncIterator[Driver]:
    """A driver over ``fake_discord``; closes every client it logged in."""
    driver = Driver(fake_discord)
    try:
        yield driver
    finally:
        await driver.close()


# -- both database backends ---------------------------------------------------------------

BACKENDS = ("sqlite", "postgresql")

#: Modules whose every test runs once on SQLite and once on PostgreSQL.
BOTH_BACKENDS = (
    "tests/table/test_tables.py",
    "tests/cogs/test_records.py",
    "tests/db/",
)

#: Tests that are about SQLite itself, with the reason they do not run on PostgreSQL.
SQLITE_ONLY = {
    "test_locked_database_refuses_cleanly": "a second SQLite connection holds the file lock",
    "test_leaderboard_reads_only_the_covering_index": "reads SQLite's query plan",
}

def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run the database tests on both backends (``backend`` is "sqlite" or "postgresql"):
    those of :data:`BOTH_BACKENDS` that open a database (under ``tmp_path``), and those
    asking for ``backend``."""
    path = metafunc.definition.path.as_posix()
    wanted = "backend" in metafunc.fixturenames or (
        any(part in path for part in BOTH_BACKENDS)
        and "tmp_path" in metafunc.fixturenames  # a test without one opens no database
        and metafunc.definition.originalname not in SQLITE_ONLY
        and not metafunc.definition.get_closest_marker("sqlite_only")
    )
    if wanted and "backend" not in metafunc.fixturenames:
        metafunc.fixturenames.append("backend")
    if wanted:
        metafunc.parametrize("backend", BACKENDS, indirect=True)


#: The daily secret every test's bot makes (bot.table.daily): a test's daily deal is the
#: same at every run, as a bot's is every day for all its servers.
TEST_DAILY_SECRET = "5ec7e7" * 5 + "01"


@pytest.fixture(autouse=True)
def _same_daily_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal the same daily deals at every run (a real bot makes its secret at random)."""
    monkeypatch.setattr("bot.table.core.new_secret", lambda: TEST_DAILY_SECRET)


@pytest.fixture(autouse=True)
def _database_backend(request: pytest.FixtureRequest) -> None:
    """Set up ``backend`` for tests parametrized over it without asking for it."""
    callspec = getattr(request.node, "callspec", None)
    if callspec is not None and "backend" in callspec.params:
        request.getfixturevalue("backend")


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """A throwaway PostgreSQL server for the whole session (see tests/db/pg_server.py).

    In CI (``CI=true``) a server that cannot start fails the tests; elsewhere it skips the
    PostgreSQL half of them, saying why.
    """
    bindir = find_bin()
    if bindir is None:
        missing("PostgreSQL is not installed (apt-get install postgresql): pg_ctl not found")
    server = PgServer(bindir)
    try:
        server.start()
    except Exception as exc:
        tail = server.log_tail()
        server.stop()
        missing(f"the test PostgreSQL server did not start: {exc}\n{tail}")
    yield server
    server.stop()


async def _drop(admin_url: str, url: str) -> None:
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {url.rsplit('/', 1)[1]} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture
def pg_url(pg_server: PgServer) -> Iterator[str]:
    """The URL of a fresh, migrated PostgreSQL database, dropped after the test."""
    url = asyncio.run(pg_server.new_database())
    yield url
    asyncio.run(_drop(pg_server.admin_url, url))


@pytest.fixture
def backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Which database the test runs on. For "postgresql", every ``Store.open(path)`` in
    the test (the table helpers, the bot's start) opens a fresh PostgreSQL database
    instead, whose ``connection`` is a console for the few direct SQL pokes."""
    if request.param == "sqlite":
        return "sqlite"
    server: PgServer = request.getfixturevalue("pg_server")
    url: str = request.getfixturevalue("pg_url")

    async def open_postgres(cls: Any, path: Any, clock: Any, **_sqlite: Any) -> ConsoleStore:
        store = await ConsoleStore.open(url, clock)
        store.console = SqlConsole(store, server.admin_url, url.rsplit("/", 1)[1])
        return store

    monkeypatch.setattr(Store, "open", classmethod(open_postgres))
    return "postgresql"


@pytest.fixture
def away_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let a table hand any seat to a computer at once, whoever's turn it is: for tests
    of what an away seat does and how its person comes back. The wait before a seat may
    be handed on (C6: an absent player keeps the table waiting) is pinned by
    ``test_c6_majority_hands_an_absent_seat_to_a_computer`` and
    ``tests/table/test_away_wait.py``."""
    from bot.table.turns import TurnPolicy

    monkeypatch.setattr(TurnPolicy, "_check_absent", lambda self, game, absent: None)
