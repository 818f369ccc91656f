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
-- The daily games played before these notes (see the SQLite migration 0016).
INSERT INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT r.user_id, r.game_id, r.kind, r.daily, g.created_at
    FROM results r JOIN games g ON g.id = r.game_id
    WHERE r.daily IS NOT NULL
    ON CONFLICT DO NOTHING;
INSERT INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT v.user_id, g.id, g.kind, g.daily, g.created_at
    FROM voters v JOIN games g ON g.id = v.game_id
    WHERE g.daily IS NOT NULL AND g.status IN ('lobby', 'active')
      AND (v.version IS NOT NULL OR v.action IS NOT NULL)
    ON CONFLICT DO NOTHING;
INSERT INTO daily_played (user_id, game_id, kind, daily, at)
    SELECT DISTINCT a.actor_id, g.id, g.kind, g.daily, g.created_at
    FROM actions a JOIN games g ON g.id = a.game_id
    WHERE g.daily IS NOT NULL AND g.status = 'active' AND a.actor_id IS NOT NULL
      AND a.action LIKE '%"action"%'
    ON CONFLICT DO NOTHING;
