"""A deadline whose handling failed is tried again after a pause, and only while it is
still due: once the game stops being due (a click decided the vote meanwhile), the loop
goes back to its idle look instead of looking again and again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest

from bot.table import deadlines as deadlines_module
from bot.table.deadlines import IDLE_LOOK_SECONDS, RETRY_SECONDS, Deadlines
from tests.support import Clock


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
        await _asleep(deadlines)
        assert deadlines._sleeping_until == pytest.approx(clock() + RETRY_SECONDS, abs=0.01)
        clock.advance(RETRY_SECONDS + 1)  # the retry time passes with nothing due
        deadlines.wake()
        await asyncio.sleep(0.3)
        assert len(looks) <= 3, len(looks)
        assert deadlines._sleeping_until == pytest.approx(clock() + IDLE_LOOK_SECONDS,
                                                          abs=0.01)
    finally:
        await deadlines.stop()


async def test_games_failing_at_the_front_do_not_hide_later_ones(monkeypatch) -> None:
    """A whole batch of the earliest deadlines keeps failing (damaged games): the games
    due after them still fire."""
    monkeypatch.setattr(deadlines_module, "BATCH", 3)
    clock = Clock()
    stored = {1: clock() - 30, 2: clock() - 20, 3: clock() - 10, 4: clock() - 1}
    fired = []

    due, following = _stored_as_the_stores(stored)

    async def fire(game_id: int) -> None:
        fired.append(game_id)
        if game_id in (1, 2, 3):
            raise RuntimeError("damaged")
        stored.pop(game_id)

    deadlines = Deadlines(None, fire, clock, due=due, following=following)
    assert await deadlines.run_due() == 4
    assert 4 in fired and 4 not in stored
    clock.advance(1)
    assert await deadlines.run_due() == 0  # the failing ones wait for their retry


async def test_a_wake_as_the_loop_stops_does_not_hold_the_stop() -> None:
    """A deadline stored (a wake) in the very step the loop is stopped: the stop ends."""
    clock = Clock()

    async def nothing_due(now: float, limit: int) -> list[tuple[int, float]]:
        return []

    async def no_deadline() -> float | None:
        return None

    async def fire(game_id: int) -> None:
        raise AssertionError("nothing is due")

    deadlines = Deadlines(None, fire, clock, due=nothing_due, following=no_deadline)
    deadlines.start()
    for _ in range(50):
        await asyncio.sleep(0.01)
        if deadlines._sleeping_until is not None:
            break
    deadlines.wake()
    await asyncio.wait_for(asyncio.shield(deadlines.stop()), 2)


async def test_a_store_out_of_reach_is_said_once_not_at_every_look(caplog) -> None:
    """The database is out of reach for several looks: one warning, without a traceback
    (the store says the outage itself), then one line once it can be read again."""
    import logging

    from db.errors import StorageError

    clock = Clock()
    down = [True]
    looks = []

    async def due(now: float, limit: int) -> list[tuple[int, float]]:
        looks.append(now)
        if down[0]:
            raise StorageError("connection refused")
        return []

    async def following() -> float | None:
        return None

    deadlines = Deadlines(None, _never, clock, due=due, following=following)
    with caplog.at_level(logging.INFO, logger="bot.table.deadlines"):
        deadlines.start()
        try:
            for _ in range(4):  # four looks while it is out of reach
                await _next_look(deadlines, clock, looks)
            down[0] = False
            await _next_look(deadlines, clock, looks)
        finally:
            await deadlines.stop()
    said = [(r.levelname, r.getMessage(), r.exc_info) for r in caplog.records]
    assert len(looks) >= 5
    assert [s[:2] for s in said] == [
        ("WARNING", "could not read stored deadlines (connection refused); looking again "
                    f"every {RETRY_SECONDS:.0f} s"),
        ("INFO", "stored deadlines can be read again")]
    assert said[0][2] is None


async def _never(game_id: int) -> None:
    raise AssertionError("nothing is due")


async def _next_look(deadlines: Deadlines, clock: Clock, looks: list[float]) -> None:
    """Let the loop make its next look (moving the clock to its retry time)."""
    before = len(looks)
    clock.advance(RETRY_SECONDS + 1)
    deadlines.wake()
    for _ in range(100):
        await asyncio.sleep(0.01)
        if len(looks) > before:
            return


async def test_a_paused_game_does_not_hold_back_the_next_games_deadline() -> None:
    """A game whose server removed the bot keeps its past deadline for the hour's grace
    (:class:`Paused`, looked at again a minute later); the loop still sleeps only until
    another server's vote window closes, not until the paused game's next look."""
    clock = Clock()
    stored = {1: clock() - 5, 2: clock() + 2}  # 1 paused; 2 a vote window in 2 s
    fired = []

    due, following = _stored_as_the_stores(stored)

    async def fire(game_id: int) -> None:
        if game_id == 1:
            raise deadlines_module.Paused()
        fired.append(game_id)
        stored.pop(game_id)

    deadlines = Deadlines(None, fire, clock, due=due, following=following)
    deadlines.start()
    try:
        await _asleep(deadlines)
        assert deadlines._sleeping_until == pytest.approx(stored[2], abs=0.01)
        clock.advance(2)
        deadlines.wake()
        for _ in range(50):
            await asyncio.sleep(0.01)
            if fired:
                break
        assert fired == [2]
        # then it rests until its idle look (the paused game's look is later still),
        # not in a busy loop over the paused game's past deadline
        await _asleep(deadlines)
        assert deadlines._sleeping_until == pytest.approx(clock() + IDLE_LOOK_SECONDS,
                                                          abs=0.01)
    finally:
        await deadlines.stop()


def _stored_as_the_stores(stored: dict[int, float]) -> tuple[
        Callable[[float, int], Awaitable[list[tuple[int, float]]]],
        Callable[[], Awaitable[float | None]]]:
    """Return the looks of the stores (the due games, earliest first; the next deadline)
    at the deadlines ``stored`` by game."""
    async def due(now: float, limit: int) -> list[tuple[int, float]]:
        return sorted(((g, at) for g, at in stored.items() if at <= now),
                      key=lambda row: row[1])[:limit]

    async def following() -> float | None:
        return min(stored.values(), default=None)

    return due, following


async def _asleep(deadlines: Deadlines) -> None:
    """Wait (up to half a second) until the loop sleeps after its look."""
    for _ in range(50):
        await asyncio.sleep(0.01)
        if deadlines._sleeping_until is not None:
            return
