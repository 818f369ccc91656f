"""The fake gateway: a websocket speaking Discord gateway v10 JSON in plain text frames.

discord.py decompresses only binary frames, so text frames work whatever ``compress`` it asks
for. The flow: HELLO; IDENTIFY answered by READY (guilds unavailable) and a GUILD_CREATE;
heartbeats ACKed; RESUME replays the events the session missed, then RESUMED; an unknown
session gets INVALID_SESSION.

Sharding: IDENTIFY may carry ``shard: [shard_id, shard_count]``. A session then gets only
the guilds with ``(guild_id >> 22) % shard_count == shard_id`` in READY and GUILD_CREATE,
and only their events afterwards; events without a guild (DMs) go to shard 0. A bad shard
pair closes the socket with 4010 (Invalid shard), as Discord does.
"""

from __future__ import annotations

import contextlib
import itertools
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from tests.fake_discord.payloads import shard_of

if TYPE_CHECKING:
    from tests.fake_discord.server import FakeDiscord

HEARTBEAT_INTERVAL_MS = 41_250
"""The heartbeat interval announced in HELLO (Discord's usual value)."""

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME = 0, 1, 2, 6
OP_RECONNECT, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 7, 9, 10, 11

CLOSE_INVALID_SHARD = 4010

GUILD_OBJECT_EVENTS = frozenset({"GUILD_CREATE", "GUILD_UPDATE", "GUILD_DELETE"})
"""Events whose ``d`` is the guild itself (its ``id`` is the guild id)."""


def event_guild_id(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, or None (a DM, a user update)."""
    if event in GUILD_OBJECT_EVENTS:
        return int(data["id"])
    guild_id = data.get("guild_id")
    return int(guild_id) if guild_id else None


@dataclass
class GatewaySession:
    """One identified gateway session; it survives its socket so that it can be resumed."""

    session_id: str
    ws: web.WebSocketResponse | None
    seq: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    heartbeats: int = 0
    resumes: int = 0
    shard_id: int = 0
    shard_count: int = 1

    @property
    def shard(self) -> tuple[int, int]:
        """``(shard_id, shard_count)`` as identified (``(0, 1)`` when unsharded)."""
        return self.shard_id, self.shard_count

    def handles(self, guild_id: int | None) -> bool:
        """Whether this session's shard receives the events of ``guild_id`` (None: DMs)."""
        if guild_id is None:
            return self.shard_id == 0
        return shard_of(guild_id, self.shard_count) == self.shard_id

    def received(self, event: str) -> list[dict[str, Any]]:
        """The ``d`` of every ``event`` dispatched to this session, oldest first."""
        return [f["d"] for f in self.events if f["t"] == event]

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame if the socket is open.

        A socket whose client went away is closing before it reads as closed: the frame
        is then lost on the wire, as with Discord (a dispatched event stays in the
        session's sequence, for a RESUME).
        """
        if self.ws is not None and not self.ws.closed:
            with contextlib.suppress(ConnectionResetError):
                await self.ws.send_str(json.dumps(frame))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send a DISPATCH event with the next sequence number (kept for RESUME)."""
        self.seq += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data}
        self.events.append(frame)
        await self.send(frame)


class FakeGateway:
    """The websocket endpoint and its sessions; owned by a :class:`FakeDiscord`."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.sessions: dict[str, GatewaySession] = {}
        self.received: list[dict[str, Any]] = []
        self._sockets: set[web.WebSocketResponse] = set()
        self._serial = itertools.count(1)

    @property
    def connected(self) -> list[GatewaySession]:
        """Sessions with an open socket."""
        return [s for s in self.sessions.values() if s.ws is not None and not s.ws.closed]

    def sessions_for(self, guild_id: int | None) -> list[GatewaySession]:
        """Connected sessions whose shard owns ``guild_id`` (None: shard 0, for DMs)."""
        return [s for s in self.connected if s.handles(guild_id)]

    def session_for_shard(self, shard_id: int) -> GatewaySession | None:
        """The connected session identified as shard ``shard_id``, if any."""
        for session in self.connected:
            if session.shard_id == shard_id:
                return session
        return None

    async def dispatch(self, event: str, data: dict[str, Any]) -> int:
        """Send an event to the connected sessions that should get it; returns how many did.

        A guild's event (``guild_id`` in ``d``, or the guild object itself) goes to the
        sessions of the shard that owns the guild; any other event to shard 0's. Every
        unsharded session is shard 0 of 1, so it gets everything.
        """
        sessions = self.sessions_for(event_guild_id(event, data))
        for session in sessions:
            await session.dispatch(event, data)
        return len(sessions)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT to every connected session (the client should RESUME)."""
        for session in self.connected:
            await session.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    async def wait_for_sessions(
        self, count: int = 1, timeout: float = 15.0
    ) -> list[GatewaySession]:
        """Wait until ``count`` sessions are identified and connected."""
        await self.fake.wait_until(lambda: len(self.connected) >= count, timeout)
        return self.connected

    async def close(self) -> None:
        """Close every socket (clients see code 1001, going away)."""
        for ws in list(self._sockets):
            await ws.close(code=1001, message=b"fake discord stopping")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        """The websocket handler mounted at ``/gateway``."""
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        self._sockets.add(ws)
        session: GatewaySession | None = None
        try:
            hello = {"heartbeat_interval": HEARTBEAT_INTERVAL_MS, "_trace": ["fake-gateway"]}
            await ws.send_str(json.dumps({"op": OP_HELLO, "d": hello, "s": None, "t": None}))
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                self.received.append(frame)
                op, data = frame.get("op"), frame.get("d")
                if op == OP_HEARTBEAT:
                    if session is not None:
                        session.heartbeats += 1
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK, "d": None}))
                elif op == OP_IDENTIFY:
                    if data.get("token") != self.fake.token:
                        await ws.close(code=4004, message=b"Authentication failed.")
                        break
                    shard = data.get("shard") or [0, 1]
                    if len(shard) != 2 or not 0 <= int(shard[0]) < int(shard[1]):
                        await ws.close(code=CLOSE_INVALID_SHARD, message=b"Invalid shard.")
                        break
                    session = await self._identify(ws, int(shard[0]), int(shard[1]))
                elif op == OP_RESUME:
                    session = await self._resume(ws, data)
                await self.fake.notify()
        finally:
            self._sockets.discard(ws)
            if session is not None and session.ws is ws:
                session.ws = None
            await self.fake.notify()
        return ws

    async def _identify(
        self, ws: web.WebSocketResponse, shard_id: int = 0, shard_count: int = 1
    ) -> GatewaySession:
        fake = self.fake
        fake.session_starts += 1
        session = GatewaySession(
            f"fake-session-{next(self._serial)}", ws, shard_id=shard_id, shard_count=shard_count
        )
        self.sessions[session.session_id] = session
        guild_ids = [g for g in fake.guilds if session.handles(g)]
        ready = {
            "v": 10,
            "user": fake.bot_user,
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": fake.gateway_url,
            "shard": [shard_id, shard_count],
            "application": {"id": str(fake.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "user_settings": {},
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "auth": {},
            "_trace": ["fake-gateway"],
        }
        await session.dispatch("READY", ready)
        for guild_id in guild_ids:
            await session.dispatch("GUILD_CREATE", fake.guild_payload(guild_id))
        return session

    async def _resume(
        self, ws: web.WebSocketResponse, data: dict[str, Any]
    ) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self.fake.token:
            await ws.send_str(
                json.dumps({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
            )
            return None
        session.ws = ws
        session.resumes += 1
        last_seen = int(data.get("seq") or 0)
        for frame in session.events:
            if frame["s"] > last_seen:
                await session.send(frame)
        await session.dispatch("RESUMED", {"_trace": ["fake-gateway"]})
        return session
