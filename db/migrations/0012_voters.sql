-- Everyone who took part in a channel-played game (rulings C4, C5), one row per member
-- and game: the name they played under and their latest ballot. A vote writes its
-- member's row in the same transaction as the game's compare-and-swap save, so the
-- table data keeps only what stays small (per-move counts, how many are active).
--   version: the board version of the decision their latest ballot is for (NULL: they
--            only clicked, in a game where anyone's click moves at once);
--   decided: the board version of the latest decision made by vote that they voted in.
CREATE TABLE voters (
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    user_id INTEGER NOT NULL,
    name    TEXT    NOT NULL,
    version INTEGER,
    decided INTEGER,
    action  TEXT,
    label   TEXT,
    at      REAL,
    seq     INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, user_id)
) WITHOUT ROWID;
-- A decision's ballots in the order they were cast; /forget-me finds a member's games.
CREATE INDEX voters_by_ballot ON voters (game_id, version, seq);
CREATE INDEX voters_by_user ON voters (user_id);
