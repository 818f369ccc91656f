-- The daily games each member took part in (moved, voted or clicked in), with when they
-- first did: a member's day of a deal counts the result of the first game they took part
-- in that has, or will have, a result for them (a deal rehearsed in one game and played
-- again in another counts as first played; docs/records.md).
CREATE TABLE daily_played (
    user_id INTEGER NOT NULL,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    kind    TEXT    NOT NULL,
    daily   TEXT    NOT NULL,
    at      REAL    NOT NULL,
    PRIMARY KEY (user_id, game_id)
) WITHOUT ROWID;
CREATE INDEX daily_played_by_deal ON daily_played (user_id, kind, daily, at);
CREATE INDEX daily_played_by_game ON daily_played (game_id);
