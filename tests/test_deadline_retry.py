"""A deadline whose handling failed is tried again after a pause, and only while it is
still due: once the game stops being due (a click decided the vote meanwhile), the loop
goes back to its idle look instead of looking again and again."""

from __future__ import annotations

import asyncio

import pytest

from bot.table.deadlines import IDLE_LOOK_SECONDS, RETRY_SECONDS, Deadlines
from tests.support import Clock

pytestmark = pytest.mark.error_logs_expected  # the failed handling is logged


async def test_a_failed_deadline_no_longer_due_lets_the_loop_rest() -> None:
    clock = Clock()
    looks = []
    stored = {7: clock() - 1}

    async def due(now: float, limit: int) -> list[tuple[int, float]]:
        looks.append(now)
        return [(g, at) for g, at in stored.items() if at <= now][:limit]

    async def following() -> float | None:
        return min(stored.values(), default=None)

    async def fire(game_id: int) -> None:
        stored.pop(game_id)  # a click decided the vote as this failed to announce it
        raise RuntimeError("Discord could not be reached")

    deadlines = Deadlines(None, fire, clock, due=due, following=following)
    deadlines.start()
    try:
        for _ in range(50):
            await asyncio.sleep(0.01)
            if deadlines._sleeping_until is not None:
                break
        assert deadlines._sleeping_until == pytest.approx(clock() + RETRY_SECONDS, abs=0.01)
        clock.advance(RETRY_SECONDS + 1)  # the retry time passes with nothing due
        deadlines.wake()
        await asyncio.sleep(0.3)
        assert len(looks) <= 3, len(looks)
        assert deadlines._sleeping_until == pytest.approx(clock() + IDLE_LOOK_SECONDS,
                                                          abs=0.01)
    finally:
        await deadlines.stop()
