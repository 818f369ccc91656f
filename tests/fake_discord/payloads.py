"""Builders for the JSON payloads Discord sends: users, members, guilds, messages, interactions.

Every builder returns plain dicts shaped like Discord's API v10 documents, complete enough
for discord.py's real parsers (``Interaction``, ``Message``, ``Guild``) to accept them.
"""

from __future__ import annotations

import datetime as dt
import itertools
import time
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions).
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_GUILD = 1 << 5
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
)
"""What @everyone may do in the fake guild: the usual defaults of a new server."""

MODERATOR_PERMISSIONS = EVERYONE_PERMISSIONS | MANAGE_MESSAGES
"""The fake guild's "Moderator" role: the defaults plus Manage Messages."""

BOT_PERMISSIONS = MODERATOR_PERMISSIONS | CREATE_PUBLIC_THREADS
"""The bot's role in the fake guilds (and its ``app_permissions`` in interactions): what
the invite link asks for, plus Manage Messages."""

COMPONENT_TYPE_NAMES = {
    2: "button",
    3: "string select",
    5: "user select",
    6: "role select",
    7: "mentionable select",
    8: "channel select",
}
"""Message component types a user can interact with, by their Discord type number."""

MENTION_EVERYONE = 1 << 17

MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7


class SnowflakeFactory:
    """Unique, strictly increasing snowflake ids whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """Return a new snowflake, greater than every one returned before."""
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake that, as a guild id, belongs to ``shard_id`` of ``shard_count``.

        Discord routes a guild to shard ``(guild_id >> 22) % shard_count``: the timestamp
        part is moved forward (by at most ``shard_count - 1`` ms) until it lands there.
        """
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of {shard_count} shards")
        candidate = self.next()
        stamp = candidate >> 22
        if stamp % shard_count == shard_id:
            return candidate
        while stamp % shard_count != shard_id:
            stamp += 1
        self._last = stamp << 22
        return self._last


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard that receives a guild's events: ``(guild_id >> 22) % shard_count``."""
    return (int(guild_id) >> 22) % max(1, shard_count)


def iso_now() -> str:
    """The current UTC time in the ISO 8601 form Discord uses for timestamps."""
    return dt.datetime.now(dt.UTC).isoformat()


def user(user_id: int, name: str, *, bot: bool = False) -> dict[str, Any]:
    """A user object."""
    data: dict[str, Any] = {
        "id": str(user_id),
        "username": name,
        "global_name": name.title(),
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "bot": bot,
    }
    if bot:
        data.update(verified=True, mfa_enabled=False, flags=0, email=None)
    return data


def role(
    role_id: int, name: str, permissions: int, position: int, *, mentionable: bool = False
) -> dict[str, Any]:
    """A guild role object."""
    return {
        "id": str(role_id),
        "name": name,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": position,
        "permissions": str(permissions),
        "managed": False,
        "mentionable": mentionable,
        "flags": 0,
    }


def member(
    user_data: Mapping[str, Any], role_ids: Iterable[int], *, permissions: int | None = None
) -> dict[str, Any]:
    """A guild member object; ``permissions`` is only present in interaction payloads."""
    data: dict[str, Any] = {
        "user": dict(user_data),
        "roles": [str(r) for r in role_ids],
        "nick": None,
        "avatar": None,
        "banner": None,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def text_channel(channel_id: int, guild_id: int, name: str, position: int) -> dict[str, Any]:
    """A guild text channel object (type 0)."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": position,
        "permission_overwrites": [],
        "nsfw": False,
        "topic": None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "parent_id": None,
        "flags": 0,
    }


def guild(
    guild_id: int,
    name: str,
    *,
    owner_id: int,
    roles: Sequence[Mapping[str, Any]],
    channels: Sequence[Mapping[str, Any]],
    members: Sequence[Mapping[str, Any]],
) -> dict[str, Any]:
    """A complete guild object as sent in GUILD_CREATE."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "banner": None,
        "description": None,
        "owner_id": str(owner_id),
        "region": None,
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "features": [],
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "vanity_url_code": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "application_id": None,
        "unavailable": False,
        "large": False,
        "lazy": True,
        "joined_at": "2024-01-01T00:00:00+00:00",
        "member_count": len(members),
        "roles": [dict(r) for r in roles],
        "channels": [dict(c) for c in channels],
        "members": [dict(m) for m in members],
        "threads": [],
        "emojis": [],
        "stickers": [],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def message(
    message_id: int,
    channel_id: int,
    guild_id: int | None,
    author: Mapping[str, Any],
    body: Mapping[str, Any],
    *,
    message_type: int = 0,
    application_id: int | None = None,
    interaction_metadata: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A message object built from an outgoing create-message ``body``, as Discord returns it."""
    data: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": dict(author),
        "content": body.get("content") or "",
        "timestamp": iso_now(),
        "edited_timestamp": None,
        "tts": bool(body.get("tts", False)),
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": list(body.get("attachments") or []),
        "embeds": list(body.get("embeds") or []),
        "components": list(body.get("components") or []),
        "pinned": False,
        "type": message_type,
        "flags": int(body.get("flags") or 0),
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if application_id is not None:
        data["application_id"] = str(application_id)
        data["webhook_id"] = str(application_id)
    if interaction_metadata is not None:
        data["interaction_metadata"] = dict(interaction_metadata)
    return data


_interaction_serial = itertools.count(1)


def interaction(
    *,
    interaction_id: int,
    application_id: int,
    interaction_type: int,
    data: Mapping[str, Any],
    guild_id: int,
    channel: Mapping[str, Any],
    member_data: Mapping[str, Any],
    app_permissions: int,
    message_data: Mapping[str, Any] | None = None,
    token: str | None = None,
    locale: str = "en-US",
    attachment_size_limit: int = 10 * 1024 * 1024,
) -> dict[str, Any]:
    """A complete INTERACTION_CREATE ``d`` payload from a member in a guild channel."""
    payload: dict[str, Any] = {
        "id": str(interaction_id),
        "application_id": str(application_id),
        "type": interaction_type,
        "data": dict(data),
        "token": token or f"fake-token-{interaction_id}-{next(_interaction_serial)}",
        "version": 1,
        "attachment_size_limit": attachment_size_limit,
        "guild_id": str(guild_id),
        "guild": {"id": str(guild_id), "locale": "en-US", "features": []},
        "guild_locale": "en-US",
        "channel_id": channel["id"],
        "channel": {**channel, "permissions": member_data.get("permissions", "0")},
        "member": dict(member_data),
        "app_permissions": str(app_permissions),
        "locale": locale,
        "entitlements": [],
        "entitlement_sku_ids": [],
        "authorizing_integration_owners": {"0": str(guild_id)},
        "context": 0,
    }
    if message_data is not None:
        payload["message"] = dict(message_data)
    return payload


def slash_data(
    command_id: int,
    name: str,
    options: Sequence[Mapping[str, Any]] = (),
    *,
    path: Sequence[str] = (),
    guild_id: int | None = None,
    resolved: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The ``data`` of a chat-input command: ``path`` names the group/subcommand, outermost first.

    ``options`` are the leaf options, already typed (``{"name", "type", "value"}``); with a
    two-element ``path`` the first element is a subcommand group (type 2).
    """
    leaf: list[dict[str, Any]] = [dict(o) for o in options]
    for depth, part in reversed(list(enumerate(path))):
        kind = 1 if depth == len(path) - 1 else 2
        leaf = [{"name": part, "type": kind, "options": leaf}]
    data: dict[str, Any] = {"id": str(command_id), "name": name, "type": 1}
    if leaf:
        data["options"] = leaf
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if resolved:
        data["resolved"] = dict(resolved)
    return data


def component_data(
    custom_id: str, component_type: int, values: Sequence[str] | None = None
) -> dict[str, Any]:
    """The ``data`` of a component click (type 2) or a select choice (``values`` given)."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": component_type}
    if values is not None or component_type != 2:
        data["values"] = list(values or [])
    return data


def iter_components(components: Iterable[Mapping[str, Any]]) -> Iterable[Mapping[str, Any]]:
    """Every component of a message, depth first, rows and containers included."""
    for component in components:
        yield component
        yield from iter_components(component.get("components") or [])
        accessory = component.get("accessory")
        if accessory:
            yield accessory


def find_component(message_data: Mapping[str, Any], custom_id: str) -> Mapping[str, Any] | None:
    """The component of ``message_data`` with ``custom_id``, or None."""
    for component in iter_components(message_data.get("components") or []):
        if component.get("custom_id") == custom_id:
            return component
    return None
