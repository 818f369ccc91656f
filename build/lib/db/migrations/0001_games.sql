-- Games and their action log.
CREATE TABLE games (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER,
    channel_id       INTEGER NOT NULL,
    kind             TEXT    NOT NULL,
    status           TEXT    NOT NULL
                     CHECK (status IN ('lobby', 'active', 'over', 'abandoned', 'expired')),
    starter_id       INTEGER NOT NULL,
    seats            TEXT    NOT NULL DEFAULT '[]',
    options          TEXT    NOT NULL DEFAULT '{}',
    only_starter     INTEGER NOT NULL DEFAULT 0,
    state            TEXT,
    version          INTEGER NOT NULL DEFAULT 0,
    events           TEXT    NOT NULL DEFAULT '[]',
    board_channel_id INTEGER,
    board_message_id INTEGER,
    board_posted_at  REAL,
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL
);

-- Ruling C3: one game at a time per channel (a thread is its own channel).
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
CREATE INDEX games_open_by_age ON games (status, updated_at);

CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq      INTEGER NOT NULL,
    actor_id INTEGER,
    action   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
