-- A member's own choices (see the SQLite migration 0011): whether their turn notices ping
-- them (1) or not (0); no row means pinged. /forget-me deletes the row.
CREATE TABLE member_settings (
    user_id BIGINT PRIMARY KEY,
    turn_pings INTEGER NOT NULL DEFAULT 1,
    updated_at DOUBLE PRECISION NOT NULL
);
