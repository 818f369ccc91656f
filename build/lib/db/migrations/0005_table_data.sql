-- Channel play: what the table keeps beside the engine's state (votes, who took part,
-- turn timers, the turn notice), and the next stored deadline of each game (a vote
-- window's end, a turn timer's expiry), so one scheduler finds every due game by index.
ALTER TABLE games ADD COLUMN extra TEXT NOT NULL DEFAULT '{}';
ALTER TABLE games ADD COLUMN deadline REAL;
CREATE INDEX games_by_deadline ON games (deadline) WHERE deadline IS NOT NULL;

-- Ruling C5: a result shared by everyone who played a channel game together.
ALTER TABLE results ADD COLUMN together INTEGER NOT NULL DEFAULT 0;
