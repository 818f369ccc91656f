"""Settings: defaults, clear errors naming the setting, and the friendly missing-token text."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import ConfigError, load_settings
from bot.logs import RedactSecrets

TOKEN = "MTAxMDEwMTAxMDEw.abcdef.ghijklmnopqrstuvwxyz0123456789"
ROOT = Path(__file__).resolve().parents[1]


def test_defaults():
    """Only the token is required; everything else has a default."""
    s = load_settings({"DISCORD_TOKEN": TOKEN})
    assert s.database_path == Path("data/tablehouse.db")
    assert s.dev_guild_id is None and s.log_level == "INFO"
    assert (s.solo_idle_hours, s.lobby_idle_hours, s.multi_idle_hours) == (168, 1, 48)
    assert not s.game_threads and s.notice_grace_seconds == 45


def test_env_values_are_the_servers_defaults():
    """Each server setting a server did not choose comes from the .env."""
    from bot.client import server_defaults

    s = load_settings({"DISCORD_TOKEN": TOKEN, "VOTE_WINDOW_SECONDS": "90", "GAME_THREADS": "on",
                       "TURN_NOTICE_GRACE_SECONDS": "0", "BOARD_IMAGES": "off",
                       "MAX_OPEN_GAMES": "3"})
    defaults = server_defaults(s)
    assert (defaults.vote_window_seconds, defaults.threads, defaults.notice_grace_seconds,
            defaults.pictures, defaults.max_open_games) == (90.0, True, 0.0, False, 3)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("DEV_GUILD_ID", "my-server"),
        ("LOG_LEVEL", "LOUD"),
        ("SOLO_IDLE_HOURS", "a week"),
        ("LOBBY_IDLE_HOURS", "-1"),
        ("COMPUTER_DELAY_SECONDS", "soon"),
        ("TINREALM_CONTENT", "/no/such/file.json"),
        ("DISCORD_TOKEN", "two words"),
        ("GAME_THREADS", "sometimes"),
        ("TURN_NOTICE_GRACE_SECONDS", "-5"),
        ("TURN_NOTICE_GRACE_SECONDS", "7200"),
        # not a number a limit can hold: "inf" and "nan" read as floats
        ("MAX_OPEN_GAMES", "inf"),
        ("MAX_OPEN_GAMES", "nan"),
        # a whole number from 0 to 100: "0.5" meant "no limit", "2.9" meant 2
        ("MAX_OPEN_GAMES", "0.5"),
        ("MAX_OPEN_GAMES", "2.9"),
        ("MAX_OPEN_GAMES", "101"),
        ("VOTE_WINDOW_SECONDS", "nan"),
        ("TURN_NOTICE_GRACE_SECONDS", "nan"),
        ("SWEEP_MINUTES", "inf"),
        # a table waiting on a slow player would end idle before its 24 h turn timer
        ("MULTI_IDLE_HOURS", "12"),
        ("MULTI_IDLE_HOURS", "24"),
        # under two days a daily deal's states went before its replay opened
        ("RETENTION_DAYS", "1"),
        ("RETENTION_DAYS", "1.9"),
        # a file the bot can keep its games in, not SQLite's in-memory names
        ("DATABASE_PATH", ":memory:"),
        ("DATABASE_PATH", "file:games?mode=memory"),
        ("DATABASE_PATH", "./file:games.db"),
        # a folder (that may not exist yet): not a file named after it
        ("DATABASE_PATH", "/srv/tablehouse/newdir/"),
    ],
)
def test_invalid_values_name_the_setting(name, value):
    """An invalid value raises ConfigError naming the setting."""
    env = {"DISCORD_TOKEN": TOKEN, name: value}
    with pytest.raises(ConfigError, match=name):
        load_settings(env)


def test_health_file_is_a_setting(tmp_path):
    """HEALTH_FILE is read with the other settings: unset is the default (None: beside
    the database); a file in a folder that exists or can be made is taken as it is."""
    assert load_settings({"DISCORD_TOKEN": TOKEN}).health_file is None
    target = tmp_path / "not" / "yet" / "beat.json"
    assert load_settings({"DISCORD_TOKEN": TOKEN, "HEALTH_FILE": f" {target} "}).health_file \
        == target
    assert not (tmp_path / "not").exists()  # reading the settings makes nothing


def test_an_empty_health_file_means_the_default():
    """HEALTH_FILE= (empty or blank), like every other setting left empty, is the default."""
    for value in ("", "   "):
        assert load_settings({"DISCORD_TOKEN": TOKEN, "HEALTH_FILE": value}).health_file is None


@pytest.mark.parametrize("kind", ["a folder", "under a file", "deep under a file"])
def test_unusable_health_file_names_the_setting(tmp_path, kind):
    """A HEALTH_FILE that is a folder, or a path whose folder cannot be made (a file is in
    the way), raises ConfigError naming HEALTH_FILE."""
    blocker = tmp_path / "plain.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    value = {"a folder": str(tmp_path),
             "under a file": str(blocker / "health.json"),
             "deep under a file": str(blocker / "a" / "b" / "health.json")}[kind]
    with pytest.raises(ConfigError, match="HEALTH_FILE"):
        load_settings({"DISCORD_TOKEN": TOKEN, "HEALTH_FILE": value})


def test_unusable_health_file_stops_the_bot(tmp_path):
    """A HEALTH_FILE the bot could never write stops it at once, naming the setting."""
    blocker = tmp_path / "plain.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, HEALTH_FILE=str(blocker / "health.json"),
               DISCORD_API_BASE="http://127.0.0.1:9/api/v10", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert "HEALTH_FILE" in proc.stderr and "Traceback" not in proc.stderr


def test_settings_repr_hides_token():
    """The settings' repr never shows the token."""
    assert TOKEN not in repr(load_settings({"DISCORD_TOKEN": TOKEN}))


def test_token_is_redacted_from_log_lines():
    """A log line that contains the token shows a placeholder instead."""
    record = logging.LogRecord("bot", logging.INFO, __file__, 1, "token is %s", (TOKEN,), None)
    RedactSecrets(TOKEN).filter(record)
    assert TOKEN not in record.getMessage()
    assert "[token hidden]" in record.getMessage()


def test_missing_token_exits_with_friendly_help(tmp_path):
    """Without DISCORD_TOKEN the bot exits at once with instructions and no traceback."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "applications.commands" in proc.stderr and ".env" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_invalid_setting_exits_naming_it(tmp_path):
    """An invalid setting stops the bot with a one-line error naming it."""
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, LOG_LEVEL="LOUD", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "LOG_LEVEL" in proc.stderr and "Traceback" not in proc.stderr


def test_broken_tinrealm_content_stops_the_bot(tmp_path):
    """A TINREALM_CONTENT file that does not validate stops the bot, naming the fault."""
    broken = tmp_path / "content.json"
    broken.write_text('{"exploration": []}', encoding="utf-8")
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, TINREALM_CONTENT=str(broken),
               PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert "TINREALM_CONTENT is not usable" in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("kind", ["not a database", "a folder"])
def test_unusable_database_path_stops_the_bot_naming_it(tmp_path, kind):
    """A DATABASE_PATH that is not a database or is a folder stops the bot, naming it."""
    target = tmp_path / "bad.db"
    if kind == "a folder":
        target.mkdir()
    else:
        target.write_text("hello, this is not SQLite" * 100, encoding="utf-8")
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(target),
               DISCORD_API_BASE="http://127.0.0.1:9/api/v10", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 2, proc.stderr
    assert "DATABASE_PATH" in proc.stderr and "Traceback" not in proc.stderr


def test_unreachable_discord_is_a_clear_message(tmp_path):
    """When Discord cannot be reached, the bot says so in one line, without a traceback."""
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path / "bot.db"),
               DISCORD_API_BASE="http://127.0.0.1:9/api/v10", PYTHONPATH=str(ROOT))
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert "Could not reach Discord" in proc.stderr and "Traceback" not in proc.stderr


def test_tinrealm_content_is_named_by_its_whole_path(tmp_path, monkeypatch):
    """TINREALM_CONTENT given relative to where the bot starts is kept as its whole path,
    as the journeys store it (so no start looks the file up again)."""
    mine = tmp_path / "mine.json"
    mine.write_bytes((ROOT / "bot" / "games" / "tinrealm" / "content.json").read_bytes())
    monkeypatch.chdir(tmp_path)
    settings = load_settings({"DISCORD_TOKEN": TOKEN, "TINREALM_CONTENT": "mine.json"})
    assert settings.tinrealm_content == mine.resolve()
    assert settings.tinrealm_content.is_absolute()


@pytest.mark.parametrize("url", [
    "postgresql://tablehouse:Tr0ub4dor/x3@127.0.0.1:5432/tablehouse",
    "postgresql://tablehouse:Tr0ub4dor#x3@127.0.0.1:5432/tablehouse",
    "postgresql://tablehouse:Tr0ub4dor@127.0.0.1:54x2/tablehouse",
    "postgresql://tablehouse:Tr0ub4dor@x3@127.0.0.1:5432/tablehouse",
], ids=["slash", "hash", "port", "at"])
def test_a_database_url_that_cannot_be_read_is_named_without_its_password(url):
    """A password with a / or # not percent-encoded, or a port that is not a number:
    DATABASE_URL is named, how to encode is said, and no part of the password shows."""
    with pytest.raises(ConfigError) as refused:
        load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    said = str(refused.value)
    assert said.startswith("DATABASE_URL cannot be read as a URL") and "%2F" in said
    assert "Tr0ub4dor" not in said
    assert load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url.replace(
        "Tr0ub4dor/", "Tr0ub4dor%2F").replace("Tr0ub4dor#", "Tr0ub4dor%23").replace(
        "Tr0ub4dor@x3", "Tr0ub4dor%40x3").replace("54x2", "5432")}).database_url

