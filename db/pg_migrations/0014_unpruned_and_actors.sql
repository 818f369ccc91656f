-- Retention: every finished game whose data is still kept, closed lobbies (no state)
-- included; /forget-me finds the games a member acted in (see the SQLite migration 0013).
CREATE INDEX games_finished_unpruned
    ON games (updated_at)
    WHERE status IN ('over', 'abandoned', 'expired') AND (state IS NOT NULL OR events <> '[]');
DROP INDEX games_finished_kept;
CREATE INDEX actions_by_actor ON actions (actor_id) WHERE actor_id IS NOT NULL;
