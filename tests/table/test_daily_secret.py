"""The daily deal comes from the day and the bot's own secret (bot.table.daily): every
server of one bot deals the same cards that day, and nobody deals them at home from the
date and the code before their first try counts."""

from __future__ import annotations

import hashlib
from typing import Any

from bot.games.tinker.engine import ENGINE
from bot.table.daily import SECRET_KEY, daily_seed
from bot.table.service import Tables
from db.store import Store
from tests.support import ALICE, BOB, Clock


async def _tables(path: Any) -> Tables:
    store = await Store.open(path, Clock())
    return Tables(store, clock=Clock(), engines=lambda kind: ENGINE)


def test_the_seed_needs_the_secret() -> None:
    """The same day deals alike under one secret, differently under another."""
    assert daily_seed("tinker", "2026-12-07", "a" * 32) == daily_seed("tinker", "2026-12-07",
                                                                      "a" * 32)
    assert daily_seed("tinker", "2026-12-07", "a" * 32) != daily_seed("tinker", "2026-12-07",
                                                                      "b" * 32)
    assert daily_seed("tinker", "2026-12-07", "a" * 32) != daily_seed("tinrealm",
                                                                      "2026-12-07", "a" * 32)


async def test_one_bot_deals_one_daily_from_its_secret(tmp_path, backend) -> None:
    """Two channels of one bot (one database) get the same daily deal, made from the
    secret stored at its first daily deal (32 random hex digits, kept): not the deal the
    date alone would give (as this code dealt it before it had a secret)."""
    first = await _tables(tmp_path / "a.db")
    try:
        one = await first.start("tinker", guild_id=1, channel_id=10, starter=ALICE, daily=True)
        two = await first.start("tinker", guild_id=2, channel_id=20, starter=BOB, daily=True)
        assert one.row.state == two.row.state
        secret = await first.store.get_meta(SECRET_KEY)
        assert secret is not None and len(secret) == 32
        assert await first.store.first_meta(SECRET_KEY, "x" * 32) == secret
        assert one.state.rng.seed == daily_seed("tinker", one.row.daily or "", secret)
        public = hashlib.sha256(f"daily:tinker:{one.row.daily}".encode()).digest()
        assert one.state.rng.seed != int.from_bytes(public[:4], "big") & 0x7FFFFFFF
    finally:
        await first.store.close()
