-- Each server's own defaults, set with /tablehouse settings. A NULL column means the
-- server uses the bot's default for that setting (from its .env).
CREATE TABLE server_settings (
    guild_id             INTEGER PRIMARY KEY,
    vote_window_seconds  REAL,
    threads              INTEGER CHECK (threads IN (0, 1)),
    notice_grace_seconds REAL,
    pictures             INTEGER CHECK (pictures IN (0, 1)),
    max_open_games       INTEGER,
    updated_at           REAL NOT NULL
);
