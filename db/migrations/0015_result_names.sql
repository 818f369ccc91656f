-- The name a member played a finished game under, kept with its result: a leaderboard
-- names its members (a mention in an embed shows as a raw id to a phone that has not
-- seen the member lately, and always for one who left the server).
ALTER TABLE results ADD COLUMN name TEXT;
