-- Daily deals count a member's first result of the day only: find it by index.
CREATE INDEX results_daily_first ON results (user_id, kind, daily, id) WHERE daily IS NOT NULL;
-- Retention: finished games whose state and action log are still kept, oldest first.
CREATE INDEX games_finished_kept
    ON games (updated_at) WHERE state IS NOT NULL AND status IN ('over', 'abandoned', 'expired');
