# Tablehouse: the bot in a slim image, run as a non-root user.
#   docker build -t tablehouse .
#   docker run -d --name tablehouse --env-file .env -v tablehouse-data:/app/data tablehouse
# See docs/deploy.md (and compose.yaml for PostgreSQL and two shards).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# FriBiDi lets Pillow join Arabic letters in names (the fonts come with the Python
# dependencies, so the image draws what every install draws).
RUN apt-get update \
    && apt-get install --yes --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 --user-group tablehouse

# The dependencies in a layer of their own, at the versions CI tested (requirements.lock):
# a change to the code reinstalls none of them.
COPY requirements.lock /src/
RUN pip install --requirement /src/requirements.lock

# Only what the package needs (see .dockerignore); installed, then the sources removed.
COPY pyproject.toml README.md /src/
COPY bot /src/bot
COPY cogs /src/cogs
COPY db /src/db
RUN pip install --no-deps /src && rm -rf /src

# The SQLite database (DATABASE_PATH=data/tablehouse.db), its backups and the heartbeat
# file (data/health.json) live in /app/data: keep it on a volume.
WORKDIR /app
RUN mkdir -p /app/data && chown tablehouse:tablehouse /app/data
VOLUME ["/app/data"]

USER 10001:10001

# Healthy when the bot's heartbeat (written every 30 s) is fresh, connected and the
# database answers: python -m bot health exits 0, else 1.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot", "health"]

CMD ["python", "-m", "bot"]
