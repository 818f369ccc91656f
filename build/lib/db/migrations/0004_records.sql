-- Player records: leaderboards group a server's results of one game by player, and rank
-- players by their best score and when they first reached it. These indexes hold every
-- column those queries read, so they never touch the table rows: one for every result,
-- one (small, partial) for the results of daily deals.
CREATE INDEX results_by_guild_kind_player
    ON results (guild_id, kind, user_id, score, at, outcome);
CREATE INDEX results_daily_by_guild_kind_player
    ON results (daily, guild_id, kind, user_id, score, at, outcome) WHERE daily IS NOT NULL;
