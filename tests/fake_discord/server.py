"""A fake Discord: a loopback aiohttp app that real discord.py talks to over HTTP and websocket.

Point discord.py at it with ``discord.http.Route.BASE = fake.api_base``: both the bot-token
REST client (``HTTPClient``) and the interaction webhook adapter (``AsyncWebhookAdapter``)
build their URLs from ``Route.BASE``, so nothing else needs patching for REST. The gateway
URL of a plain ``discord.Client`` is hard-coded (``DiscordWebSocket.DEFAULT_GATEWAY``), so a
process that connects must also set that (see ``sample_bot.py``).

The fake keeps a small model of Discord: one guild with channels, roles and members, the
messages the bot posted, the ephemeral replies per interaction, the synced application
commands, and a log of every request. Every outgoing message body is checked against
LIMITS.md and refused with 400/50035 the way Discord refuses it.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.fake_discord import limits, payloads
from tests.fake_discord.gateway import FakeGateway

API_PREFIX = "/api/v10"
"""The path prefix of the REST API; ``api_base`` is the loopback origin plus this."""

ERROR_MESSAGES = {
    0: "General error",
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    30046: "Maximum number of edits to messages older than 1 hour reached. Try again later",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50027: "Invalid Webhook Token",
    50035: "Invalid Form Body",
}
"""Discord's messages for the JSON error codes the fake answers with."""

RESPONSE_DEADLINE = 3.0
"""Seconds Discord waits for the first response to an interaction before the token dies."""


@dataclass
class RecordedRequest:
    """One request the fake received, and the status it answered."""

    method: str
    path: str
    query: dict[str, str]
    json: Any
    time: float
    status: int = 0
    files: list[str] = field(default_factory=list)


@dataclass
class LimitViolation:
    """A body the fake refused because it breaks a limit of LIMITS.md."""

    method: str
    path: str
    problems: list[limits.Problem]
    body: Any

    def __str__(self) -> str:
        broken = "; ".join(f"{p.dotted}: {p.message}" for p in self.problems)
        return f"{self.method} {self.path}: {broken}"


@dataclass
class Fault:
    """An injected failure: the next ``times`` requests matching method and path get ``status``."""

    method: str
    pattern: re.Pattern[str]
    status: int
    code: int | None
    retry_after: float | None
    times: int
    message: str | None


@dataclass
class FakeUser:
    """A guild member who can click and run commands."""

    id: int
    name: str
    role_ids: list[int]
    permissions: int

    @property
    def user_payload(self) -> dict[str, Any]:
        """The user object."""
        return payloads.user(self.id, self.name)

    def member_payload(self, *, with_permissions: bool = True) -> dict[str, Any]:
        """The member object (with the ``permissions`` string interaction payloads carry)."""
        return payloads.member(
            self.user_payload,
            self.role_ids,
            permissions=self.permissions if with_permissions else None,
        )


@dataclass
class InteractionRecord:
    """What the fake knows of one interaction it issued, and how it was answered."""

    id: int
    token: str
    type: int
    channel_id: int
    user_id: int
    created: float
    payload: dict[str, Any]
    message_id: int | None = None
    response_type: int | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    autocomplete_choices: list[dict[str, Any]] | None = None
    modal: dict[str, Any] | None = None
    expired: bool = False


class ApiError(Exception):
    """Raised inside a route handler to answer with a Discord JSON error."""

    def __init__(self, status: int, code: int, errors: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{status} {code}")
        self.status = status
        self.code = code
        self.errors = errors


@dataclass
class _Call:
    request: web.Request
    match: re.Match[str]
    body: Any
    record: RecordedRequest

    def id(self, group: str) -> int:
        return int(self.match.group(group))


_Handler = Callable[[_Call], Awaitable[web.Response]]


def json_response(
    data: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> web.Response:
    """A JSON answer with content-type exactly ``application/json`` (discord.py insists)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


class FakeDiscord:
    """The fake Discord: REST routes, a gateway, the world model, fault injection."""

    def __init__(self, *, token: str = "fake-bot-token") -> None:
        self.token = token
        self.snowflakes = payloads.SnowflakeFactory()
        self.application_id = self.snowflakes.next()
        self.bot_user: dict[str, Any] = payloads.user(self.application_id, "TableBot", bot=True)
        self.owner = FakeUser(self.snowflakes.next(), "owner", [], payloads.MODERATOR_PERMISSIONS)
        self.guild_id = self.snowflakes.next()
        self.moderator_role_id = self.snowflakes.next()
        self.bot_role_id = self.snowflakes.next()
        self.roles: list[dict[str, Any]] = [
            payloads.role(self.guild_id, "@everyone", payloads.EVERYONE_PERMISSIONS, 0),
            payloads.role(self.moderator_role_id, "Moderator", payloads.MODERATOR_PERMISSIONS, 1),
            payloads.role(self.bot_role_id, "TableBot", payloads.MODERATOR_PERMISSIONS, 2),
        ]
        self.channels: dict[int, dict[str, Any]] = {}
        self.channel_id = self.add_channel("games")
        self.add_channel("general")
        self.users: dict[str, FakeUser] = {}
        self.add_user("alice")
        self.add_user("bob")
        self.add_user("mod", moderator=True)

        self.messages: dict[int, dict[str, Any]] = {}
        self.ephemeral: dict[int, list[dict[str, Any]]] = {}
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.limit_violations: list[LimitViolation] = []
        self.unhandled: list[RecordedRequest] = []
        self.faults: list[Fault] = []
        self.response_deadline: float | None = RESPONSE_DEADLINE
        self.gateway = FakeGateway(self)

        self._routes: list[tuple[str, re.Pattern[str], _Handler]] = []
        self._add_routes()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._changed: asyncio.Condition | None = None

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        app = web.Application()
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, shutdown_timeout=1.0, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self._port = self._runner.addresses[0][1]
        self._changed = asyncio.Condition()

    async def stop(self) -> None:
        """Close every gateway session and stop listening."""
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE`` (and the ``DISCORD_API_BASE`` variable)."""
        return f"http://127.0.0.1:{self._port}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The websocket URL of the fake gateway (and the ``DISCORD_GATEWAY_URL`` variable)."""
        return f"ws://127.0.0.1:{self._port}/gateway"

    def subprocess_env(self) -> dict[str, str]:
        """Environment variables that point a bot process at this fake."""
        return {
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
            "DISCORD_TOKEN": self.token,
        }

    # ----------------------------------------------------------------- the world

    def add_channel(self, name: str) -> int:
        """Create a text channel in the guild; returns its id."""
        channel_id = self.snowflakes.next()
        self.channels[channel_id] = payloads.text_channel(
            channel_id, self.guild_id, name, len(self.channels)
        )
        return channel_id

    def add_user(
        self, name: str, *, moderator: bool = False, permissions: int | None = None
    ) -> FakeUser:
        """Create a guild member; ``permissions`` overrides what the roles grant."""
        roles = [self.moderator_role_id] if moderator else []
        granted = payloads.MODERATOR_PERMISSIONS if moderator else payloads.EVERYONE_PERMISSIONS
        member = FakeUser(self.snowflakes.next(), name, roles, permissions or granted)
        self.users[name] = member
        return member

    def user(self, who: FakeUser | str | None = None) -> FakeUser:
        """A member by name (default: alice)."""
        if isinstance(who, FakeUser):
            return who
        return self.users[who or "alice"]

    def guild_payload(self) -> dict[str, Any]:
        """The complete guild as GUILD_CREATE sends it."""
        bot_member = payloads.member(self.bot_user, [self.bot_role_id])
        members = [bot_member] + [
            u.member_payload(with_permissions=False) for u in self.users.values()
        ]
        return payloads.guild(
            self.guild_id,
            "Table House Test",
            owner_id=self.owner.id,
            roles=self.roles,
            channels=list(self.channels.values()),
            members=members,
        )

    def application_payload(self) -> dict[str, Any]:
        """The application object (``GET /oauth2/applications/@me``)."""
        return {
            "id": str(self.application_id),
            "name": "TableBot",
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "owner": self.owner.user_payload,
            "team": None,
            "flags": 0,
            "bot": self.bot_user,
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "integration_types_config": {"0": {}},
        }

    def channel_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        """The non-ephemeral messages of a channel (default: #games), oldest first."""
        wanted = str(channel_id or self.channel_id)
        return [
            m
            for m in self.messages.values()
            if m["channel_id"] == wanted and not m["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL
        ]

    def get_message(self, message_id: int | str) -> dict[str, Any] | None:
        """The stored message (channel or ephemeral) with this id, or None if absent/deleted."""
        return self.messages.get(int(message_id))

    def post_message(
        self, body: Mapping[str, Any], channel_id: int | None = None
    ) -> dict[str, Any]:
        """Store a message as if the bot had posted it earlier (no request, no limit check)."""
        return self._store_message(channel_id or self.channel_id, body)

    def delete_message(self, channel_id: int, message_id: int | str) -> None:
        """Delete a message as a user or moderator would (clicks on it become impossible)."""
        message = self.messages.get(int(message_id))
        if message is None or message["channel_id"] != str(channel_id):
            raise KeyError(f"no message {message_id} in channel {channel_id}")
        del self.messages[int(message_id)]

    def expire_interaction(self, interaction_id: int | str) -> None:
        """Kill an interaction token, as 15 minutes would (401/50027 on its webhook)."""
        self.interactions[int(interaction_id)].expired = True

    # ----------------------------------------------------------------- faults

    def fail_next(
        self,
        method: str,
        path_regex: str,
        status: int,
        code: int | None = None,
        retry_after: float | None = None,
        times: int = 1,
        message: str | None = None,
    ) -> None:
        """Answer the next ``times`` requests whose method and API path match with an error.

        ``method`` may be ``"*"``; ``path_regex`` is searched in the path after ``/api/v10``
        (e.g. ``r"/interactions/\\d+/.+/callback"``). A 429 carries ``retry_after`` (default
        0.05 s) in body and headers, with the ``Via`` header discord.py needs to retry.
        """
        self.faults.append(
            Fault(method.upper(), re.compile(path_regex), status, code, retry_after, times, message)
        )

    def _take_fault(self, method: str, path: str) -> Fault | None:
        for fault in self.faults:
            if fault.method in ("*", method) and fault.pattern.search(path):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return fault
        return None

    @staticmethod
    def _fault_response(fault: Fault) -> web.Response:
        if fault.status == 429:
            retry_after = 0.05 if fault.retry_after is None else fault.retry_after
            headers = {
                "Via": "1.1 google",
                "Retry-After": str(max(1, round(retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": "fake-bucket",
                "X-RateLimit-Scope": "user",
            }
            body = {
                "message": fault.message or "You are being rate limited.",
                "retry_after": retry_after,
                "global": False,
                "code": fault.code or 0,
            }
            return json_response(body, 429, headers)
        code = fault.code or 0
        body = {"message": fault.message or ERROR_MESSAGES.get(code, "Error"), "code": code}
        return json_response(body, fault.status)

    # ----------------------------------------------------------------- waiting

    async def notify(self) -> None:
        """Wake everything waiting in :meth:`wait_until` (called after each request and frame)."""
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
        """Wait until ``predicate()`` holds, re-checking after every request and gateway frame."""
        assert self._changed is not None, "start the fake first"
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(predicate), timeout)

    async def wait_for_request(
        self, method: str, path_regex: str, *, after: int = 0, timeout: float = 10.0
    ) -> RecordedRequest:
        """The first answered request from index ``after`` on matching method and path."""
        pattern = re.compile(path_regex)

        def find() -> RecordedRequest | None:
            for record in self.requests[after:]:
                if (
                    record.status
                    and record.method == method.upper()
                    and pattern.search(record.path)
                ):
                    return record
            return None

        await self.wait_until(lambda: find() is not None, timeout)
        found = find()
        assert found is not None
        return found

    # ----------------------------------------------------------------- interactions

    def register_interaction(self, payload: Mapping[str, Any]) -> InteractionRecord:
        """Remember an interaction so its callback and webhook routes are accepted."""
        message = payload.get("message")
        member = payload.get("member") or {}
        user = member.get("user") or payload.get("user") or {}
        record = InteractionRecord(
            id=int(payload["id"]),
            token=str(payload["token"]),
            type=int(payload["type"]),
            channel_id=int(payload["channel"]["id"]),
            user_id=int(user.get("id", 0)),
            created=time.monotonic(),
            payload=dict(payload),
            message_id=int(message["id"]) if message else None,
        )
        self.interactions[record.id] = record
        return record

    def command_id(self, name: str, *, guild_scoped: bool = False) -> int | None:
        """The id Discord gave the synced command ``name``, if it was synced."""
        scope = self.guild_commands.get(self.guild_id, []) if guild_scoped else self.commands
        for command in scope:
            if command["name"] == name:
                return int(command["id"])
        return None

    def slash_payload(
        self,
        name: str,
        *,
        path: Sequence[str] = (),
        options: Sequence[Mapping[str, Any]] = (),
        user: FakeUser | str | None = None,
        channel_id: int | None = None,
        guild_scoped: bool = False,
        resolved: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A registered INTERACTION_CREATE payload for ``/name path... options``."""
        member = self.user(user)
        interaction_id = self.snowflakes.next()
        command_id = self.command_id(name, guild_scoped=guild_scoped) or self.snowflakes.next()
        data = payloads.slash_data(
            command_id,
            name,
            options,
            path=path,
            guild_id=self.guild_id if guild_scoped else None,
            resolved=resolved,
        )
        payload = payloads.interaction(
            interaction_id=interaction_id,
            application_id=self.application_id,
            interaction_type=2,
            data=data,
            guild_id=self.guild_id,
            channel=self.channels[channel_id or self.channel_id],
            member_data=member.member_payload(),
            app_permissions=payloads.MODERATOR_PERMISSIONS,
        )
        self.register_interaction(payload)
        return payload

    def component_payload(
        self,
        message: Mapping[str, Any] | int | str,
        custom_id: str,
        *,
        values: Sequence[str] | None = None,
        user: FakeUser | str | None = None,
    ) -> dict[str, Any]:
        """A registered component interaction on the message exactly as the fake stores it now.

        Raises LookupError when the message is gone or has no enabled component ``custom_id``
        (a user could not click it); the component type is read from the stored message.
        """
        message_id = message["id"] if isinstance(message, Mapping) else message
        stored = self.get_message(message_id)
        if stored is None:
            raise LookupError(f"message {message_id} does not exist (deleted?)")
        component = payloads.find_component(stored, custom_id)
        if component is None:
            raise LookupError(f"message {message_id} has no component with custom_id {custom_id!r}")
        if component.get("disabled"):
            raise LookupError(f"component {custom_id!r} is disabled")
        kind = int(component["type"])
        if kind not in payloads.COMPONENT_TYPE_NAMES:
            raise LookupError(f"component {custom_id!r} of type {kind} cannot be interacted with")
        if kind == 2 and values is not None:
            raise ValueError("a button click carries no values")
        member = self.user(user)
        payload = payloads.interaction(
            interaction_id=self.snowflakes.next(),
            application_id=self.application_id,
            interaction_type=3,
            data=payloads.component_data(custom_id, kind, values),
            guild_id=self.guild_id,
            channel=self.channels[int(stored["channel_id"])],
            member_data=member.member_payload(),
            app_permissions=payloads.MODERATOR_PERMISSIONS,
            message_data=json.loads(json.dumps(stored)),
        )
        self.register_interaction(payload)
        return payload

    async def dispatch_interaction(self, payload: Mapping[str, Any]) -> int:
        """Send INTERACTION_CREATE to every identified gateway session; returns how many got it."""
        if int(payload["id"]) not in self.interactions:
            self.register_interaction(payload)
        return await self.gateway.dispatch("INTERACTION_CREATE", dict(payload))

    # ----------------------------------------------------------------- HTTP plumbing

    def _route(self, method: str, pattern: str, handler: _Handler) -> None:
        self._routes.append((method, re.compile(pattern + r"$"), handler))

    def _add_routes(self) -> None:
        sf = r"(?P<{}>\d+)"
        app, guild = sf.format("app"), sf.format("guild")
        channel, msg = sf.format("channel"), sf.format("message")
        token = r"(?P<token>[^/]+)"
        self._route("GET", r"/users/@me", self._get_me)
        self._route("GET", r"/gateway(/bot)?", self._get_gateway)
        self._route("GET", r"/oauth2/applications/@me", self._get_application)
        self._route("GET", rf"/applications/{app}/commands", self._get_commands)
        self._route("PUT", rf"/applications/{app}/commands", self._put_commands)
        self._route("GET", rf"/applications/{app}/guilds/{guild}/commands", self._get_commands)
        self._route("PUT", rf"/applications/{app}/guilds/{guild}/commands", self._put_commands)
        self._route(
            "POST", rf"/interactions/{sf.format('interaction')}/{token}/callback", self._callback
        )
        self._route("POST", rf"/webhooks/{app}/{token}", self._followup)
        for method in ("GET", "PATCH", "DELETE"):
            self._route(
                method,
                rf"/webhooks/{app}/{token}/messages/(?P<message>@original|\d+)",
                self._webhook_message,
            )
        self._route("GET", rf"/channels/{channel}", self._get_channel)
        self._route("GET", rf"/channels/{channel}/messages", self._history)
        self._route("POST", rf"/channels/{channel}/messages", self._create_channel_message)
        self._route("POST", rf"/channels/{channel}/typing", self._typing)
        for method in ("GET", "PATCH", "DELETE"):
            self._route(method, rf"/channels/{channel}/messages/{msg}", self._channel_message)

    async def _read_body(self, request: web.Request, record: RecordedRequest) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            form = await request.post()
            body: Any = json.loads(str(form.get("payload_json") or "{}"))
            record.files += [v.filename for v in form.values() if isinstance(v, web.FileField)]
            return body
        raw = await request.read()
        return json.loads(raw) if raw else None

    async def _handle(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        record = RecordedRequest(request.method, path, dict(request.query), None, time.monotonic())
        self.requests.append(record)
        try:
            record.json = await self._read_body(request, record)
            response = await self._answer(request, path, record)
        except ApiError as error:
            response = self._error_response(error)
        record.status = response.status
        await self.notify()
        return response

    async def _answer(
        self, request: web.Request, path: str, record: RecordedRequest
    ) -> web.Response:
        fault = self._take_fault(request.method, path)
        if fault is not None:
            return self._fault_response(fault)
        if request.headers.get("Authorization") not in (f"Bot {self.token}", None):
            raise ApiError(401, 0)
        for method, pattern, handler in self._routes:
            match = pattern.match(path)
            if match and method == request.method:
                return await handler(_Call(request, match, record.json, record))
        self.unhandled.append(record)
        return json_response({"message": "404: Not Found", "code": 0}, 404)

    @staticmethod
    def _error_response(error: ApiError) -> web.Response:
        body: dict[str, Any] = {
            "message": ERROR_MESSAGES.get(error.code, "Error"),
            "code": error.code,
        }
        if error.errors is not None:
            body["errors"] = error.errors
        return json_response(body, error.status)

    def _check(self, call: _Call, problems: list[limits.Problem]) -> None:
        if problems:
            self.limit_violations.append(
                LimitViolation(call.record.method, call.record.path, problems, call.body)
            )
            raise ApiError(400, 50035, limits.errors_tree(problems))

    # ----------------------------------------------------------------- messages

    def _store_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        *,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
    ) -> dict[str, Any]:
        metadata = None
        if interaction is not None:
            member = interaction.payload.get("member") or {}
            metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": member.get("user") or interaction.payload.get("user"),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if interaction.message_id is not None:
                metadata["interacted_message_id"] = str(interaction.message_id)
        message = payloads.message(
            self.snowflakes.next(),
            channel_id,
            self.guild_id,
            self.bot_user,
            body,
            message_type=message_type,
            application_id=self.application_id if interaction is not None else None,
            interaction_metadata=metadata,
        )
        self.messages[int(message["id"])] = message
        if interaction is not None and message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL:
            self.ephemeral.setdefault(interaction.id, []).append(message)
        return message

    @staticmethod
    def _apply_edit(message: dict[str, Any], body: Mapping[str, Any]) -> None:
        for key in ("content", "embeds", "components", "attachments", "poll"):
            if key in body:
                message[key] = (
                    body[key] if body[key] is not None else ([] if key != "content" else "")
                )
        if "flags" in body and body["flags"] is not None:
            keep = message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL
            message["flags"] = keep | (int(body["flags"]) & ~payloads.MESSAGE_FLAG_EPHEMERAL)
        message["flags"] &= ~payloads.MESSAGE_FLAG_LOADING
        message["edited_timestamp"] = payloads.iso_now()

    def _channel(self, call: _Call) -> int:
        channel_id = call.id("channel")
        if channel_id not in self.channels:
            raise ApiError(404, 10003)
        return channel_id

    def _message_in(self, channel_id: int, message_id: int) -> dict[str, Any]:
        message = self.messages.get(message_id)
        if message is None or message["channel_id"] != str(channel_id):
            raise ApiError(404, 10008)
        if message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL:
            raise ApiError(404, 10008)
        return message

    # ----------------------------------------------------------------- route handlers

    async def _get_me(self, call: _Call) -> web.Response:
        return json_response(self.bot_user)

    async def _get_gateway(self, call: _Call) -> web.Response:
        data: dict[str, Any] = {"url": self.gateway_url}
        if call.match.group(1):
            data.update(
                shards=1,
                session_start_limit={
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            )
        return json_response(data)

    async def _get_application(self, call: _Call) -> web.Response:
        return json_response(self.application_payload())

    def _scope(self, call: _Call) -> tuple[int | None, list[dict[str, Any]]]:
        if call.id("app") != self.application_id:
            raise ApiError(403, 50001)
        if "guild" in call.match.groupdict():
            guild_id = call.id("guild")
            return guild_id, self.guild_commands.setdefault(guild_id, [])
        return None, self.commands

    async def _get_commands(self, call: _Call) -> web.Response:
        return json_response(self._scope(call)[1])

    async def _put_commands(self, call: _Call) -> web.Response:
        guild_id, old = self._scope(call)
        body = call.body or []
        self._check(call, limits.check_commands(body))
        known = {(c.get("type", 1), c["name"]): c["id"] for c in old}
        stored = []
        for command in body:
            kind = command.get("type", 1)
            data = {
                "type": kind,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **command,
                "id": known.get((kind, command["name"])) or str(self.snowflakes.next()),
                "application_id": str(self.application_id),
                "version": str(self.snowflakes.next()),
            }
            if guild_id is not None:
                data["guild_id"] = str(guild_id)
            stored.append(data)
        old[:] = stored
        self.command_syncs.append((guild_id, len(stored)))
        return json_response(stored)

    def _interaction(self, call: _Call, by: str) -> InteractionRecord:
        if by == "id":
            record = self.interactions.get(call.id("interaction"))
            if record is None or record.token != call.match.group("token"):
                raise ApiError(404, 10062)
            return record
        for record in self.interactions.values():
            if record.token == call.match.group("token"):
                if call.id("app") != self.application_id:
                    break
                if record.expired:
                    raise ApiError(401, 50027)
                if record.response_type is None:
                    break  # Discord knows no webhook for an unanswered interaction
                return record
        raise ApiError(404, 10015)

    async def _callback(self, call: _Call) -> web.Response:
        record = self._interaction(call, "id")
        late = self.response_deadline is not None and (
            time.monotonic() - record.created > self.response_deadline
        )
        if record.expired or late:
            raise ApiError(404, 10062)
        if record.response_type is not None:
            raise ApiError(400, 40060)
        body = call.body or {}
        self._check(call, limits.check_interaction_callback(body))
        kind = int(body["type"])
        data = body.get("data") or {}
        ephemeral = bool(int(data.get("flags") or 0) & payloads.MESSAGE_FLAG_EPHEMERAL)
        message: dict[str, Any] | None = None
        if kind == 4:
            message = self._store_message(
                record.channel_id,
                data,
                interaction=record,
                message_type=20 if record.type == 2 else 0,
            )
        elif kind == 5:
            flags = payloads.MESSAGE_FLAG_LOADING | (int(data.get("flags") or 0))
            message = self._store_message(
                record.channel_id,
                {"flags": flags},
                interaction=record,
                message_type=20 if record.type == 2 else 0,
            )
        elif kind in (6, 7):
            if record.message_id is None:
                raise ApiError(
                    400,
                    50035,
                    {
                        "type": {
                            "_errors": [
                                {
                                    "code": "INTERACTION_TYPE_INVALID",
                                    "message": "Needs a component interaction.",
                                }
                            ]
                        }
                    },
                )
            message = self.messages.get(record.message_id)
            if message is None:
                raise ApiError(404, 10008)
            ephemeral = bool(message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL)
            if kind == 7:
                self._apply_edit(message, data)
        elif kind == 8:
            record.autocomplete_choices = list(data.get("choices") or [])
        elif kind == 9:
            record.modal = dict(data)
        record.response_type = kind
        if message is not None:
            record.original_message_id = int(message["id"])
        if call.request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {
            "interaction": {
                "id": str(record.id),
                "type": record.type,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": ephemeral,
            },
            "resource": {"type": kind},
        }
        if message is not None:
            answer["interaction"]["response_message_id"] = message["id"]
            if kind != 6:
                answer["resource"]["message"] = message
        return json_response(answer)

    async def _followup(self, call: _Call) -> web.Response:
        record = self._interaction(call, "token")
        body = call.body or {}
        self._check(call, limits.check_message(body))
        original = (
            self.messages.get(record.original_message_id)
            if record.original_message_id is not None
            else None
        )
        if (
            record.response_type == 5
            and original is not None
            and original["flags"] & payloads.MESSAGE_FLAG_LOADING
        ):
            # The first follow-up after a "thinking" defer replaces the loading message.
            self._apply_edit(original, body)
            return json_response(original)
        message = self._store_message(record.channel_id, body, interaction=record)
        record.followup_ids.append(int(message["id"]))
        return json_response(message)

    async def _webhook_message(self, call: _Call) -> web.Response:
        record = self._interaction(call, "token")
        wanted = call.match.group("message")
        message_id = record.original_message_id if wanted == "@original" else int(wanted)
        owned = {record.original_message_id, *record.followup_ids}
        message = self.messages.get(message_id) if message_id in owned else None
        if message is None:
            raise ApiError(404, 10008)
        return self._message_call(call, message)

    def _message_call(self, call: _Call, message: dict[str, Any]) -> web.Response:
        """Answer GET, DELETE or PATCH (an edit, limits checked) on a stored message."""
        method = call.request.method
        if method == "GET":
            return json_response(message)
        if method == "DELETE":
            del self.messages[int(message["id"])]
            return web.Response(status=204)
        body = call.body or {}
        self._check(call, limits.check_message(body))
        self._apply_edit(message, body)
        return json_response(message)

    async def _get_channel(self, call: _Call) -> web.Response:
        return json_response(self.channels[self._channel(call)])

    async def _history(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        limit = int(call.request.query.get("limit", "50"))
        newest_first = list(reversed(self.channel_messages(channel_id)))
        return json_response(newest_first[:limit])

    async def _typing(self, call: _Call) -> web.Response:
        self._channel(call)
        return web.Response(status=204)

    async def _create_channel_message(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        body = call.body or {}
        self._check(call, limits.check_message(body))
        return json_response(self._store_message(channel_id, body))

    async def _channel_message(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        message = self._message_in(channel_id, call.id("message"))
        return self._message_call(call, message)
