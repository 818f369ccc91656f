"""A fake Discord: a loopback aiohttp app that real discord.py talks to over HTTP and websocket.

Point discord.py at it with ``discord.http.Route.BASE = fake.api_base``: both the bot-token
REST client (``HTTPClient``) and the interaction webhook adapter (``AsyncWebhookAdapter``)
build their URLs from ``Route.BASE``, so nothing else needs patching for REST. The gateway
URL of a plain ``discord.Client`` is hard-coded (``DiscordWebSocket.DEFAULT_GATEWAY``), so a
process that connects must also set that (see ``sample_bot.py``).

The fake keeps a small model of Discord: guilds (one by default, more with
``add_guild``) with channels, roles and members, the messages the bot posted with their
attachments (and the uploaded bytes), the ephemeral replies per interaction, the synced
application commands, and a log of every request. Every outgoing message body is checked
against LIMITS.md and Discord's attachment rules and refused with 400/50035 the way
Discord refuses it (413/40005 for a file over the upload limit). ``pings`` tells who a
message notifies under its ``allowed_mentions``. The gateway routes each guild's events
to the shard that owns it.
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

from tests.fake_discord import attachments, limits, mentions, payloads, threads
from tests.fake_discord.gateway import FakeGateway

API_PREFIX = "/api/v10"
"""The path prefix of the REST API; ``api_base`` is the loopback origin plus this."""

ERROR_MESSAGES = {
    0: "General error",
    10003: "Unknown Channel",
    10008: "Unknown Message",
    10013: "Unknown User",
    10015: "Unknown Webhook",
    10062: "Unknown interaction",
    40005: "Request entity too large",
    30046: "Maximum number of edits to messages older than 1 hour reached. Try again later",
    40060: "Interaction has already been acknowledged.",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50027: "Invalid Webhook Token",
    50024: "Cannot execute action on this channel type",
    50035: "Invalid Form Body",
    50083: "Thread is archived",
}
"""Discord's messages for the JSON error codes the fake answers with."""

MAX_REQUEST_BYTES = 128 * 1024 * 1024
"""The largest request body the loopback server reads (above any upload limit Discord has),
so that an oversized file reaches the upload-limit check instead of aiohttp's own cap."""

#: A request about one channel (its id).
_CHANNEL_PATH = re.compile(r"/channels/(\d+)(?:/|$)")
RESPONSE_DEADLINE = 3.0
"""Seconds Discord waits for the first response to an interaction before the token dies."""

NONCE_SECONDS = 120.0
"""How long a message's enforced nonce is remembered ("the past few minutes")."""


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
    uploads: list[attachments.Upload] = field(default_factory=list)
    """The files of a multipart request (index, filename, bytes), in the order sent."""


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
class FakeGuild:
    """A guild of the fake: its roles, its members' roles and its channels.

    Every :class:`FakeUser` is a member of every guild; in the first guild their roles are
    ``FakeUser.role_ids``, elsewhere ``member_roles`` (none by default).
    """

    id: int
    name: str
    owner_id: int
    roles: list[dict[str, Any]]
    bot_role_id: int
    channel_ids: list[int] = field(default_factory=list)
    member_roles: dict[int, list[int]] = field(default_factory=dict)

    @property
    def channel_id(self) -> int:
        """The guild's first channel (``games``)."""
        return self.channel_ids[0]

    def shard(self, shard_count: int) -> int:
        """The shard that receives this guild's events when the bot runs ``shard_count``."""
        return payloads.shard_of(self.id, shard_count)


@dataclass
class MentionRecord:
    """The mentions of one message as sent (created or edited), and who they notify."""

    message_id: int
    method: str
    path: str
    content: str
    allowed_mentions: dict[str, Any] | None
    """The ``allowed_mentions`` object of the request (None when it had none)."""
    effective: dict[str, Any] | None
    """The object in force for the message after this request (kept across edits)."""
    pinged: frozenset[int]
    """User ids notified by the content under ``effective``."""


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

    @property
    def uploads(self) -> list[attachments.Upload]:
        return self.record.uploads


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
            payloads.role(self.bot_role_id, "TableBot", payloads.BOT_PERMISSIONS, 2),
        ]
        self.channels: dict[int, dict[str, Any]] = {}
        self.guilds: dict[int, FakeGuild] = {
            self.guild_id: FakeGuild(
                self.guild_id, "Table House Test", self.owner.id, self.roles, self.bot_role_id
            )
        }
        self.channel_id = self.add_channel("games")
        self.add_channel("general")
        self.users: dict[str, FakeUser] = {}
        #: The members added to each thread (by its id) through Add Thread Member.
        self.thread_members: dict[int, set[int]] = {}
        #: The members who left (or were removed from) a guild: (guild id, user id).
        self.left_members: set[tuple[int, int]] = set()
        self.add_user("alice")
        self.add_user("bob")
        self.add_user("mod", moderator=True)

        self.messages: dict[int, dict[str, Any]] = {}
        self.files: dict[int, bytes] = {}
        """The bytes of every stored attachment, by attachment id."""
        self.upload_limit = attachments.DEFAULT_UPLOAD_LIMIT
        """Bytes per file (also the ``attachment_size_limit`` interaction payloads carry)."""
        self.mention_log: list[MentionRecord] = []
        #: Messages created with ``enforce_nonce``: (channel, nonce) -> (message id, when),
        #: so that a second create with the same nonce within :data:`NONCE_SECONDS` returns
        #: the first message instead of making another.
        self.nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self._allowed_mentions: dict[int, dict[str, Any] | None] = {}
        self.recommended_shards = 1
        """The ``shards`` count GET /gateway/bot recommends."""
        self.max_concurrency = 1
        self.session_start_total = 1000
        self.session_starts = 0
        """IDENTIFYs received (each uses one of ``session_start_total``)."""
        self.ephemeral: dict[int, list[dict[str, Any]]] = {}
        self.commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, int]] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.requests: list[RecordedRequest] = []
        self.limit_violations: list[LimitViolation] = []
        self.unhandled: list[RecordedRequest] = []
        #: Requests a handler of the fake itself failed on (a bug of the fake, or a body
        #: it could not read): answered 500, and they fail the test.
        self.crashes: list[tuple[RecordedRequest, str]] = []
        self.faults: list[Fault] = []
        #: Requests whose answer is held back after they are carried out (see :meth:`hold_next`).
        self.holds: list[tuple[str, re.Pattern[str], float]] = []
        self.failing_after: list[tuple[str, re.Pattern[str], int]] = []
        self.response_deadline: float | None = RESPONSE_DEADLINE
        self.app_permissions = payloads.BOT_PERMISSIONS
        """The bot's permissions that interactions carry (``app_permissions``)."""
        self.gateway = FakeGateway(self)

        self._routes: list[tuple[str, re.Pattern[str], _Handler]] = []
        self._add_routes()
        self._runner: web.AppRunner | None = None
        self._port = 0
        self._changed: asyncio.Condition | None = None

    # ----------------------------------------------------------------- life cycle

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
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
            # The fake's few members open many games each (drills, benchmarks).
            "MAX_OPEN_GAMES": "0",
        }

    # ----------------------------------------------------------------- the world

    def add_channel(self, name: str, guild_id: int | None = None) -> int:
        """Create a text channel in the guild (default: the first guild); returns its id."""
        guild = self.guilds[guild_id or self.guild_id]
        channel_id = self.snowflakes.next()
        self.channels[channel_id] = payloads.text_channel(
            channel_id, guild.id, name, len(guild.channel_ids)
        )
        guild.channel_ids.append(channel_id)
        return channel_id

    def add_guild(
        self,
        name: str = "Other Server",
        *,
        shard: int | None = None,
        shard_count: int | None = None,
        channels: Sequence[str] = ("games",),
    ) -> FakeGuild:
        """Create another guild the bot is in (with @everyone, the bot's role and channels).

        With ``shard`` and ``shard_count`` its id is chosen so that the guild belongs to
        that shard (``(id >> 22) % shard_count == shard``). Connected sessions only learn
        of it from :meth:`announce_guild`.
        """
        if (shard is None) != (shard_count is None):
            raise ValueError("give both shard and shard_count, or neither")
        if shard is not None and shard_count is not None:
            guild_id = self.snowflakes.next_on_shard(shard, shard_count)
        else:
            guild_id = self.snowflakes.next()
        bot_role_id = self.snowflakes.next()
        roles = [
            payloads.role(guild_id, "@everyone", payloads.EVERYONE_PERMISSIONS, 0),
            payloads.role(bot_role_id, "TableBot", payloads.BOT_PERMISSIONS, 1),
        ]
        guild = FakeGuild(guild_id, name, self.owner.id, roles, bot_role_id)
        self.guilds[guild_id] = guild
        for channel in channels:
            self.add_channel(channel, guild_id)
        return guild

    async def announce_guild(self, guild_id: int) -> int:
        """Send GUILD_CREATE for a guild to the shard that owns it (the bot joined it)."""
        return await self.gateway.dispatch("GUILD_CREATE", self.guild_payload(guild_id))

    def guild_of_channel(self, channel_id: int | str) -> FakeGuild:
        """The guild a channel belongs to."""
        return self.guilds[int(self.channels[int(channel_id)]["guild_id"])]

    def add_role(
        self,
        name: str,
        *,
        guild_id: int | None = None,
        mentionable: bool = False,
        permissions: int = payloads.EVERYONE_PERMISSIONS,
    ) -> int:
        """Create a role in a guild (default: the first); returns its id."""
        guild = self.guilds[guild_id or self.guild_id]
        role_id = self.snowflakes.next()
        guild.roles.append(
            payloads.role(role_id, name, permissions, len(guild.roles), mentionable=mentionable)
        )
        return role_id

    def give_role(
        self, who: FakeUser | str | None, role_id: int, guild_id: int | None = None
    ) -> None:
        """Give a member a role in a guild (default: the first)."""
        member = self.user(who)
        guild_id = guild_id or self.guild_id
        roles = self.member_role_ids(guild_id, member)
        if role_id not in roles:
            roles.append(role_id)

    def member_role_ids(self, guild_id: int, who: FakeUser | str | None) -> list[int]:
        """The (mutable) list of role ids a member has in a guild."""
        member = self.user(who)
        if guild_id == self.guild_id:
            return member.role_ids
        return self.guilds[guild_id].member_roles.setdefault(member.id, [])

    def member_payload(
        self,
        who: FakeUser | str | None,
        guild_id: int | None = None,
        *,
        with_permissions: bool = True,
    ) -> dict[str, Any]:
        """A member object for a guild (default: the first), as interactions carry it."""
        member = self.user(who)
        guild_id = guild_id or self.guild_id
        if guild_id == self.guild_id:
            return member.member_payload(with_permissions=with_permissions)
        role_ids = self.member_role_ids(guild_id, member)
        permissions = 0
        for data in self.guilds[guild_id].roles:
            if int(data["id"]) in (guild_id, *role_ids):
                permissions |= int(data["permissions"])
        return payloads.member(
            member.user_payload, role_ids, permissions=permissions if with_permissions else None
        )

    def add_user(
        self, name: str, *, moderator: bool = False, permissions: int | None = None
    ) -> FakeUser:
        """Create a guild member; ``permissions`` overrides what the roles grant."""
        roles = [self.moderator_role_id] if moderator else []
        granted = payloads.MODERATOR_PERMISSIONS if moderator else payloads.EVERYONE_PERMISSIONS
        member = FakeUser(self.snowflakes.next(), name, roles, permissions or granted)
        self.users[name] = member
        return member

    def remove_member(self, who: FakeUser | str, guild_id: int | None = None) -> None:
        """A member leaves a guild (default: the first), or is kicked or banned from it."""
        self.left_members.add((guild_id or self.guild_id, self.user(who).id))

    def user(self, who: FakeUser | str | None = None) -> FakeUser:
        """A member by name (default: alice)."""
        if isinstance(who, FakeUser):
            return who
        return self.users[who or "alice"]

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        """The complete guild (default: the first) as GUILD_CREATE sends it."""
        guild = self.guilds[guild_id or self.guild_id]
        bot_member = payloads.member(self.bot_user, [guild.bot_role_id])
        members = [bot_member] + [
            self.member_payload(u, guild.id, with_permissions=False) for u in self.users.values()
        ]
        return payloads.guild(
            guild.id,
            guild.name,
            owner_id=guild.owner_id,
            roles=guild.roles,
            channels=[self.channels[c] for c in guild.channel_ids],
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

    def threads_under(self, parent_id: int | None = None) -> list[dict[str, Any]]:
        """The threads opened under a channel (default: #games), oldest first."""
        wanted = str(parent_id or self.channel_id)
        return [c for c in self.channels.values()
                if threads.is_thread(c) and c["parent_id"] == wanted]

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
        self._forget_message(message)

    def message_attachments(self, message: Mapping[str, Any] | int | str) -> list[dict[str, Any]]:
        """The attachment objects of a stored message (id, filename, size, url, width...)."""
        return list(self._stored(message).get("attachments") or [])

    def attachment_bytes(self, message: Mapping[str, Any] | int | str, filename: str) -> bytes:
        """The uploaded bytes of the attachment ``filename`` of a stored message."""
        for attachment in self.message_attachments(message):
            if attachment["filename"] == filename:
                return self.files[int(attachment["id"])]
        names = [a["filename"] for a in self.message_attachments(message)]
        raise KeyError(f"message has no attachment {filename!r} (it has {names})")

    def embed_attachment(
        self, message: Mapping[str, Any] | int | str, embed: int = 0, slot: str = "image"
    ) -> dict[str, Any] | None:
        """The attachment an embed's ``image`` (or ``thumbnail``) shows, or None.

        Discord rewrites ``attachment://NAME`` to the attachment's CDN URL when it stores
        the message; this maps it back.
        """
        stored = self._stored(message)
        embeds = stored.get("embeds") or []
        if embed >= len(embeds):
            return None
        url = (embeds[embed].get(slot) or {}).get("url")
        for attachment in stored.get("attachments") or []:
            if attachment["url"] == url:
                return dict(attachment)
        return None

    def pings(self, message: Mapping[str, Any] | int | str) -> set[int]:
        """The user ids a message notifies, as Discord works it out.

        From the ``<@id>``, ``<@&role>``, ``@everyone``/``@here`` in its current content,
        filtered by the ``allowed_mentions`` in force (none: Discord parses everything),
        the roles' ``mentionable`` flag and the bot's Mention Everyone permission; plus
        the author of the message a reply points to when ``replied_user`` allows. Only
        members of the guild count, never the bot itself; an ephemeral message can only
        notify the user who caused it.
        """
        stored = self._stored(message)
        return set(self._pinged(stored, self._allowed_mentions.get(int(stored["id"]))))

    def _stored(self, message: Mapping[str, Any] | int | str) -> dict[str, Any]:
        message_id = message["id"] if isinstance(message, Mapping) else message
        stored = self.get_message(message_id)
        if stored is None:
            raise KeyError(f"no message {message_id} (deleted?)")
        return stored

    def _forget_message(self, message: Mapping[str, Any]) -> None:
        del self.messages[int(message["id"])]
        for attachment in message.get("attachments") or []:
            self.files.pop(int(attachment["id"]), None)

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

    def hold_next(self, method: str, path_regex: str, seconds: float) -> None:
        """Carry out the next request whose method and API path match, then hold its answer
        back ``seconds``: a request Discord took whose answer the bot may stop waiting for."""
        self.holds.append((method.upper(), re.compile(path_regex), seconds))

    def fail_after_next(self, method: str, path_regex: str, status: int = 500) -> None:
        """Carry out the next request whose method and API path match, then answer it with
        the error ``status``: Discord failing after the work was done (discord.py sends
        a request answered 500, 502 or 504 again)."""
        self.failing_after.append((method.upper(), re.compile(path_regex), status))

    def _take_failing_after(self, method: str, path: str) -> int:
        for failing in self.failing_after:
            if failing[0] in ("*", method) and failing[1].search(path):
                self.failing_after.remove(failing)
                return failing[2]
        return 0

    def _take_hold(self, method: str, path: str) -> float:
        for hold in self.holds:
            if hold[0] in ("*", method) and hold[1].search(path):
                self.holds.remove(hold)
                return hold[2]
        return 0.0

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

    def command_id(
        self, name: str, *, guild_scoped: bool = False, guild_id: int | None = None
    ) -> int | None:
        """The id Discord gave the synced command ``name``, if it was synced."""
        guild_id = guild_id or self.guild_id
        scope = self.guild_commands.get(guild_id, []) if guild_scoped else self.commands
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
        """A registered INTERACTION_CREATE payload for ``/name path... options``.

        The guild is the channel's (default channel: #games of the first guild).
        """
        member = self.user(user)
        channel = self.channels[channel_id or self.channel_id]
        guild_id = int(channel["guild_id"])
        interaction_id = self.snowflakes.next()
        command_id = (
            self.command_id(name, guild_scoped=guild_scoped, guild_id=guild_id)
            or self.snowflakes.next()
        )
        data = payloads.slash_data(
            command_id,
            name,
            options,
            path=path,
            guild_id=guild_id if guild_scoped else None,
            resolved=resolved,
        )
        payload = payloads.interaction(
            interaction_id=interaction_id,
            application_id=self.application_id,
            interaction_type=2,
            data=data,
            guild_id=guild_id,
            channel=channel,
            member_data=self.member_payload(member, guild_id),
            app_permissions=self.app_permissions,
            attachment_size_limit=self.upload_limit,
        )
        self.register_interaction(payload)
        return payload

    def resolved_users(self, user_ids: Sequence[int]) -> dict[str, Any]:
        """The ``resolved`` users and members of an interaction naming the fake's users."""
        known = {u.id: u for u in self.users.values()}
        users: dict[str, Any] = {}
        members: dict[str, Any] = {}
        for user_id in user_ids:
            chosen = known.get(user_id)
            if chosen is None:
                continue
            users[str(user_id)] = chosen.user_payload
            member = chosen.member_payload()
            member.pop("user")
            members[str(user_id)] = member
        return {"users": users, "members": members}

    def user_command_payload(
        self,
        name: str,
        target: FakeUser | str,
        *,
        user: FakeUser | str | None = None,
        channel_id: int | None = None,
        guild_scoped: bool = False,
    ) -> dict[str, Any]:
        """A registered INTERACTION_CREATE payload for the user command ``name`` (Apps in a
        member's menu) run by ``user`` on ``target``: type 2, ``data.type`` 2, the target's
        id and its resolved user and member."""
        member = self.user(user)
        chosen = self.user(target)
        channel = self.channels[channel_id or self.channel_id]
        guild_id = int(channel["guild_id"])
        command_id = (
            self.command_id(name, guild_scoped=guild_scoped, guild_id=guild_id)
            or self.snowflakes.next()
        )
        data: dict[str, Any] = {
            "id": str(command_id), "name": name, "type": 2, "target_id": str(chosen.id),
            "resolved": self.resolved_users([chosen.id]),
        }
        if guild_scoped:
            data["guild_id"] = str(guild_id)
        payload = payloads.interaction(
            interaction_id=self.snowflakes.next(),
            application_id=self.application_id,
            interaction_type=2,
            data=data,
            guild_id=guild_id,
            channel=channel,
            member_data=self.member_payload(member, guild_id),
            app_permissions=payloads.MODERATOR_PERMISSIONS,
            attachment_size_limit=self.upload_limit,
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
        resolved: Mapping[str, Any] | None = None,
    ) -> dict[str, Any]:
        """A registered component interaction on the message exactly as the fake stores it now.

        A member select's choice carries ``resolved`` (the chosen users and members, as
        Discord sends them); by default it is built from the fake's users.

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
        channel = self.channels[int(stored["channel_id"])]
        guild_id = int(channel["guild_id"])
        data = payloads.component_data(custom_id, kind, values)
        if kind == 5 and values:
            data["resolved"] = dict(resolved) if resolved is not None else self.resolved_users(
                [int(v) for v in values])
        payload = payloads.interaction(
            interaction_id=self.snowflakes.next(),
            application_id=self.application_id,
            interaction_type=3,
            data=data,
            guild_id=guild_id,
            channel=channel,
            member_data=self.member_payload(member, guild_id),
            app_permissions=self.app_permissions,
            message_data=json.loads(json.dumps(stored)),
            attachment_size_limit=self.upload_limit,
        )
        self.register_interaction(payload)
        return payload

    async def dispatch_interaction(self, payload: Mapping[str, Any]) -> int:
        """Send INTERACTION_CREATE to the sessions of the shard owning its guild (DMs: shard 0).

        Returns how many sessions got it (every unsharded session counts as shard 0 of 1).
        """
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
        self._route("GET", r"/users/@me/guilds", self._my_guilds)
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
        self._route("GET", rf"/guilds/{guild}/members/{sf.format('user')}", self._get_member)
        self._route("GET", rf"/channels/{channel}", self._get_channel)
        self._route("GET", rf"/channels/{channel}/messages", self._history)
        self._route("POST", rf"/channels/{channel}/messages", self._create_channel_message)
        self._route("POST", rf"/channels/{channel}/typing", self._typing)
        self._route("POST", rf"/channels/{channel}/threads", self._start_thread)
        self._route("PUT", rf"/channels/{channel}/thread-members/{sf.format('user')}",
                    self._add_thread_member)
        self._route("PATCH", rf"/channels/{channel}", self._edit_channel)
        self._route("DELETE", rf"/channels/{channel}", self._delete_channel)
        for method in ("GET", "PATCH", "DELETE"):
            self._route(method, rf"/channels/{channel}/messages/{msg}", self._channel_message)

    async def _read_body(self, request: web.Request, record: RecordedRequest) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            multipart = await attachments.read_multipart(request)
            record.uploads = multipart.uploads
            record.files += [u.filename for u in multipart.uploads]
            return multipart.json if multipart.json is not None else {}
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
        except ConnectionError:  # the client went away mid-request (a killed bot): no one
            raise  # to answer, and no fault of the fake
        except Exception as error:  # the fake's own failure: Discord would have answered
            self.crashes.append((record, f"{type(error).__name__}: {error}"))
            response = web.json_response({"message": "500: Internal Server Error", "code": 0},
                                         status=500)
        failed = self._take_failing_after(request.method, path)
        if failed:
            response = json_response({"message": f"{failed}: Server Error", "code": 0}, failed)
        record.status = response.status
        await self.notify()
        held = self._take_hold(request.method, path)
        if held:
            await asyncio.sleep(held)
        return response

    async def _answer(
        self, request: web.Request, path: str, record: RecordedRequest
    ) -> web.Response:
        fault = self._take_fault(request.method, path)
        if fault is not None:
            return self._fault_response(fault)
        if request.headers.get("Authorization") not in (f"Bot {self.token}", None):
            raise ApiError(401, 0)
        channel = _CHANNEL_PATH.match(path)
        if channel is not None:
            known = self.channels.get(int(channel[1]))
            if known is not None and int(known.get("guild_id") or 0) not in self.guilds:
                raise ApiError(403, 50001)  # a channel of a server the bot is not in
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

    def _check(
        self,
        call: _Call,
        problems: list[limits.Problem],
        *,
        status: int = 400,
        code: int = 50035,
    ) -> None:
        if problems:
            self.limit_violations.append(
                LimitViolation(call.record.method, call.record.path, problems, call.body)
            )
            errors = limits.errors_tree(problems) if code == 50035 else None
            raise ApiError(status, code, errors)

    def _prepare_body(
        self,
        call: _Call,
        body: Mapping[str, Any],
        *,
        channel_id: int,
        existing: Mapping[str, Any] | None,
        at: tuple[str, ...] = (),
        ephemeral: bool = False,
    ) -> dict[str, Any]:
        """Check a message body's files, attachments and mentions; return it as stored.

        ``existing`` is the message an edit applies to (None: a new message); ``at`` the
        path of the message body inside the request (``("data",)`` in a callback). The
        returned body has ``attachments`` as attachment objects (absent: unchanged) and
        embeds with ``attachment://`` rewritten to CDN URLs. Uploaded bytes are kept.
        """

        def placed(problems: list[limits.Problem]) -> list[limits.Problem]:
            return [limits.Problem((*at, *p.path), p.code, p.message) for p in problems]

        self._check(
            call,
            attachments.check_sizes(call.uploads, self.upload_limit),
            status=413,
            code=40005,
        )
        before = (existing or {}).get("attachments") or []
        resolution = attachments.resolve(
            body,
            call.uploads,
            before if existing is not None else None,
            channel_id=channel_id,
            new_id=self.snowflakes.next,
            ephemeral=ephemeral,
        )
        final = resolution.attachments if resolution.attachments is not None else before
        problems = list(resolution.problems)
        embeds = body.get("embeds") or []
        problems += attachments.check_references(embeds, final)
        problems += mentions.check_allowed_mentions(body.get("allowed_mentions"))
        self._check(call, placed(problems))
        prepared = dict(body)
        if resolution.attachments is not None:
            prepared["attachments"] = resolution.attachments
            kept = {a["id"] for a in resolution.attachments}
            for old in before:
                if old["id"] not in kept:
                    self.files.pop(int(old["id"]), None)
        else:
            prepared.pop("attachments", None)
        if embeds:
            prepared["embeds"] = attachments.link_embeds(embeds, final)
        for created, upload in resolution.new:
            self.files[int(created["id"])] = upload.data
        return prepared

    # ----------------------------------------------------------------- mentions

    def _bot_permissions(self, guild: FakeGuild) -> int:
        permissions = 0
        for data in guild.roles:
            if int(data["id"]) in (guild.id, guild.bot_role_id):
                permissions |= int(data["permissions"])
        return permissions

    def _pinged(
        self, message: Mapping[str, Any], allowed_mentions: Mapping[str, Any] | None
    ) -> frozenset[int]:
        channel = self.channels.get(int(message["channel_id"]))
        if channel is None:
            return frozenset()
        guild = self.guilds[int(channel["guild_id"])]
        mentionable = frozenset(int(r["id"]) for r in guild.roles if r.get("mentionable"))
        found = mentions.allowed(
            str(message.get("content") or ""),
            allowed_mentions,
            mentionable_roles=mentionable,
            can_mention_everyone=mentions.can_mention_everyone(self._bot_permissions(guild)),
        )
        members = {u.id: u for u in self.users.values()}
        notified = set(found.users)
        for user_id, member in members.items():
            if found.everyone or set(self.member_role_ids(guild.id, member)) & found.roles:
                notified.add(user_id)
        reference = message.get("message_reference") or {}
        replied = self.messages.get(int(reference.get("message_id") or 0))
        if replied is not None and found.replied_user:
            notified.add(int(replied["author"]["id"]))
        notified &= set(members)
        notified.discard(self.application_id)
        if message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL:
            viewer = ((message.get("interaction_metadata") or {}).get("user") or {}).get("id")
            notified &= {int(viewer)} if viewer else set()
        return frozenset(notified)

    def _record_mentions(
        self, call: _Call | None, message: dict[str, Any], body: Mapping[str, Any], *, edit: bool
    ) -> None:
        """Remember the allowed_mentions in force and fill the message's mention fields."""
        message_id = int(message["id"])
        given = body.get("allowed_mentions")
        if "allowed_mentions" in body or not edit:
            self._allowed_mentions[message_id] = dict(given) if given is not None else None
        effective = self._allowed_mentions.get(message_id)
        channel = self.channels.get(int(message["channel_id"]))
        if channel is not None:
            guild = self.guilds[int(channel["guild_id"])]
            found = mentions.allowed(
                str(message.get("content") or ""),
                effective,
                mentionable_roles=frozenset(
                    int(r["id"]) for r in guild.roles if r.get("mentionable")
                ),
                can_mention_everyone=mentions.can_mention_everyone(self._bot_permissions(guild)),
            )
            known = {u.id: u for u in self.users.values()}
            message["mentions"] = [known[u].user_payload for u in sorted(found.users) if u in known]
            message["mention_roles"] = [str(r) for r in sorted(found.roles)]
            message["mention_everyone"] = found.everyone
        self.mention_log.append(
            MentionRecord(
                message_id=message_id,
                method=call.record.method if call is not None else "",
                path=call.record.path if call is not None else "",
                content=str(message.get("content") or ""),
                allowed_mentions=dict(given) if isinstance(given, Mapping) else None,
                effective=dict(effective) if effective is not None else None,
                pinged=self._pinged(message, effective),
            )
        )

    # ----------------------------------------------------------------- messages

    def _store_message(
        self,
        channel_id: int,
        body: Mapping[str, Any],
        *,
        interaction: InteractionRecord | None = None,
        message_type: int = 0,
        call: _Call | None = None,
    ) -> dict[str, Any]:
        guild_id = (
            int(self.channels[channel_id]["guild_id"])
            if channel_id in self.channels
            else (self.guild_id)
        )
        metadata = None
        if interaction is not None:
            member = interaction.payload.get("member") or {}
            metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": member.get("user") or interaction.payload.get("user"),
                "authorizing_integration_owners": {"0": str(guild_id)},
            }
            if interaction.message_id is not None:
                metadata["interacted_message_id"] = str(interaction.message_id)
        message = payloads.message(
            self.snowflakes.next(),
            channel_id,
            guild_id,
            self.bot_user,
            body,
            message_type=message_type,
            application_id=self.application_id if interaction is not None else None,
            interaction_metadata=metadata,
        )
        if body.get("message_reference"):
            message["message_reference"] = dict(body["message_reference"])
        self.messages[int(message["id"])] = message
        if interaction is not None and message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL:
            self.ephemeral.setdefault(interaction.id, []).append(message)
        self._record_mentions(call, message, body, edit=False)
        return message

    def _apply_edit(
        self, message: dict[str, Any], body: Mapping[str, Any], call: _Call | None = None
    ) -> None:
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
        self._record_mentions(call, message, body, edit=True)

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

    async def _my_guilds(self, call: _Call) -> web.Response:
        """The guilds the bot is in, as partial guilds by id, a page at a time (``after``
        or ``before`` an id, at most ``limit``, 200 by default)."""
        query = call.request.query
        ids = sorted(self.guilds)
        if "after" in query:
            ids = [i for i in ids if i > int(query["after"])]
        if "before" in query:
            ids = [i for i in ids if i < int(query["before"])][-int(query.get("limit", 200)):]
        page = ids[:int(query.get("limit", 200))]
        return json_response([{"id": str(i), "name": self.guilds[i].name, "icon": None,
                               "banner": None, "owner": False, "permissions": "0",
                               "features": []} for i in page])

    async def _get_gateway(self, call: _Call) -> web.Response:
        data: dict[str, Any] = {"url": self.gateway_url}
        if call.match.group(1):
            data.update(
                shards=self.recommended_shards,
                session_start_limit={
                    "total": self.session_start_total,
                    "remaining": max(0, self.session_start_total - self.session_starts),
                    "reset_after": 86_400_000 if self.session_starts else 0,
                    "max_concurrency": self.max_concurrency,
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
                if record.response_type is None:
                    break  # Discord knows no webhook for an unanswered interaction
                return record
        raise ApiError(404, 10015)

    async def _callback(self, call: _Call) -> web.Response:
        record = self._interaction(call, "id")
        late = self.response_deadline is not None and (
            time.monotonic() - record.created > self.response_deadline
        )
        if late:
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
            data = self._prepare_body(
                call,
                data,
                channel_id=record.channel_id,
                existing=None,
                at=("data",),
                ephemeral=ephemeral,
            )
            message = self._store_message(
                record.channel_id,
                data,
                interaction=record,
                message_type=20 if record.type == 2 else 0,
                call=call,
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
                data = self._prepare_body(
                    call,
                    data,
                    channel_id=int(message["channel_id"]),
                    existing=message,
                    at=("data",),
                    ephemeral=ephemeral,
                )
                self._apply_edit(message, data, call)
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
            body = self._prepare_body(
                call,
                body,
                channel_id=record.channel_id,
                existing=original,
                ephemeral=bool(original["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL),
            )
            self._apply_edit(original, body, call)
            return json_response(original)
        ephemeral = bool(int(body.get("flags") or 0) & payloads.MESSAGE_FLAG_EPHEMERAL)
        body = self._prepare_body(
            call, body, channel_id=record.channel_id, existing=None, ephemeral=ephemeral
        )
        message = self._store_message(record.channel_id, body, interaction=record, call=call)
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
            self._forget_message(message)
            return web.Response(status=204)
        body = call.body or {}
        self._check(call, limits.check_message(body))
        body = self._prepare_body(
            call,
            body,
            channel_id=int(message["channel_id"]),
            existing=message,
            ephemeral=bool(message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL),
        )
        self._apply_edit(message, body, call)
        return json_response(message)

    async def _get_member(self, call: _Call) -> web.Response:
        guild_id, user_id = call.id("guild"), call.id("user")
        if guild_id not in self.guilds:
            raise ApiError(404, 10004)  # Unknown Guild
        member = next((u for u in self.users.values() if u.id == user_id), None)
        if member is None:
            raise ApiError(404, 10013)  # Unknown User
        if (guild_id, user_id) in self.left_members:
            raise ApiError(404, 10007)  # Unknown Member
        return json_response(self.member_payload(member, guild_id, with_permissions=False))

    async def _get_channel(self, call: _Call) -> web.Response:
        return json_response(self.channels[self._channel(call)])

    async def _history(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        query = call.request.query
        limit = int(query.get("limit", "50"))
        messages = self.channel_messages(channel_id)  # oldest first
        if "before" in query:
            messages = [m for m in messages if int(m["id"]) < int(query["before"])][-limit:]
        elif "after" in query:  # the ones just after it
            messages = [m for m in messages if int(m["id"]) > int(query["after"])][:limit]
        else:
            messages = messages[-limit:]
        return json_response(list(reversed(messages)))  # newest first, as Discord answers

    async def _typing(self, call: _Call) -> web.Response:
        self._channel(call)
        return web.Response(status=204)

    async def _start_thread(self, call: _Call) -> web.Response:
        parent_id = self._channel(call)
        parent = self.channels[parent_id]
        if parent["type"] not in threads.HELD:
            raise ApiError(400, 50024)  # not a channel that holds threads
        body = call.body or {}
        self._check(call, threads.check_start(body))
        kind = int(body.get("type", threads.PRIVATE_THREAD))
        if kind not in threads.HELD[parent["type"]]:
            raise ApiError(400, 50024)  # a public thread under an announcement channel
        needed = (payloads.CREATE_PRIVATE_THREADS if kind == threads.PRIVATE_THREAD
                  else payloads.CREATE_PUBLIC_THREADS)
        if not self._bot_permissions(self.guild_of_channel(parent_id)) & needed:
            raise ApiError(403, 50013)
        thread_id = self.snowflakes.next()
        self.channels[thread_id] = threads.thread_channel(
            thread_id, parent, self.application_id, str(body["name"]).strip(), kind,
            int(body.get("auto_archive_duration") or 4320),
        )
        return json_response(self.channels[thread_id], 201)

    async def _add_thread_member(self, call: _Call) -> web.Response:
        """Add a member to a thread (204): a thread not archived, a member Discord knows."""
        thread_id = self._channel(call)
        thread = self.channels[thread_id]
        if not threads.is_thread(thread):
            raise ApiError(400, 50024)
        if thread["thread_metadata"]["archived"]:
            raise ApiError(400, 50083)
        user_id = call.id("user")
        if user_id not in {u.id for u in self.users.values()}:
            raise ApiError(404, 10013)  # Unknown User
        members = self.thread_members.setdefault(thread_id, set())
        if user_id not in members:
            members.add(user_id)
            thread["member_count"] = int(thread.get("member_count", 1)) + 1
        return web.Response(status=204)

    async def _edit_channel(self, call: _Call) -> web.Response:
        channel = self.channels[self._channel(call)]
        if not threads.is_thread(channel):
            raise ApiError(403, 50013)  # the bot edits no channel but its threads
        body = call.body or {}
        self._check(call, threads.check_edit(body))
        guild = self.guild_of_channel(int(channel["id"]))
        if (threads.needs_manage_threads(body)
                and int(channel["owner_id"]) != self.application_id
                and not self._bot_permissions(guild) & payloads.MANAGE_THREADS):
            # "Editing a thread to change the name, archived, auto_archive_duration fields
            # requires MANAGE_THREADS or that the current user is the thread creator";
            # unarchiving an unlocked one needs only Send Messages (Modify Channel)
            raise ApiError(403, 50013)
        if channel["thread_metadata"]["locked"] and body.get("archived") is not True:
            raise ApiError(403, 50083)
        if channel["thread_metadata"]["archived"] and body.get("archived") is None:
            # "requires the thread to have archived set to false or be set to false in
            # the request" (Modify Channel)
            raise ApiError(400, 50083)
        threads.apply_edit(channel, body)
        return json_response(channel)

    async def _delete_channel(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        channel = self.channels[channel_id]
        guild = self.guild_of_channel(channel_id)
        if not threads.is_thread(channel) or not (
                self._bot_permissions(guild) & payloads.MANAGE_THREADS):
            raise ApiError(403, 50013)
        del self.channels[channel_id]
        for message in self.channel_messages(channel_id):
            self._forget_message(message)
        return json_response(channel)

    async def _create_channel_message(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        channel = self.channels[channel_id]
        if threads.is_thread(channel) and channel["thread_metadata"]["archived"]:
            if channel["thread_metadata"]["locked"]:
                raise ApiError(403, 50083)
            threads.apply_edit(channel, {"archived": False})  # a message brings it back
        body = call.body or {}
        self._check(call, limits.check_message(body))
        nonce = (channel_id, str(body["nonce"])) if body.get("enforce_nonce") else None
        if nonce is not None and nonce in self.nonces:
            message_id, made = self.nonces[nonce]
            if time.monotonic() - made < NONCE_SECONDS:
                if message_id not in self.messages:
                    raise ApiError(404, 10008)  # the nonce names a message since deleted
                return json_response(self.messages[message_id])  # no second message
        body = self._prepare_body(call, body, channel_id=channel_id, existing=None)
        message = self._store_message(channel_id, body, call=call)
        if nonce is not None:
            message["nonce"] = nonce[1]
            self.nonces[nonce] = (int(message["id"]), time.monotonic())
        return json_response(message)

    async def _channel_message(self, call: _Call) -> web.Response:
        channel_id = self._channel(call)
        message = self._message_in(channel_id, call.id("message"))
        channel = self.channels[channel_id]
        if (call.request.method == "PATCH" and threads.is_thread(channel)
                and channel["thread_metadata"]["archived"]):
            raise ApiError(400, 50083)  # a message of an archived thread is not edited
        return self._message_call(call, message)
