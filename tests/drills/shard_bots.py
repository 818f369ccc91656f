"""Bot processes running some of the shards, and a fake Discord that knows who sent what.

Run as a module (``python -m tests.drills.shard_bots``) this is the real bot process with
only the Tinker cog, like ``tests.run_tinker_bot``, except that every HTTP request it
sends carries the header :data:`PROCESS_HEADER` set to ``$TABLEHOUSE_PROCESS_TAG`` (an
aiohttp trace on discord.py's own session, so interaction callbacks carry it too).
:class:`TaggedFake` reads that header: which process answered each interaction, which
process edited which channel, and which of the fake's connections belong to a process.

The database checks here are those of ``tests/drills/checks.py`` over rows read from
either SQLite or PostgreSQL.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from tests.drills.checks import replay
from tests.fake_discord.payloads import iter_components
from tests.fake_discord.server import ApiError, FakeDiscord, RecordedRequest, _Call

PROCESS_HEADER = "X-Tablehouse-Process"
"""The request header naming the bot process that sent a request."""

TAG_ENV = "TABLEHOUSE_PROCESS_TAG"
"""The environment variable giving a bot process its name for :data:`PROCESS_HEADER`."""

UNTAGGED = "?"
"""The tag of a request that carried no :data:`PROCESS_HEADER`."""


# -- the bot process ------------------------------------------------------------------------


def tagging_trace(tag: str) -> aiohttp.TraceConfig:
    """An aiohttp trace that adds ``PROCESS_HEADER: tag`` to every request it sees start."""
    trace = aiohttp.TraceConfig()

    async def name_the_process(
        session: aiohttp.ClientSession,
        context: Any,
        params: aiohttp.TraceRequestStartParams,
    ) -> None:
        params.headers[PROCESS_HEADER] = tag

    trace.on_request_start.append(name_the_process)
    return trace


def run() -> int:
    """Run the Tinker bot with its requests tagged by ``$TABLEHOUSE_PROCESS_TAG``."""
    import bot.client
    from bot.runner import main

    tag = os.environ.get(TAG_ENV, "").strip()
    if tag:
        original = bot.client.create_bot

        def create_tagged_bot(settings: Any, **kwargs: Any) -> bot.client.TableBot:
            return original(settings, http_trace=tagging_trace(tag), **kwargs)

        bot.client.create_bot = create_tagged_bot  # type: ignore[assignment]
    return main(cogs=("cogs.tinker",))


# -- the fake ---------------------------------------------------------------------------


def board_version(components: Iterable[Mapping[str, Any]]) -> int | None:
    """The board version carried by a message's game components (None: there are none)."""
    versions = {
        int(str(c["custom_id"]).split(":")[2])
        for c in iter_components(components)
        if str(c.get("custom_id", "")).startswith(("g1:", "s1:"))
    }
    assert len(versions) <= 1, versions
    return versions.pop() if versions else None


@dataclass
class CallbackAttempt:
    """One POST of an interaction callback: who sent it and what the fake said."""

    interaction_id: int
    tag: str
    status: int
    code: int | None
    """Discord's JSON error code when refused (40060: already acknowledged)."""
    response_type: int | None
    shown_version: int | None
    """The board version in the answer (UPDATE_MESSAGE with a game's components)."""


class TaggedFake(FakeDiscord):
    """A :class:`FakeDiscord` noting the :data:`PROCESS_HEADER` of every request."""

    def __init__(self) -> None:
        super().__init__()
        self.request_tags: dict[int, str] = {}
        """Tag of each recorded request, by ``id()`` of its :class:`RecordedRequest`."""
        self.port_tags: dict[int, str] = {}
        """Tag of the process behind each client port the fake has served requests on."""
        self.attempts: list[CallbackAttempt] = []
        """Every interaction callback received, in order."""

    def tag_of(self, record: RecordedRequest) -> str:
        """The process that sent ``record``."""
        return self.request_tags.get(id(record), UNTAGGED)

    def answers(self, interaction_id: int) -> list[CallbackAttempt]:
        """Every callback attempt for one interaction, in the order received."""
        return [a for a in self.attempts if a.interaction_id == interaction_id]

    def open_ports_of(self, tag: str) -> list[int]:
        """Client ports of connections still open to the fake that ``tag`` sent requests on."""
        assert self._runner is not None and self._runner.server is not None
        open_ports = []
        for handler in self._runner.server.connections:
            transport = handler.transport
            peer = transport.get_extra_info("peername") if transport is not None else None
            if peer and self.port_tags.get(int(peer[1])) == tag:
                open_ports.append(int(peer[1]))
        return open_ports

    def sessions_given(self, interaction_id: int) -> list[str]:
        """The gateway sessions the INTERACTION_CREATE ``interaction_id`` was sent to."""
        given = []
        for session in self.gateway.sessions.values():
            if any(int(d["id"]) == interaction_id for d in session.received("INTERACTION_CREATE")):
                given.append(session.session_id)
        return given

    async def _handle(self, request: web.Request) -> web.Response:
        transport = request.transport
        peer = transport.get_extra_info("peername") if transport is not None else None
        if peer:
            self.port_tags[int(peer[1])] = request.headers.get(PROCESS_HEADER, UNTAGGED)
        return await super()._handle(request)

    async def _answer(
        self, request: web.Request, path: str, record: RecordedRequest
    ) -> web.Response:
        self.request_tags[id(record)] = request.headers.get(PROCESS_HEADER, UNTAGGED)
        return await super()._answer(request, path, record)

    async def _callback(self, call: _Call) -> web.Response:
        interaction_id = call.id("interaction")
        tag = call.request.headers.get(PROCESS_HEADER, UNTAGGED)
        body = call.body if isinstance(call.body, dict) else {}
        kind = body.get("type")
        data = body.get("data") or {}
        shown = board_version(data.get("components") or []) if kind == 7 else None
        try:
            response = await super()._callback(call)
        except ApiError as error:
            self.attempts.append(
                CallbackAttempt(interaction_id, tag, error.status, error.code, kind, shown)
            )
            raise
        self.attempts.append(
            CallbackAttempt(interaction_id, tag, response.status, None, kind, shown)
        )
        return response


# -- the database afterwards ----------------------------------------------------------------


@dataclass
class StoredGame:
    """A game row and its action log, as read back from either database."""

    id: int
    status: str
    version: int
    channel_id: int
    state: str | None
    options: str
    log: list[tuple[int, dict[str, Any]]]
    """``(seq, action entry)`` in the order of seq."""

    def moves(self) -> dict[int, str]:
        """The engine moves of the log, by the version each produced."""
        return {seq: entry["action"] for seq, entry in self.log if "action" in entry}


GAMES_SQL = "SELECT id, status, version, channel_id, state, options FROM games ORDER BY id"
LOG_SQL = "SELECT game_id, seq, action FROM actions ORDER BY game_id, seq"


def _assemble(games: Iterable[Any], log: Iterable[Any]) -> list[StoredGame]:
    stored = {
        int(g[0]): StoredGame(int(g[0]), g[1], int(g[2]), int(g[3]), g[4], g[5], [])
        for g in games
    }
    for game_id, seq, action in log:
        stored[int(game_id)].log.append((int(seq), json.loads(action)))
    return list(stored.values())


def read_sqlite(path: Path) -> list[StoredGame]:
    """Every game and its log from the SQLite file at ``path`` (which must pass integrity_check)."""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        return _assemble(conn.execute(GAMES_SQL).fetchall(), conn.execute(LOG_SQL).fetchall())
    finally:
        conn.close()


async def read_postgres(url: str) -> list[StoredGame]:
    """Every game and its log from the PostgreSQL database at ``url``."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        async with conn.transaction(isolation="repeatable_read", readonly=True):
            games = await conn.fetch(GAMES_SQL)
            log = await conn.fetch(LOG_SQL)
    finally:
        await conn.close()
    return _assemble(games, log)


def check_games(games: list[StoredGame]) -> None:
    """What ``checks.checked_games`` checks, for rows of either backend.

    Every game's action log is exactly one entry per version (1..version, none missing,
    none twice); every stored state loads and equals the replay of its logged moves.
    """
    from bot.games.tinker.engine import ENGINE

    for game in games:
        assert [seq for seq, _ in game.log] == list(range(1, game.version + 1)), game.id
        assert game.state is not None, game.id
        stored = json.loads(game.state)
        ENGINE.load(stored)
        moves = [entry["action"] for _, entry in game.log if "action" in entry]
        assert replay(stored["rng"][0], json.loads(game.options), moves) == stored, game.id


if __name__ == "__main__":
    sys.exit(run())
