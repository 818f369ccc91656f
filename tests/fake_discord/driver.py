"""An in-process driver: feeds interactions to a real ``discord.Client`` and waits for the outcome.

The payloads go through discord.py's own parser (``ConnectionState.parse_interaction_create``),
so the real command tree, View store and DynamicItem routing run; the replies travel over
HTTP to the fake. After feeding, the driver waits for every task the interaction started
(discord.py's dispatch tasks and any task the bot's own code created), then reports what
Discord saw.
"""

from __future__ import annotations

import asyncio
import copy
import os
import sysconfig
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands

from tests.fake_discord import payloads
from tests.fake_discord.server import FakeDiscord, FakeUser, InteractionRecord, RecordedRequest

DISCORD_TASK_PREFIXES = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch",
    "discord-ui-dynamic-item",
    "discord-ui-modal-dispatch",
    "discord.py: ",
)
"""Names of the tasks discord.py starts to run an interaction's handlers."""

_LIBRARY_DIRS = tuple(
    {
        os.path.realpath(sysconfig.get_paths()[key]) + os.sep
        for key in ("stdlib", "platstdlib", "purelib", "platlib")
    }
)
_FAKE_DIR = os.path.dirname(os.path.realpath(__file__)) + os.sep
"""The fake's own code (its tests, beside it, are bot code like any other test's)."""

_OPTION_TYPES: dict[type, int] = {bool: 5, int: 4, float: 10, str: 3}


BACKGROUND_TASKS = ("stored-deadlines", "leftovers")
"""Names of the bot's long-lived loops, which never end while it runs: not waited for."""


def _is_handler_task(task: asyncio.Task[Any]) -> bool:
    """A task that belongs to handling an interaction (not a View timer, not aiohttp's)."""
    if task.get_name() in BACKGROUND_TASKS:
        return False
    if task.get_name().startswith(DISCORD_TASK_PREFIXES):
        return True
    code = getattr(task.get_coro(), "cr_code", None)
    if code is None:
        return False
    path = os.path.realpath(code.co_filename)
    if path.startswith(_FAKE_DIR):
        return os.path.basename(path).startswith("test_")
    return not path.startswith(_LIBRARY_DIRS)


@dataclass
class InteractionResult:
    """What one interaction produced, as the fake saw it once every handler task finished."""

    payload: dict[str, Any]
    record: InteractionRecord
    requests: list[RecordedRequest]
    message: dict[str, Any] | None
    followups: list[dict[str, Any]] = field(default_factory=list)

    @property
    def callback(self) -> dict[str, Any] | None:
        """The body of the accepted interaction callback (else of the last attempt), or None."""
        marker = f"/interactions/{self.record.id}/"
        attempts = [r for r in self.requests if r.path.startswith(marker)]
        accepted = [r for r in attempts if 200 <= r.status < 300]
        chosen = accepted or attempts
        return chosen[-1].json if chosen else None

    @property
    def response_type(self) -> int | None:
        """The callback type Discord accepted (4 message, 5 defer, 6 deferred update, 7 update)."""
        return self.record.response_type

    @property
    def ephemeral(self) -> bool:
        """Whether the response (or the message it updated) is ephemeral."""
        if self.message is not None:
            return bool(self.message["flags"] & payloads.MESSAGE_FLAG_EPHEMERAL)
        data = (self.callback or {}).get("data") or {}
        return bool(int(data.get("flags") or 0) & payloads.MESSAGE_FLAG_EPHEMERAL)

    @property
    def custom_ids(self) -> list[str]:
        """The custom_ids of the resulting message's components, in order."""
        if self.message is None:
            return []
        return [
            c["custom_id"]
            for c in payloads.iter_components(self.message.get("components") or [])
            if "custom_id" in c
        ]

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The resulting message's embeds."""
        return list((self.message or {}).get("embeds") or [])

    @property
    def content(self) -> str:
        """The resulting message's content."""
        return str((self.message or {}).get("content") or "")


class Driver:
    """Feeds interactions from the fake's users to in-process clients logged in to the fake."""

    def __init__(self, fake: FakeDiscord, *, timeout: float = 10.0) -> None:
        self.fake = fake
        self.timeout = timeout
        self.client: discord.Client | None = None
        self._clients: list[discord.Client] = []

    # ----------------------------------------------------------------- clients

    async def login(self, client: discord.Client) -> discord.Client:
        """Log ``client`` in to the fake (this runs its ``setup_hook``) and drive it from now on."""
        await client.login(self.fake.token)
        self._clients.append(client)
        self.client = client
        return client

    async def restart(self, client: discord.Client) -> discord.Client:
        """Close the current client and log in ``client``, a new instance over the same fake."""
        if self.client is not None:
            await self.close_client(self.client)
        return await self.login(client)

    @staticmethod
    async def close_client(client: discord.Client) -> None:
        """Stop the client's views and modals (their timeout timers) and close it."""
        store = client._connection._view_store
        views = {item.view for items in store._views.values() for item in items.values()}
        for view in views:
            if view is not None:
                view.stop()
        for modal in list(store._modals.values()):
            modal.stop()
        if not client.is_closed():
            await client.close()

    async def close(self) -> None:
        """Close every client this driver logged in."""
        for client in self._clients:
            await self.close_client(client)
        self._clients.clear()
        self.client = None

    # ----------------------------------------------------------------- interactions

    async def slash(
        self,
        name: str,
        sub: str | None = None,
        options: Mapping[str, Any] | None = None,
        user: FakeUser | str | None = None,
        channel: int | str | None = None,
        *,
        guild_scoped: bool | None = None,
    ) -> InteractionResult:
        """Run ``/name [group] [sub] option:value...`` as ``user`` in ``channel`` (id or name).

        Option types come from the client's command tree (so ``3`` is sent as an integer
        option when the parameter is an int); a :class:`FakeUser` value becomes a user option
        with its resolved member. ``guild_scoped`` defaults to whether the tree holds the
        command for the fake's guild.
        """
        client = self._require_client()
        path = sub.split() if sub else []
        channel_id = self._channel_id(channel)
        guild = discord.Object(self.fake.guild_of_channel(channel_id or self.fake.channel_id).id)
        tree = getattr(client, "tree", None)
        command: Any = None
        if isinstance(tree, app_commands.CommandTree):
            command = tree.get_command(name, guild=guild)
            if guild_scoped is None:
                guild_scoped = command is not None
            if command is None:
                command = tree.get_command(name)
            for part in path:
                command = (
                    command.get_command(part) if isinstance(command, app_commands.Group) else None
                )
        typed, resolved = self._typed_options(command, options or {})
        payload = self.fake.slash_payload(
            name,
            path=path,
            options=typed,
            user=user,
            channel_id=channel_id,
            guild_scoped=bool(guild_scoped),
            resolved=resolved,
        )
        return await self.feed(payload)

    async def click(
        self,
        message: Mapping[str, Any] | int | str,
        custom_id: str,
        user: FakeUser | str | None = None,
    ) -> InteractionResult:
        """Click the button ``custom_id`` on the message as the fake stores it now."""
        return await self.feed(self.fake.component_payload(message, custom_id, user=user))

    async def select(
        self,
        message: Mapping[str, Any] | int | str,
        custom_id: str,
        values: Sequence[str],
        user: FakeUser | str | None = None,
    ) -> InteractionResult:
        """Choose ``values`` in the select menu ``custom_id`` on the stored message."""
        payload = self.fake.component_payload(message, custom_id, values=values, user=user)
        return await self.feed(payload)

    async def pick_member(
        self,
        message: Mapping[str, Any] | int | str,
        custom_id: str,
        member: FakeUser | str,
        user: FakeUser | str | None = None,
        *,
        resolved: Mapping[str, Any] | None = None,
    ) -> InteractionResult:
        """Choose ``member`` in the member select ``custom_id`` on the stored message
        (``resolved`` replaces what Discord would send about them)."""
        chosen = self.fake.user(member)
        payload = self.fake.component_payload(message, custom_id, values=[str(chosen.id)],
                                              user=user, resolved=resolved)
        return await self.feed(payload)

    async def user_command(
        self,
        name: str,
        target: FakeUser | str,
        user: FakeUser | str | None = None,
        channel: int | str | None = None,
    ) -> InteractionResult:
        """Run the user command ``name`` (a member's Apps menu) on ``target`` as ``user``."""
        client = self._require_client()
        channel_id = self._channel_id(channel)
        guild = discord.Object(self.fake.guild_of_channel(channel_id or self.fake.channel_id).id)
        tree = getattr(client, "tree", None)
        scoped = isinstance(tree, app_commands.CommandTree) and tree.get_command(
            name, guild=guild, type=discord.AppCommandType.user) is not None
        payload = self.fake.user_command_payload(name, target, user=user,
                                                 channel_id=channel_id, guild_scoped=scoped)
        return await self.feed(payload)

    async def feed(self, payload: Mapping[str, Any]) -> InteractionResult:
        """Parse an INTERACTION_CREATE payload in the client and wait for everything it started."""
        client = self._require_client()
        record = self.fake.interactions.get(int(payload["id"])) or self.fake.register_interaction(
            payload
        )
        first_request = len(self.fake.requests)
        before = asyncio.all_tasks()
        client._connection.parse_interaction_create(copy.deepcopy(dict(payload)))  # type: ignore[arg-type]
        await self.settle(before)
        message = None
        if record.original_message_id is not None:
            message = copy.deepcopy(self.fake.get_message(record.original_message_id))
        followups = [
            copy.deepcopy(m)
            for m in (self.fake.get_message(i) for i in record.followup_ids)
            if m is not None
        ]
        return InteractionResult(
            payload=dict(payload),
            record=record,
            requests=self.fake.requests[first_request:],
            message=message,
            followups=followups,
        )

    async def settle(self, before: set[asyncio.Task[Any]] | None = None) -> None:
        """Wait until every handler task started since ``before`` (a task snapshot) is done.

        Tasks created by the bot's own code count; View timeout timers and the library's
        plumbing do not. Raises TimeoutError naming the stuck tasks after ``self.timeout``.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        known = before if before is not None else set()
        me = asyncio.current_task()

        def pending() -> set[asyncio.Task[Any]]:
            return {
                t
                for t in asyncio.all_tasks()
                if t is not me and t not in known and not t.done() and _is_handler_task(t)
            }

        while True:
            waiting = pending()
            if not waiting:
                await asyncio.sleep(0)  # let finished tasks' done-callbacks start their followers
                waiting = pending()
                if not waiting:
                    return
            remaining = deadline - loop.time()
            if remaining <= 0:
                names = sorted(t.get_name() for t in waiting)
                raise TimeoutError(f"interaction tasks still running: {names}")
            await asyncio.wait(waiting, timeout=remaining)

    # ----------------------------------------------------------------- helpers

    def _require_client(self) -> discord.Client:
        if self.client is None:
            raise RuntimeError("log a client in first: await driver.login(client)")
        return self.client

    def _channel_id(self, channel: int | str | None) -> int | None:
        if channel is None or isinstance(channel, int):
            return channel
        for channel_id, data in self.fake.channels.items():
            if data["name"] == channel:
                return channel_id
        raise LookupError(f"no channel named {channel!r}")

    def _typed_options(
        self, command: Any, options: Mapping[str, Any]
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        parameters: dict[str, Any] = {}
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                parameters[parameter.name] = parameter
                parameters[parameter.display_name] = parameter
        typed: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for key, value in options.items():
            parameter = parameters.get(key)
            name = parameter.display_name if parameter is not None else key
            if isinstance(value, FakeUser):
                user_id = str(value.id)
                resolved.setdefault("users", {})[user_id] = value.user_payload
                member = value.member_payload()
                member.pop("user")
                resolved.setdefault("members", {})[user_id] = member
                typed.append({"name": name, "type": 6, "value": user_id})
                continue
            if parameter is not None:
                kind = parameter.type.value
            else:
                kind = _OPTION_TYPES.get(type(value), 3)
            if kind == 4:
                value = int(value)
            elif kind == 10:
                value = float(value)
            typed.append({"name": name, "type": kind, "value": value})
        return typed, resolved
