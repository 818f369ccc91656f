"""Reading the store for games by where and by whom they were played, and a move's
logged action: questions the boards and cogs ask of the table, none of which changes a
game."""

from __future__ import annotations

import json
from collections.abc import Sequence

from bot.table.core import TableCore
from bot.table.errors import Refusal, Unavailable
from bot.table.loaded import LoadedGame


class Finder:
    """Finds games and logged moves, over the shared :class:`TableCore` (a read the
    store refuses is refused as Unavailable, unless said otherwise)."""

    def __init__(self, core: TableCore) -> None:
        self.core = core

    async def logged_action(self, game_id: int, version: int) -> tuple[str | None, int | None]:
        """Return the action id of the move that made ``version`` of the game and who
        made it (None: a vote's window closing, or the table), as its log holds them
        (None, None: no move made it, or the log is gone; a read that fails, too)."""
        try:
            rows = await self.core.guarded(self.core.store.query(
                "SELECT action, actor_id FROM actions WHERE game_id = :game AND seq = :seq",
                {"game": game_id, "seq": version}))
        except Unavailable:
            return None, None
        try:
            action = json.loads(rows[0][0]).get("action") if rows else None
        except (ValueError, AttributeError):
            return None, None
        if not isinstance(action, str):
            return None, None
        actor = rows[0][1]
        return action, None if actor is None else int(actor)

    async def left_before_the_end(self, game_id: int, user_ids: Sequence[int], *,
                                  finished: bool = False) -> set[int]:
        """Return those of ``user_ids`` whose result of the ended game says they had
        resigned, or walked away (a computer playing their seat), by its end: what a
        game retention emptied still tells of them (an index read per member). With
        ``finished`` (a game played to its end, which gives every person who took part a
        result), also those with no result: seated for it, they never came. A read that
        fails finds none."""
        if not user_ids:
            return set()
        people = {f"u{i}": user for i, user in enumerate(user_ids)}
        try:
            rows = await self.core.guarded(self.core.store.query(
                "SELECT user_id, detail FROM results WHERE game_id = :game AND user_id IN ("
                + ", ".join(f":{key}" for key in people) + ")", {"game": game_id, **people}))
        except Unavailable:
            return set()
        left = {user for user in user_ids if user not in {int(r[0]) for r in rows}} \
            if finished else set()
        for user, detail in rows:
            try:
                said = json.loads(detail)
            except ValueError:
                continue
            if isinstance(said, dict) and (said.get("resigned") or said.get("away")):
                left.add(int(user))
        return left

    async def thread_lobbies_hosted_by(self, guild_id: int, kind: str, user_id: int,
                                       parent: int) -> list[LoadedGame]:
        """Return the open lobbies of ``kind`` in the server that ``user_id`` hosts (they
        opened it, or the role went to them) in a thread opened for them under the
        channel ``parent`` (or under a channel not kept: stored before it was), newest
        first; raise Unavailable when the store cannot be read. Every open lobby of the
        server is looked at (an idle lobby closes within hours: they are few), only
        those found are read whole."""
        rows = await self.core.guarded(self.core.store.query(
            "SELECT id, starter_id, extra FROM games WHERE guild_id = :guild"
            " AND kind = :kind AND status = 'lobby' ORDER BY id DESC",
            {"guild": guild_id, "kind": kind}))
        hosted = []
        for game_id, starter_id, extra in rows:
            try:
                data = json.loads(extra) if isinstance(extra, str) else extra
                host = int(data.get("host") or starter_id or 0)
                under = data.get("parent")
                if (host != user_id or not data.get("thread")
                        or under not in (None, parent)):
                    continue
                game = await self.core.load(int(game_id))
            except Unavailable:
                raise
            except (Refusal, ValueError, TypeError, AttributeError):
                continue  # gone since, or damaged: not one to invite to
            if game.row.status == "lobby" and game.host_id == user_id:
                hosted.append(game)
        return hosted

    async def first_game_in(self, channel_id: int) -> int | None:
        """Return the first game stored in a channel or thread (a game thread's: the one
        it was opened and named for), or None; raise Unavailable when the store cannot
        be read."""
        rows = await self.core.guarded(self.core.store.query(
            "SELECT min(id) FROM games WHERE channel_id = :channel", {"channel": channel_id}))
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def open_in_threads_of(self, guild_id: int, channel_id: int, *,
                                 own: bool = False) -> list[tuple[int, int, str]]:
        """Return the open games played in threads of the channel ``channel_id`` (only
        ``own`` threads: those opened for their game, not a member's thread the game was
        started in), as ``(game id, thread id, kind)``, oldest first (games stored before
        their thread's channel was kept are not found); raise Unavailable when the store
        cannot be read.

        The server's open games whose table data names the channel's id are read 500 at
        a time (a text match, then the data read to be sure)."""
        found: list[tuple[int, int, str]] = []
        after = 0
        while True:
            rows = await self.core.guarded(self.core.store.query(
                "SELECT id, channel_id, kind, extra FROM games WHERE guild_id = :guild"
                " AND status IN ('lobby', 'active') AND id > :after AND extra LIKE :parent"
                " ORDER BY id LIMIT 500",
                {"guild": guild_id, "after": after, "parent": f"%{channel_id}%"}))
            for game_id, thread_id, kind, extra in rows:
                try:
                    data = json.loads(extra)
                    parent, opened = data.get("parent"), data.get("thread", False)
                except (ValueError, AttributeError):
                    continue
                if parent == channel_id and int(thread_id) != channel_id and (
                        opened or not own):
                    found.append((int(game_id), int(thread_id), str(kind)))
            if len(rows) < 500:
                return found
            after = int(rows[-1][0])
