-- The name a member played a finished game under, kept with its result (see the SQLite
-- migration 0015).
ALTER TABLE results ADD COLUMN name TEXT;
