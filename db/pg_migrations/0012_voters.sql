-- Everyone who took part in a channel-played game, with their latest ballot (see the
-- SQLite migration 0012).
CREATE TABLE voters (
    game_id BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id BIGINT  NOT NULL,
    name    TEXT    NOT NULL,
    version INTEGER,
    decided INTEGER,
    action  TEXT,
    label   TEXT,
    at      DOUBLE PRECISION,
    seq     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX voters_by_ballot ON voters (game_id, version, seq);
CREATE INDEX voters_by_user ON voters (user_id);
