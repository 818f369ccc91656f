-- A member's own choices, kept across servers and games: whether the bot pings them when
-- their turn comes at a table (1) or tells them without a ping (0). A member with no row
-- has chosen nothing (pinged). /forget-me deletes the row.
CREATE TABLE member_settings (
    user_id INTEGER PRIMARY KEY,
    turn_pings INTEGER NOT NULL DEFAULT 1,
    updated_at REAL NOT NULL
);
