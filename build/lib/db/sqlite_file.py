"""Noticing that the SQLite file was deleted or replaced while the bot holds it open.

SQLite keeps writing to an unlinked file, so every later save would be acknowledged and
then lost. The store keeps its own descriptor of the file it opened (so its inode cannot be
reused by another file while the bot runs) and, before each write, compares that
inode and device with what the path names now: one ``stat`` call.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)


class FileWatch:
    """The identity of an open database file, checked cheaply against its path."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._fd: int | None = None
        self._reported = False
        self._identity: tuple[int, int] = (0, 0)
        if self.path != ":memory:" and not self.path.startswith("file:"):
            self._fd = os.open(self.path, os.O_RDONLY)
            opened = os.fstat(self._fd)
            self._identity = (opened.st_ino, opened.st_dev)

    @property
    def watched(self) -> bool:
        """Whether this is a file on disk (not an in-memory database or a URI)."""
        return self._fd is not None

    def problem(self) -> str | None:
        """Return why the path no longer names the open file, or None when it does.

        The first time a problem is found it is logged as CRITICAL (once per store).
        """
        if self._fd is None:
            return None
        try:
            now = os.stat(self.path)
        except FileNotFoundError:
            reason = f"the database file {self.path} was deleted or moved while in use"
        except OSError as exc:
            reason = f"the database file {self.path} cannot be checked: {exc}"
        else:
            if (now.st_ino, now.st_dev) == self._identity:
                return None
            reason = f"the database file {self.path} was replaced by another file while in use"
        if not self._reported:
            self._reported = True
            log.critical("%s; nothing more is saved until the bot is restarted", reason)
        return reason

    def close(self) -> None:
        """Let go of the descriptor."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
