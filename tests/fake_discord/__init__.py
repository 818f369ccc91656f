"""An offline Discord for tests: real discord.py over loopback HTTP and websocket.

``FakeDiscord`` is the server and world model, ``Driver`` feeds interactions to an
in-process client, ``payloads`` builds Discord's JSON, ``limits`` checks LIMITS.md,
``attachments`` handles uploaded files and ``mentions`` works out who a message pings.
"""

from tests.fake_discord.driver import Driver, InteractionResult
from tests.fake_discord.server import (
    FakeDiscord,
    FakeGuild,
    FakeUser,
    LimitViolation,
    MentionRecord,
    RecordedRequest,
)

__all__ = [
    "Driver",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "InteractionResult",
    "LimitViolation",
    "MentionRecord",
    "RecordedRequest",
]
