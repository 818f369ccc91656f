-- The daily games each member took part in, with when they first did (see the SQLite
-- migration 0016).
CREATE TABLE daily_played (
    user_id BIGINT           NOT NULL,
    game_id BIGINT           NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT             NOT NULL,
    daily   TEXT             NOT NULL,
    at      DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX daily_played_by_deal ON daily_played (user_id, kind, daily, at);
CREATE INDEX daily_played_by_game ON daily_played (game_id);
