"""What every drill checks in the database afterwards: nothing corrupt, nothing doubled."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from bot.games.tinker.engine import ENGINE


def replay(seed: int, options: dict, actions: list[str]) -> dict:
    """Return the dumped Tinker state after playing ``actions`` from a deal of ``seed``."""
    state = ENGINE.new(seed, 1, options)
    for action in actions:
        state = ENGINE.apply(state, 0, action).state
    return ENGINE.dump(state)


def checked_games(path: Path) -> dict[int, tuple[str, int, int]]:
    """Check the database at ``path``; return {game id: (status, version, channel id)}.

    The file passes PRAGMA integrity_check; every game's action log is exactly one entry
    per version (1..version, none missing, none twice); every stored state loads with
    its engine and equals the replay of its logged moves from its seed.
    """
    games: dict[int, tuple[str, int, int]] = {}
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute(
            "SELECT id, status, version, channel_id, state, options FROM games"
        ).fetchall()
        for game_id, status, version, channel_id, raw, options in rows:
            log = conn.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
            assert [seq for seq, _ in log] == list(range(1, version + 1)), game_id
            stored = json.loads(raw)
            ENGINE.load(stored)
            entries = [json.loads(action) for _, action in log]
            moves = [entry["action"] for entry in entries if "action" in entry]
            assert replay(stored["rng"][0], json.loads(options), moves) == stored, game_id
            games[game_id] = (status, version, channel_id)
    conn.close()
    return games
