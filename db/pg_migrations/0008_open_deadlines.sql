-- The deadline look (the earliest deadline of an open game, the open games whose deadline
-- has come) reads an index holding only open games that have a deadline: the first entry
-- answers it, however many games are open. It replaces the index of every deadline.
CREATE INDEX games_open_by_deadline
    ON games (deadline) WHERE deadline IS NOT NULL AND status IN ('lobby', 'active');
DROP INDEX games_by_deadline;
-- The open-game cap counts a starter's open games in a server as it inserts a new one.
CREATE INDEX games_open_by_starter
    ON games (starter_id, guild_id) WHERE status IN ('lobby', 'active');
