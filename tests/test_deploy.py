"""The deployment kit: the Dockerfile, compose.yaml and .dockerignore (Docker is not run)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _instructions(text):
    """The Dockerfile's instructions, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", text)
    lines = [line.strip() for line in joined.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def _blocks(text):
    """A small reader for compose.yaml's mappings: {path of keys: value}, lists skipped.

    Enough for this file (block mappings, two-space indents, scalar values); not YAML.
    """
    values, stack = {}, []
    for raw in text.splitlines():
        line = raw.split(" #")[0].rstrip()
        if not line.strip() or line.lstrip().startswith(("#", "- ")):
            continue
        indent = len(line) - len(line.lstrip())
        key, _, value = line.strip().partition(":")
        while stack and stack[-1][0] >= indent:
            stack.pop()
        stack.append((indent, key))
        values[tuple(k for _, k in stack)] = value.strip().strip('"')
    return values


def test_dockerfile_is_slim_non_root_with_a_healthcheck():
    """The Python and Debian release the tests run on, installed with pip from the lock
    file in a layer before the code, a numeric non-root USER, HEALTHCHECK on bot health."""
    steps = _instructions((ROOT / "Dockerfile").read_text())
    assert steps[0] == "FROM python:3.11-slim-bookworm"
    locked = steps.index("RUN pip install --requirement /src/requirements.lock")
    code = next(i for i, s in enumerate(steps) if s.startswith("COPY bot "))
    assert steps.index("COPY requirements.lock /src/") < locked < code
    assert "RUN pip install --no-deps /src && rm -rf /src" in steps
    users = [s.split()[1] for s in steps if s.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    assert all(part.isdigit() and part != "0" for part in users[-1].split(":"))
    health = [s for s in steps if s.startswith("HEALTHCHECK")]
    assert len(health) == 1 and '"python", "-m", "bot", "health"' in health[0]
    assert any(s.startswith("VOLUME") and "/app/data" in s for s in steps)
    assert steps[-1] == 'CMD ["python", "-m", "bot"]'
    # USER comes after every RUN: nothing runs as root once the bot's user is set.
    last_run = max(i for i, s in enumerate(steps) if s.startswith("RUN "))
    assert steps.index(f"USER {users[-1]}") > last_run


def test_dockerfile_copies_only_what_exists_and_is_not_ignored():
    """Every COPY source exists and is not excluded by .dockerignore."""
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".env", ".venv", "data", ".git"} <= ignored
    for step in _instructions((ROOT / "Dockerfile").read_text()):
        if step.startswith("COPY "):
            for source in step.split()[1:-1]:
                assert (ROOT / source).exists(), source
                assert source not in ignored, source


def test_compose_runs_postgres_and_two_shards():
    """Two shard services with SHARD_COUNT 2 and SHARD_IDS 0 and 1, on the postgres service."""
    compose = _blocks((ROOT / "compose.yaml").read_text())
    services = {path[1] for path in compose if len(path) >= 2 and path[0] == "services"}
    assert services == {"postgres", "shard-0", "shard-1"}
    for shard in ("0", "1"):
        env = {path[3]: value for path, value in compose.items()
               if path[:3] == ("services", f"shard-{shard}", "environment") and len(path) == 4}
        assert env["SHARD_COUNT"] == "2" and env["SHARD_IDS"] == shard
        assert re.fullmatch(r"postgresql://tablehouse:\$\{POSTGRES_PASSWORD\}@postgres:5432/"
                            r"tablehouse", env["DATABASE_URL"])
        assert compose[("services", f"shard-{shard}", "<<")] == "*bot"


def test_compose_restarts_and_checks_health():
    """The shared bot block and postgres restart unless stopped and have a healthcheck."""
    text = (ROOT / "compose.yaml").read_text()
    compose = _blocks(text)
    assert compose[("x-bot", "restart")] == "unless-stopped"
    assert compose[("services", "postgres", "restart")] == "unless-stopped"
    assert compose[("x-bot", "depends_on", "postgres", "condition")] == "service_healthy"
    assert compose[("x-bot", "healthcheck", "test")] == '["CMD", "python", "-m", "bot", "health"]'
    assert "pg_isready" in compose[("services", "postgres", "healthcheck", "test")]
    assert "x-bot: &bot" in text


def test_the_lock_files_pin_every_dependency_the_package_names():
    """requirements.lock (the image) and requirements-test.lock (CI) pin an exact version
    of every dependency pyproject.toml names, and make installs with the test lock."""
    import re
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def pinned(name: str) -> dict[str, str]:
        lines = [line for line in (ROOT / name).read_text().splitlines()
                 if line and not line.startswith("#")]
        assert all("==" in line for line in lines), name
        return {re.sub(r"[-_.]+", "-", line.split("==")[0]).lower(): line.split("==")[1]
                for line in lines}

    def names(requirements: list[str]) -> set[str]:
        return {re.sub(r"[-_.]+", "-", re.split(r"[<>=!~ \[]", r)[0]).lower()
                for r in requirements}

    runtime, test = pinned("requirements.lock"), pinned("requirements-test.lock")
    assert names(project["dependencies"]) <= set(runtime)
    assert names(project["optional-dependencies"]["test"]) <= set(test)
    assert all(test[name] == version for name, version in runtime.items())
    assert "-c requirements-test.lock" in (ROOT / "Makefile").read_text()


def test_the_stop_timeouts_cover_a_slow_clean_stop():
    """A clean stop waits, in turn and each at most so long, for the last heartbeat, the
    clicks in flight, the deadlines being handled and the board edits asked for: compose
    and the documented ``docker run`` give it that long before killing it."""
    import inspect

    from bot.boards.updates import FLUSH_SECONDS
    from bot.health import STOP_SECONDS
    from bot.table.core import TableCore
    from bot.table.deadlines import STOP_WAIT_SECONDS

    drain = inspect.signature(TableCore.drain).parameters["timeout"].default
    slowest = STOP_SECONDS + drain + STOP_WAIT_SECONDS + FLUSH_SECONDS
    grace = _blocks((ROOT / "compose.yaml").read_text())[("x-bot", "stop_grace_period")]
    assert grace.endswith("s") and float(grace[:-1]) >= slowest
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    run = re.search(r"docker run [^\n]*--stop-timeout (\d+)", deploy)
    assert run is not None and float(run.group(1)) >= slowest
    assert all(float(t) >= slowest for t in re.findall(r"docker stop -t (\d+)", deploy))
