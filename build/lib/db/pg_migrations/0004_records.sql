-- Player records: covering indexes for leaderboards (see the SQLite migration 0004).
CREATE INDEX results_by_guild_kind_player
    ON results (guild_id, kind, user_id, score, at, outcome);
CREATE INDEX results_daily_by_guild_kind_player
    ON results (daily, guild_id, kind, user_id, score, at, outcome) WHERE daily IS NOT NULL;
