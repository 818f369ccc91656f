-- Finished games' results per player, and small key/value facts (command sync hash).
CREATE TABLE results (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id  INTEGER REFERENCES games (id) ON DELETE SET NULL,
    guild_id INTEGER,
    user_id  INTEGER NOT NULL,
    kind     TEXT    NOT NULL,
    outcome  TEXT    NOT NULL CHECK (outcome IN ('win', 'loss', 'draw')),
    score    INTEGER NOT NULL,
    detail   TEXT    NOT NULL DEFAULT '{}',
    at       REAL    NOT NULL
);
CREATE INDEX results_by_guild_kind ON results (guild_id, kind, at);
CREATE INDEX results_by_user ON results (user_id, kind, at);

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
