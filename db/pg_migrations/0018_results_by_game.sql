-- A game's results, found by the game (see the SQLite migration 0017).
CREATE INDEX results_by_game ON results (game_id);
