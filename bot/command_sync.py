"""The application commands' sync with Discord: made at a start only when the command set
changed since the last sync (its hash is kept in ``meta``, one key per place synced), or
when forced (``python -m bot sync``).

DEV_GUILD_ID gets a copy of the commands for instant testing; a server that was
DEV_GUILD_ID before has its copy taken away again, so its members do not see every
command twice.
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord

from db.base import GameStore

log = logging.getLogger(__name__)


class CommandSync:
    """One start's sync of the commands in ``tree``, its last hashes read from ``store``."""

    def __init__(self, tree: discord.app_commands.CommandTree[Any], store: GameStore,
                 dev_guild_id: int | None, *, forced: bool = False) -> None:
        self.tree = tree
        self.store = store
        self.dev_guild_id = dev_guild_id
        #: Whether the commands are synced even where their hash is unchanged.
        self.forced = forced

    def command_hash(self, guild: discord.abc.Snowflake | None = None) -> str:
        """Return a hash of the command set (global, or one guild's)."""
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        text = json.dumps(sorted(payload, key=lambda c: c["name"]), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync(self) -> list[str]:
        """Sync the commands (globally, and to DEV_GUILD_ID) where they changed since the
        last sync, or everywhere when forced; take them away from a former DEV_GUILD_ID.
        Return the ``meta`` keys of the places synced."""
        synced: list[str] = []
        targets: list[discord.Object | None] = [None]
        if self.dev_guild_id:
            guild = discord.Object(self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            targets.append(guild)
        for target in targets:
            key = "commands:global" if target is None else f"commands:guild:{target.id}"
            digest = self.command_hash(target)
            if not self.forced and await self.store.get_meta(key) == digest:
                log.info("application commands unchanged (%s); not syncing", key)
                continue
            try:
                commands = await self.tree.sync(guild=target)
            except discord.Forbidden as exc:
                if target is None:
                    raise
                log.warning("could not sync the commands to DEV_GUILD_ID %s: the bot is not "
                            "in that server, or was invited without the applications.commands "
                            "scope (%s); the global commands still work", target.id, exc)
                continue
            await self.store.set_meta(key, digest)
            synced.append(key)
            log.info("synced %d application commands (%s)", len(commands), key)
        await self._unsync_former_dev_guilds()
        return synced

    async def _unsync_former_dev_guilds(self) -> None:
        """Take the commands copied to a server that is no longer DEV_GUILD_ID away from
        it: its members would see every command twice, the copy frozen at its last sync."""
        rows = await self.store.query(
            "SELECT key FROM meta WHERE key LIKE :key AND value <> ''",
            {"key": "commands:guild:%"})
        for (key,) in rows:
            guild_id = int(str(key).rsplit(":", 1)[1])
            if guild_id == self.dev_guild_id:
                continue
            try:
                await self.tree.sync(guild=discord.Object(guild_id))  # none for it: cleared
            except discord.HTTPException as exc:
                log.warning("could not take the commands away from the former DEV_GUILD_ID "
                            "%s (%s); a server admin may remove the bot's copies there",
                            guild_id, exc)
                continue
            await self.store.set_meta(str(key), "")
            log.info("took the commands copied to the former DEV_GUILD_ID %s away", guild_id)
