"""Random but plausible traffic from several members keeps the bot sound (see tests/monkey.py).

Each case drives the real bot through the fake Discord for a fixed seed and checks after
every step that every interaction was answered, that nothing logged an error or damaged
data, that no channel has two open games and that every open game's board shows its
current version. A failure names the seed, the step, the fault and the steps before it.

The normal suite runs a few seeds. To run more, set environment variables:

- ``MONKEY_SEEDS``: the seeds, e.g. ``0-99`` (both ends included) or ``3,7,20-29``;
- ``MONKEY_STEPS``: steps per seed (default 300);
- ``MONKEY_PICTURES``: ``1`` to draw board pictures in every case, ``0`` in none (by
  default only the last of the usual seeds draws them, as that is slower).

For example: ``MONKEY_SEEDS=0-59 MONKEY_STEPS=400 pytest tests/test_monkey.py``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from tests.fake_discord import Driver, FakeDiscord
from tests.monkey import Monkey, make_plan

DEFAULT_CASES = [(0, False), (1, False), (2, False), (3, False), (4, True)]
"""(seed, pictures) for the normal suite."""

STEPS = int(os.environ.get("MONKEY_STEPS", "300"))
"""Steps per seed."""


def _seeds(text: str) -> list[int]:
    seeds: list[int] = []
    for part in text.replace(" ", "").split(","):
        if "-" in part:
            first, last = part.split("-")
            seeds.extend(range(int(first), int(last) + 1))
        elif part:
            seeds.append(int(part))
    return seeds


def _cases() -> list[tuple[int, bool]]:
    pictures = os.environ.get("MONKEY_PICTURES")
    if "MONKEY_SEEDS" in os.environ:
        return [(seed, pictures == "1") for seed in _seeds(os.environ["MONKEY_SEEDS"])]
    if pictures is None:
        return DEFAULT_CASES
    return [(seed, pictures == "1") for seed, _ in DEFAULT_CASES]


@pytest.mark.parametrize(
    ("seed", "pictures"),
    [pytest.param(seed, pictures, id=f"seed{seed}{'-pictures' if pictures else ''}")
     for seed, pictures in _cases()],
)
async def test_monkey(
    seed: int,
    pictures: bool,
    discord_driver: Driver,
    fake_discord: FakeDiscord,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A seed's traffic leaves no fault after any step."""
    # The monkey reads the log after every step, so an error is reported with the step
    # that caused it; the autouse check of error logs stays on as a second net.
    caplog.set_level(logging.WARNING)
    monkey = Monkey(seed, fake_discord, discord_driver, tmp_path, caplog.records,
                    pictures=pictures)
    outcome = await monkey.run(make_plan(seed, STEPS))
    if outcome.faults:
        again = (f"again: MONKEY_SEEDS={seed} MONKEY_STEPS={STEPS} "
                 f"MONKEY_PICTURES={int(pictures)} pytest tests/test_monkey.py")
        pytest.fail(f"{outcome.report()}\n{again}", pytrace=False)
