-- A server the bot was removed from: its open games are found by the server (see the
-- SQLite migration 0014).
CREATE INDEX games_open_by_guild
    ON games (guild_id, id) WHERE status IN ('lobby', 'active');
