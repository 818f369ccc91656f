-- The daily challenge: a game (and its results) may belong to one day's deal.
ALTER TABLE games ADD COLUMN daily TEXT;
ALTER TABLE results ADD COLUMN daily TEXT;

-- One daily game of each kind per channel per day.
CREATE UNIQUE INDEX games_one_daily_per_channel
    ON games (channel_id, kind, daily) WHERE daily IS NOT NULL;
CREATE INDEX results_by_daily ON results (kind, daily) WHERE daily IS NOT NULL;
