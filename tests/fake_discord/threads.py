"""Threads in the fake: the thread channel object and the checks Discord makes on one.

Shapes follow Discord's API reference (Channel object, thread_metadata; Start Thread
without Message; Modify Channel's thread fields): a public thread is a channel of type
11 under a text channel (an announcement thread, type 10, under an announcement channel,
type 5), named in 1 to 100 characters, archived by Discord after 60, 1440, 4320 or 10080
minutes without a message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tests.fake_discord import limits, payloads

ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
TEXT_CHANNEL = 0
ANNOUNCEMENT_CHANNEL = 5
#: The thread types each kind of channel holds (no private threads in announcements).
HELD = {TEXT_CHANNEL: (PUBLIC_THREAD, PRIVATE_THREAD),
        ANNOUNCEMENT_CHANNEL: (ANNOUNCEMENT_THREAD,)}
ARCHIVE_MINUTES = (60, 1440, 4320, 10080)
NAME_LIMIT = 100
#: The fields Modify Channel takes for a thread.
EDITABLE = ("name", "archived", "auto_archive_duration", "locked", "invitable",
            "rate_limit_per_user", "flags", "applied_tags")


def thread_channel(thread_id: int, parent: Mapping[str, Any], owner_id: int, name: str,
                   kind: int, archive_minutes: int) -> dict[str, Any]:
    """A thread channel object, as Start Thread returns it."""
    now = payloads.iso_now()
    return {
        "id": str(thread_id),
        "type": kind,
        "guild_id": parent["guild_id"],
        "parent_id": parent["id"],
        "owner_id": str(owner_id),
        "name": name,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": archive_minutes,
            "archive_timestamp": now,
            "locked": False,
            "invitable": True,
            "create_timestamp": now,
        },
    }


def is_thread(channel: Mapping[str, Any]) -> bool:
    """Whether a channel object is a thread."""
    return int(channel["type"]) in THREAD_TYPES


def check_start(body: Mapping[str, Any]) -> list[limits.Problem]:
    """Problems of a Start Thread without Message body (an empty list: Discord takes it)."""
    problems = _check_name(body, required=True)
    minutes = body.get("auto_archive_duration")
    if minutes is not None and minutes not in ARCHIVE_MINUTES:
        problems.append(limits.Problem(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                                       f"Value must be one of {ARCHIVE_MINUTES}."))
    kind = body.get("type", PRIVATE_THREAD)
    if kind not in THREAD_TYPES:
        problems.append(limits.Problem(("type",), "BASE_TYPE_CHOICES",
                                       f"Value must be one of {THREAD_TYPES}."))
    return problems


def check_edit(body: Mapping[str, Any]) -> list[limits.Problem]:
    """Problems of a Modify Channel body sent for a thread."""
    problems = [limits.Problem((key,), "UNKNOWN_FIELD", "Not a field of a thread.")
                for key in body if key not in EDITABLE]
    problems += _check_name(body, required=False)
    minutes = body.get("auto_archive_duration")
    if "auto_archive_duration" in body and minutes not in ARCHIVE_MINUTES:
        problems.append(limits.Problem(("auto_archive_duration",), "BASE_TYPE_CHOICES",
                                       f"Value must be one of {ARCHIVE_MINUTES}."))
    for flag in ("archived", "locked", "invitable"):
        if flag in body and not isinstance(body[flag], bool):
            problems.append(limits.Problem((flag,), "BASE_TYPE_BAD_TYPE", "Must be a boolean."))
    return problems


def needs_manage_threads(body: Mapping[str, Any]) -> bool:
    """Whether a Modify Channel body for a thread needs Manage Threads of a bot that did
    not create the thread: any change but unarchiving (Discord's threads topic)."""
    return any(key in body for key in ("name", "auto_archive_duration", "locked",
                                       "invitable")) or body.get("archived") is True


def apply_edit(thread: dict[str, Any], body: Mapping[str, Any]) -> None:
    """Change a stored thread as Modify Channel does."""
    metadata = thread["thread_metadata"]
    if "name" in body:
        thread["name"] = str(body["name"]).strip()
    for key in ("archived", "auto_archive_duration", "locked", "invitable"):
        if key in body:
            metadata[key] = body[key]
    if "archived" in body:
        metadata["archive_timestamp"] = payloads.iso_now()


def _check_name(body: Mapping[str, Any], *, required: bool) -> list[limits.Problem]:
    if "name" not in body:
        return [limits.Problem(("name",), "BASE_TYPE_REQUIRED", "This field is required")] if (
            required) else []
    name = body["name"]
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LIMIT:
        return [limits.Problem(("name",), "BASE_TYPE_BAD_LENGTH",
                               f"Must be between 1 and {NAME_LIMIT} in length.")]
    return []
