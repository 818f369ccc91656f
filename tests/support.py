"""Shared test helpers: a controllable clock, the toy engine registered, a table service."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.games import registry
from bot.tables import Actor, Tables
from db.store import Store

registry.ENGINES.setdefault("toy", "tests.toy:ENGINE")

ALICE = Actor(101, "Alice")
BOB = Actor(102, "Bob")
CAROL = Actor(103, "Carol")
MOD = Actor(199, "Mod", can_manage=True)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@asynccontextmanager
async def open_tables(path: Path, clock: Clock | None = None) -> AsyncIterator[Tables]:
    """Open a table service over a database file; close it afterwards."""
    clock = clock or Clock()
    store = await Store.open(path, clock)
    seeds = iter(range(1, 1_000_000))
    try:
        yield Tables(store, clock=clock, seeds=lambda: next(seeds))
    finally:
        await store.close()
