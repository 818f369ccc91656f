"""Server admin commands: ``python -m bot backup``, ``migrate`` and ``health``.

``backup`` copies the SQLite database with SQLite's ``VACUUM INTO`` (safe while the
bot runs); ``migrate --to postgresql://...`` copies it into an empty PostgreSQL
database; ``health`` reads the running bot's heartbeat file (see ``bot/health.py``) and
exits 0 when it is healthy, 1 otherwise (Docker's ``HEALTHCHECK`` uses it).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import sqlite3
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import urlsplit

from bot.config import ConfigError, Settings, load_settings, url_problem
from bot.health import MAX_AGE_SECONDS, check, health_file

#: The exact command a PostgreSQL deployment uses instead of ``backup``.
PG_DUMP = 'pg_dump --format=custom --file="tablehouse-$(date +%Y%m%d-%H%M%S).dump" "$DATABASE_URL"'


class AdminError(Exception):
    """A command cannot do what was asked; the message says why and what to do."""


def _settings() -> Settings:
    return load_settings(require_token=False)


def _size(count: int) -> str:
    size = float(count)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{count} bytes" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{count} bytes"  # pragma: no cover (the loop always returns)


def default_backup_path(database_path: Path, now: float | None = None) -> Path:
    """Return ``backups/tablehouse-YYYYmmdd-HHMMSS.db`` beside the database (local time)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    return database_path.parent / "backups" / f"tablehouse-{stamp}.db"


def backup(database_path: Path, dest: Path) -> int:
    """Back the SQLite database at ``database_path`` up to ``dest``; return its size.

    Through ``db.moving.backup_sqlite`` (``VACUUM INTO``, compacted: safe while the bot
    runs; a write in progress is not copied and is not waited for).
    """
    from db.errors import StorageError
    from db.moving import backup_sqlite

    if not database_path.is_file():
        raise AdminError(f"there is no database at {database_path} (DATABASE_PATH)")
    if dest.exists():
        raise AdminError(f"{dest} already exists; choose another --out")
    try:
        dest.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise AdminError(f"cannot make the folder {dest.parent} ({exc.strerror}); choose "
                         "another --out") from None
    try:  # the copy's own file first: a refusal there names it, not the database
        dest.touch(exist_ok=False)
        dest.unlink()
    except OSError as exc:
        raise AdminError(f"cannot write {dest} ({exc.strerror}); choose another --out"
                         ) from None
    try:
        asyncio.run(backup_sqlite(database_path, dest))
    except (StorageError, sqlite3.Error, OSError) as exc:
        raise AdminError(f"the backup of {database_path} failed ({exc}): check that this "
                         "user may read the database and write beside it (its -wal and "
                         "-shm files)") from None
    return dest.stat().st_size


def check_postgres_url(url: str) -> str:
    """Return ``url`` if it names a PostgreSQL database; raise AdminError saying what is wrong."""
    url = url.strip()
    if not url.startswith(("postgresql://", "postgres://")):
        raise AdminError(
            "--to must be a PostgreSQL URL such as "
            "postgresql://user:password@host:5432/tablehouse"
        )
    if any(ch.isspace() for ch in url):
        raise AdminError("--to must not contain spaces (quote the URL once, in full)")
    problem = url_problem(url)
    if problem:
        raise AdminError(f"--to {problem}")
    parts = urlsplit(url)
    if not parts.path.strip("/"):
        raise AdminError("--to must name the database, as in postgresql://host/tablehouse")
    return url


def migrate(database_path: Path, url: str) -> dict[str, int]:
    """Copy the SQLite database into the empty PostgreSQL database ``url``; return counts.

    Through ``db.moving.copy_sqlite_to_postgres``: one transaction, every table's count
    checked; a target that already holds rows is refused and left as it was.
    """
    url = check_postgres_url(url)
    if not database_path.is_file():
        raise AdminError(f"there is no database at {database_path} (DATABASE_PATH) to copy")
    from db.errors import NotEmpty
    from db.moving import copy_sqlite_to_postgres

    try:
        counts = asyncio.run(copy_sqlite_to_postgres(database_path, url))
    except NotEmpty as exc:
        raise AdminError(f"{exc}; nothing was copied") from None
    except Exception as exc:  # unreachable server, refused login, a failed copy
        raise AdminError(f"nothing was copied: {exc}") from None
    return {str(table): int(count) for table, count in counts.items()}


def _backup_command(args: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot backup",
        description="Copy the SQLite database while the bot may be running.",
    )
    parser.add_argument("--out", type=Path, help="the file to write (default: a dated file "
                        "in backups/ beside the database)")
    options = parser.parse_args(args)
    settings = _settings()
    if getattr(settings, "database_url", None):
        print(
            "DATABASE_URL names a PostgreSQL database: back it up with PostgreSQL's own tool,\n"
            f"  {PG_DUMP}\n"
            "(restore into an empty database, the bot stopped, with\n"
            "  pg_restore --no-owner --dbname=\"$DATABASE_URL\" FILE; see docs/deploy.md).",
            file=sys.stderr,
        )
        return 2
    dest = options.out or default_backup_path(settings.database_path)
    size = backup(settings.database_path, dest)
    print(f"{dest} ({_size(size)})")
    return 0


def _migrate_command(args: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot migrate",
        description="Copy the SQLite database (DATABASE_PATH) into an empty PostgreSQL one.",
    )
    parser.add_argument("--to", required=True, metavar="postgresql://...",
                        help="the PostgreSQL database to fill (it must be empty)")
    options = parser.parse_args(args)
    settings = _settings()
    counts = migrate(settings.database_path, options.to)
    print(f"copied {settings.database_path} into PostgreSQL:")
    width = max((len(table) for table in counts), default=0)
    for table, count in counts.items():
        print(f"  {table:<{width}}  {count}")
    print("Set DATABASE_URL to that URL and restart the bot.")
    return 0


def _seconds(text: str) -> float:
    """Read a positive, finite number of seconds (argparse's usage error otherwise)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return value


def _health_command(args: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot health",
        description="Exit 0 if the running bot's heartbeat is fresh and healthy, 1 otherwise.",
    )
    parser.add_argument("--max-age", type=_seconds, default=MAX_AGE_SECONDS, metavar="SECONDS",
                        help="how old the heartbeat may be (default 90)")
    options = parser.parse_args(args)
    try:
        path = health_file(_settings())
    except ConfigError as exc:
        print(f"unhealthy: {str(exc).strip()}", file=sys.stderr)
        return 1
    problems = check(path, max_age=options.max_age)
    if problems:
        print("unhealthy: " + "; ".join(problems), file=sys.stderr)
        return 1
    print(f"healthy ({path})")
    return 0


COMMANDS = {"backup": _backup_command, "migrate": _migrate_command, "health": _health_command}


def main(command: str, args: Sequence[str]) -> int:
    """Run the admin ``command`` with its ``args``; return the process exit code."""
    try:
        return COMMANDS[command](args)
    except ConfigError as exc:
        print(str(exc).rstrip(), file=sys.stderr)
        return 2
    except AdminError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return 1
