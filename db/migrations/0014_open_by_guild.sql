-- A server the bot was removed from: its open games are found by the server, a batch at
-- a time in id order, reading only the open games of that server.
CREATE INDEX games_open_by_guild
    ON games (guild_id, id) WHERE status IN ('lobby', 'active');
