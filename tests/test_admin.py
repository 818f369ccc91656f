"""python -m bot backup, migrate and health."""

import asyncio
import os
import sqlite3
import time

import pytest

from bot import admin
from bot.__main__ import main as cli
from bot.health import Heartbeat, write_heartbeat
from tests.support import ALICE, BOB, open_tables

GAME_COLUMNS = "id, kind, status, version, state, channel_id"


@pytest.fixture
def env(tmp_path, monkeypatch):
    """Settings pointing at a database in ``tmp_path``, whatever .env or the shell says."""
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("DATABASE_URL", "HEALTH_FILE", "TINREALM_CONTENT", "DISCORD_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DATABASE_PATH", str(tmp_path / "data" / "bot.db"))
    return tmp_path


def _fill(path, games=3):
    """Store ``games`` toy games at ``path``, game n with n + 1 moves."""
    asyncio.run(_play(path, games))


async def _play(path, games):
    async with open_tables(path) as tables:
        for channel in range(games):
            game = await tables.start("toy", guild_id=1, channel_id=100 + channel, starter=ALICE)
            for version in range(channel + 1):
                await tables.act(game.id, version, BOB, "add1")


def _games(path):
    with sqlite3.connect(path) as conn:
        rows = conn.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id").fetchall()
        actions = conn.execute("SELECT count(*) FROM actions").fetchone()[0]
    conn.close()
    return rows, actions


# -- health ------------------------------------------------------------------------------


def _beat(env, **changes):
    fields = {"time": time.time(), "connected": True, "database": True, "latency_ms": 41.5}
    fields.update(changes)
    write_heartbeat(env / "data" / "health.json", Heartbeat(**fields))


def test_health_fresh_heartbeat_is_healthy(env, capsys):
    """A heartbeat written just now, connected and with the database up: exit 0."""
    _beat(env)
    assert cli(["health"]) == 0
    assert "healthy" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        ({"time": time.time() - 91}, "old"),
        ({"connected": False}, "not connected"),
        ({"database": False}, "database check failed"),
    ],
)
def test_health_stale_or_unhealthy_heartbeat_fails(env, capsys, changes, says):
    """Older than 90 s, disconnected from Discord or the database down: exit 1, saying why."""
    _beat(env, **changes)
    assert cli(["health"]) == 1
    assert says in capsys.readouterr().err


def test_health_without_heartbeat_fails(env, capsys):
    """No heartbeat file (the bot never ran): exit 1."""
    assert cli(["health"]) == 1
    assert "no heartbeat file" in capsys.readouterr().err


def test_health_damaged_heartbeat_fails(env, capsys):
    """A heartbeat file that is not JSON: exit 1, no traceback."""
    (env / "data").mkdir()
    (env / "data" / "health.json").write_text("{not json")
    assert cli(["health"]) == 1
    assert "not valid" in capsys.readouterr().err


def test_health_file_setting_and_max_age(env, monkeypatch):
    """HEALTH_FILE names the file; --max-age changes how old it may be."""
    path = env / "elsewhere" / "beat.json"
    monkeypatch.setenv("HEALTH_FILE", str(path))
    write_heartbeat(path, Heartbeat(time.time() - 20, True, True))
    assert cli(["health"]) == 0
    assert cli(["health", "--max-age", "10"]) == 1


def test_health_with_an_unusable_health_file_names_it(env, monkeypatch, capsys):
    """A HEALTH_FILE the bot could never write is unhealthy, and the check says why."""
    (env / "plain.txt").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("HEALTH_FILE", str(env / "plain.txt" / "beat.json"))
    assert cli(["health"]) == 1
    assert "unhealthy: HEALTH_FILE" in capsys.readouterr().err


# -- backup ------------------------------------------------------------------------------


def test_backup_is_a_readable_copy_with_the_same_games(env, capsys):
    """The copy opens on its own, passes integrity_check and holds the same games."""
    database = env / "data" / "bot.db"
    _fill(database)
    assert cli(["backup"]) == 0
    out = capsys.readouterr().out.strip()
    copy = env / "data" / "backups" / out.split(" (")[0].rsplit("/", 1)[1]
    assert copy.name.startswith("tablehouse-") and copy.suffix == ".db"
    assert out.endswith("bytes)") or out.endswith("KB)")
    assert _games(copy) == _games(database)
    assert len(_games(copy)[0]) == 3
    with sqlite3.connect(copy) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_backup_while_a_write_is_open(env, capsys):
    """The bot may be writing: the backup neither waits for it nor copies its uncommitted rows."""
    database = env / "data" / "bot.db"
    _fill(database, games=2)
    before = _games(database)
    writer = sqlite3.connect(database, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("UPDATE games SET version = version + 100")
        out = env / "copy.db"
        assert cli(["backup", "--out", str(out)]) == 0
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert _games(out) == before
    assert str(out) in capsys.readouterr().out


def test_backup_refuses_to_overwrite(env, capsys):
    """--out naming an existing file: exit 1, the file untouched."""
    _fill(env / "data" / "bot.db", games=1)
    existing = env / "keep.db"
    existing.write_bytes(b"precious")
    assert cli(["backup", "--out", str(existing)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert existing.read_bytes() == b"precious"


def test_backup_into_a_folder_it_cannot_make_says_so(env, capsys):
    """--out inside a folder that cannot be made (a file is in its way, as a folder the
    admin may not write in): exit 1, a line naming the folder, no traceback."""
    _fill(env / "data" / "bot.db", games=1)
    (env / "taken").write_bytes(b"a file")
    assert cli(["backup", "--out", str(env / "taken" / "copy.db")]) == 1
    err = capsys.readouterr().err
    assert "cannot make the folder" in err and "Traceback" not in err


def test_a_failed_backup_leaves_no_file_that_looks_like_one(env, capsys):
    """A DATABASE_PATH that is not a database: the backup fails, exit 1, and no empty
    file is left in backups/ for someone to restore later."""
    (env / "data").mkdir(exist_ok=True)
    (env / "data" / "bot.db").write_bytes(b"not a database at all" * 100)
    out = env / "data" / "backups" / "tablehouse-x.db"
    assert cli(["backup", "--out", str(out)]) == 1
    assert "the backup of" in capsys.readouterr().err
    assert not out.exists()


def test_a_copy_that_cannot_be_written_is_named(env, capsys):
    """--out names a file no one may write (under /proc, never writable, even for root):
    the backup says which file it cannot write and what to do, not only that it failed."""
    (env / "data").mkdir(exist_ok=True)
    sqlite3.connect(env / "data" / "bot.db").close()
    assert cli(["backup", "--out", "/proc/tablehouse-x.db"]) == 1
    err = capsys.readouterr().err
    assert "cannot write /proc/tablehouse-x.db" in err and "choose another --out" in err


def test_help_prints_the_commands_and_starts_nothing(env, capsys):
    """``python -m bot --help`` prints the commands and exits 0; no bot, no database."""
    assert cli(["--help"]) == 0 and cli(["-h"]) == 0
    out = capsys.readouterr().out
    assert "usage: python -m bot [command]" in out and "backup" in out
    assert not (env / "data" / "bot.db").exists()


def test_backup_without_database(env, capsys):
    """No database file yet: exit 1 naming DATABASE_PATH."""
    assert cli(["backup"]) == 1
    assert "DATABASE_PATH" in capsys.readouterr().err


def test_backup_of_postgresql_explains_pg_dump(env, monkeypatch, capsys):
    """With a PostgreSQL DATABASE_URL, backup prints the pg_dump command instead."""
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:secret@db:5432/tablehouse")
    assert cli(["backup"]) == 2
    err = capsys.readouterr().err
    assert admin.PG_DUMP in err and "pg_dump --format=custom" in err
    assert "secret" not in err
    # restored as docs/deploy.md says: into an empty database, owned by the one restoring
    assert "pg_restore --no-owner" in err and "empty database" in err
    assert "pg_restore --no-owner" in (admin.Path(__file__).parents[1] / "docs" / "deploy.md"
                                       ).read_text()


def test_default_backup_name():
    """backups/tablehouse-YYYYmmdd-HHMMSS.db beside the database, in local time."""
    now = time.mktime((2025, 3, 4, 5, 6, 7, 0, 0, -1))
    path = admin.default_backup_path(admin.Path("data/tablehouse.db"), now)
    assert path.as_posix() == "data/backups/tablehouse-20250304-050607.db"


# -- migrate -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("mysql://bot@db/tablehouse", "PostgreSQL URL"),
        ("data/other.db", "PostgreSQL URL"),
        ("postgresql://bot@db:5432", "name the database"),
        ("postgresql://bot@db:5432/", "name the database"),
        ("postgresql://bot@db:port/tablehouse", "cannot be read as a URL"),
        ("postgresql://bot:Secret#x3@db/tablehouse", "cannot be read as a URL"),
        ("postgresql://bot@db/table house", "spaces"),
    ],
)
def test_migrate_refuses_bad_urls(env, capsys, url, says):
    """A --to that is not a PostgreSQL database URL: exit 1 and a clear message, which
    never repeats the password."""
    _fill(env / "data" / "bot.db", games=1)
    assert cli(["migrate", "--to", url]) == 1
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and "Secret" not in err


def test_migrate_needs_the_sqlite_database(env, capsys):
    """Nothing to copy: exit 1 naming DATABASE_PATH."""
    assert cli(["migrate", "--to", "postgresql://db/tablehouse"]) == 1
    assert "DATABASE_PATH" in capsys.readouterr().err


def test_migrate_needs_to(env, capsys):
    """--to is required (argparse's usage error, exit 2)."""
    with pytest.raises(SystemExit) as stopped:
        cli(["migrate"])
    assert stopped.value.code == 2
    assert "--to" in capsys.readouterr().err


def test_migrate_copies_into_postgresql_and_prints_counts(env, pg_url, capsys):
    """The SQLite games arrive in PostgreSQL; every table's count is printed."""
    _fill(env / "data" / "bot.db")
    assert cli(["migrate", "--to", pg_url]) == 0
    out = capsys.readouterr().out
    counts = dict(line.split() for line in out.splitlines() if line.startswith("  "))
    assert counts["games"] == "3" and counts["actions"] == "6"
    assert "DATABASE_URL" in out


def test_migrate_refuses_a_database_that_is_not_empty(env, pg_url, capsys):
    """A second copy into the same PostgreSQL database is refused: exit 1, nothing copied."""
    _fill(env / "data" / "bot.db", games=1)
    assert cli(["migrate", "--to", pg_url]) == 0
    capsys.readouterr()
    assert cli(["migrate", "--to", pg_url]) == 1
    err = capsys.readouterr().err
    assert "not empty" in err and "nothing was copied" in err
    assert "Traceback" not in err


def test_migrate_reports_an_unreachable_server(env, capsys):
    """A server that does not answer: exit 1 and the reason, no traceback."""
    _fill(env / "data" / "bot.db", games=1)
    assert cli(["migrate", "--to", "postgresql://bot@127.0.0.1:9/tablehouse"]) == 1
    err = capsys.readouterr().err
    assert "nothing was copied" in err and "Traceback" not in err


def _no_writing(monkeypatch):
    """This process may read every file but write none (a monitoring or backup user)."""
    real = os.access
    monkeypatch.setattr(os, "access",
                        lambda path, mode, *a, **k: not mode & os.W_OK and real(path, mode))


def test_a_reader_of_the_heartbeat_gets_its_health(env, capsys, monkeypatch):
    """`python -m bot health` run by a user who may read the heartbeat but not write it
    (a monitoring agent, a read-only volume) reports the bot's health, not a refusal."""
    monkeypatch.setenv("HEALTH_FILE", str(env / "data" / "health.json"))
    _beat(env)
    _no_writing(monkeypatch)
    assert cli(["health"]) == 0
    assert "healthy" in capsys.readouterr().out


def test_a_backup_from_outside_the_container_ignores_its_heartbeat_path(env, capsys,
                                                                        monkeypatch):
    """A backup run from the host with the deployment's HEALTH_FILE (a container path
    the backup user may not write) is made: only the bot writes the heartbeat."""
    _fill(env / "data" / "bot.db", games=1)
    monkeypatch.setenv("HEALTH_FILE", "/app/data/health.json")
    _no_writing(monkeypatch)
    assert cli(["backup", "--out", str(env / "copy.db")]) == 0
    assert (env / "copy.db").exists()


def test_the_bot_stops_at_once_when_it_may_not_write_its_heartbeat(env, capsys,
                                                                   monkeypatch):
    """The bot itself, which must write the heartbeat, stops with exit 2 naming
    HEALTH_FILE, before it connects anywhere."""
    from bot import runner

    monkeypatch.setenv("DISCORD_TOKEN", "x" * 59)
    monkeypatch.setenv("HEALTH_FILE", str(env / "data" / "health.json"))
    _no_writing(monkeypatch)
    monkeypatch.setattr(runner, "serve", lambda *a, **k: pytest.fail("the bot started"))
    assert runner.main() == 2
    err = capsys.readouterr().err
    assert "HEALTH_FILE" in err and "health.json" in err and "Traceback" not in err


def test_sync_is_not_refused_for_a_heartbeat_it_never_writes(env, capsys, monkeypatch):
    """`python -m bot sync` (run by another user, or from outside the container) never
    writes a heartbeat, so it is not refused for one it could not write."""
    from bot import runner

    monkeypatch.setenv("DISCORD_TOKEN", "x" * 59)
    monkeypatch.setenv("HEALTH_FILE", str(env / "data" / "health.json"))
    _no_writing(monkeypatch)
    served: list[bool] = []

    async def serve(force_sync: bool = False, cogs: object = None) -> int:
        served.append(force_sync)
        return 0

    monkeypatch.setattr(runner, "serve", serve)
    assert runner.main(force_sync=True) == 0
    assert served == [True]


def test_a_backup_that_runs_out_of_room_leaves_nothing_behind(tmp_path):
    """A disk full during a backup (here a limit on a file's size): the half-made copy
    and its journal are removed, so no file a cleanup by name would miss is left."""
    import resource

    live = tmp_path / "live.db"
    with sqlite3.connect(live) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.executemany("INSERT INTO t VALUES (randomblob(500))", [()] * 20000)
    dest = tmp_path / "backups" / "tablehouse-20261208-040000.db"
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, hard))
    try:
        with pytest.raises(admin.AdminError):
            admin.backup(live, dest)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
    assert sorted(p.name for p in dest.parent.iterdir()) == []
