-- Channel play: the table's own data beside the engine's state, and the next stored
-- deadline of each game, so one scheduler finds every due game by index.
ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN deadline DOUBLE PRECISION;
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- Ruling C5: a result shared by everyone who played a channel game together.
ALTER TABLE results ADD COLUMN together INTEGER NOT NULL DEFAULT 0;
