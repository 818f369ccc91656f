-- Retention: every finished game whose data is still kept, oldest first. That is a game
-- with a state, and also a table closed or expired while still a lobby, which never had
-- a state: it is kept until pruning empties its events (the first event, "... opened a
-- table.", is written with the lobby, so only pruning leaves them empty). The pruning
-- sweep picks games with exactly these words, reading this index rather than every
-- game. It replaces games_finished_kept, which held games with a state only, so closed
-- lobbies were never pruned.
CREATE INDEX games_finished_unpruned
    ON games (updated_at)
    WHERE status IN ('over', 'abandoned', 'expired') AND (state IS NOT NULL OR events <> '[]');
DROP INDEX games_finished_kept;
-- /forget-me finds the games a member acted in, a lobby they joined and left among them
-- (their id is then in the action log only).
CREATE INDEX actions_by_actor ON actions (actor_id) WHERE actor_id IS NOT NULL;
