"""A throwaway PostgreSQL server for the tests: initdb into a temporary folder, started
on a free loopback port with its socket in that folder, stopped and removed at the end.

PostgreSQL refuses to run as root, so as root the folder is given to the ``postgres``
user and the server's commands run through ``runuser -u postgres --``.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import asyncpg

from db.pg_migrate import pg_migrate

#: A database already migrated to the latest schema; each test's database copies it.
TEMPLATE = "tablehouse_template"


def find_bin() -> Path | None:
    """Return the folder holding ``pg_ctl`` and ``initdb``, or None when not installed."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), reverse=True)
    if found:
        return Path(found[0]).parent
    which = shutil.which("pg_ctl")
    return Path(which).parent if which else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PgServer:
    """One running server; :meth:`new_database` gives each test its own database."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="tablehouse-pg-"))
        self.port = _free_port()
        self._as_postgres: list[str] = []
        self._counter = 0
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres", "postgres")
            self._as_postgres = ["runuser", "-u", "postgres", "--"]

    @property
    def admin_url(self) -> str:
        """The URL of the server's maintenance database."""
        return self.url("postgres")

    def url(self, database: str) -> str:
        """The URL of ``database`` on this server."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, *args: str) -> None:
        subprocess.run([*self._as_postgres, *args], check=True, capture_output=True, timeout=60)

    def start(self) -> None:
        """Create the cluster, start it and build the migrated template database."""
        data = self.root / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8", "--locale=C")
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1"
                   " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                   " -c max_connections=200")
        self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", options, "-w",
                  "-l", str(self.root / "server.log"), "start")
        asyncio.run(self._make_template())

    async def _make_template(self) -> None:
        admin = await asyncpg.connect(self.admin_url)
        try:
            await admin.execute(f"CREATE DATABASE {TEMPLATE}")
        finally:
            await admin.close()
        conn = await asyncpg.connect(self.url(TEMPLATE))
        try:
            await pg_migrate(conn)
        finally:
            await conn.close()

    async def new_database(self, *, migrated: bool = True) -> str:
        """Create a fresh database (migrated, or empty) and return its URL."""
        self._counter += 1
        name = f"test_{os.getpid()}_{self._counter}"
        template = TEMPLATE if migrated else "template0"
        admin = await asyncpg.connect(self.admin_url)
        try:
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE {template}")
        finally:
            await admin.close()
        return self.url(name)

    def log_tail(self) -> str:
        """Return the end of the server's log (for a failure message)."""
        log = self.root / "server.log"
        return log.read_text(errors="replace")[-2000:] if log.exists() else ""

    def stop(self) -> None:
        """Stop the server and remove its folder."""
        data = self.root / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run([*self._as_postgres, str(self.bindir / "pg_ctl"), "-D", str(data),
                            "-m", "immediate", "-w", "stop"], capture_output=True, timeout=60)
        shutil.rmtree(self.root, ignore_errors=True)
