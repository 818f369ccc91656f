"""A first gateway connection that fails (the socket closed before Discord's hello, a
passing blip): discord.py 2.7 raises AttributeError while handling it
(Rapptz/discord.py#10520). The bot says in one line that Discord could not be reached,
as for any network failure, and exits 1 (a service manager starts it again), not with a
traceback of discord.py's own."""

from __future__ import annotations

import asyncio

from aiohttp import web

from tests.fake_discord.process import bot_process


async def test_a_failed_first_gateway_connection_is_said_plainly(fake_discord, tmp_path,
                                                                 monkeypatch):
    original = web.WebSocketResponse.send_str
    dropped: list[bool] = []

    async def send_str(self, data, *args, **kwargs):
        if '"op": 10' in data and not dropped:  # Discord's first hello: closed instead
            dropped.append(True)
            await self.close(code=1001, message=b"going away")
            return None
        return await original(self, data, *args, **kwargs)

    monkeypatch.setattr(web.WebSocketResponse, "send_str", send_str)
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "LOG_LEVEL": "INFO"}
    async with bot_process(fake_discord, "-m", "tests.run_toy_bot", env=env) as proc:
        code = await asyncio.wait_for(proc.process.wait(), 60)
        assert dropped
        assert code == 1, proc.text[-3000:]
        assert "Could not reach Discord" in proc.text, proc.text[-3000:]
        assert "Traceback" not in proc.text, proc.text[-3000:]


def test_an_attribute_error_of_the_bots_own_is_not_taken_for_discords():
    """Only an AttributeError raised in discord.py's own code, while handling a failed
    connection, is read as that failure: one raised by the bot's code is its own fault,
    raised with its traceback."""
    import pytest

    from bot.config import load_settings
    from bot.runner import _start_failure

    try:
        try:
            raise OSError("network is unreachable")
        except OSError:
            None.sequence  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as exc:
        with pytest.raises(AttributeError):
            _start_failure(exc, load_settings({"DISCORD_TOKEN": "MTAx.abcdef.ghijklmnop"}))
