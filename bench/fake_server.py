"""The offline fake Discord for benchmarks, served on its own (its own process, its own CPU).

``python -m bench.fake_server`` starts a :class:`BenchFake` on a free loopback port,
prints one JSON line ``{"api_base": ..., "gateway_url": ..., "token": ..., "pid": ...}``
and serves until it is sent SIGTERM or SIGINT. A benchmark then points
``discord.http.Route.BASE`` at ``api_base`` and feeds interactions to an in-process bot;
the fake's HTTP server, JSON and limit checks then run on the other core instead of the
bot's event loop.

:class:`BenchFake` differs from the test fake in three ways, none of which the bot can
see:

* interactions need not be registered beforehand (registering means a round trip to this
  process): an interaction the fake has never heard of is accepted on its callback when
  its token is one of :func:`bench_token`'s, which carries what the fake needs to know;
* no 3-second deadline (queueing with 1,000 clicks in flight is measured, not refused);
* a few plain routes under ``/bench/`` (outside ``/api/v10``, so never counted as the
  bot's requests): ``GET /bench/world`` (ids, members), ``POST /bench/channels``
  (``{"count": n}``: create channels, returns their payloads), ``GET /bench/stats``
  (requests received so far by kind and status, limit violations, this process's CPU
  seconds) and ``GET /bench/message/<id>`` (a message as it stands, for a benchmark
  whose click was answered late: deferred, then edited).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import time
from collections import Counter
from typing import Any

from aiohttp import web

from tests.fake_discord.server import (
    API_PREFIX,
    FakeDiscord,
    InteractionRecord,
    _Call,
    json_response,
)

TOKEN_PREFIX = "bench"
"""The first part of every token :func:`bench_token` builds."""


def bench_token(
    interaction_type: int, channel_id: int, message_id: int | None, user_id: int, serial: int
) -> str:
    """Return an interaction token :class:`BenchFake` accepts without prior registration."""
    return f"{TOKEN_PREFIX}.{interaction_type}.{channel_id}.{message_id or 0}.{user_id}.{serial}"


class BenchFake(FakeDiscord):
    """The fake Discord with self-describing interaction tokens and ``/bench/`` routes."""

    def __init__(self) -> None:
        super().__init__()
        self.response_deadline = None

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port, with the ``/bench/`` routes added."""
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/bench/world", self._world)
        app.router.add_post("/bench/channels", self._channels)
        app.router.add_get("/bench/stats", self._stats)
        app.router.add_get("/bench/message/{message_id}", self._message)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._changed = asyncio.Condition()

    def _interaction(self, call: _Call, by: str) -> InteractionRecord:
        if by == "id" and call.id("interaction") not in self.interactions:
            self._register_from_token(call.id("interaction"), call.match.group("token"))
        return super()._interaction(call, by)

    def _register_from_token(self, interaction_id: int, token: str) -> None:
        """Remember an interaction described by its :func:`bench_token` token."""
        parts = token.split(".")
        if len(parts) != 6 or parts[0] != TOKEN_PREFIX:
            return
        kind, channel_id, message_id, user_id = (int(part) for part in parts[1:5])
        member = next((u for u in self.users.values() if u.id == user_id), self.user())
        self.interactions[interaction_id] = InteractionRecord(
            id=interaction_id,
            token=token,
            type=kind,
            channel_id=channel_id,
            user_id=user_id,
            created=time.monotonic(),
            payload={"member": member.member_payload()},
            message_id=message_id or None,
        )

    async def _world(self, request: web.Request) -> web.Response:
        return json_response({
            "api_base": self.api_base,
            "token": self.token,
            "guild_id": str(self.guild_id),
            "application_id": str(self.application_id),
            "members": {name: {"id": str(u.id), "member": u.member_payload()}
                        for name, u in self.users.items()},
        })

    async def _channels(self, request: web.Request) -> web.Response:
        count = int((await request.json())["count"])
        created = [self.add_channel(f"table-{len(self.channels) + i}") for i in range(count)]
        return json_response([self.channels[c] for c in created])

    async def _message(self, request: web.Request) -> web.Response:
        message = self.get_message(int(request.match_info["message_id"]))
        if message is None:
            raise web.HTTPNotFound()
        return json_response(message)

    async def _stats(self, request: web.Request) -> web.Response:
        return json_response(self.stats())

    def stats(self) -> dict[str, Any]:
        """Return what the fake received so far: requests by kind and status, and its CPU."""
        kinds: Counter[str] = Counter()
        statuses: Counter[int] = Counter()
        callback_types: Counter[int] = Counter()
        for record in self.requests:
            if record.path.endswith("/callback"):
                kinds["callback"] += 1
                if isinstance(record.json, dict) and "type" in record.json:
                    callback_types[int(record.json["type"])] += 1
            else:
                kinds[f"{record.method} {record.path.split('/')[1]}"] += 1
            statuses[record.status] += 1
        return {
            "requests": len(self.requests),
            "kinds": dict(kinds),
            "callback_types": {str(k): v for k, v in callback_types.items()},
            "statuses": {str(k): v for k, v in statuses.items()},
            "limit_violations": len(self.limit_violations),
            "unhandled": len(self.unhandled),
            "cpu_seconds": time.process_time(),
        }


async def serve() -> None:
    """Start a :class:`BenchFake`, print where it listens, serve until SIGTERM or SIGINT."""
    fake = BenchFake()
    await fake.start()
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stopped.set)
    print(json.dumps({"api_base": fake.api_base, "gateway_url": fake.gateway_url,
                      "token": fake.token, "pid": os.getpid()}), flush=True)
    await stopped.wait()
    with contextlib.suppress(Exception):
        await fake.stop()


NICENESS = 5
"""How much lower the fake's scheduling priority is than the bot's: it stands in for
Discord's servers, which are not on the bot's machine in service, so where both want
the same processor the bot goes first (as its picture worker lets it, at the same
niceness)."""


def main(argv: list[str] | None = None) -> int:
    """Serve the benchmark fake Discord until killed."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    with contextlib.suppress(OSError):
        os.nice(NICENESS)
    asyncio.run(serve())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
