"""Run a bot as a separate process pointed at a :class:`FakeDiscord`, exactly as in production."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field

from tests.fake_discord.server import FakeDiscord

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
"""The repository root: the working directory of bot processes."""


@dataclass
class BotProcess:
    """A running bot process and the lines it has printed so far (stdout and stderr merged)."""

    process: asyncio.subprocess.Process
    output: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything the process printed, as one string."""
        return "".join(self.output)


async def stop_process(process: asyncio.subprocess.Process, grace: float = 5.0) -> None:
    """Ask a child process to stop (SIGTERM), and kill it if it has not after ``grace`` s."""
    if process.returncode is not None:
        return
    process.terminate()
    try:
        await asyncio.wait_for(process.wait(), grace)
    except TimeoutError:
        process.kill()
        await process.wait()


@contextlib.asynccontextmanager
async def bot_process(
    fake: FakeDiscord, *args: str, env: Mapping[str, str] | None = None
) -> AsyncIterator[BotProcess]:
    """Start ``python args...`` with the fake's variables in its environment; kill it on exit.

    The child gets DISCORD_API_BASE, DISCORD_GATEWAY_URL and DISCORD_TOKEN (see
    :meth:`FakeDiscord.subprocess_env`) on top of this process's environment and ``env``.
    """
    child_env = {**os.environ, **fake.subprocess_env(), **(env or {}), "PYTHONUNBUFFERED": "1"}
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *args,
        cwd=REPO_ROOT,
        env=child_env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    running = BotProcess(process)

    async def collect() -> None:
        assert process.stdout is not None
        async for line in process.stdout:
            running.output.append(line.decode(errors="replace"))

    reader = asyncio.create_task(collect(), name="fake-discord-bot-output")
    try:
        yield running
    finally:
        await stop_process(process)
        await reader
