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
-- The daily games played before these notes: each result of a deal (at its game's start,
-- so the game started first comes first, as it counted before), and the members who
-- voted in, or made a move in, a daily game still open.
INSERT OR IGNORE INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT r.user_id, r.game_id, r.kind, r.daily, g.created_at
    FROM results r JOIN games g ON g.id = r.game_id
    WHERE r.daily IS NOT NULL;
INSERT OR IGNORE INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT v.user_id, g.id, g.kind, g.daily, g.created_at
    FROM voters v JOIN games g ON g.id = v.game_id
    WHERE g.daily IS NOT NULL AND g.status IN ('lobby', 'active')
      AND (v.version IS NOT NULL OR v.action IS NOT NULL);
INSERT OR IGNORE INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT DISTINCT a.actor_id, g.id, g.kind, g.daily, g.created_at
    FROM actions a JOIN games g ON g.id = a.game_id
    WHERE g.daily IS NOT NULL AND g.status = 'active' AND a.actor_id IS NOT NULL
      AND a.action LIKE '%"action"%';
