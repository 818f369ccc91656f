-- Each server's own defaults, set with /tablehouse settings. A NULL column means the
-- server uses the bot's default for that setting (from its .env).
CREATE TABLE server_settings (
    guild_id             BIGINT PRIMARY KEY,
    vote_window_seconds  DOUBLE PRECISION,
    threads              INTEGER CHECK (threads IN (0, 1)),
    notice_grace_seconds DOUBLE PRECISION,
    pictures             INTEGER CHECK (pictures IN (0, 1)),
    max_open_games       INTEGER,
    updated_at           DOUBLE PRECISION NOT NULL
);
