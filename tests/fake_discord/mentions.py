"""Who a message pings: Discord's mention parsing under an ``allowed_mentions`` object.

Discord parses ``<@id>`` / ``<@!id>`` (users), ``<@&id>`` (roles) and ``@everyone`` /
``@here`` from the message ``content`` only (never from embeds), then filters them:

- no ``allowed_mentions`` (absent or null): everything parsed may notify;
- an object: ``parse`` lists the kinds parsed freely (``users``, ``roles``,
  ``everyone``); ``users`` / ``roles`` allow only those ids (and may not be combined
  with the same kind in ``parse``: 400 / 50035); ``replied_user`` (default false) pings
  the author of the message a reply points to;
- ``@everyone``/``@here`` and roles that are not mentionable only ping when the sender
  has Mention Everyone (or Administrator).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tests.fake_discord.limits import Problem

MENTION_EVERYONE = 1 << 17
ADMINISTRATOR = 1 << 3
MAX_ALLOWED_IDS = 100

_USER = re.compile(r"<@!?(\d+)>")
_ROLE = re.compile(r"<@&(\d+)>")
_EVERYONE = re.compile(r"@(everyone|here)")


@dataclass(frozen=True)
class Mentions:
    """What a message's content may notify after ``allowed_mentions`` is applied."""

    users: frozenset[int]
    roles: frozenset[int]
    everyone: bool
    replied_user: bool


def parse(content: str) -> Mentions:
    """Every mention written in ``content``, before any filtering."""
    return Mentions(
        users=frozenset(int(m) for m in _USER.findall(content)),
        roles=frozenset(int(m) for m in _ROLE.findall(content)),
        everyone=bool(_EVERYONE.search(content)),
        replied_user=True,
    )


def allowed(
    content: str,
    allowed_mentions: Mapping[str, Any] | None,
    *,
    mentionable_roles: frozenset[int] = frozenset(),
    can_mention_everyone: bool = False,
) -> Mentions:
    """The mentions of ``content`` that notify, under ``allowed_mentions`` and permissions."""
    written = parse(content)
    if allowed_mentions is None:
        users, roles, everyone, replied = written.users, written.roles, written.everyone, True
    else:
        kinds = set(allowed_mentions.get("parse") or [])
        user_ids = {int(u) for u in allowed_mentions.get("users") or []}
        role_ids = {int(r) for r in allowed_mentions.get("roles") or []}
        users = written.users if "users" in kinds else written.users & user_ids
        roles = written.roles if "roles" in kinds else written.roles & role_ids
        everyone = written.everyone and "everyone" in kinds
        replied = bool(allowed_mentions.get("replied_user"))
    if not can_mention_everyone:
        everyone = False
        roles = roles & mentionable_roles
    return Mentions(frozenset(users), frozenset(roles), everyone, replied)


def check_allowed_mentions(allowed_mentions: Any) -> list[Problem]:
    """The 400 / 50035 problems Discord finds in an ``allowed_mentions`` object."""
    if allowed_mentions is None:
        return []
    if not isinstance(allowed_mentions, Mapping):
        return [
            Problem(("allowed_mentions",), "DICT_TYPE_CONVERT", "Only dictionaries may be used.")
        ]
    problems: list[Problem] = []
    kinds = allowed_mentions.get("parse") or []
    for i, kind in enumerate(kinds):
        if kind not in ("users", "roles", "everyone"):
            problems.append(
                Problem(
                    ("allowed_mentions", "parse", i),
                    "BASE_TYPE_CHOICES",
                    "Value must be one of {'users', 'roles', 'everyone'}.",
                )
            )
    for kind in ("users", "roles"):
        ids = allowed_mentions.get(kind) or []
        if ids and kind in kinds:
            problems.append(
                Problem(
                    ("allowed_mentions",),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                )
            )
        if len(ids) > MAX_ALLOWED_IDS:
            problems.append(
                Problem(
                    ("allowed_mentions", kind),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_ALLOWED_IDS} or fewer in length.",
                )
            )
    return problems


def can_mention_everyone(permissions: int) -> bool:
    """Whether a permission set lets its holder ping @everyone, @here and any role."""
    return bool(permissions & (MENTION_EVERYONE | ADMINISTRATOR))
