"""Noticing that the SQLite files were deleted or replaced while the bot holds them open.

SQLite keeps writing to an unlinked file, so every later save would be acknowledged and
then lost: the database file itself, and in WAL mode its ``-wal`` (where every commit
lands first, until a checkpoint copies it back) and ``-shm`` (the WAL's index; a new
one lets another connection read or reset the WAL without knowing of this one). The
store keeps its own descriptor of each file it opened (so an inode cannot be reused by
another file while the bot runs) and, around each write, compares each inode and device
with what the path names now: one ``stat`` call per file, on the writing thread.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

log = logging.getLogger(__name__)

#: The files SQLite keeps beside the database in WAL mode.
WAL_SUFFIXES = ("-wal", "-shm")


class FileWatch:
    """The identity of an open database's files, checked cheaply against their paths."""

    def __init__(self, path: str | Path, *, wal: bool = False) -> None:
        """Watch the file at ``path`` and, when ``wal``, its ``-wal`` and ``-shm`` files
        (each one that exists now; a database out of WAL mode has none)."""
        self.path = str(path)
        self._files: dict[str, tuple[int, tuple[int, int]]] = {}
        self._reported = False
        if self.path == ":memory:" or self.path.startswith("file:"):
            return
        self._hold(self.path)
        for suffix in WAL_SUFFIXES if wal else ():
            if os.path.exists(self.path + suffix):
                self._hold(self.path + suffix)

    def _hold(self, name: str) -> None:
        fd = os.open(name, os.O_RDONLY)
        opened = os.fstat(fd)
        self._files[name] = (fd, (opened.st_ino, opened.st_dev))

    @property
    def names(self) -> list[str]:
        """The paths watched: the database file first, then its WAL files."""
        return list(self._files)

    def problem(self) -> str | None:
        """Return why a path no longer names its open file, or None when all do.

        The first time a problem is found it is logged as CRITICAL (once per store).
        """
        for name, (_fd, identity) in self._files.items():
            reason = _changed(name, identity)
            if reason is not None:
                if not self._reported:
                    self._reported = True
                    log.critical("%s; nothing more is saved until the bot is restarted",
                                 reason)
                return reason
        return None

    def close(self) -> None:
        """Let go of the descriptors."""
        for fd, _identity in self._files.values():
            os.close(fd)
        self._files.clear()


def _changed(name: str, identity: tuple[int, int]) -> str | None:
    """Return why ``name`` is no longer the file of ``identity``, or None."""
    try:
        now = os.stat(name)
    except FileNotFoundError:
        return f"the database file {name} was deleted or moved while in use"
    except OSError as exc:
        return f"the database file {name} cannot be checked: {exc}"
    if (now.st_ino, now.st_dev) == identity:
        return None
    return f"the database file {name} was replaced by another file while in use"
