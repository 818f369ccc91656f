"""Leftovers: a delete or edit Discord fails for a while is tried again later, a few
times; one refused for good is not."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.boards.leftovers import Leftovers


class _Response:
    """Just enough of an aiohttp response for discord.HTTPException."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "failed"


def _failing(status: int, times: int) -> tuple[list[int], object]:
    """A job that fails with ``status`` ``times`` times, then works; and its tries."""
    tries: list[int] = []

    async def job() -> None:
        tries.append(1)
        if len(tries) <= times:
            if status >= 500:
                raise discord.DiscordServerError(_Response(status), "failed")  # type: ignore[arg-type]
            raise discord.NotFound(_Response(status), "gone")  # type: ignore[arg-type]

    return tries, job


async def _until_idle(leftovers: Leftovers) -> None:
    """Wait until nothing waits for another try."""
    for _ in range(200):
        if not leftovers.waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("still waiting")


async def test_a_delete_discord_fails_for_a_while_is_tried_again_until_it_works():
    """A 503 twice, then the delete works: three tries, nothing left waiting."""
    leftovers = Leftovers((0.01, 0.01, 0.01))
    tries, job = _failing(503, 2)
    assert await leftovers.take_back("a notice", job) is False
    assert leftovers.waiting == 1
    await _until_idle(leftovers)
    assert len(tries) == 3
    await leftovers.stop()


async def test_a_message_gone_already_is_not_tried_again():
    """A 404 (the message deleted by a moderator meanwhile) counts as done."""
    leftovers = Leftovers((0.01,))
    tries, job = _failing(404, 5)
    assert await leftovers.take_back("a notice", job) is True
    assert leftovers.waiting == 0 and len(tries) == 1


async def test_a_delete_that_keeps_failing_is_given_up_after_its_tries(caplog):
    """Discord failing all along: the first try and one per wait, then one warning."""
    leftovers = Leftovers((0.01, 0.01))
    tries, job = _failing(503, 99)
    with caplog.at_level(logging.INFO, logger="bot.boards.leftovers"):
        await leftovers.take_back("the turn notice 7", job)
        await _until_idle(leftovers)
    assert len(tries) == 3
    given_up = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage().split(":")[0] for r in given_up] == [
        "gave up taking back the turn notice 7"]


async def test_a_later_failure_with_a_shorter_wait_is_tried_first():
    """The one task sleeps until the earliest due try, whatever came first."""
    leftovers = Leftovers((0.01,))
    slow_tries, slow = _failing(503, 1)
    leftovers.retry_seconds = (5.0,)
    await leftovers.take_back("slow", slow)
    leftovers.retry_seconds = (0.01,)
    quick_tries, quick = _failing(503, 1)
    await leftovers.take_back("quick", quick)
    for _ in range(100):
        if len(quick_tries) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(quick_tries) == 2 and len(slow_tries) == 1 and leftovers.waiting == 1
    await leftovers.stop()
    assert leftovers.waiting == 0


async def test_the_stop_drops_what_waits():
    """At the bot's stop the task ends; what waits is left (and said in the log)."""
    leftovers = Leftovers((60.0,))
    _tries, job = _failing(503, 9)
    await leftovers.take_back("x", job)
    await leftovers.stop()
    assert leftovers.waiting == 0
