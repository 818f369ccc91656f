-- Each person's rating in each game of a server: OpenSkill's Plackett-Luce estimate (mu)
-- and how unsure it is (sigma), and how many rated games it counts. A finished rated game
-- updates it in the same transaction as its results.
CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    kind       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, kind, user_id)
);
-- /forget-me and /stats find a member's ratings by the member.
CREATE INDEX ratings_by_user ON ratings (user_id, guild_id, kind);
